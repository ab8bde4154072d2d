/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include "names.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace gputurbo::core {
namespace {

std::string number_text(const parameter& p, double v)
{
    if (p.kind == parameter_kind::integer && std::isfinite(v))
        return std::to_string(static_cast<long long>(v));
    return format_real(static_cast<float>(v));
}

} // namespace

const char* to_string(parameter_kind k)
{
    static const std::pair<const char*, parameter_kind> names[] = {
        { "integer", parameter_kind::integer }, { "real", parameter_kind::real },
        { "choice", parameter_kind::choice },   { "text", parameter_kind::text },
        { "flag", parameter_kind::flag },
    };
    return name_of(k, names);
}

std::string format_real(float value)
{
    char buf[32];
    for (int digits = 6; digits < 9; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, double(value));
        if (std::strtof(buf, nullptr) == value)
            return buf;
    }
    std::snprintf(buf, sizeof buf, "%.9g", double(value));
    return buf;
}

parameter number(parameter_kind kind,
                 const char* name,
                 const char* default_value,
                 double min,
                 double max,
                 const char* help)
{
    parameter p{ name, kind, default_value, help };
    p.min = min;
    p.max = max;
    return p;
}

std::string range_text(const parameter& p)
{
    switch (p.kind) {
    case parameter_kind::integer: {
        std::string text = p.max == unbounded
                               ? number_text(p, p.min) + " or more"
                               : number_text(p, p.min) + " ... " + number_text(p, p.max);
        if (p.zero_means)
            text += ", or 0 (" + std::string(p.zero_means) + ")";
        return text;
    }
    case parameter_kind::real: {
        const std::string low = number_text(p, p.min);
        if (p.max == unbounded)
            return std::string("a finite value ") + (p.min_exclusive ? "> " : ">= ") +
                   low;
        return low + (p.min_exclusive ? " < " : " <= ") + p.name +
               " <= " + number_text(p, p.max);
    }
    case parameter_kind::choice: {
        std::string text = "one of ";
        for (std::size_t i = 0; i < p.choices.size(); ++i)
            text += (i ? ", " : "") + p.choices[i];
        return text;
    }
    case parameter_kind::flag:
        return "true or false";
    case parameter_kind::text:
        break;
    }
    return "";
}

std::string assignment(const parameter& p, std::string_view value)
{
    std::string text = p.name;
    if (*p.symbol)
        text += std::string(" ") + p.symbol;
    return text + "=" + std::string(value);
}

std::string assignment(const parameter& p, double value)
{
    return assignment(p, number_text(p, value));
}

bool in_range(const parameter& p, double value)
{
    if (p.kind != parameter_kind::integer && p.kind != parameter_kind::real)
        return true;
    if (!std::isfinite(value))
        return false;
    if (p.kind == parameter_kind::integer && p.zero_means && value == 0.0)
        return true;
    const bool above = p.min_exclusive ? value > p.min : value >= p.min;
    return above && value <= p.max;
}

void check(const parameter& p, double value)
{
    if (!in_range(p, value))
        throw std::invalid_argument(assignment(p, value) + " is out of range: use " +
                                    range_text(p));
}

std::size_t choice_index(const parameter& p, std::string_view text)
{
    for (std::size_t i = 0; i < p.choices.size(); ++i)
        if (p.choices[i] == text)
            return i;
    throw std::invalid_argument("unknown " + std::string(p.name) + " '" +
                                std::string(text) + "': use " + range_text(p));
}

double parse_number(const parameter& p, std::string_view text)
{
    const std::string s(text);
    const bool integer = p.kind == parameter_kind::integer;
    if (!integer && p.kind != parameter_kind::real)
        throw std::logic_error(std::string("parameter ") + p.name + " is not a number");
    errno = 0;
    char* end = nullptr;
    const double v = integer ? double(std::strtoll(s.c_str(), &end, 10))
                             : std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno == ERANGE)
        throw std::invalid_argument(assignment(p, "'" + s + "'") + " is not " +
                                    (integer ? "an integer" : "a number"));
    check(p, v);
    return v;
}

bool parse_flag(const parameter& p, std::string_view text)
{
    if (text == "true" || text == "1")
        return true;
    if (text == "false" || text == "0")
        return false;
    throw std::invalid_argument(assignment(p, "'" + std::string(text) + "'") +
                                " is not true or false");
}

const parameter& find_parameter(const std::vector<parameter>& table,
                                std::string_view name)
{
    for (const auto& p : table)
        if (name == p.name)
            return p;
    throw std::logic_error("no parameter named '" + std::string(name) + "'");
}

namespace {

[[noreturn]] void wrong_kind(const parameter& p, const char* what)
{
    throw std::invalid_argument(std::string(p.name) + " must be " + what);
}

} // namespace

value default_of(const parameter& p)
{
    const std::string text = p.default_value;
    switch (p.kind) {
    case parameter_kind::integer:
        return std::stoll(text);
    case parameter_kind::real:
        return std::stod(text);
    case parameter_kind::flag:
        return text == "true";
    case parameter_kind::choice:
    case parameter_kind::text:
        break;
    }
    return text;
}

template <class T>
T integer_of(const parameter& p, const value& v)
{
    const long long* n = std::get_if<long long>(&v);
    if (!n)
        wrong_kind(p, "an integer");
    if (*n < std::numeric_limits<T>::min() || *n > std::numeric_limits<T>::max())
        throw std::invalid_argument(assignment(p, std::to_string(*n)) +
                                    " is out of range: use " + range_text(p));
    return T(*n);
}
template int integer_of<int>(const parameter&, const value&);
template long integer_of<long>(const parameter&, const value&);

