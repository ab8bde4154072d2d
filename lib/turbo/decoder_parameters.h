/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_PARAMETERS_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_PARAMETERS_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief The engine config of the turbo decoder blocks' common parameters, every value
 * checked against the table: std::invalid_argument, which Python sees as ValueError. K is
 * 0 (none) for the caller to set; what depends on K is checked when the engine is made.
 */
::gputurbo::turbo::decoder_config decoder_parameters(const std::string& algorithm,
                                                     int iterations,
                                                     float scaling,
                                                     int subblocks,
                                                     const std::string& guard,
                                                     int guard_window,
                                                     const std::string& early_stop,
                                                     float stop_threshold,
                                                     const std::string& layout,
                                                     const std::string& llr_sign,
                                                     int threads,
                                                     const std::string& devices,
                                                     const std::string& arithmetic);

} // namespace gputurbo
} // namespace gr

#endif
