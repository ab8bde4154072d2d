/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_BCJR_H
#define INCLUDED_GPUTURBO_CONV_BCJR_H

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/decoder.h> // soft_algorithm

#include <vector>

namespace gputurbo::conv {

//! The a-posteriori LLRs of one frame (the engine's sign: positive means bit 0).
struct soft_frame
{
    std::vector<float> info; //!< frame_bits: ln P(u_k = 0 | y) / P(u_k = 1 | y)
    std::vector<float> code; //!< coded_length(): the same for each coded bit
};

/*!
 * \brief The exact a-posteriori LLRs of one frame by the BCJR algorithm: the reference
 * that every soft-output convolutional decoder is compared with.
 *
 * \p llrs: the frame's depunctured LLRs, coded_length(c, t, frame_bits) of them in
 * code.h's order, L = ln P(bit = 0) / P(bit = 1), erasures 0. \p apriori: frame_bits
 * a-priori LLRs of the information bits in the same sign, or nullptr for none. Both are
 * read as every decoder reads its input (core::sanitize_llr: NaN is 0, +-Inf is clamped).
 * An LLR L adds +L/2 to the metric of a branch whose bit is 0 and -L/2 where it is 1, so
 * that the outputs are true LLRs; the code outputs include the tail steps of a terminated
 * frame and, being a-posteriori, each coded bit's own channel LLR.
 *
 * The trellis is float_trellis's (reference_decoder.h): the state holds the last K-1
 * inputs, the newest in bit K-2, and a step with input u goes from p to
 * (u << (K-2)) | (p >> 1). terminated starts and ends in state 0 (the tail steps' input
 * is 0); truncated starts in 0 and ends in any state; tail-biting is exact: the paths
 * that start and end in each state s, combined over every s (2^(K-1) passes).
 *
 * Metrics are doubles, unnormalised log-probabilities of whole paths (a double's
 * precision is ample for any frame length here); outputs are rounded to float once. A
 * coded bit that every path of the frame sets alike (a generator without the current or
 * the oldest tap, at a frame's edge) gets +-infinity. Throws std::invalid_argument for an
 * invalid code, frame_bits out of range (check_frame_bits()) or streaming.
 */
soft_frame bcjr(const code& c,
                termination t,
                int frame_bits,
                const float* llrs,
                soft_algorithm a,
                const float* apriori = nullptr);

} // namespace gputurbo::conv

#endif
