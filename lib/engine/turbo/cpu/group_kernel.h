/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CPU_GROUP_KERNEL_H
#define INCLUDED_GPUTURBO_TURBO_CPU_GROUP_KERNEL_H

// The CPU decoder's kernel decodes a *group* of up to `lanes` codewords at once, one
// codeword per SIMD lane. It is compiled once per instruction set (group_kernel_*.cc);
// this header is the plain interface between those objects and the portable rest.

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstddef>
#include <cstdint>

namespace gputurbo::turbo::cpu {

//! The block size of a batch and its sub-blocks.
struct kernel_shape
{
    int K; //!< block size
    int P; //!< sub-blocks per codeword, divides K
};

struct group_job
{
    const float* llrs;       //!< first codeword of the group, (3K+12) floats each
    int count;               //!< codewords in the group, 1 … lanes
    std::uint8_t* bits;      //!< count * K hard bits out
    codeword_status* status; //!< count results out, or nullptr
    core::soft_values soft;  //!< count * K soft values out, when wanted
};

struct group_kernel
{
    const char* isa; //!< "generic", "avx2", "avx512", "avx2-int16", "avx512-int16"
    int lanes;       //!< codewords per group (windowed kernels: see windows)
    //! Scratch bytes one group needs (64-byte aligned and zeroed when allocated by the
    //! caller, then kept from one call to the next: a kernel may keep tables there).
    std::size_t (*workspace_bytes)(const kernel_shape& shape);
    //! Decodes one group; pi is the QPP interleaver of shape.K.
    void (*decode)(const decoder_config& config,
                   const kernel_shape& shape,
                   const std::uint32_t* pi,
                   const group_job& job,
                   void* workspace);
    //! Sub-blocks decoded side by side in SIMD lanes: P may not exceed it, and a group
    //! holds windows / P codewords. 0: any P, `lanes` codewords per group (one per
    //! lane, sub-blocks one after the other).
    int windows;
};

// One kernel per instruction set. The caller checks that the CPU supports it.
extern const group_kernel kernel_scalar;  //!< 1 lane: the reference
extern const group_kernel kernel_generic; //!< 4 lanes, baseline x86-64 (SSE2) or portable
#if defined(__x86_64__) || defined(__i386__)
extern const group_kernel kernel_avx2;   //!< 8 lanes
extern const group_kernel kernel_avx512; //!< 16 lanes
// int16 fixed point, sub-blocks in the lanes (window_kernel_impl.h).
extern const group_kernel kernel_avx2_int16;   //!< 16 sub-blocks
extern const group_kernel kernel_avx512_int16; //!< 32 sub-blocks
#endif

} // namespace gputurbo::turbo::cpu

#endif
