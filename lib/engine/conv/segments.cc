/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "segments.h"

#include <algorithm>
#include <utility>

namespace gputurbo::conv {

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
// segmented_stream_decoder

segmented_stream_decoder::segmented_stream_decoder(const viterbi_config& config,
                                                   std::unique_ptr<segment_engine> engine)
    : stream_decoder(config),
      d_geometry(derived_geometry(config)),
      d_engine(std::move(engine))
{
}

std::size_t segmented_stream_decoder::advance(const float* llrs,
                                              std::size_t steps,
                                              std::uint8_t* bits)
{
    const int n = d_config.generator.outputs();
    d_held.insert(d_held.end(), llrs, llrs + steps * n);
    const std::uint64_t received = d_origin + d_held.size() / n;
    const std::int64_t run = full_run(d_geometry);
    // The segments whose whole run has arrived, in the held window's steps.
    d_cut.clear();
    std::uint64_t i = d_next;
    for (;; ++i) {
        segment s = stream_segment(d_geometry, i);
        if (std::uint64_t(s.first + run) > received)
            break;
        const std::int64_t origin = std::int64_t(d_origin);
        s.first -= origin;
        s.begin -= origin;
        s.end -= origin;
        s.owned_end -= origin;
        d_cut.push_back(s);
    }
    if (d_cut.empty())
        return 0;
    const std::vector<window> held{ window{ d_held.data(),
                                            nullptr,
                                            std::int64_t(d_held.size() / n),
                                            false,
                                            false,
                                            bits,
                                            d_cut.front().begin } };
    d_engine->decode(held, run, d_cut, nullptr);
    const std::size_t written = std::size_t(i - d_next) * std::size_t(d_geometry.bits);
    d_next = i;
    drop_decided();
    return written;
}

std::size_t segmented_stream_decoder::finish(std::uint8_t* bits)
{
    const int n = d_config.generator.outputs();
    const std::uint64_t received = d_origin + d_held.size() / n;
    const std::uint64_t decided = d_next * std::uint64_t(d_geometry.bits);
    std::size_t written = 0;
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
                 from == 0,
                 false,
                 0,
                 d_cut);
        const std::vector<window> rest{ window{ d_held.data() + (from - d_origin) * n,
                                                nullptr,
                                                steps,
                                                false,
                                                false,
                                                bits,
                                                std::int64_t(decided - from) } };
        d_engine->decode(rest, std::min(steps, full_run(d_geometry)), d_cut, nullptr);
        written = std::size_t(received - decided);
    }
    restart();
    return written;
}

void segmented_stream_decoder::restart()
{
    d_held.clear();
    d_origin = 0;
    d_next = 0;
}

void segmented_stream_decoder::drop_decided()
{
    const int n = d_config.generator.outputs();
    const std::uint64_t keep_from =
        std::uint64_t(stream_segment(d_geometry, d_next).first);
    if (keep_from <= d_origin)
        return;
    d_held.erase(d_held.begin(), d_held.begin() + (keep_from - d_origin) * n);
    d_origin = keep_from;
}

} // namespace gputurbo::conv
