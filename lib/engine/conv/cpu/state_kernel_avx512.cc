/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The state kernel with 16 lanes (256-bit vectors, with AVX-512's comparisons into masks
// and permutations of 16-bit lanes), compiled with -mavx512. Wider vectors lose on CPUs
// that split 512-bit operations in two (AMD Zen 4), where their shuffles across halves
// cost more than they save.
#define GPUTURBO_STATE_LANES 16
#define GPUTURBO_STATE_KERNEL_NAME state_avx512
#define GPUTURBO_STATE_KERNEL_ISA "avx512"
#include "state_kernel_impl.h"
