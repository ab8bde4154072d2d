/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "../../core/cpu/isa.h"
#include "../../core/thread_pool.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gputurbo::conv::cpu {
namespace {

using core::cpu::isa;

// The mean |LLR| of a frame maps to this metric.
constexpr float mean_metric = 32.0f;

const viterbi_kernel& kernel_for(isa i)
{
    switch (i) {
#if defined(__x86_64__) || defined(__i386__)
    case isa::avx512:
        return viterbi_avx512;
    case isa::avx2:
        return viterbi_avx2;
#endif
    default:
        return viterbi_generic;
    }
}

} // namespace

const viterbi_kernel& best_kernel()
{
    return kernel_for(core::cpu::choose({ isa::avx512, isa::avx2, isa::generic }));
}

cpu_decoder::cpu_decoder(const viterbi_config& config, const viterbi_kernel& kernel)
    : d_config(config), d_kernel(kernel), d_threads(core::thread_count(config.threads))
{
    d_config.validate();
    const code& c = d_config.generator;
    const int S = c.states(), memory = c.constraint - 1;
    d_branch_outputs.resize(2 * std::size_t(S));
    for (int ns = 0; ns < S; ++ns)
        for (int b = 0; b < 2; ++b) {
            const unsigned p = unsigned(((ns << 1) & (S - 1)) | b);
            const unsigned reg = (unsigned(ns >> (memory - 1)) << memory) | p;
            d_branch_outputs[2 * std::size_t(ns) + b] = std::uint8_t(c.coded_bits(reg));
        }
}

void cpu_decoder::check_block(int frame_bits) const
{
    check_frame_bits(d_config.generator, d_config.mode, frame_bits);
}

std::size_t cpu_decoder::input_length(int frame_bits) const
{
    return punctured_length(
        d_config.generator, d_config.punctured, d_config.mode, frame_bits);
}

std::string cpu_decoder::device() const
{
    return "CPU, " + std::to_string(d_threads) + " thread(s), " + d_kernel.isa +
           " Viterbi kernel (" + std::to_string(d_kernel.lanes) + " frames per group)";
}

