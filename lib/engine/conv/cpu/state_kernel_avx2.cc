/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The state kernel with 16 lanes, compiled with -mavx2.
#define GPUTURBO_STATE_LANES 16
#define GPUTURBO_STATE_KERNEL_NAME state_avx2
#define GPUTURBO_STATE_KERNEL_ISA "avx2"
#include "state_kernel_impl.h"
