/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "reference_decoder.h"
#include "bcjr.h"
#include "core/thread_pool.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gputurbo::conv {
namespace {

constexpr float unreachable = -std::numeric_limits<float>::infinity();

} // namespace

float_trellis::float_trellis(const code& c)
    : d_constraint(c.constraint), d_outputs(c.outputs()), d_states(c.states())
{
    d_pattern.resize(std::size_t(1) << c.constraint);
    for (unsigned reg = 0; reg < d_pattern.size(); ++reg)
        d_pattern[reg] = std::uint8_t(c.coded_bits(reg));
}

float float_trellis::step(const float* llrs,
                          const float* metric,
                          float* next,
                          std::uint8_t* decision) const
{
    const int K = d_constraint;
    float branch[16]; // per output pattern
    for (int pattern = 0; pattern < (1 << d_outputs); ++pattern) {
        float m = 0.0f;
        for (int j = 0; j < d_outputs; ++j)
            m += (pattern >> j & 1) ? -llrs[j] : llrs[j];
        branch[pattern] = m;
    }
    float best = unreachable;
    for (int s = 0; s < d_states; ++s) {
        // The two predecessors p and p|1 of s, with the input bit s carries.
        const int p = (s << 1) & (d_states - 1);
        const unsigned reg = (unsigned(s >> (K - 2)) << (K - 1)) | unsigned(p);
        const float even = metric[p] + branch[d_pattern[reg]];
        const float odd = metric[p | 1] + branch[d_pattern[reg | 1]];
        decision[s] = odd > even; // a tie: the lower predecessor
        next[s] = decision[s] ? odd : even;
        best = std::max(best, next[s]);
    }
    // Metrics near 0 keep float's precision where the comparisons are, however long
    // the frame or stream.
    for (int s = 0; s < d_states; ++s)
        next[s] -= best;
    return best;
}

// A value within +-core::llr_limit, as the decoders read theirs: a bit that every path
// sets alike (a generator without the current or the oldest tap, at a frame's edge) has
// an infinite a-posteriori LLR, which an equaliser could not subtract from.
namespace {
float bounded(float v) { return std::clamp(v, -core::llr_limit, core::llr_limit); }
} // namespace

void write_soft(const viterbi_config& config,
                int frame_bits,
                const float* llrs,
                std::size_t frames,
                core::soft_values soft,
                std::uint8_t* bits,
                int threads)
{
    const code& c = config.generator;
    const std::size_t sent_length =
        punctured_length(c, config.punctured, config.mode, frame_bits);
    const std::size_t coded = coded_length(c, config.mode, frame_bits);
    const std::vector<std::uint32_t> sent_at =
        sent_positions(c, config.punctured, config.mode, frame_bits);
    const bool code_bits = soft.kind == core::soft_output::code_extrinsic;
    const float sign = config.invert_llr ? -1.0f : 1.0f; // back to the input's
    const int workers = int(std::min<std::size_t>(threads, frames));
    std::atomic<std::size_t> next_frame{ 0 };
    core::thread_pool::shared().run(workers, [&](int) {
        std::vector<float> received(sent_length), depunctured(coded);
        for (std::size_t f; (f = next_frame.fetch_add(1)) < frames;) {
            const float* sent = llrs + f * sent_length;
            for (std::size_t i = 0; i < sent_length; ++i)
                received[i] = core::sanitize_llr(sent[i], config.invert_llr);
            depuncture(c,
                       config.punctured,
                       config.mode,
                       frame_bits,
                       received.data(),
                       1,
                       depunctured.data());
            const soft_frame app = bcjr(
                c, config.mode, frame_bits, depunctured.data(), config.soft_algorithm);
            std::uint8_t* hard = bits + f * std::size_t(frame_bits);
            for (int k = 0; k < frame_bits; ++k)
                hard[k] = app.info[k] < 0.0f;
            if (code_bits) {
                float* out = soft.values + f * sent_length;
                for (std::size_t i = 0; i < sent_length; ++i)
                    out[i] = sign * bounded(app.code[sent_at[i]] - received[i]);
            } else {
                float* out = soft.values + f * std::size_t(frame_bits);
                for (int k = 0; k < frame_bits; ++k)
                    out[k] = sign * bounded(app.info[k]);
            }
        }
    });
}

reference_decoder::reference_decoder(const viterbi_config& config, core::backend kind)
    : d_config(config),
      d_kind(kind),
      d_threads(core::thread_count(config.threads)),
      d_trellis(config.generator)
{
    d_config.validate();
}

