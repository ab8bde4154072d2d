/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The group kernel with 8 lane(s), compiled with -mavx2.
#define GPUTURBO_LANES 8
#define GPUTURBO_KERNEL_NAME kernel_avx2
#define GPUTURBO_KERNEL_ISA "avx2"
#include "group_kernel_impl.h"