float real_of(const parameter& p, const value& v)
{
    if (const double* x = std::get_if<double>(&v))
        return float(*x);
    if (const long long* n = std::get_if<long long>(&v))
        return float(*n);
    wrong_kind(p, "a number");
}

bool flag_of(const parameter& p, const value& v)
{
    if (const bool* b = std::get_if<bool>(&v))
        return *b;
    wrong_kind(p, "true or false");
}

const std::string& text_of(const parameter& p, const value& v)
{
    if (const std::string* t = std::get_if<std::string>(&v))
        return *t;
    wrong_kind(p, "a text");
}

namespace {

std::vector<parameter> make_engine_table()
{
    std::vector<parameter> t;
    t.push_back({ "invert_llr",
                  parameter_kind::flag,
                  "false",
                  "the input LLRs are ln P(1)/P(0) (positive means 1)" });
    t.push_back(
        number(parameter_kind::integer, "threads", "0", 1, 4096, "CPU worker threads"));
    t.back().zero_means = "all cores";
    t.push_back({ "devices",
                  parameter_kind::text,
                  "0",
                  "CUDA devices: a GPU index, a list such as 0,1 (each batch is spread "
                  "over them) or all; ignored by the CPU backends" });
    t.push_back(
        number(parameter_kind::real,
               "int8_scale",
               "8",
               0.0,
               unbounded,
               "int8 input and output: the value q means the LLR q / int8_scale"));
    t.back().min_exclusive = true;
    return t;
}

std::vector<parameter> make_block_table()
{
    std::vector<parameter> t;
    t.push_back({ "input_type",
                  parameter_kind::choice,
                  "float",
                  "LLR input type: float, or int8 (round(L * int8_scale), saturated to "
                  "+-127)" });
    t.back().choices = { "float", "int8" };
    t.push_back(number(parameter_kind::integer,
                       "max_batch",
                       "0",
                       1,
                       max_batch_limit,
                       "blocks: most codewords per engine call (automatic: chosen from "
                       "the backend and K)"));
    t.back().zero_means = "automatic";
    t.push_back(
        number(parameter_kind::integer,
               "batches_in_flight",
               "0",
               1,
               batch_decoder::max_in_flight,
               "blocks: batches decoding at once; 2 or more overlap the GPU with "
               "the flowgraph (automatic: 2 batches of codewords or frames, 4 of a "
               "stream's segments)"));
    t.back().zero_means = "automatic";
    // In the order of the blocks' codeword_tags enum (lib/common/stream_batcher.h).
    t.push_back({ "codeword_tags",
                  parameter_kind::choice,
                  "failed",
                  "blocks: which codewords get a \"codeword\" tag: failed (their check "
                  "did not hold), all, or none" });
    t.back().choices = { "failed", "all", "none" };
    t.push_back({ "llr_sign",
                  parameter_kind::choice,
                  "positive-one",
                  "blocks and Python: what a positive input LLR means: bit 1 (GNU "
                  "Radio's soft demappers and gr-fec) or bit 0 (L = ln P(0)/P(1), the "
                  "engine's own)" });
    t.back().choices = { "positive-one", "positive-zero" };
    // In the order of core::soft_output.
    t.push_back({ "output",
                  parameter_kind::choice,
                  "bits",
                  "blocks and Python: what a decoder gives for each information bit: "
                  "its hard decision (0 or 1), or float LLRs in the sign of llr_sign: "
                  "a-posteriori (llr), or a-posteriori less the bit's own input LLR "
                  "(extrinsic, what an iterative receiver feeds back); or for each code "
                  "bit it read, a-posteriori less input (code-extrinsic: convolutional "
                  "codes)" });
    t.back().choices = { "bits", "llr", "extrinsic", "code-extrinsic" };
    t.push_back({ "output_type",
                  parameter_kind::choice,
                  "float",
                  "blocks and Python: the type of soft output: float (4 bytes a value), "
                  "or int8 (1 byte) in the units of int8 input, round(L * int8_scale) "
                  "saturated to +-127; bits stay bits" });
    t.back().choices = { "float", "int8" };
    t.push_back({ "length_tag_key",
                  parameter_kind::text,
                  "packet_len",
                  "stream blocks: key of the length tags of a tagged stream, rescaled to "
                  "the decoded length; empty for none" });
    return t;
}

} // namespace

const std::vector<parameter>& engine_parameters()
{
    static const std::vector<parameter> table = make_engine_table();
    return table;
}

const std::vector<parameter>& block_parameters()
{
    static const std::vector<parameter> table = make_block_table();
    return table;
}

bool parse_input_type(std::string_view name)
{
    return choice_index(find_parameter(block_parameters(), "input_type"), name) == 1;
}

bool parse_output_type(std::string_view name)
{
    return choice_index(find_parameter(block_parameters(), "output_type"), name) == 1;
}

const char* to_string(soft_output kind)
{
    return find_parameter(block_parameters(), "output")
        .choices.at(std::size_t(kind))
        .c_str();
}

soft_output parse_output(std::string_view output)
{
    return soft_output(
        choice_index(find_parameter(block_parameters(), "output"), output));
}

bool positive_means_one(std::string_view llr_sign)
{
    return choice_index(find_parameter(block_parameters(), "llr_sign"), llr_sign) == 0;
}

} // namespace gputurbo::core
