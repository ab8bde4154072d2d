/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_VITERBI_KERNEL_H
#define INCLUDED_GPUTURBO_CONV_CPU_VITERBI_KERNEL_H

// The add-compare-select of the CPU Viterbi decoder: one frame per SIMD lane, int16 path
// metrics in modulo arithmetic. Compiled once per instruction set (viterbi_kernel_*.cc);
// this header is the plain interface between those objects and the portable rest
// (cpu_decoder.cc: quantising, traceback, threads).

#include "../quantize.h"

#include <cstddef>
#include <cstdint>

namespace gputurbo::conv::cpu {

//! The trellis as the kernels read it. State s holds the K-1 most recent inputs, the
//! newest at bit K-2; state ns is reached from p_b = ((ns << 1) & (S-1)) | b, b = 0, 1.
struct trellis
{
    int constraint;
    int outputs;
    int states;
    //! [ns * 2 + b]: the coded bits of the branch p_b -> ns (bit o: output o)
    const std::uint8_t* branch_outputs;
};

struct viterbi_job
{
    //! [steps][outputs][lanes]: each coded bit's metric, -max_metric ... max_metric
    //! (positive: the bit is more likely 0)
    const std::int16_t* metrics;
    int steps;
    //! bit l set: lane l's paths start in state 0; clear: in every state alike
    std::uint32_t start_in_zero;
    //! [steps][states] out: bit l set where lane l's state ns took its predecessor p_1
    std::uint32_t* decisions;
    //! [states][lanes] out: the path metrics after the last step (compare them by their
    //! difference as int16: the values wrap)
    std::int16_t* final_metrics;
};

struct viterbi_kernel
{
    const char* isa; //!< "generic", "avx2", "avx512"
    int lanes;       //!< frames side by side, at most 32 (a decision mask's bits)
    void (*run)(const trellis& t, const viterbi_job& job);
};

extern const viterbi_kernel viterbi_generic; //!< 8 lanes, baseline x86-64 or portable
#if defined(__x86_64__) || defined(__i386__)
extern const viterbi_kernel viterbi_avx2;   //!< 16 lanes
extern const viterbi_kernel viterbi_avx512; //!< 32 lanes
#endif

} // namespace gputurbo::conv::cpu

#endif
