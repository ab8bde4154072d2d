/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_APPS_BENCH_TRANSPORT_H
#define INCLUDED_GPUTURBO_APPS_BENCH_TRANSPORT_H

#include "cli.h"

#include <vector>

namespace gputurbo::cli {

//! The options of gputurbo-bench --code lte.
std::vector<option> transport_options();

//! gputurbo-bench --code lte: the transport-block receiver against the turbo decoder
//! alone on the same code blocks.
int transport_bench(const args& a);

} // namespace gputurbo::cli

#endif
