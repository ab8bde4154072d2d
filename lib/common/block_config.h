/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BLOCK_CONFIG_H
#define INCLUDED_GPUTURBO_BLOCK_CONFIG_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <string>

namespace gr {
namespace gputurbo {

//! Most codewords per engine call.
constexpr int max_batch_limit = 131072;
//! Most input items per batch: two batches stay inside the scheduler's int item counts.
constexpr int max_batch_items = 1 << 29;

//! Throws std::invalid_argument unless 0 (automatic) <= max_batch <= max_batch_limit;
//! \p unit names what is counted ("codewords per call", "PDUs").
void check_max_batch(int max_batch, const char* unit);

//! The most codewords of \p input_length items a stream batch may hold.
int max_batch_for(int input_length);

/*!
 * \brief The engine config of the decoder blocks' common parameters (K is left to the
 * caller). Unknown names throw std::invalid_argument, which Python sees as ValueError;
 * the values themselves are checked when the engine is made.
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
                                                     bool invert_llr,
                                                     int threads,
                                                     const std::string& arithmetic);

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_BLOCK_CONFIG_H */
