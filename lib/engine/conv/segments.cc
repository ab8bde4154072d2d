/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "segments.h"
#include "fast_bcjr.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gputurbo::conv {

bool gives_fast_soft(const viterbi_config& config, core::soft_output kind)
{
    return kind == core::soft_output::app &&
           config.soft_algorithm == soft_algorithm::max_log &&
           fast_bcjr::fits(config.generator.constraint, config.generator.outputs());
}

std::vector<std::int32_t> sent_index(const viterbi_config& config, int frame_bits)
{
    if (config.punctured.none())
        return {};
    const code& c = config.generator;
    std::vector<std::int32_t> index(steps(c, config.mode, frame_bits) * c.outputs(), -1);
    const auto positions = sent_positions(c, config.punctured, config.mode, frame_bits);
    for (std::size_t j = 0; j < positions.size(); ++j)
        index[positions[j]] = std::int32_t(j);
    return index;
}

std::vector<std::uint8_t> branch_outputs(const code& c)
{
    const int S = c.states(), memory = c.constraint - 1;
    std::vector<std::uint8_t> table(2 * std::size_t(S));
    for (int ns = 0; ns < S; ++ns)
        for (int b = 0; b < 2; ++b) {
            const unsigned p = unsigned(((ns << 1) & (S - 1)) | b);
            const unsigned reg = (unsigned(ns >> (memory - 1)) << memory) | p;
            table[2 * std::size_t(ns) + b] = std::uint8_t(c.coded_bits(reg));
        }
    return table;
}

std::int64_t
frame_run(const segment_geometry& g, termination mode, int frame_bits, std::int64_t steps)
{
    if (mode == termination::tail_biting)
        return std::min<std::int64_t>(frame_bits, g.bits) + g.training + g.depth;
    return std::min(steps, full_run(g));
}

void cut_frame(const segment_geometry& g,
               termination mode,
               int frame_bits,
               std::int64_t steps,
               std::size_t window,
               std::vector<segment>& out)
{
    if (mode != termination::tail_biting) {
        cut_line(
            g, steps, 0, frame_bits, true, mode == termination::terminated, window, out);
        out.back().owned_end = steps; // the tail
        return;
    }
    // Round the frame: each segment's run ends depth steps past its bits, so the last,
    // shorter one trains longer.
    const std::int64_t run = frame_run(g, mode, frame_bits, steps);
    for (std::int64_t begin = 0; begin < frame_bits; begin += g.bits) {
        segment s;
        s.window = window;
        s.begin = begin;
        s.end = std::min<std::int64_t>(begin + g.bits, frame_bits);
        s.owned_end = s.end;
        s.first = s.end + g.depth - run;
        out.push_back(s);
    }
}

void cut_line(const segment_geometry& g,
              std::int64_t steps,
              std::int64_t begin,
              std::int64_t end,
              bool start_zero,
              bool end_zero,
              std::size_t window,
              std::vector<segment>& out)
{
    const std::int64_t run = std::min(steps, full_run(g));
    for (std::int64_t b = begin; b < end; b += g.bits) {
        segment s;
        s.window = window;
        s.begin = b;
        s.end = run == steps ? end : std::min<std::int64_t>(b + g.bits, end);
        s.owned_end = s.end;
        s.first = std::clamp<std::int64_t>(b - g.training, 0, steps - run);
        s.start_zero = start_zero && s.first == 0;
        s.end_zero = end_zero && s.first + run == steps;
        out.push_back(s);
        if (run == steps)
            break; // one run decides them all
    }
}

segment stream_segment(const segment_geometry& g, std::uint64_t i)
{
    segment s;
    s.begin = std::int64_t(i) * g.bits;
    s.end = s.begin + g.bits;
    s.owned_end = s.end;
    s.first = std::max<std::int64_t>(0, s.begin - g.training);
    s.start_zero = s.first == 0;
    return s;
}

// ---------------------------------------------------------------------------------------
// segment_engine: streams on a host engine

