/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CONV_PARAMETERS_H
#define INCLUDED_GPUTURBO_ENGINE_CONV_PARAMETERS_H

/*!
 * \file parameters.h
 * \brief The Viterbi decoder's parameters (core/parameters.h): the code (preset, or
 *        constraint and polys), puncture, termination, the segment geometry
 *        (decision_depth, training_depth, segment_bits), soft_algorithm, frame_bits (the
 *        block size), core::engine_parameters() and core::block_parameters(). Defaults
 *        are those of viterbi_config. viterbi_config::validate() and the apps read this
 *        table.
 */

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gputurbo::conv {

//! Most information bits per frame.
constexpr int max_frame_bits = 1 << 20;
//! Longest decision or training depth.
constexpr int max_overlap = 1 << 16;

//! Every parameter, in the order of the apps' --help.
const std::vector<core::parameter>& parameters();

//! The parameter of that name; std::logic_error for a name the table lacks.
const core::parameter& parameter(std::string_view name);

//! The name of a soft_algorithm in the table ("max-log", "log-map").
const char* to_string(soft_algorithm a);
//! The soft_algorithm of a name; std::invalid_argument naming the choices otherwise.
soft_algorithm parse_soft_algorithm(std::string_view name);

//! Whether viterbi_config holds the parameter (through its code, puncturing,
//! termination and engine members); frame_bits, preset and the blocks' own it does not.
bool in_config(std::string_view name);

//! The text of a puncturing as parse_puncturing() reads it: "" for none, else the
//! patterns per output ("110,101").
std::string puncture_text(const puncturing& p);

//! The value of every parameter viterbi_config holds, as text ("7", "133,171",
//! "terminated", "false"), in table order.
std::vector<std::pair<const core::parameter*, std::string>>
config_values(const viterbi_config& c);

/*!
 * \brief A viterbi_config from parameter values as text (name to text; a missing one
 * takes its default), checked against the table and validated. A preset other than
 * "none" gives the code, and then constraint and polys may not be given too.
 * std::invalid_argument naming the parameter for a bad value; std::logic_error for a
 * name viterbi_config does not hold (but preset).
 */
viterbi_config config_from(const std::map<std::string, std::string>& values);

} // namespace gputurbo::conv

#endif