void reference_decoder::check_block(int frame_bits) const
{
    check_frame_bits(d_config.generator, d_config.mode, frame_bits);
}

std::size_t reference_decoder::input_length(int frame_bits) const
{
    return punctured_length(
        d_config.generator, d_config.punctured, d_config.mode, frame_bits);
}

core::backend reference_decoder::kind() const { return d_kind; }

std::string reference_decoder::device() const
{
    return "CPU, " + std::to_string(d_threads) +
           " thread(s), reference Viterbi (full length, float)";
}

double reference_decoder::forward(std::size_t steps, workspace& ws) const
{
    const int n = d_config.generator.outputs();
    const int states = d_trellis.states();
    double taken = 0.0;
    for (std::size_t t = 0; t < steps; ++t) {
        taken += d_trellis.step(ws.llrs.data() + t * n,
                                ws.metric.data(),
                                ws.next.data(),
                                ws.decisions.data() + t * states);
        ws.metric.swap(ws.next);
    }
    return taken;
}

void reference_decoder::trace_back(std::size_t steps,
                                   int end,
                                   int frame_bits,
                                   const workspace& ws,
                                   std::uint8_t* bits) const
{
    const int states = d_trellis.states();
    int s = end;
    for (std::size_t t = steps; t-- > 0;) {
        if (t < std::size_t(frame_bits))
            bits[t] = std::uint8_t(d_trellis.input(s));
        s = d_trellis.previous(s, ws.decisions[t * states + s]);
    }
}

bool reference_decoder::decode_frame(int frame_bits,
                                     const float* sent,
                                     std::uint8_t* bits,
                                     workspace& ws) const
{
    const code& c = d_config.generator;
    const termination mode = d_config.mode;
    const int states = c.states();
    const std::size_t sent_length = input_length(frame_bits);
    const std::size_t length = steps(c, mode, frame_bits);
    ws.received.resize(sent_length);
    ws.llrs.resize(coded_length(c, mode, frame_bits));
    ws.metric.resize(states);
    ws.next.resize(states);
    ws.decisions.resize(length * states);

    double magnitude = 0.0;
    for (std::size_t i = 0; i < sent_length; ++i) {
        ws.received[i] = core::sanitize_llr(sent[i], d_config.invert_llr);
        magnitude += std::fabs(ws.received[i]);
    }
    depuncture(
        c, d_config.punctured, mode, frame_bits, ws.received.data(), 1, ws.llrs.data());

    auto start_in = [&](int s) {
        std::fill(ws.metric.begin(), ws.metric.end(), unreachable);
        ws.metric[s] = 0.0f;
    };
    bool ends_as_sent = true;
    if (mode == termination::tail_biting) {
        double best = -std::numeric_limits<double>::infinity();
        for (int s = 0; s < states; ++s) {
            start_in(s);
            const double taken = forward(length, ws);
            const double total = taken + ws.metric[s];
            if (total > best) { // a tie: the lower start state
                best = total;
                trace_back(length, s, frame_bits, ws, bits);
            }
        }
    } else {
        start_in(0);
        forward(length, ws);
        const int best = int(std::max_element(ws.metric.begin(), ws.metric.end()) -
                             ws.metric.begin()); // the first of equals: the lower state
        // The tail of a terminated frame ends in state 0: where another state is best,
        // the frame is not one that was sent (misaligned, say).
        const bool terminated = mode == termination::terminated;
        ends_as_sent = !terminated || best == 0;
        trace_back(length, terminated ? 0 : best, frame_bits, ws, bits);
    }
    return ends_as_sent && sent_length > 0 &&
           magnitude / double(sent_length) >= core::information_floor;
}

void reference_decoder::decode_batch(const batch& b,
                                     std::uint8_t* bits,
                                     core::codeword_status* status)
{
    const float* llrs = as_float(b, d_config.int8_scale);
    const std::size_t sent_length = input_length(b.block);
    const int workers = int(std::min<std::size_t>(d_threads, b.count));
    if (int(d_workspaces.size()) < workers)
        d_workspaces.resize(workers);
    std::atomic<std::size_t> next_frame{ 0 };
    core::thread_pool::shared().run(workers, [&](int worker) {
        for (std::size_t f; (f = next_frame.fetch_add(1)) < b.count;) {
            const bool informed = decode_frame(b.block,
                                               llrs + f * sent_length,
                                               bits + f * std::size_t(b.block),
                                               d_workspaces[worker]);
            if (status)
                status[f] = { 0, informed };
        }
    });
    if (b.soft.kind != core::soft_output::none) // the status is the Viterbi's, the
                                                // bits the APPs' signs
        write_soft(d_config, b.block, llrs, b.count, b.soft, bits, d_threads);
}