void segment_engine::submit(const stream_window& w,
                            std::int64_t run,
                            const std::vector<segment>& segments)
{
    // Two windows, so that the bulk of the LLRs is read where it is: the segments whose
    // run starts before s0, the first period whose LLRs are all fresh, read the held
    // LLRs joined to as many fresh ones as they need (a copy of about a run); the rest
    // read the fresh LLRs from s0 on.
    const std::size_t size = w.int8 ? 1 : sizeof(float);
    const std::int64_t s0 =
        w.held_count == 0
            ? 0
            : std::int64_t((w.held_count + w.period_llrs - 1) / w.period_llrs) * w.period;
    const auto split =
        std::find_if(segments.begin(), segments.end(), [&](const segment& s) {
            return s.first >= s0 && s0 < w.steps && w.fresh_count > 0;
        });
    const std::int64_t origin = segments.front().begin;
    done_batch done;
    done.bits.resize(std::size_t(segments.back().end - origin));
    if (w.soft)
        done.soft.resize(done.bits.size());
    auto make_window = [&](const void* llrs, std::int64_t steps, std::int64_t from) {
        window win{ nullptr,  w.sent_index,     steps,        false,
                    w.invert, done.bits.data(), origin - from };
        win.soft = w.soft ? done.soft.data() : nullptr;
        if (w.int8) {
            win.codes = static_cast<const std::int8_t*>(llrs);
            win.unit = w.unit;
        } else {
            win.values = static_cast<const float*>(llrs);
        }
        return win;
    };
    std::vector<window> windows;
    d_segments.assign(segments.begin(), segments.end());
    if (split != segments.begin()) {
        // Window 0: from step 0, through the end of the last run before s0 (whole
        // periods, as far as the LLRs go).
        const std::int64_t end = (split - 1)->first + run;
        const std::int64_t periods = (end + w.period - 1) / w.period;
        const std::size_t total = w.held_count + w.fresh_count;
        const std::size_t count = std::min(total, std::size_t(periods) * w.period_llrs);
        const void* llrs = w.fresh_count == 0  ? w.held
                           : w.held_count == 0 ? w.fresh
                                               : nullptr;
        if (!llrs) {
            d_joined.resize(count * size);
            std::memcpy(d_joined.data(), w.held, w.held_count * size);
            std::memcpy(d_joined.data() + w.held_count * size,
                        w.fresh,
                        (count - w.held_count) * size);
            llrs = d_joined.data();
        }
        windows.push_back(make_window(llrs, std::min(w.steps, periods * w.period), 0));
    }
    if (split != segments.end()) {
        // Window 1: the fresh LLRs from step s0 on.
        const std::size_t skip =
            std::size_t(s0 / w.period) * w.period_llrs - w.held_count;
        windows.push_back(make_window(
            static_cast<const std::uint8_t*>(w.fresh) + skip * size, w.steps - s0, s0));
        for (auto i = std::size_t(split - segments.begin()); i < d_segments.size(); ++i) {
            segment& s = d_segments[i];
            s.window = windows.size() - 1;
            s.first -= s0;
            s.begin -= s0;
            s.end -= s0;
            s.owned_end -= s0;
        }
    }
    decode(windows, run, d_segments, nullptr);
    d_done.push_back(std::move(done));
}

std::size_t segment_engine::collect(std::uint8_t* bits, float* soft, bool)
{
    if (d_done.empty())
        return 0;
    const done_batch& done = d_done.front();
    const std::size_t n = done.bits.size();
    std::copy_n(done.bits.data(), n, bits);
    if (soft)
        std::copy_n(done.soft.data(), done.soft.size(), soft);
    d_done.pop_front();
    return n;
}

// ---------------------------------------------------------------------------------------
// segmented_stream_decoder

segmented_stream_decoder::segmented_stream_decoder(const viterbi_config& config,
                                                   std::unique_ptr<segment_engine> engine)
    : stream_decoder(config),
      d_geometry(derived_geometry(config)),
      d_engine(std::move(engine))
{
}

std::size_t segmented_stream_decoder::collect(decided out, bool wait)
{
    return d_engine->collect(out.bits, out.soft, wait);
}

