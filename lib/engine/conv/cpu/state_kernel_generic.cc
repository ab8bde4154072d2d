/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The state kernel with 8 lanes, baseline x86-64 or portable.
#define GPUTURBO_STATE_LANES 8
#define GPUTURBO_STATE_KERNEL_NAME state_generic
#define GPUTURBO_STATE_KERNEL_ISA "generic"
#include "state_kernel_impl.h"
