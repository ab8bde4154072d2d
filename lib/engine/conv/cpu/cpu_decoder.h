/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H
#define INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H

#include "viterbi_kernel.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <vector>

namespace gputurbo::conv::cpu {

//! The widest kernel this CPU runs (core::cpu::choose(): GPUTURBO_CPU_KERNEL may pick
//! one by name).
const viterbi_kernel& best_kernel();

/*!
 * \brief The fast CPU Viterbi decoder: frames in groups of kernel.lanes, one per SIMD
 * lane, on the shared thread pool. Each frame's LLRs are quantised to -127 … 127 at the
 * scale that maps the mean magnitude of its sent LLRs below the clamp (core::llr_limit)
 * to 32: Viterbi decisions do not depend on a common scale, values beyond four times
 * that mean are clipped, and saturated ones (+-Inf) cost the others no precision.
 * Tail-biting frames are decoded as one pass over the frame extended circularly by
 * wrap_steps() steps on each side, traced back from the best end state (wrap-around
 * Viterbi: near-maximum-likelihood).
 */
class cpu_decoder final : public core::batch_decoder
{
public:
    cpu_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    void check_block(int frame_bits) const override;
    std::size_t input_length(int frame_bits) const override;
    core::backend kind() const override { return core::backend::cpu; }
    std::string device() const override;

    //! Trellis steps a tail-biting frame is extended by on each side: 10 K, or 20 K when
    //! punctured. Against exact maximum likelihood (ccsds, 3/4, 3 dB, 2000 frames of
    //! 200 bits): 10 K lost 7 % more frames, 20 K 3 % (within the noise); unpunctured,
    //! 10 K loses nothing measurable.
    int wrap_steps() const
    {
        return (d_config.punctured.none() ? 10 : 20) * d_config.generator.constraint;
    }

private:
    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override;

    const viterbi_config d_config;
    const viterbi_kernel& d_kernel;
    const int d_threads;
    std::vector<std::uint8_t> d_branch_outputs; // the trellis's, see viterbi_kernel.h
};

} // namespace gputurbo::conv::cpu

#endif
