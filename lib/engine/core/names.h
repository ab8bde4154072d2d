/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_NAMES_H
#define INCLUDED_GPUTURBO_CORE_NAMES_H

// An enum's names as one table of { name, value } pairs, so that to_string() and the
// parameter tables' choices read the same spelling.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gputurbo::core {

template <class T, std::size_t N>
using name_table = std::pair<const char*, T>[N];

//! The name of \p value in \p names, "?" for a value the table lacks.
template <class T, std::size_t N>
const char* name_of(T value, const name_table<T, N>& names)
{
    for (const auto& [text, v] : names)
        if (v == value)
            return text;
    return "?";
}

//! The names, in the table's order.
template <class T, std::size_t N>
std::vector<std::string> names_of(const name_table<T, N>& names)
{
    std::vector<std::string> out;
    for (const auto& n : names)
        out.emplace_back(n.first);
    return out;
}

//! The value named \p text in \p names; std::invalid_argument naming \p what and the
//! names else.
template <class T, std::size_t N>
T value_of(std::string_view text, const name_table<T, N>& names, const char* what)
{
    for (const auto& [name, value] : names)
        if (text == name)
            return value;
    std::string choices;
    for (const auto& n : names)
        choices += std::string(choices.empty() ? "" : ", ") + n.first;
    throw std::invalid_argument("unknown " + std::string(what) + " '" +
                                std::string(text) + "': use " + choices);
}

} // namespace gputurbo::core

#endif
