/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The group kernel with 4 lane(s) for any CPU.
#define GPUTURBO_LANES 4
#define GPUTURBO_KERNEL_NAME kernel_generic
#define GPUTURBO_KERNEL_ISA "generic"
#include "group_kernel_impl.h"
