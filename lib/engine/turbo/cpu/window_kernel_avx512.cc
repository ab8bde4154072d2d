/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The int16 window kernel with 32 sub-blocks per register, compiled for avx512.
#define GPUTURBO_WINDOWS 32
#define GPUTURBO_KERNEL_NAME kernel_avx512_int16
#define GPUTURBO_KERNEL_ISA "avx512-int16"
#include "window_kernel_impl.h"
