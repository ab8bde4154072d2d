/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_HOST_DEVICE_H
#define INCLUDED_GPUTURBO_LTE_HOST_DEVICE_H

// Functions that the CPU and the GPU code both compile, so that both backends decide
// with the same code.
#ifdef __CUDACC__
#define GPUTURBO_LTE_HD __host__ __device__ __forceinline__
#else
#define GPUTURBO_LTE_HD inline
#endif

#endif
