/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_ERROR_H
#define INCLUDED_GPUTURBO_CORE_CUDA_ERROR_H

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gputurbo::core::cuda {

//! A failed CUDA call, with where it happened and CUDA's name for the error.
struct cuda_error : std::runtime_error
{
    cuda_error(cudaError_t code, const char* call, const char* file, int line)
        : std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(code) + " (" +
                             cudaGetErrorString(code) + ") in " + call + " at " + file +
                             ":" + std::to_string(line)),
          code(code)
    {
    }
    cudaError_t code;
};

} // namespace gputurbo::core::cuda

//! Throws gputurbo::core::cuda::cuda_error when the call fails.
#define GPUTURBO_CUDA_TRY(call)                                                          \
    do {                                                                                 \
        const cudaError_t status_ = (call);                                              \
        if (status_ != cudaSuccess)                                                      \
            throw ::gputurbo::core::cuda::cuda_error(                                    \
                status_, #call, __FILE__, __LINE__);                                     \
    } while (0)

//! After a kernel launch: a launch error is thrown at once.
#define GPUTURBO_CUDA_CHECK_LAUNCH() GPUTURBO_CUDA_TRY(cudaGetLastError())

#endif
