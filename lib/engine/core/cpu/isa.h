/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CPU_ISA_H
#define INCLUDED_GPUTURBO_CORE_CPU_ISA_H

// The instruction sets a family compiles its CPU kernels for (one object each), and the
// choice among them at run time.

#include <functional>
#include <initializer_list>
#include <optional>
#include <vector>

namespace gputurbo::core::cpu {

//! scalar: one lane, the reference; generic: baseline x86-64 (SSE2) or portable;
//! avx2; avx512 (F, BW, VL, DQ).
enum class isa { scalar, generic, avx2, avx512 };

const char* to_string(isa i);

//! Whether this CPU runs code compiled for \p i.
bool supported(isa i);

/*!
 * \brief The first supported instruction set of \p preference. GPUTURBO_CPU_KERNEL=
 * scalar|generic|avx2|avx512 in the environment picks one by name instead (an
 * unsupported one throws std::runtime_error, an unknown one std::invalid_argument).
 */
isa choose(std::initializer_list<isa> preference);

//! The instruction set GPUTURBO_CPU_KERNEL names, if it names one (errors as choose()).
std::optional<isa> named_in_environment();

/*!
 * \brief The best time in seconds of each of \p n candidates: run(i) once to warm up,
 * then \p rounds times in turn, so that a passing disturbance hits them alike.
 */
std::vector<double>
best_times(std::size_t n, const std::function<void(std::size_t)>& run, int rounds = 3);

} // namespace gputurbo::core::cpu

#endif
