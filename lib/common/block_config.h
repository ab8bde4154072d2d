/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BLOCK_CONFIG_H
#define INCLUDED_GPUTURBO_BLOCK_CONFIG_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <string>

namespace gr {
namespace gputurbo {

// The blocks' parameters are those of the engine's table (turbo/parameters.h): its
// ranges, choices and messages; the GRC asserts are tested against it.

//! Most input items per batch: two batches stay inside the scheduler's int item counts.
constexpr int max_batch_items = 1 << 29;

//! Most codewords per engine call.
constexpr int max_batch_limit = ::gputurbo::turbo::max_batch_limit;

//! Throws std::invalid_argument unless 1 <= max_batch <= max_batch_limit or 0
//! (automatic).
void check_max_batch(int max_batch);

//! Throws std::invalid_argument unless 1 <= n <= the engine's batches in flight.
void check_batches_in_flight(int batches_in_flight);

//! input_type "int8": true, "float": false; std::invalid_argument otherwise.
bool parse_input_type(const std::string& input_type);

//! The most codewords of \p input_length items a stream batch may hold.
int max_batch_for(int input_length);

/*!
 * \brief The engine config of the decoder blocks' common parameters, every value checked
 * against the table: std::invalid_argument, which Python sees as ValueError. K is 0
 * (none) for the caller to set; what depends on K is checked when the engine is made.
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
