/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CONV_DECODER_H
#define INCLUDED_GPUTURBO_ENGINE_CONV_DECODER_H

/*!
 * \file decoder.h
 * \brief Viterbi decoding of the convolutional codes of conv/code.h: configuration and
 *        factory. A decoder is a core::batch_decoder whose block size is the frame's
 *        information bits.
 *
 * Input per frame: the punctured_length() LLRs of the sent coded bits, in the order of
 * conv/code.h, with the engine's sign (core/llr.h: L = ln P(0)/P(1), positive means 0;
 * invert_llr takes the other). NaN is an erasure and values are clamped to
 * +-core::llr_limit, as for every family. Output: frame_bits hard bits per frame.
 * Status: iterations 0, passed true unless the frame carries no information: the mean
 * |L| of its sent LLRs (after the clamp) is below core::information_floor. Ties between
 * paths go to the lower state, so an erased frame decodes to zeros.
 */

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <memory>
#include <string>

namespace gputurbo::conv {

struct viterbi_config
{
    code generator = preset("802.11"); //!< the code
    termination mode = termination::terminated;
    puncturing punctured;    //!< none by default
    bool invert_llr = false; //!< true: the input is L = ln P(1)/P(0)
    float int8_scale = 8.0f; //!< int8 input: L = q / int8_scale
    int threads = 0;         //!< CPU worker threads, 0 = all cores

    //! Throws std::invalid_argument naming what is wrong.
    void validate() const;
};

/*!
 * \brief A Viterbi decoder. \p backend: "reference" (the exact full-length Viterbi in
 * float, the oracle every fast path is tested against; tail-biting: exact maximum
 * likelihood over every start state), "cpu" or "auto" (the SIMD decoder: int16 metrics,
 * one frame per lane, AVX-512, AVX2 or SSE2 as the CPU has them; tail-biting by
 * wrap-around Viterbi; see conv/cpu/cpu_decoder.h; no CUDA decoder yet).
 * Throws std::invalid_argument for a bad configuration, a backend name other than
 * these three, and for termination streaming (it needs state across calls).
 */
std::unique_ptr<core::batch_decoder> make_viterbi_decoder(const viterbi_config& config,
                                                          const std::string& backend);

} // namespace gputurbo::conv

#endif
