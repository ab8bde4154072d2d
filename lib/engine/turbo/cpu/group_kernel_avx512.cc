/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The group kernel with 16 lane(s), compiled with -mavx512f -mavx512bw -mavx512vl
// -mavx512dq.
#define GPUTURBO_LANES 16
#define GPUTURBO_KERNEL_NAME kernel_avx512
#define GPUTURBO_KERNEL_ISA "avx512"
#include "group_kernel_impl.h"
