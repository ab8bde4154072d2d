/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The add-compare-select of state_kernel.h, generic in the vector width. Included only
// by state_kernel_*.cc, each of which defines GPUTURBO_STATE_LANES and
// GPUTURBO_STATE_KERNEL_NAME and is compiled for one instruction set. Internal linkage
// only, and no standard-library function: objects for different instruction sets must
// share no inline function.
//
// A step reads the path metrics of the even states (the p_0 of each butterfly) and of
// the odd ones from the metrics in state order (a two-vector shuffle), and writes the
// new ones in state order: states ns < S/2, then ns + S/2. Bounds: the metrics of a step
// lie within 2 (K-1) n 127 of each other (any state is K-1 steps from the best), plus
// the head start of state 0 in a run that starts there: within 2 start_penalty() =
// 16258 (K = 9, n = 4). Every 16 steps they are made relative to state 0's, which moves
// by at most n 127 = 508 a step: every metric, and every sum of one and a branch
// metric, stays within 16258 + 17 * 508 = 24894 of 0, so int16 add, max and compare
// decide exactly as on the unbounded metrics.

#include "core/cpu/lane_mask.h"
#include "state_kernel.h"

#include <gnuradio/gputurbo/engine/conv/code.h>

#include <cstring>
#include <utility>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef GPUTURBO_STATE_LANES
#error "define GPUTURBO_STATE_LANES before including state_kernel_impl.h"
#endif

