/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_APPS_RECORD_H
#define INCLUDED_GPUTURBO_APPS_RECORD_H

/*!
 * \file record.h
 * \brief The one record format of every tool's --json (docs/usage.md, "Records";
 *        apps/check_json.py checks it).
 */

#include "cli.h"

#include <gnuradio/gputurbo/engine/sim/soft_statistics.h>

#include <string>

namespace gputurbo::cli {

//! A record: {"record": 1, tool, command (this process's command line), commit, version,
//! date, device, cpu (the host's model), parameters (the settings every row shares),
//! rows (each one's own settings and what it measured)}.
json record(const std::string& tool,
            const std::string& device,
            json parameters,
            json rows);

//! A row's llr_statistics, of a run with soft output: {count, mean_abs_llr,
//! channel_mean_abs_llr, wrong_signs, zeros, nan_values, sign_error_rate, predicted_ber,
//! predicted_over_measured (null without sign errors), histogram: {low, high, bin_width,
//! counts}} (sim/soft_statistics.h says what each is).
json llr_statistics(const sim::soft_statistics& s);

//! This process's command line, its words separated by spaces (quoted where needed).
std::string command_line();

//! The host CPU's model name, family and model, and its logical cores
//! ("AMD EPYC (family 25, model 17), 2 cores").
std::string cpu_model();

} // namespace gputurbo::cli

#endif
