/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_VITERBI_KERNEL_H
#define INCLUDED_GPUTURBO_CONV_CPU_VITERBI_KERNEL_H

// The kernels of the CPU Viterbi decoder: LLRs into metrics, the add-compare-select and
// the traceback, one frame per SIMD lane, int16 path metrics. Compiled once per
// instruction set (viterbi_kernel_*.cc); this header is the plain interface between
// those objects and the portable rest (cpu_decoder.cc: the runs' LLRs piece by piece,
// their scale, threads).

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
    //! [lanes][row]: lane l's metrics from metrics + l * row, each coded bit's in turn
    //! (steps * outputs of them), -max_metric ... max_metric (positive: the bit is more
    //! likely 0); row is a multiple of the lanes, and the kernel reads whole rows
    const std::int16_t* metrics;
    std::size_t row;
    int steps;
    //! bit l set: lane l's paths start in state 0; clear: in every state alike
    std::uint32_t start_in_zero;
    //! [steps][states] out: bit l set where lane l's state ns took its predecessor p_1
    std::uint32_t* decisions;
    //! [states][lanes] out: the path metrics after the last step (compare them by their
    //! difference as int16: they are kept relative to one state's)
    std::int16_t* final_metrics;
};

//! The traceback of every lane at once, through viterbi_job's decisions.
struct traceback_job
{
    const std::uint32_t* decisions;
    int steps;
    //! [lanes]: each lane's state after the last step
    const std::int32_t* end_states;
    //! [steps] out: bit l set where lane l's path has input bit 1 at that step
    std::uint32_t* bits;
};

//! The max-log BCJR of every lane (conv/fast_bcjr.h), from a viterbi_job's metrics.
struct bcjr_job
{
    const std::int16_t* metrics; //!< as viterbi_job's
    std::size_t row;
    int steps;
    //! bit l set: lane l's run starts (ends) in state 0, else in every state alike
    std::uint32_t start_in_zero, end_in_zero;
    //! the steps whose outputs are wanted: [wanted_begin, wanted_end)
    int wanted_begin, wanted_end;
    //! bcjr_scratch() int16 of room
    std::int16_t* scratch;
    //! [steps][lanes] out: each lane's output at the steps wanted (twice its LLR times
    //! its scale, positive where 0 is likelier)
    std::int16_t* outputs;
};

//! Steps of a window of the CPU BCJR (fast_bcjr.h): its slots stay in the cache.
constexpr int bcjr_window = 16;

//! int16 of bcjr_job::scratch for \p lanes lanes.
inline std::size_t bcjr_scratch(int lanes, const trellis& t, int steps)
{
    const std::size_t checkpoints = std::size_t((steps + bcjr_window - 1) / bcjr_window);
    return std::size_t(lanes) *
           (std::size_t(steps) * t.outputs + (checkpoints + bcjr_window - 1) * t.states);
}

//! The sums of quantize.h's magnitudes: total, inside, counted.
struct magnitude_sums
{
    std::int64_t total, inside, counted;
};

struct viterbi_kernel
{
    const char* isa; //!< "generic", "avx2", "avx512"
    int lanes;       //!< frames side by side, at most 32 (a decision mask's bits)
    void (*run)(const trellis& t, const viterbi_job& job);
    void (*trace)(const trellis& t, const traceback_job& job);
    //! Codes whose metrics fit (fast_bcjr::fits()) only.
    void (*bcjr)(const trellis& t, const bcjr_job& job);
    //! core::sanitize_llr() of \p count float LLRs into \p out (which may be \p in),
    //! negated where \p invert, adding their magnitudes to \p sums as
    //! magnitudes::add() does.
    void (*sanitize)(const float* in,
                     std::size_t count,
                     bool invert,
                     float* out,
                     magnitude_sums& sums);
    //! quantize() of \p count sanitised LLRs at \p scale.
    void (*quantize)(const float* in, std::size_t count, float scale, std::int16_t* out);
    //! int8_metric() of \p count int8 LLRs, adding their magnitudes (each |q| \p unit,
    //! counted where q is not 0) to \p sums.
    void (*int8_metrics)(const std::int8_t* in,
                         std::size_t count,
                         bool invert,
                         std::int32_t unit,
                         std::int16_t* out,
                         magnitude_sums& sums);
};

extern const viterbi_kernel viterbi_generic; //!< 8 lanes, baseline x86-64 or portable
#if defined(__x86_64__) || defined(__i386__)
extern const viterbi_kernel viterbi_avx2;   //!< 16 lanes
extern const viterbi_kernel viterbi_avx512; //!< 32 lanes
#endif

} // namespace gputurbo::conv::cpu

#endif
