/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_CUDA_TRANSPORT_DECODER_H
#define INCLUDED_GPUTURBO_LTE_CUDA_TRANSPORT_DECODER_H

// Host-side view of the CUDA transport-block decoder; no CUDA header, so the factory can
// include it.

#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <memory>

namespace gputurbo::lte::cuda {

//! The transport-block decoder on one GPU, its soft buffers in device memory (throws
//! std::runtime_error with the reason when it cannot run).
std::unique_ptr<transport_decoder>
make_cuda_transport_decoder(const transport_config& config);

} // namespace gputurbo::lte::cuda

#endif
