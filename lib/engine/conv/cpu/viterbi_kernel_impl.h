/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi add-compare-select, generic in the number of lanes (frames side by side).
// Included only by viterbi_kernel_*.cc, each of which defines GPUTURBO_LANES and
// GPUTURBO_KERNEL_NAME and is compiled for one instruction set. Internal linkage only,
// and no standard-library template: objects for different instruction sets must share
// no inline function.
//
// Path metrics are uint16 and wrap: two metrics are compared by their difference read
// as int16, which is exact while the metrics of a step lie within 2^15 of each other.
// They do: any state is K-1 steps from the best one, and a step changes a metric by at
// most 2 * n * max_metric, so the spread stays below (K-1) * 2 * n * max_metric (8128
// for K = 9, n = 4), plus the head start of state 0 in a terminated start.

#include "viterbi_kernel.h"

#include <cstring>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef GPUTURBO_LANES
#error "define GPUTURBO_LANES before including viterbi_kernel_impl.h"
#endif

namespace gputurbo::conv::cpu {
namespace {

constexpr int W = GPUTURBO_LANES;
typedef std::uint16_t vu __attribute__((vector_size(2 * W)));
typedef std::int16_t vs __attribute__((vector_size(2 * W)));

// Bit l of the result: lane l of m (0 or -1) is set.
inline std::uint32_t lane_mask(vs m)
{
#if defined(__AVX512BW__) && GPUTURBO_LANES == 32
    __m512i v;
    std::memcpy(&v, &m, sizeof v);
    return std::uint32_t(_mm512_movepi16_mask(v));
#elif defined(__AVX2__) && GPUTURBO_LANES == 16
    __m256i v;
    std::memcpy(&v, &m, sizeof v);
    // Bytes of the two 128-bit halves, packed in order, then one bit per byte.
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(v, v), 0xd8);
    return std::uint32_t(_mm256_movemask_epi8(bytes)) & 0xffffu;
#elif defined(__SSE2__) && GPUTURBO_LANES == 8
    __m128i v;
    std::memcpy(&v, &m, sizeof v);
    return std::uint32_t(_mm_movemask_epi8(_mm_packs_epi16(v, v))) & 0xffu;
#else
    std::uint32_t bits = 0;
    for (int l = 0; l < W; ++l)
        bits |= std::uint32_t(m[l] & 1) << l;
    return bits;
#endif
}

constexpr int most_states = 256;      // K = 9
constexpr int most_combinations = 16; // n = 4 coded bits per step

void run(const trellis& t, const viterbi_job& job)
{
    const int S = t.states, n = t.outputs;
    vu metric[most_states], next[most_states], branch[most_combinations];
    // Paths not from state 0 start this far behind: more than any path gains in the
    // K-1 steps that reach every state.
    const std::uint16_t behind =
        std::uint16_t((t.constraint - 1) * 2 * n * max_metric + 1);
    for (int s = 0; s < S; ++s)
        for (int l = 0; l < W; ++l)
            metric[s][l] =
                s && (job.start_in_zero >> l & 1u) ? std::uint16_t(-behind) : 0;
    for (int k = 0; k < job.steps; ++k) {
        // The metric of every combination of coded bits: +q where a bit is 0, -q where 1.
        vs q[4];
        std::memcpy(q, job.metrics + std::size_t(k) * n * W, sizeof(vs) * n);
        for (int c = 0; c < (1 << n); ++c) {
            vs sum = q[0] - q[0];
            for (int o = 0; o < n; ++o)
                sum = (c >> o) & 1 ? sum - q[o] : sum + q[o];
            branch[c] = (vu)sum;
        }
        std::uint32_t* decided = job.decisions + std::size_t(k) * S;
        // Butterflies: states ns and ns + S/2 have the same predecessors p_0, p_1.
        const vs zero = {};
        for (int ns = 0; ns < S / 2; ++ns) {
            const vu a = metric[2 * ns], b = metric[2 * ns + 1];
            const int targets[2] = { ns, ns + S / 2 };
            for (const int to : targets) {
                const vu m0 = a + branch[t.branch_outputs[2 * to]];
                const vu m1 = b + branch[t.branch_outputs[2 * to + 1]];
                // The larger, m0 + max(m1 - m0, 0), in modulo arithmetic; ties keep p_0.
                const vs gain = (vs)(m1 - m0);
                const vs take1 = gain > zero;
                next[to] = m0 + (vu)(take1 & gain);
                decided[to] = lane_mask(take1);
            }
        }
        std::memcpy(metric, next, sizeof(vu) * S);
    }
    std::memcpy(job.final_metrics, metric, sizeof(vu) * S);
}

} // namespace

extern const viterbi_kernel GPUTURBO_KERNEL_NAME = { GPUTURBO_KERNEL_ISA, W, &run };

} // namespace gputurbo::conv::cpu
