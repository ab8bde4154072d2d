/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_LLR_CUH
#define INCLUDED_GPUTURBO_CORE_CUDA_LLR_CUH

// The LLR conventions of core/llr.h on the device, for every family's kernels.

#include <gnuradio/gputurbo/engine/core/llr.h>

namespace gputurbo::core::cuda {

//! core::sanitize_llr on the device (fminf/fmaxf give its clamp for every number).
__device__ __forceinline__ float sanitize(float x, bool invert)
{
    x = isnan(x) ? 0.0f : fminf(fmaxf(x, -core::llr_limit), core::llr_limit);
    return invert ? -x : x;
}

//! core::quantize_llrs() of one value (8 bits).
__device__ __forceinline__ int quantize_llr(float x, float scale)
{
    float v = x * scale;
    v = v > 127.0f ? 127.0f : (v < -127.0f ? -127.0f : v);
    v = v == v ? v : 0.0f;
    return int(v + (v >= 0.0f ? 0.5f : -0.5f));
}

} // namespace gputurbo::core::cuda

#endif
