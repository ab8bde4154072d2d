/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CPU_STOP_RULES_H
#define INCLUDED_GPUTURBO_TURBO_CPU_STOP_RULES_H

// The stop rules of one codeword after an iteration, and its soft output, shared by the
// CPU kernels. They see the codeword's a-posteriori LLRs through app(k), k in natural
// order, in LLR units (the engine's sign).
// Internal linkage, as everything the per-ISA kernels include.

#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstdint>
#include <cstring>

namespace gputurbo::turbo::cpu {
namespace {

// Whether the codeword passed after an iteration, given its hard decisions and mean
// |LLR|: its stop rule holds and it carries information (core::information_floor).
template <class App>
bool passes_given(const decoder_config& c,
                  int K,
                  const App& app,
                  int iteration,
                  double mean,
                  const std::uint8_t* hard,
                  std::uint8_t* previous_hard)
{
    bool rule = false;
    switch (c.early_stop) {
    case stop_rule::off:
        rule = true;
        break;
    case stop_rule::crc24a:
        rule = core::check_crc(core::crc::crc24a, hard, K);
        break;
    case stop_rule::crc24b:
        rule = core::check_crc(core::crc::crc24b, hard, K);
        break;
    case stop_rule::mean_llr:
        rule = mean >= c.stop_threshold;
        break;
    case stop_rule::min_llr: {
        float least = __builtin_fabsf(app(0));
        for (int k = 1; k < K; ++k) {
            const float a = __builtin_fabsf(app(k));
            least = a < least ? a : least;
        }
        rule = least >= c.stop_threshold;
        break;
    }
    case stop_rule::hard:
        rule = iteration > 1 && std::memcmp(hard, previous_hard, K) == 0;
        std::memcpy(previous_hard, hard, K);
        break;
    }
    return rule && mean >= core::information_floor;
}

// The same, with hard receiving the decisions.
template <class App>
bool passes(const decoder_config& c,
            int K,
            const App& app,
            int iteration,
            std::uint8_t* hard,
            std::uint8_t* previous_hard)
{
    double sum = 0.0;
    for (int k = 0; k < K; ++k) {
        const float a = app(k);
        hard[k] = a < 0.0f ? 1 : 0;
        sum += __builtin_fabsf(a);
    }
    return passes_given(c, K, app, iteration, sum / K, hard, previous_hard);
}

// Writes codeword `index`'s soft output (core::soft_values; nothing when none is wanted)
// from its a-posteriori LLRs and, for the extrinsic values, its systematic input sys(k)
// as the kernel read it, in the sign of the decoder's input.
template <class App, class Sys>
void write_soft(const decoder_config& c,
                const core::soft_values& soft,
                int K,
                std::size_t index,
                const App& app,
                const Sys& sys)
{
    if (soft.kind == core::soft_output::none)
        return;
    float* out = soft.values + index * std::size_t(K);
    const float sign = c.invert_llr ? -1.0f : 1.0f;
    const bool extrinsic = soft.kind == core::soft_output::extrinsic;
    for (int k = 0; k < K; ++k)
        out[k] = sign * (extrinsic ? app(k) - sys(k) : app(k));
}

} // namespace
} // namespace gputurbo::turbo::cpu

#endif
