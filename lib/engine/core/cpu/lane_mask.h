/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CPU_LANE_MASK_H
#define INCLUDED_GPUTURBO_CORE_CPU_LANE_MASK_H

// Comparisons of int16 vectors as one bit a lane, for the CPU kernels. Included by
// objects compiled for different instruction sets, whose bodies differ: internal
// linkage only, so that no two objects share an inline function.

#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace gputurbo::core::cpu {
namespace {

// Bit l of the result: lane l of a is greater than lane l of b (L int16 lanes, L <= 32).
template <int L, class V>
inline std::uint32_t greater_mask(V a, V b)
{
#if defined(__AVX512BW__) && defined(__AVX512VL__)
    if constexpr (L == 32) {
        __m512i x, y;
        std::memcpy(&x, &a, sizeof x);
        std::memcpy(&y, &b, sizeof y);
        return std::uint32_t(_mm512_cmpgt_epi16_mask(x, y));
    } else if constexpr (L == 16) {
        __m256i x, y;
        std::memcpy(&x, &a, sizeof x);
        std::memcpy(&y, &b, sizeof y);
        return std::uint32_t(_mm256_cmpgt_epi16_mask(x, y));
    } else if constexpr (L == 8) {
        __m128i x, y;
        std::memcpy(&x, &a, sizeof x);
        std::memcpy(&y, &b, sizeof y);
        return std::uint32_t(_mm_cmpgt_epi16_mask(x, y));
    }
#endif
    const V m = a > b;
#if defined(__AVX2__)
    if constexpr (L == 16) {
        __m256i v;
        std::memcpy(&v, &m, sizeof v);
        // Bytes of the two 128-bit halves, packed in order, then one bit per byte.
        const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(v, v), 0xd8);
        return std::uint32_t(_mm256_movemask_epi8(bytes)) & 0xffffu;
    }
#endif
#if defined(__SSE2__)
    if constexpr (L == 8) {
        __m128i v;
        std::memcpy(&v, &m, sizeof v);
        return std::uint32_t(_mm_movemask_epi8(_mm_packs_epi16(v, v))) & 0xffu;
    }
#endif
    std::uint32_t bits = 0;
    for (int l = 0; l < L; ++l)
        bits |= std::uint32_t(m[l] & 1) << l;
    return bits;
}

} // namespace
} // namespace gputurbo::core::cpu

#endif