std::size_t segmented_stream_decoder::advance(const sent_llrs& in, decided out)
{
    const void* fresh = in.codes ? static_cast<const void*>(in.codes) : in.values;
    // The bits of batches done, oldest first.
    std::size_t written = 0;
    while (const std::size_t n = collect(out.at(written), false))
        written += n;
    const std::size_t in_flight = std::size_t(batches_in_flight());
    const segment next = stream_segment(d_geometry, d_next);
    if (std::uint64_t(next.first + full_run(d_geometry)) > whole_steps(in.sent) ||
        (d_engine->submitted() >= in_flight &&
         d_held_count + in.count <= gather_limit)) { // a small call: the next batch's
        hold_from(d_origin, fresh, in.count);
        return written;
    }
    written += submit_arrived(fresh, in.count, in.sent, in_flight, out.at(written));
    hold_from(period_start(stream_segment(d_geometry, d_next).first), fresh, in.count);
    return written;
}

std::size_t segmented_stream_decoder::submit_arrived(const void* fresh,
                                                     std::size_t count,
                                                     std::uint64_t sent,
                                                     std::size_t in_flight,
                                                     decided out)
{
    const std::uint64_t received = whole_steps(sent);
    const std::int64_t run = full_run(d_geometry);
    auto arrived = [&](const segment& s) {
        return std::uint64_t(s.first + run) <= received;
    };
    const std::size_t most =
        std::max<std::int64_t>(1, (batch_steps - run) / d_geometry.bits);
    std::size_t written = 0;
    for (;;) {
        d_cut.clear();
        for (segment s = stream_segment(d_geometry, d_next);
             arrived(s) && d_cut.size() < most;
             s = stream_segment(d_geometry, d_next + d_cut.size())) {
            s.start_zero = s.start_zero && start_known();
            d_cut.push_back(s);
        }
        if (d_cut.empty())
            break;
        if (d_engine->submitted() >= in_flight)
            written += collect(out.at(written), true);
        submit(fresh, count, sent, d_cut, run);
        d_next += d_cut.size();
        if (in_flight == 1)
            written += collect(out.at(written), true);
    }
    return written;
}

std::uint64_t segmented_stream_decoder::period_start(std::int64_t step) const
{
    const std::uint64_t period = std::uint64_t(d_config.punctured.period());
    return std::uint64_t(step) / period * period;
}

void segmented_stream_decoder::submit(const void* fresh,
                                      std::size_t count,
                                      std::uint64_t sent,
                                      std::vector<segment>& segments,
                                      std::int64_t run)
{
    // The window: from the first segment's run (its period's start) to the last one's
    // end (whole periods, as far as the LLRs go), of the held LLRs and then the fresh.
    const std::uint64_t from = period_start(segments.front().first);
    const std::uint64_t to = std::uint64_t(segments.back().first + run);
    const std::uint64_t period = std::uint64_t(d_config.punctured.period());
    const std::uint64_t held_first = sent_before(d_origin);
    const std::uint64_t first = sent_before(from) - held_first;
    const std::uint64_t last =
        std::min(sent_before((to + period - 1) / period * period), sent) - held_first;
    auto part = [&](std::uint64_t begin, std::uint64_t end) { // of [first, last)
        return std::make_pair(std::max(begin, first), std::min(end, last));
    };
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    const auto [held_begin, held_end] = part(0, d_held_count);
    const auto [fresh_begin, fresh_end] = part(d_held_count, d_held_count + count);
    for (segment& s : segments) {
        s.first -= std::int64_t(from);
        s.begin -= std::int64_t(from);
        s.end -= std::int64_t(from);
        s.owned_end -= std::int64_t(from);
    }
    const std::int64_t steps = std::int64_t(to - from);
    const std::size_t from_held = held_end > held_begin ? held_end - held_begin : 0;
    const std::size_t from_fresh = fresh_end > fresh_begin ? fresh_end - fresh_begin : 0;
    const stream_window w{ from_held ? d_held.data() + held_begin * size : nullptr,
                           from_held,
                           from_fresh ? static_cast<const std::uint8_t*>(fresh) +
                                            (fresh_begin - d_held_count) * size
                                      : nullptr,
                           from_fresh,
                           int8_stream(),
                           1.0f / d_config.int8_scale,
                           d_config.invert_llr,
                           steps,
                           index_for(steps),
                           d_index.size(),
                           std::int64_t(period),
                           sent_per_period(),
                           soft_output() };
    d_engine->submit(w, run, segments);
}

