/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi kernel with 8 lanes, baseline x86-64 or portable.
#define GPUTURBO_LANES 8
#define GPUTURBO_KERNEL_NAME viterbi_generic
#define GPUTURBO_KERNEL_ISA "generic"
#include "viterbi_kernel_impl.h"
