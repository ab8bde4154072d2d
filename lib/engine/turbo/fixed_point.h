/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_FIXED_POINT_H
#define INCLUDED_GPUTURBO_TURBO_FIXED_POINT_H

// The int16 contract of the turbo decoder, defined once for the CUDA kernel
// (cuda/turbo_kernel.cu) and the CPU's window kernels (cpu/window_kernel_impl.h): with
// the same units, limits and max*, both compute the same extrinsic values (the CUDA
// kernel's state metrics carry an offset per stage, below).
//
// Channel LLRs are quantised to +-max_input units and extrinsic values clamped to
// +-max_extrinsic units: then a branch metric is at most g = 2 max_input +
// max_extrinsic in magnitude, and a stage moves a state metric by at most g + c, where
// c is max*'s correction (27 for log-map, 0 for max-log). State metrics normalised at
// most 4 stages ago lie within +-10 (g + c) (three stages join any two states), so every
// sum the recursions and the extrinsic form stays within 2^15: the largest, alpha +
// beta + g from an impossible alpha plus the extrinsic's three corrections, is 8192 +
// 21 (g + c) + 3 c = 32342 (max-log, g = 1150) or 32150 (log-map, g = 1110). Adds may
// therefore wrap freely, and a kernel may normalise every 4th stage.
//
// The CUDA kernel runs the offset form (trellis_math.h: every branch metric plus A + B,
// its inputs doubled): the same decisions and extrinsic values, but branch metrics
// within +-2 g, so that a stage moves a metric by up to 2 g + c. Bounded more closely:
// the metrics of one stage span at most 6 g + 3 c (three stages join any two states), so
// after the normalisation by state 0 they lie within +-(6 g + 3 c), and the kernel uses
// them at most 3 stages later (its recursions normalise every 4th stage, from
// checkpoints taken after a normalisation): within +-(12 g + 6 c). The largest sum,
// alpha + beta + 2B plus the extrinsic's three corrections, is 24 g + 15 c + 2 max_input
// = 28110 (max-log) or 27555 (log-map); from an unreached alpha of a codeword's first 3
// stages (above -8192 - 6 g), -8192 - 18 g - 6 c - 2 max_input = -29402 or -28844. Sums
// inside the recursions stay within +-(14 g + 7 c), or above -8192 - 8 g from an
// unreached state. Two metrics of one stage add up to within +-(24 g + 12 c) = +-26964,
// or above 2 (-8192 - 6 g) = -29704 where both are unreached (log-map), so that the
// kernel halves a butterfly's pair sum as floor((x + y) / 2). Two arguments of one of
// the extrinsic's max* differ by less than 2^15, so that b - a does not wrap (the kernel
// halves their sum as a + (b - a) / 2): two alphas of one stage differ by at most 6 g +
// 3 c, or 8192 + 12 g + 3 c where one is unreached (a codeword's first 3 stages, where
// the reached ones lie within [-6 g, 6 g + 3 c]); two betas by at most 6 g + 3 c (every
// state is reached 3 tail stages before the end); so two terms by at most 8192 + 18 g +
// 6 c, plus 2 c for two levels of max* and 2 max_input for the parity's 2B: 28898
// (log-map).

namespace gputurbo::turbo::fixed_point {

//! Channel LLRs are read in steps of 1/16 (rounded to nearest even) …
constexpr float input_units = 16.0f;
//! … so metrics, which hold half LLRs, count 32 units per nat, and a-posteriori LLRs
//! (2 A + e) come out in 32 units per LLR.
constexpr float app_units = 32.0f;
//! Quantised channel LLRs saturate here (+-255/16).
constexpr int max_input = 255;
//! Extrinsic values saturate here, in input units (+-40; log-map +-37.5).
template <bool Exact>
constexpr int max_extrinsic = Exact ? 600 : 640;
//! log-map's max*(a, b) = max(a, b, floor((a + b) / 2) + max_star_offset): the
//! correction ln(1 + e^-|a-b|) as max(0, C - |a-b|/2), C = 27/32 nat, the minimax
//! choice (error <= 0.17 nat; the tangent C = ln 2 errs by up to 0.22).
constexpr int max_star_offset = 27;
//! A state that cannot be reached: it loses every comparison, and sums of two never
//! wrap.
constexpr int impossible_metric = -8192;

//! The bounds above, checked on the constants: g, c and the sums the proof names.
namespace bounds {
constexpr int int16_range = 1 << 15; // every value lies in (-int16_range, int16_range)
template <bool Exact>
constexpr int g = 2 * max_input + max_extrinsic<Exact>; // a branch metric, at most
template <bool Exact>
constexpr int c = Exact ? max_star_offset : 0; // max*'s correction, at most

// The plain form (the CPU's window kernels): a stage moves a metric by g + c at most;
// the largest sum, alpha + beta + g from an impossible alpha, plus the extrinsic's three
// corrections.
template <bool Exact>
constexpr int plain_stage = g<Exact> + c<Exact>;
template <bool Exact>
constexpr int plain_largest_sum =
    -impossible_metric + 21 * plain_stage<Exact> + 3 * c<Exact>;
static_assert(plain_largest_sum<false> == 32342 && plain_largest_sum<true> == 32150);
static_assert(plain_largest_sum<false> < int16_range &&
              plain_largest_sum<true> < int16_range);

// The offset form (the CUDA kernel): metrics used within +-(12 g + 6 c); the largest
// sum alpha + beta + 2B plus three corrections; the least from an unreached alpha.
template <bool Exact>
constexpr int offset_metric = 12 * g<Exact> + 6 * c<Exact>;
template <bool Exact>
constexpr int offset_largest_sum =
    2 * offset_metric<Exact> + 3 * c<Exact> + 2 * max_input;
template <bool Exact>
constexpr int offset_least_sum =
    impossible_metric - 18 * g<Exact> - 6 * c<Exact> - 2 * max_input;
static_assert(offset_largest_sum<false> == 28110 && offset_largest_sum<true> == 27555);
static_assert(offset_least_sum<false> == -29402 && offset_least_sum<true> == -28844);
static_assert(offset_largest_sum<false> < int16_range &&
              offset_largest_sum<true> < int16_range);
static_assert(offset_least_sum<false> > -int16_range &&
              offset_least_sum<true> > -int16_range);
// Inside the recursions: within +-(14 g + 7 c), or above -8192 - 8 g when unreached.
static_assert(14 * g<false> + 7 * c<false> < int16_range &&
              14 * g<true> + 7 * c<true> < int16_range);
static_assert(impossible_metric - 8 * g<false> > -int16_range &&
              impossible_metric - 8 * g<true> > -int16_range);
// log-map's halved pair sum: two metrics of one stage add up within +-(24 g + 12 c), or
// above twice an unreached one.
static_assert(24 * g<true> + 12 * c<true> == 26964 && 26964 < int16_range);
static_assert(2 * (impossible_metric - 6 * g<true>) == -29704 && -29704 > -int16_range);
// log-map's extrinsic max*: its two arguments differ by less than 2^15.
static_assert(-impossible_metric + 18 * g<true> + 6 * c<true> + 2 * c<true> +
                      2 * max_input ==
                  28898 &&
              28898 < int16_range);
} // namespace bounds

} // namespace gputurbo::turbo::fixed_point

#endif