// ---------------------------------------------------------------------------------------
// reference_stream_decoder

reference_stream_decoder::reference_stream_decoder(const viterbi_config& config)
    : stream_decoder(config), d_trellis(config.generator)
{
    restart();
}

std::string reference_stream_decoder::device() const
{
    return "CPU, 1 thread, reference Viterbi (whole stream, float)";
}

void reference_stream_decoder::restart()
{
    const int states = d_trellis.states();
    // The encoder starts in state 0, or where the stream was joined.
    d_metric.assign(states, start_known() ? unreachable : 0.0f);
    d_metric[0] = 0.0f;
    d_next.assign(states, 0.0f);
    d_decisions.clear();
    d_ready.clear();
    d_coded = 0;
}

int reference_stream_decoder::best_state() const
{
    return int(std::max_element(d_metric.begin(), d_metric.end()) - d_metric.begin());
}

void reference_stream_decoder::release(std::size_t steps, int state, std::uint8_t* bits)
{
    const int states = d_trellis.states();
    for (std::size_t t = steps; t-- > 0;) {
        bits[t] = std::uint8_t(d_trellis.input(state));
        state = d_trellis.previous(state, d_decisions[t * states + state]);
    }
    d_decisions.erase(d_decisions.begin(), d_decisions.begin() + steps * states);
}

std::size_t reference_stream_decoder::advance(const sent_llrs& in, decided out)
{
    std::uint8_t* const bits = out.bits; // no soft output (gives_soft())
    const int n = d_config.generator.outputs();
    const std::size_t span = std::size_t(n) * d_config.punctured.period();
    const float from_q = 1.0f / d_config.int8_scale;
    auto value = [&](std::size_t i) {
        return core::sanitize_llr(in.codes ? float(in.codes[i]) * from_q : in.values[i],
                                  d_config.invert_llr);
    };
    const std::vector<std::int32_t>& period = period_index();
    auto kept = [&](std::uint64_t c) { return period.empty() || period[c % span] >= 0; };
    // Punctured positions are filled as soon as the kept ones before them are, so that
    // a step completes with its last sent LLR.
    auto skip_punctured = [&] {
        while (!kept(d_coded)) {
            d_ready.push_back(0.0f);
            ++d_coded;
        }
    };
    skip_punctured();
    for (std::size_t i = 0; i < in.count; ++i) {
        d_ready.push_back(value(i));
        ++d_coded;
        skip_punctured();
    }
    const std::size_t steps = d_ready.size() / n;
    const std::size_t written = run(d_ready.data(), steps, bits);
    d_ready.erase(d_ready.begin(), d_ready.begin() + steps * n);
    return written;
}

std::size_t
reference_stream_decoder::run(const float* llrs, std::size_t steps, std::uint8_t* bits)
{
    const int n = d_config.generator.outputs();
    const int states = d_trellis.states();
    for (std::size_t t = 0; t < steps; ++t) {
        const std::size_t at = d_decisions.size();
        d_decisions.resize(at + states);
        d_trellis.step(
            llrs + t * n, d_metric.data(), d_next.data(), d_decisions.data() + at);
        d_metric.swap(d_next);
    }
    // Walk every survivor back together; where they have come down to one state, all
    // of them share the path before it.
    const std::size_t held = d_decisions.size() / states;
    d_alive.assign(states, 1);
    for (std::size_t t = held; t-- > 0;) {
        d_before.assign(states, 0);
        int count = 0, merged = 0;
        for (int s = 0; s < states; ++s)
            if (d_alive[s]) {
                const int p = d_trellis.previous(s, d_decisions[t * states + s]);
                count += !d_before[p];
                d_before[p] = 1;
                merged = p;
            }
        d_alive.swap(d_before);
        if (count == 1) { // the state after step t-1
            release(t, merged, bits);
            return t;
        }
    }
    if (held > most_unmerged) {
        const std::size_t oldest = held - most_unmerged / 2;
        int s = best_state();
        for (std::size_t t = held; t-- > oldest;)
            s = d_trellis.previous(s, d_decisions[t * states + s]);
        release(oldest, s, bits);
        return oldest;
    }
    return 0;
}

std::size_t reference_stream_decoder::finish(decided out)
{
    std::uint8_t* const bits = out.bits;
    const std::size_t held = d_decisions.size() / d_trellis.states();
    release(held, best_state(), bits);
    restart();
    return held;
}

} // namespace gputurbo::conv
