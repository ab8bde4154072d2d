/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CUDA_BCJR_KERNEL_CUH
#define INCLUDED_GPUTURBO_CONV_CUDA_BCJR_KERNEL_CUH

// Host launcher of the CUDA BCJR kernel (bcjr_kernel.cu): the max-log a-posteriori LLRs
// of the bits a Viterbi job's segments decide, by conv/fast_bcjr.h over the metrics the
// Viterbi launch prepared, a thread a pair of segments in the halves of packed int16
// registers (the Viterbi's pairs). Its values are the CPU decoder's, bit for bit.

#include "viterbi_kernel.cuh"

namespace gputurbo::conv::cuda {

//! Where a BCJR launch writes.
struct soft_job
{
    //! window w's bit k's LLR goes to values[w * out_stride + k - out_origin] (the
    //! job's bits' stride and origin)
    float* values;
    bool invert; //!< values in ln P(1)/P(0) (GNU Radio's sign), else ln P(0)/P(1)
    //! bcjr_checkpoint_bytes(): the forward metrics the threads keep
    unsigned char* checkpoints;
};

//! Bytes of soft_job::checkpoints for \p job (its segments and their run).
std::size_t bcjr_checkpoint_bytes(const trellis& t, const viterbi_job& job);

/*!
 * \brief Enqueues the BCJR of \p job's segments on \p s, after launch_viterbi() of the
 * same job (with scales) on the same stream: LLRs of the bits they decide, each in
 * +-core::llr_limit. For codes whose metrics fit (gives_fast_soft(), segments.h).
 */
void launch_bcjr(const trellis& t,
                 const viterbi_job& job,
                 const soft_job& soft,
                 cudaStream_t s);

} // namespace gputurbo::conv::cuda

#endif
