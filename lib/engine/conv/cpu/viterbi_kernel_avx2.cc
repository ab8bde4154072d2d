/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi kernel with 16 lanes, compiled with -mavx2.
#define GPUTURBO_LANES 16
#define GPUTURBO_KERNEL_NAME viterbi_avx2
#define GPUTURBO_KERNEL_ISA "avx2"
#include "viterbi_kernel_impl.h"
