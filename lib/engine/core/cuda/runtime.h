/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_RUNTIME_H
#define INCLUDED_GPUTURBO_CORE_CUDA_RUNTIME_H

// The CUDA runtime as the rest of the engine sees it: whether it can run here, devices,
// page-locked memory. No CUDA header, so that host-only files can include it.

#include <cstddef>
#include <string>
#include <vector>

namespace gputurbo::core::cuda {

//! Page-locked host memory usable by every GPU, or nullptr when CUDA cannot give it.
void* allocate_page_locked(std::size_t bytes);
void free_page_locked(void* p) noexcept;
//! Page-locks existing host memory for every GPU; false (and nothing changed) if it
//! can't.
bool register_page_locked(void* p, std::size_t bytes);
void unregister_page_locked(void* p) noexcept;

//! Number of CUDA devices (0 when there is no driver or no GPU).
int device_count();

//! Why the CUDA runtime has no GPU to work with ("" when it has): no NVIDIA driver, or
//! no GPU. Enough for page-locked host memory, whatever the GPUs' architectures.
std::string driver_reason();

/*!
 * \brief Why this build cannot decode on \p devices ("all" or a list such as "0,1";
 * "" when it can): no NVIDIA driver, no GPU, a device that does not exist, or a GPU
 * whose compute capability this build has no kernels for. GPUTURBO_CUDA_ASSUME_CC=X.Y
 * in the environment makes every GPU look like compute capability X.Y (for tests).
 */
std::string unavailable_reason(const std::string& devices = "all");

//! Why this build cannot run on device \p device ("" when it can).
std::string cannot_run_reason(int device);

//! Throws std::runtime_error when device \p device does not exist or this build cannot
//! run on it.
void check_device(int device);

//! "CUDA driver 13.0, runtime 13.0"
std::string driver_and_runtime_versions();

//! The architectures this build has kernels for, e.g. "sm_75 … sm_121 + PTX".
std::string build_architectures();

//! "all", or comma-separated device indices (validated by the family's config).
std::vector<int> parse_devices(const std::string& text);

} // namespace gputurbo::core::cuda

#endif
