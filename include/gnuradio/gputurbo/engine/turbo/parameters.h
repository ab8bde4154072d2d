/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_TURBO_PARAMETERS_H
#define INCLUDED_GPUTURBO_ENGINE_TURBO_PARAMETERS_H

/*!
 * \file parameters.h
 * \brief The turbo decoder's parameters (core/parameters.h): those of decoder_config,
 *        whose defaults are its member initialisers, and those of the GNU Radio blocks
 *        around it (max_batch, batches_in_flight, input_type).
 * decoder_config::validate(), the blocks, gputurbo-ber and gputurbo-bench (options, JSON
 * records,
 *        --parameters-json) read this table; the GRC blocks' asserts are tested against
 *        it.
 */

#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gputurbo::turbo {

//! Every parameter, in the order of the apps' --help (core::block_parameters() among
//! them).
const std::vector<core::parameter>& parameters();

//! The parameter of that name; std::logic_error for a name the table lacks.
const core::parameter& parameter(std::string_view name);

//! Whether decoder_config holds the parameter (the blocks' own ones it does not).
bool in_config(std::string_view name);

//! The value of every parameter decoder_config holds, as text ("6144", "0.75",
//! "pividstw", "false"), in table order.
std::vector<std::pair<const core::parameter*, std::string>>
config_values(const decoder_config& c);

/*!
 * \brief Sets the decoder_config member of a parameter from text as config_values()
 * writes it, checked against the table's range or choices (std::invalid_argument).
 * What depends on other members (an LTE K, P dividing K, a device list) is left to
 * decoder_config::validate(). std::logic_error for a parameter decoder_config lacks.
 */
void set_config_value(decoder_config& c, std::string_view name, std::string_view text);

/*!
 * \brief Sets the decoder_config member of a parameter to a value of its kind (a
 * choice by its name), as make() arguments set it: std::invalid_argument for a value
 * of another kind or an unknown choice; the range is left to
 * decoder_config::validate(), which reads every member. std::logic_error for a
 * parameter decoder_config lacks.
 */
void assign(decoder_config& c, std::string_view name, const core::value& v);

} // namespace gputurbo::turbo

#endif
