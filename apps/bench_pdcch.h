/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_APPS_BENCH_PDCCH_H
#define INCLUDED_GPUTURBO_APPS_BENCH_PDCCH_H

#include "cli.h"

#include <vector>

namespace gputurbo::cli {

//! The options of gputurbo-bench --code pdcch.
std::vector<option> pdcch_options();

//! gputurbo-bench --code pdcch: the PDCCH's blind search, subframes per second.
int pdcch_bench(const args& a);

} // namespace gputurbo::cli

#endif
