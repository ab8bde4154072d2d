/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_BLOCK_PARAMETERS_H
#define INCLUDED_GPUTURBO_COMMON_BLOCK_PARAMETERS_H

// The parameters every family's decoder blocks share, checked against the engine's table
// (core::block_parameters(): ranges, choices, messages); the GRC asserts are tested
// against it.

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <string>

namespace gr {
namespace gputurbo {

//! Most input items per batch: two batches stay inside the scheduler's int item counts.
constexpr int max_batch_items = 1 << 29;

//! Throws std::invalid_argument unless 1 <= max_batch <= core::max_batch_limit or 0
//! (automatic).
void check_max_batch(int max_batch);

//! Throws std::invalid_argument unless 1 <= n <= the engine's batches in flight, or 0
//! (automatic).
void check_batches_in_flight(int batches_in_flight);

//! What batches_in_flight 0 (automatic) takes: 2 batches of codewords or frames; 4 of a
//! stream's segments, whose GPU launches take about a millisecond each however small.
int batches_in_flight_for(int batches_in_flight, bool stream);

//! What max_batch 0 (automatic) takes in a PDU block: 1024 PDUs on CUDA, 64 on the CPU.
int pdu_batch_for(int max_batch, ::gputurbo::core::backend kind);

//! Throws std::invalid_argument for soft output (\p output not "bits") of a kind the
//! engine does not give, naming those it gives.
void check_output(::gputurbo::core::soft_output output,
                  const ::gputurbo::core::batch_decoder& engine);

//! The most codewords of \p input_length items a stream batch may hold.
int max_batch_for(int input_length);

} // namespace gputurbo
} // namespace gr

#endif
