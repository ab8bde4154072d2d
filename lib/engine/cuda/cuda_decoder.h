/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CUDA_DECODER_H
#define INCLUDED_GPUTURBO_CUDA_DECODER_H

// Host-side view of the CUDA backend; no CUDA header, so the factory can include it.

#include <gnuradio/gputurbo/engine/decoder.h>

#include <cstddef>
#include <memory>
#include <string>

namespace gputurbo::cuda {

//! Page-locked host memory usable by every GPU, or nullptr when CUDA cannot give it.
void* allocate_page_locked(std::size_t bytes);
void free_page_locked(void* p) noexcept;
//! Page-locks existing host memory for every GPU; false (and nothing changed) if it
//! can't.
bool register_page_locked(void* p, std::size_t bytes);
void unregister_page_locked(void* p) noexcept;

//! Number of usable CUDA devices (0 when there is no driver or no GPU).
int device_count();

//! Why the CUDA backend cannot run here, or "" when it can.
std::string unavailable_reason();

//! A CUDA decoder on config.devices: one GPU, or several that share every batch
//! (throws std::runtime_error with the reason).
std::unique_ptr<decoder> make_cuda_decoder(const decoder_config& config);

} // namespace gputurbo::cuda

#endif
