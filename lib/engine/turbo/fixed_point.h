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

} // namespace gputurbo::turbo::fixed_point

#endif
