/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CUDA_DECODER_H
#define INCLUDED_GPUTURBO_TURBO_CUDA_DECODER_H

// Host-side view of the CUDA turbo decoder; no CUDA header, so the factory can include
// it.

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/device_kernels.h>

#include <memory>

namespace gputurbo::turbo::cuda {

//! A CUDA decoder on config.devices: one GPU, or several that share every batch
//! (throws std::runtime_error with the reason).
std::unique_ptr<decoder> make_cuda_decoder(const decoder_config& config);

//! turbo::make_device_kernels() of a CUDA build.
std::unique_ptr<device_kernels> make_device_kernels(const decoder_config& config,
                                                    int device);

} // namespace gputurbo::turbo::cuda

#endif