void cpu_decoder::decode_batch(const batch& b,
                               std::uint8_t* bits,
                               core::codeword_status* status)
{
    const float* llrs = as_float(b, d_config.int8_scale);
    const code& c = d_config.generator;
    const termination mode = d_config.mode;
    const int frame = b.block, n = c.outputs(), S = c.states();
    const int memory = c.constraint - 1;
    const int W = d_kernel.lanes;
    const int T = int(steps(c, mode, frame));
    const bool biting = mode == termination::tail_biting;
    const int wrap = biting ? wrap_steps() : 0;
    const int E = T + 2 * wrap; // steps the kernel runs
    const std::size_t in_len = input_length(frame);
    const std::vector<std::uint32_t> positions =
        sent_positions(c, d_config.punctured, mode, frame);
    const trellis t{ c.constraint, n, S, d_branch_outputs.data() };

    const std::size_t groups = (b.count + std::size_t(W) - 1) / std::size_t(W);
    const int workers = int(std::min<std::size_t>(std::size_t(d_threads), groups));
    std::atomic<std::size_t> next_group{ 0 };
    core::thread_pool::shared().run(workers, [&](int) {
        std::vector<float> sent(in_len);
        std::vector<std::int16_t> metrics(std::size_t(E) * n * W);
        std::vector<std::uint32_t> decisions(std::size_t(E) * S);
        std::vector<std::int16_t> final_metrics(std::size_t(S) * W);
        std::vector<int> state(W); // each lane's, in the traceback
        for (std::size_t g; (g = next_group.fetch_add(1)) < groups;) {
            const std::size_t first = g * std::size_t(W);
            const int count = int(std::min<std::size_t>(std::size_t(W), b.count - first));
            std::fill(metrics.begin(), metrics.end(), std::int16_t(0)); // 0: erased
            for (int l = 0; l < count; ++l) {
                const std::size_t f = first + std::size_t(l);
                // The sent LLRs, sanitised. Their mean magnitude decides the status,
                // as the reference's does; the mean of those below the clamp sets the
                // scale, so that saturated values (+-Inf) cost the others no precision.
                // Four partial sums of each, so that the adds do not wait on each other.
                float total[4] = {}, unclamped_total[4] = {}, unclamped_count[4] = {};
                const float* in = llrs + f * in_len;
                std::size_t i = 0;
                auto take = [&](std::size_t at, int part) {
                    const float v = core::sanitize_llr(in[at], d_config.invert_llr);
                    sent[at] = v;
                    const float a = std::fabs(v);
                    const float below = a < core::llr_limit ? 1.0f : 0.0f;
                    total[part] += a;
                    unclamped_total[part] += a * below;
                    unclamped_count[part] += below;
                };
                for (; i + 4 <= in_len; i += 4) {
                    take(i, 0);
                    take(i + 1, 1);
                    take(i + 2, 2);
                    take(i + 3, 3);
                }
                for (; i < in_len; ++i)
                    take(i, 0);
                double sum = 0.0, unclamped_sum = 0.0, unclamped = 0.0;
                for (int j = 0; j < 4; ++j) {
                    sum += total[j];
                    unclamped_sum += unclamped_total[j];
                    unclamped += unclamped_count[j];
                }
                const double mean = in_len ? sum / double(in_len) : 0.0;
                const double typical =
                    unclamped > 0.0 ? unclamped_sum / unclamped : double(core::llr_limit);
                const float scale = typical > 0.0 ? float(mean_metric / typical) : 0.0f;
                // Quantised (clamped, then rounded half away from zero, without branches,
                // which noisy signs would mispredict) straight into the lane at its
                // coded position, past the wrap-around steps.
                const float most = float(max_metric);
                std::int16_t* lane = metrics.data() + std::size_t(wrap) * n * W + l;
                for (std::size_t i = 0; i < in_len; ++i) {
                    const float y = std::min(std::max(sent[i] * scale, -most), most);
                    lane[std::size_t(positions[i]) * W] =
                        std::int16_t(y + std::copysign(0.5f, y));
                }
                if (status)
                    status[f] =
                        core::codeword_status{ 0, mean >= core::information_floor };
            }
            // A tail-biting frame's wrap-around steps repeat its own: the last ones
            // before it, the first ones after it.
            const std::size_t row = std::size_t(n) * W;
            for (int e = 0; e < E; ++e)
                if (e < wrap || e >= wrap + T) {
                    const int k = ((e - wrap) % T + T) % T;
                    std::copy_n(metrics.begin() + std::size_t(wrap + k) * row,
                                row,
                                metrics.begin() + std::size_t(e) * row);
                }
            d_kernel.run(
                t,
                viterbi_job{
                    metrics.data(), E, !biting, decisions.data(), final_metrics.data() });
            // The end states: 0 after a tail, else the best (metrics compared by their
            // int16 difference; ties to the lowest state).
            for (int l = 0; l < count; ++l) {
                int best = 0;
                if (mode != termination::terminated)
                    for (int s = 1; s < S; ++s)
                        if (std::int16_t(final_metrics[std::size_t(s) * W + l] -
                                         final_metrics[std::size_t(best) * W + l]) > 0)
                            best = s;
                state[l] = best;
            }
            // Every lane's traceback at once, step by step: their chains of dependent
            // loads overlap.
            std::uint8_t* out = bits + first * std::size_t(frame);
            for (int e = E - 1; e >= 0; --e) {
                const std::uint32_t* decided = decisions.data() + std::size_t(e) * S;
                const int k = e - wrap; // the frame's step, in [0, T) for the middle
                const bool keep = k >= 0 && k < frame;
                for (int l = 0; l < count; ++l) {
                    if (keep)
                        out[std::size_t(l) * frame + k] =
                            std::uint8_t(state[l] >> (memory - 1));
                    const int d = int(decided[state[l]] >> l) & 1;
                    state[l] = ((state[l] << 1) & (S - 1)) | d;
                }
            }
        }
    });
}

} // namespace gputurbo::conv::cpu
