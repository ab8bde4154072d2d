/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "reference_decoder.h"
#include "../core/thread_pool.h"

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

reference_decoder::reference_decoder(const viterbi_config& config, core::backend kind)
    : d_config(config), d_kind(kind), d_threads(core::thread_count(config.threads))
{
    d_config.validate();
    const code& c = d_config.generator;
    d_outputs.resize(std::size_t(1) << c.constraint);
    for (unsigned reg = 0; reg < d_outputs.size(); ++reg)
        d_outputs[reg] = std::uint8_t(c.coded_bits(reg));
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
    const int K = d_config.generator.constraint;
    const int states = 1 << (K - 1);
    const std::size_t patterns = std::size_t(1) << d_config.generator.outputs();
    double taken = 0.0;
    for (std::size_t t = 0; t < steps; ++t) {
        const float* branch = ws.branch.data() + t * patterns;
        std::uint8_t* decision = ws.decisions.data() + t * states;
        const float* metric = ws.metric.data();
        float* next = ws.next.data();
        float best = unreachable;
        for (int s = 0; s < states; ++s) {
            // The two predecessors p and p|1 of s, with the input bit s carries.
            const int p = (s << 1) & (states - 1);
            const unsigned reg = (unsigned(s >> (K - 2)) << (K - 1)) | unsigned(p);
            const float even = metric[p] + branch[d_outputs[reg]];
            const float odd = metric[p | 1] + branch[d_outputs[reg | 1]];
            decision[s] = odd > even; // a tie: the lower predecessor
            next[s] = decision[s] ? odd : even;
            best = std::max(best, next[s]);
        }
        // Metrics near 0 keep float's precision where the comparisons are, whatever
        // the frame length.
        for (int s = 0; s < states; ++s)
            next[s] -= best;
        taken += best;
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
    const int K = d_config.generator.constraint;
    const int states = 1 << (K - 1);
    int s = end;
    for (std::size_t t = steps; t-- > 0;) {
        if (t < std::size_t(frame_bits))
            bits[t] = std::uint8_t(s >> (K - 2));
        s = ((s << 1) & (states - 1)) | ws.decisions[t * states + s];
    }
}

bool reference_decoder::decode_frame(int frame_bits,
                                     const float* sent,
                                     std::uint8_t* bits,
                                     workspace& ws) const
{
    const code& c = d_config.generator;
    const termination mode = d_config.mode;
    const int n = c.outputs();
    const int states = c.states();
    const std::size_t sent_length = input_length(frame_bits);
    const std::size_t length = steps(c, mode, frame_bits);
    const std::size_t patterns = std::size_t(1) << n;
    ws.received.resize(sent_length);
    ws.llrs.resize(coded_length(c, mode, frame_bits));
    ws.branch.resize(length * patterns);
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
    for (std::size_t t = 0; t < length; ++t)
        for (std::size_t pattern = 0; pattern < patterns; ++pattern) {
            float m = 0.0f;
            for (int j = 0; j < n; ++j) {
                const float l = ws.llrs[t * n + j];
                m += (pattern >> j & 1) ? -l : l;
            }
            ws.branch[t * patterns + pattern] = m;
        }

    auto start_in = [&](int s) {
        std::fill(ws.metric.begin(), ws.metric.end(), unreachable);
        ws.metric[s] = 0.0f;
    };
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
        const int end =
            mode == termination::terminated
                ? 0
                : int(std::max_element(ws.metric.begin(), ws.metric.end()) -
                      ws.metric.begin()); // the first of equals: the lower state
        trace_back(length, end, frame_bits, ws, bits);
    }
    return sent_length > 0 && magnitude / double(sent_length) >= core::information_floor;
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
}

} // namespace gputurbo::conv
