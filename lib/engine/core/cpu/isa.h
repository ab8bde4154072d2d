/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CPU_ISA_H
#define INCLUDED_GPUTURBO_CORE_CPU_ISA_H

// The instruction sets a family compiles its CPU kernels for (one object each), and the
// choice among them at run time.

#include <initializer_list>

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

} // namespace gputurbo::core::cpu

#endif
