/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The int16 window kernel with 16 sub-blocks per register, compiled for avx2.
#define GPUTURBO_WINDOWS 16
#define GPUTURBO_KERNEL_NAME kernel_avx2_int16
#define GPUTURBO_KERNEL_ISA "avx2-int16"
#include "window_kernel_impl.h"
