/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_DECODER_PARAMETERS_H
#define INCLUDED_GPUTURBO_CONV_DECODER_PARAMETERS_H

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief The engine config of the Viterbi blocks' parameters, checked by the engine's
 * table (std::invalid_argument naming the parameter). A preset other than "none" gives
 * the code, and \p constraint and \p polys are then not read.
 */
::gputurbo::conv::viterbi_config viterbi_parameters(const std::string& preset,
                                                    int constraint,
                                                    const std::string& polys,
                                                    const std::string& puncture,
                                                    const std::string& termination,
                                                    int decision_depth,
                                                    int training_depth,
                                                    int segment_bits,
                                                    const std::string& llr_sign,
                                                    float int8_scale,
                                                    int threads,
                                                    const std::string& devices);

} // namespace gputurbo
} // namespace gr

#endif
