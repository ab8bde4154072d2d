/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_PARAMETERS_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_PARAMETERS_H

/*!
 * \file parameters.h
 * \brief What a decoder parameter is: its name, kind, range or choices, default and
 *        help, stated once per code family (turbo/parameters.h) and read by validation,
 *        the apps' options, their JSON records and the GNU Radio blocks; the GRC
 *        asserts are tested against it. The checks here give the one wording of a bad
 *        value: "iterations=0 is out of range: use 1 ... 32".
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gputurbo::core {

enum class parameter_kind {
    integer, //!< a whole number in min ... max
    real,    //!< a finite number in min ... max
    choice,  //!< one of choices
    text,    //!< free text the family checks itself (a device list)
    flag     //!< true or false
};

const char* to_string(parameter_kind k); //!< "integer", "real", "choice", "text", "flag"

//! No upper bound.
constexpr double unbounded = std::numeric_limits<double>::infinity();

//! One parameter. Numbers are valid in min ... max, and 0 too when zero_means says
//! what 0 stands for ("automatic").
struct parameter
{
    const char* name; //!< as in code, JSON and GRC: "guard_window"
    parameter_kind kind;
    const char* default_value; //!< as typed: "6", "0.75", "pividstw", "false"
    const char* help;          //!< a phrase without the range, which range_text() gives
    double min = 0.0;
    double max = 0.0;                 //!< unbounded: no upper bound
    bool min_exclusive = false;       //!< real: min itself is not valid (0 < scaling)
    const char* zero_means = nullptr; //!< integer: 0 is valid and means this
    std::vector<std::string> choices = {}; //!< choice
    //! integer: when only some of min ... max are valid (LTE block sizes), all of them;
    //! the family checks membership with a message of its own
    std::vector<long> values = {};
    const char* symbol =
        ""; //!< the value's letter in messages: "P" gives "subblocks P=7"
};

//! An integer or real parameter valid in min ... max (unbounded: no upper bound).
parameter number(parameter_kind kind,
                 const char* name,
                 const char* default_value,
                 double min,
                 double max,
                 const char* help);

//! The valid values in words: "1 ... 32", "1 ... 6144, or 0 (automatic)",
//! "0 < scaling <= 1", "a finite value >= 0", "one of off, crc24a, …".
std::string range_text(const parameter& p);

//! "name=value", or "name S=value" with the parameter's symbol S.
std::string assignment(const parameter& p, std::string_view value);
std::string assignment(const parameter& p, double value);

//! Whether a number lies in the parameter's range (values is not consulted).
bool in_range(const parameter& p, double value);

//! Throws std::invalid_argument "NAME=VALUE is out of range: use RANGE" unless
//! in_range().
void check(const parameter& p, double value);

//! The index of \p text in p.choices; throws std::invalid_argument
//! "unknown NAME 'TEXT': use one of A, B, C".
std::size_t choice_index(const parameter& p, std::string_view text);

//! A number as typed ("6", "0.75"), checked for its kind and range; throws
//! std::invalid_argument naming the parameter.
double parse_number(const parameter& p, std::string_view text);

//! "true" or "false" (also "1", "0"); throws std::invalid_argument otherwise.
bool parse_flag(const parameter& p, std::string_view text);

//! The shortest text that reads back as the same float ("0.75", not "0.75000000").
std::string format_real(float value);

//! The parameter of that name in a table; throws std::logic_error when there is none
//! (a name in code that the table lacks is a programming error).
const parameter& find_parameter(const std::vector<parameter>& table,
                                std::string_view name);

/*!
 * \brief A parameter's value as a caller holds it (a Python keyword, an option): an
 * integer, a real, a flag or a text (a choice's name).
 */
using value = std::variant<long long, double, bool, std::string>;

//! The value of a parameter's default_value text, of its kind; not range-checked.
value default_of(const parameter& p);

//! An integer value as \p T (int, long): std::invalid_argument "NAME=V is out of range:
//! use RANGE" where T cannot hold it, or where it is no integer.
template <class T>
T integer_of(const parameter& p, const value& v);

//! A real value (an integer too) as a float; std::invalid_argument otherwise.
float real_of(const parameter& p, const value& v);
//! A flag's value; std::invalid_argument for another kind.
bool flag_of(const parameter& p, const value& v);
//! A choice's or a text's value; std::invalid_argument for another kind.
const std::string& text_of(const parameter& p, const value& v);

//! The largest max_batch of a decoder block (GNU Radio's int item counts also bound a
//! batch by its input items).
constexpr int max_batch_limit = 131072;

/*!
 * \brief The decoder parameters of every family's config: invert_llr, threads,
 * int8_scale. A family's table includes them.
 */
const std::vector<parameter>& engine_parameters();

/*!
 * \brief The parameters that the decoder blocks of every family share: input_type,
 * max_batch, batches_in_flight, codeword_tags, llr_sign, output, output_type,
 * length_tag_key. A family's table includes them.
 */
const std::vector<parameter>& block_parameters();

//! input_type: true for "int8", false for "float"; std::invalid_argument otherwise.
bool parse_input_type(std::string_view name);

//! output_type: true for "int8" (soft values as soft_values::int8 gives them), false for
//! "float"; std::invalid_argument otherwise.
bool parse_output_type(std::string_view name);

//! llr_sign: true for "positive-one" (GNU Radio's convention, the blocks' default), false
//! for "positive-zero" (the engine's L = ln P(0)/P(1)); std::invalid_argument otherwise.
//! The blocks set the engine's invert_llr to it.
bool positive_means_one(std::string_view llr_sign);

//! output: soft_output::none for "bits", app for "llr", extrinsic for "extrinsic",
//! code_extrinsic for "code-extrinsic"; std::invalid_argument otherwise.
soft_output parse_output(std::string_view output);

} // namespace gputurbo::core

#endif
