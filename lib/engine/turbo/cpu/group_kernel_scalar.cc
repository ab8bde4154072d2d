/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The group kernel with 1 lane(s): the reference the others are tested against.
#define GPUTURBO_LANES 1
#define GPUTURBO_KERNEL_NAME kernel_scalar
#define GPUTURBO_KERNEL_ISA "scalar"
#include "group_kernel_impl.h"