namespace gputurbo::conv::cpu {
namespace {

constexpr int W = GPUTURBO_STATE_LANES;
constexpr int renormalize_every = 16; // steps (see the bounds above)
// The bounds above on the largest code (K = 9, n = 4).
constexpr int most_penalty = start_penalty(max_constraint, max_outputs);
static_assert(2 * most_penalty == 16258);
static_assert(2 * most_penalty + (renormalize_every + 1) * max_outputs * 127 == 24894 &&
                  24894 < 1 << 15,
              "int16 path metrics must not wrap");

template <int L>
struct vector_of
{
    typedef std::int16_t type __attribute__((vector_size(2 * L)));
};

// The even (odd = 0) or odd (odd = 1) elements of a and then of b.
template <int odd, class V, int... I>
inline V alternate(V a, V b, std::integer_sequence<int, I...>)
{
    return __builtin_shufflevector(a, b, (2 * I + odd)...);
}

// Whether branch metrics come from a table of the 2^n combinations of a step's metrics,
// one lane each, by a permutation of 16 lanes per vector (AVX-512's vpermw): one
// permutation a vector instead of two operations a coded bit. It pays from H = 4
// vectors a half (K >= 8); below, the permutation costs more (AMD Zen 4).
template <int L, int H>
constexpr bool table_lookup()
{
#if defined(__AVX512BW__) && defined(__AVX512VL__)
    return L == 16 && H >= 4;
#else
    return false;
#endif
}

// Lane l of a vector of the combinations' table: its combination's lane of table,
// which patterns gives.
template <class V>
inline V look_up(V table, V patterns)
{
#if defined(__AVX512BW__) && defined(__AVX512VL__)
    if constexpr (sizeof(V) == 32) {
        __m256i t, p;
        std::memcpy(&t, &table, sizeof t);
        std::memcpy(&p, &patterns, sizeof p);
        const __m256i r = _mm256_permutexvar_epi16(p, t);
        V v;
        std::memcpy(&v, &r, sizeof v);
        return v;
    }
#endif
    return table; // not reached: table_lookup() is false
}

template <int S, bool symmetric>
void forward_states(const state_trellis& t,
                    const std::int16_t* metrics,
                    std::size_t steps,
                    std::int16_t* path,
                    std::uint64_t* decisions)
{
    constexpr int half = S / 2;
    constexpr int L = half < W ? half : W; // lanes a vector
    constexpr int H = half / L;            // vectors a half
    constexpr int words = S > 64 ? S / 64 : 1;
    constexpr auto lanes = std::make_integer_sequence<int, L>{};
    constexpr bool table = table_lookup<L, H>();
    constexpr bool whole_bytes = L >= 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    typedef typename vector_of<L>::type V;
    const int n = t.outputs;

    V m[2 * H];
    std::memcpy(m, path, sizeof m);
    // The branches' coded bits (see state_trellis) as vectors: their combinations (table
    // lookup) or their signs, per output, and the signs of the combinations of the table.
    constexpr int slots = symmetric ? 1 : 4;
    V pattern[slots][H];
    V sign[slots][table ? 1 : 4][H];
    V combination_sign[4];
    for (int k = 0; k < slots; ++k) {
        std::memcpy(pattern[k], t.patterns + std::size_t(k) * half, sizeof(V) * H);
        for (int o = 0; o < (table ? 0 : n); ++o)
            std::memcpy(
                sign[k][o], t.signs + std::size_t(k * n + o) * half, sizeof(V) * H);
    }
    if constexpr (table)
        for (int o = 0; o < n; ++o)
            for (int l = 0; l < L; ++l)
                combination_sign[o][l] = std::int16_t(-(l >> o & 1));

    for (std::size_t e = 0; e < steps; ++e) {
        const std::int16_t* q = metrics + e * std::size_t(n);
        // Branch metrics: +q where a coded bit is 0, -q where it is 1.
        V branch[slots][H];
        if constexpr (table) {
            V combinations = {};
            for (int o = 0; o < n; ++o)
                combinations +=
                    ((V{} + q[o]) ^ combination_sign[o]) - combination_sign[o];
            for (int k = 0; k < slots; ++k)
                for (int h = 0; h < H; ++h)
                    branch[k][h] = look_up(combinations, pattern[k][h]);
        } else {
            for (int k = 0; k < slots; ++k)
                for (int h = 0; h < H; ++h) {
                    V sum = {};
                    for (int o = 0; o < n; ++o)
                        sum += ((V{} + q[o]) ^ sign[k][o][h]) - sign[k][o][h];
                    branch[k][h] = sum;
                }
        }
        V next[2 * H];
        // A vector's decisions are L bits of the step's words: stored as they are when
        // L is a whole number of bytes (the words are little-endian bit arrays), else
        // gathered into the word.
        std::uint64_t* const decided = decisions + e * words;
        std::uint64_t gathered = 0;
        for (int h = 0; h < H; ++h) {
            const V even = alternate<0>(m[2 * h], m[2 * h + 1], lanes);
            const V odd = alternate<1>(m[2 * h], m[2 * h + 1], lanes);
            V to_lo0, to_lo1, to_hi0, to_hi1;
            if constexpr (symmetric) {
                to_lo0 = even + branch[0][h];
                to_lo1 = odd - branch[0][h];
                to_hi0 = even - branch[0][h];
                to_hi1 = odd + branch[0][h];
            } else {
                to_lo0 = even + branch[0][h];
                to_lo1 = odd + branch[1][h];
                to_hi0 = even + branch[2][h];
                to_hi1 = odd + branch[3][h];
            }
            next[h] = to_lo1 > to_lo0 ? to_lo1 : to_lo0;
            next[H + h] = to_hi1 > to_hi0 ? to_hi1 : to_hi0;
            const int lo = h * L, hi = half + h * L; // their first states
            const std::uint32_t lo_bits = core::cpu::greater_mask<L>(to_lo1, to_lo0);
            const std::uint32_t hi_bits = core::cpu::greater_mask<L>(to_hi1, to_hi0);
            if constexpr (whole_bytes) {
                unsigned char* bytes = reinterpret_cast<unsigned char*>(decided);
                std::memcpy(bytes + lo / 8, &lo_bits, L / 8);
                std::memcpy(bytes + hi / 8, &hi_bits, L / 8);
            } else {
                gathered |= std::uint64_t(lo_bits) << lo | std::uint64_t(hi_bits) << hi;
            }
        }
        if constexpr (!whole_bytes)
            *decided = gathered;
        std::memcpy(m, next, sizeof m);
        if (e % renormalize_every == renormalize_every - 1) {
            const std::int16_t zero = m[0][0];
            for (V& v : m)
                v -= zero;
        }
    }
    const std::int16_t zero = m[0][0];
    for (V& v : m)
        v -= zero;
    std::memcpy(path, m, sizeof m);
}

template <int S>
void forward_code(const state_trellis& t,
                  const std::int16_t* metrics,
                  std::size_t steps,
                  std::int16_t* path,
                  std::uint64_t* decisions)
{
    if (t.symmetric)
        forward_states<S, true>(t, metrics, steps, path, decisions);
    else
        forward_states<S, false>(t, metrics, steps, path, decisions);
}

void forward(const state_trellis& t,
             const std::int16_t* metrics,
             std::size_t steps,
             std::int16_t* path,
             std::uint64_t* decisions)
{
    switch (t.states) {
    case 4:
        return forward_code<4>(t, metrics, steps, path, decisions);
    case 8:
        return forward_code<8>(t, metrics, steps, path, decisions);
    case 16:
        return forward_code<16>(t, metrics, steps, path, decisions);
    case 32:
        return forward_code<32>(t, metrics, steps, path, decisions);
    case 64:
        return forward_code<64>(t, metrics, steps, path, decisions);
    case 128:
        return forward_code<128>(t, metrics, steps, path, decisions);
    default:
        return forward_code<256>(t, metrics, steps, path, decisions);
    }
}

} // namespace

extern const state_kernel GPUTURBO_STATE_KERNEL_NAME = { GPUTURBO_STATE_KERNEL_ISA,
                                                         W,
                                                         &forward };

} // namespace gputurbo::conv::cpu
