/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The turbo engine's config from the numpy API's keywords, set and checked as the
 * decoder blocks set theirs: the turbo table's assign() and decoder_config::validate().
 */

#ifndef INCLUDED_GPUTURBO_PYTHON_TURBO_CONFIG_H
#define INCLUDED_GPUTURBO_PYTHON_TURBO_CONFIG_H

#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>
#include <pybind11/pybind11.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gputurbo::python {

/*!
 * \brief The config of keywords by name, in the order given (a bad choice is named in
 * that order), llr_sign among them as the blocks name it: std::invalid_argument, which
 * Python sees as ValueError. K is 0 (none) for the caller to set; what depends on K is
 * checked when the engine is made.
 */
inline turbo::decoder_config
turbo_config(std::initializer_list<std::pair<std::string_view, core::value>> keywords)
{
    turbo::decoder_config config;
    config.K = 0;
    for (const auto& [name, value] : keywords)
        if (name == "llr_sign")
            // The engine reads L = ln P(0)/P(1): a positive-one input is negated on
            // the way in.
            config.invert_llr = core::positive_means_one(std::get<std::string>(value));
        else
            turbo::assign(config, name, value);
    config.validate();
    return config;
}

//! A keyword whose default is its parameter's in \p table: the numpy API states none
//! of its own.
inline pybind11::arg_v
keyword(const char* name, const std::vector<core::parameter>& table = turbo::parameters())
{
    return std::visit([name](const auto& v) { return pybind11::arg(name) = v; },
                      core::default_of(core::find_parameter(table, name)));
}

} // namespace gputurbo::python

#endif
