/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi kernel with 32 lanes, compiled with -mavx512.
#define GPUTURBO_LANES 32
#define GPUTURBO_KERNEL_NAME viterbi_avx512
#define GPUTURBO_KERNEL_ISA "avx512"
#include "viterbi_kernel_impl.h"
