/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_S16X2_CUH
#define INCLUDED_GPUTURBO_CORE_CUDA_S16X2_CUH

// Two int16 metrics in one register, one per codeword of a pair, for the trellis
// recursions of every family. Hopper adds both halves in one instruction and runs the
// add-compare-select max(a + b, c) in one (DPX, __viaddmax_s16x2); earlier GPUs run the
// same intrinsics as a few instructions, with the same results.

namespace gputurbo::core::cuda {

struct s16x2
{
    unsigned v;
};

__device__ __forceinline__ s16x2 operator+(s16x2 a, s16x2 b)
{
    return { __vadd2(a.v, b.v) };
}
__device__ __forceinline__ s16x2 operator-(s16x2 a, s16x2 b)
{
    return { __vsub2(a.v, b.v) };
}

//! max(a + b, c) per half: the add-compare-select of a trellis stage.
__device__ __forceinline__ s16x2 add_max(s16x2 a, s16x2 b, s16x2 c)
{
    return { __viaddmax_s16x2(a.v, b.v, c.v) };
}

//! a + b per half on Hopper's ALU (an add-max with the least int16, where a + b does
//! not wrap), so that adds can be shared between it and the pipe of the packed add.
__device__ __forceinline__ s16x2 add_on_alu(s16x2 a, s16x2 b)
{
    return { __viaddmax_s16x2(a.v, b.v, 0x80008000u) };
}

//! floor(a / 2) per half: an arithmetic shift of each half by one, the 32-bit shift with
//! each half's sign bit put back, (shifted & ~M) | (a & M) for M = 0x80008000u, in one
//! lop3 (lookup table 0xb8): written in C++, ptxas makes it two, one for each mask.
__device__ __forceinline__ s16x2 halve(s16x2 a)
{
    const unsigned shifted = a.v >> 1;
    unsigned r;
    asm("lop3.b32 %0, %1, %2, %3, 0xb8;"
        : "=r"(r)
        : "r"(shifted), "n"(0x80008000u), "r"(a.v));
    return { r };
}

//! floor((a + b) / 2) per half where b - a fits in int16: a + floor((b - a) / 2).
__device__ __forceinline__ s16x2 half_sum_near(s16x2 a, s16x2 b)
{
    return a + halve(b - a);
}

// Bytes \p lo and \p lo + 1 of \p x, sign-extended to the halves of a packed int16 pair
// (prmt's sign-replicating selectors, which __byte_perm does not pass on).
template <int lo>
__device__ __forceinline__ unsigned sign_extend_pair(unsigned x)
{
    constexpr unsigned selector = lo | (8u | lo) << 4 | (lo + 1u) << 8 | (9u + lo) << 12;
    unsigned r;
    asm("prmt.b32 %0, %1, 0, %2;" : "=r"(r) : "r"(x), "n"(selector));
    return r;
}

// Byte \p byte of \p a and of \p b, sign-extended to the low and the high half of a
// packed int16 pair.
__device__ __forceinline__ unsigned sign_extend_pair(unsigned a, unsigned b, int byte)
{
    const unsigned selector =
        byte | (8u | byte) << 4 | (4u + byte) << 8 | (12u + byte) << 12;
    unsigned r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
    return r;
}

} // namespace gputurbo::core::cuda

#endif
