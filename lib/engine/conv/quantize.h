/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_QUANTIZE_H
#define INCLUDED_GPUTURBO_CONV_QUANTIZE_H

// How the fast Viterbi decoders (CPU and CUDA) turn a segment's sanitised float LLRs into
// integer metrics (int8 LLRs are metrics already, -128 read as -max_metric), compiled for
// the host and the device alike. The scale maps the mean
// magnitude of the segment's LLRs that carry information and are not clamped to
// mean_metric (Viterbi decisions do not depend on a common scale; values beyond four
// times that mean are clipped, and saturated ones cost the others no precision).
// Magnitudes are summed in fixed point, so that the sums, hence the scale and every
// decision, do not depend on the order of the adds: the CPU and the GPU decide alike.
// The functions have internal linkage: objects built for different instruction sets
// include this header, and the linker must not merge their copies.

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#ifdef __CUDACC__
#define GPUTURBO_CONV_HD __host__ __device__ __forceinline__
#else
#define GPUTURBO_CONV_HD inline
#endif

namespace gputurbo::conv {

//! Largest quantised metric of one coded bit.
constexpr int max_metric = 127;
//! The metric the mean magnitude of a segment's LLRs maps to.
constexpr float mean_metric = 32.0f;
//! Fixed-point unit of the magnitude sums: |L| * 2^16, truncated (exact for |L| up to
//! core::llr_limit, and a sum of 2^30 of them fits).
constexpr float magnitude_unit = 65536.0f;

namespace {

//! Sums of |L| over some LLRs: all of them, and those that carry information and are
//! not clamped (whose mean sets the scale), in units of 1 / magnitude_unit.
struct magnitudes
{
    std::int64_t total = 0;
    std::int64_t inside = 0;
    std::int64_t counted = 0;

    //! Branch-free, so that a loop of adds vectorises.
    GPUTURBO_CONV_HD void add(float v)
    {
        const float a = std::fabs(v);
        add(fixed_magnitude(a), a > 0.0f && a < core::llr_limit);
    }

    //! |L| in units of 1 / magnitude_unit, truncated: below 2^31.
    GPUTURBO_CONV_HD static std::int32_t fixed_magnitude(float a)
    {
        return std::int32_t(a * magnitude_unit);
    }

    //! An LLR of fixed magnitude \p fixed that carries information unclamped or not
    //! (\p in: 1 or 0), as a table of them gives it.
    GPUTURBO_CONV_HD void add(std::int32_t fixed, std::int32_t in)
    {
        total += fixed;
        inside += fixed & -in;
        counted += in;
    }

    GPUTURBO_CONV_HD void add(const magnitudes& m)
    {
        total += m.total;
        inside += m.inside;
        counted += m.counted;
    }
};

//! The metric of an int8 LLR \p q: q itself, -128 read as -max_metric (so that the
//! negated one fits too), negated where the LLRs have the other sign (\p invert).
GPUTURBO_CONV_HD int int8_metric(int q, bool invert)
{
    const int m = q < -max_metric ? -max_metric : q;
    return invert ? -m : m;
}

//! The fixed magnitude of an int8 LLR of 1, whose LLR is \p unit: 128 of them stay within
//! core::llr_limit. An int8 LLR q has |q| of them (q = -128 too), so that a sum of
//! magnitudes is the sum of |q| times this one.
GPUTURBO_CONV_HD std::int32_t int8_fixed_unit(float unit)
{
    const std::int32_t most = magnitudes::fixed_magnitude(core::llr_limit) / 128;
    const std::int32_t u = magnitudes::fixed_magnitude(unit);
    return u < most ? u : most;
}

//! The sum of |L| of \p fixed, a magnitude sum.
GPUTURBO_CONV_HD double magnitude(std::int64_t fixed)
{
    return double(fixed) / double(magnitude_unit);
}

//! The factor that maps the LLRs of \p m to metrics.
GPUTURBO_CONV_HD float quantization_scale(const magnitudes& m)
{
    const double typical =
        m.counted > 0 ? magnitude(m.inside) / double(m.counted) : double(core::llr_limit);
    return float(double(mean_metric) / typical);
}

//! \p v * \p scale clamped to +-max_metric, rounded half away from zero (no branch,
//! which noisy signs would mispredict; in this form a loop of them vectorises).
GPUTURBO_CONV_HD std::int16_t quantize(float v, float scale)
{
    const float most = float(max_metric);
    const float y = v * scale; // v is never NaN
    const float clamped = y < -most ? -most : (y > most ? most : y);
    return std::int16_t(clamped + std::copysign(0.5f, y));
}

} // namespace
} // namespace gputurbo::conv

#endif
