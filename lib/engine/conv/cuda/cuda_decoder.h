/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CUDA_DECODER_H
#define INCLUDED_GPUTURBO_CONV_CUDA_DECODER_H

// Host-side view of the CUDA Viterbi decoders; no CUDA header, so the factory can
// include it.

#include "../segments.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/device_kernels.h>

#include <memory>

namespace gputurbo::conv::cuda {

/*!
 * \brief A CUDA decoder of frames on config.devices: one GPU, or several that share
 * every batch (throws std::runtime_error with the reason). Its decisions are the CPU
 * decoder's, bit for bit.
 */
std::unique_ptr<core::batch_decoder>
make_cuda_viterbi_decoder(const viterbi_config& config);

//! The frame kernels of \p decoder, a CUDA decoder of frames on one GPU (its config
//! and device), or nullptr for any other decoder.
std::unique_ptr<device_kernels> device_kernels_of(const core::batch_decoder& decoder);

//! The segments of a stream on the first GPU of config.devices.
std::unique_ptr<segment_engine> make_cuda_segment_engine(const viterbi_config& config);

} // namespace gputurbo::conv::cuda

#endif