void segmented_stream_decoder::hold_from(std::uint64_t from,
                                         const void* fresh,
                                         std::size_t count)
{
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    const std::size_t skip = std::size_t(sent_before(from) - sent_before(d_origin));
    const auto* in = static_cast<const std::uint8_t*>(fresh);
    if (skip <= d_held_count) {
        const std::size_t kept = d_held_count - skip;
        if (kept > 0)
            std::memmove(d_held.data(), d_held.data() + skip * size, kept * size);
        d_held_count = kept;
        reserve_held(kept + count);
        std::copy_n(in, count * size, d_held.data() + kept * size);
        d_held_count = kept + count;
    } else {
        const std::size_t from_fresh = skip - d_held_count;
        d_held_count = 0;
        reserve_held(count - from_fresh);
        std::copy_n(in + from_fresh * size, (count - from_fresh) * size, d_held.data());
        d_held_count = count - from_fresh;
    }
    d_origin = from;
}

void segmented_stream_decoder::reserve_held(std::size_t count)
{
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    if (d_held.size() >= count * size)
        return;
    // Doubling: allocating page-locked memory takes milliseconds.
    core::host_buffer<std::uint8_t> more(std::max(count * size, 2 * d_held.size()));
    std::copy_n(d_held.data(), d_held_count * size, more.data());
    d_held = std::move(more);
}

const std::int32_t* segmented_stream_decoder::index_for(std::int64_t steps)
{
    const std::vector<std::int32_t>& period = period_index();
    if (period.empty())
        return nullptr;
    const std::size_t need = std::size_t(steps) * d_config.generator.outputs();
    if (d_index.size() < need) {
        // Doubling, so that an engine that keeps a copy renews it seldom.
        std::size_t c = d_index.size();
        d_index.resize(std::max(need, 2 * c));
        const std::int32_t kept = std::int32_t(sent_per_period());
        for (; c < d_index.size(); ++c) {
            const std::int32_t r = period[c % period.size()];
            d_index[c] = r < 0 ? -1 : std::int32_t(c / period.size()) * kept + r;
        }
    }
    return d_index.data();
}

std::uint64_t segmented_stream_decoder::preferred_steps() const
{
    const std::uint64_t segments = std::min<std::uint64_t>(
        d_engine->preferred_segments(), preferred_bits_limit / d_geometry.bits + 1);
    return segments * std::uint64_t(d_geometry.bits);
}

std::size_t segmented_stream_decoder::wait_oldest(decided out)
{
    return collect(out, true);
}

std::size_t segmented_stream_decoder::finish(decided out)
{
    std::size_t written = 0;
    while (d_engine->submitted() > 0)
        written += collect(out.at(written), true);
    const std::uint64_t sent = sent_before(d_origin) + d_held_count;
    // The segments whose run has arrived but that a call only gathered (all batches in
    // flight) first, on the stream's grid as any other call decides them; then the rest.
    written += submit_arrived(nullptr, 0, sent, 1, out.at(written));
    const std::uint64_t received = whole_steps(sent);
    const std::uint64_t decided = d_next * std::uint64_t(d_geometry.bits);
    if (received > decided) {
        // The rest, as the end of a truncated frame: from training steps before it.
        const std::uint64_t from = decided > std::uint64_t(d_geometry.training)
                                       ? decided - d_geometry.training
                                       : 0;
        const std::int64_t steps = std::int64_t(received - from);
        d_cut.clear();
        cut_line(d_geometry,
                 steps,
                 std::int64_t(decided - from),
                 steps,
                 from == 0 && start_known(),
                 false,
                 0,
                 d_cut);
        for (segment& s : d_cut) { // in stream steps
            s.first += std::int64_t(from);
            s.begin += std::int64_t(from);
            s.end += std::int64_t(from);
            s.owned_end += std::int64_t(from);
        }
        submit(nullptr, 0, sent, d_cut, std::min(steps, full_run(d_geometry)));
        written += collect(out.at(written), true);
    }
    restart();
    return written;
}

void segmented_stream_decoder::restart()
{
    d_engine->discard();
    d_held_count = 0;
    d_origin = 0;
    d_next = 0;
}

} // namespace gputurbo::conv
