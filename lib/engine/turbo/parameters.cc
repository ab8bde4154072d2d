/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config_members.h"
#include "core/names.h"

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <stdexcept>
#include <type_traits>

namespace gputurbo::turbo {
namespace {

using core::parameter_kind;

// The names of each choice, in the order of the table's choices.
const std::pair<const char*, algorithm> algorithm_names[] = {
    { "log-map", algorithm::log_map },
    { "max-log", algorithm::max_log },
    { "scaled-max-log", algorithm::scaled_max_log },
};
const std::pair<const char*, guard> guard_names[] = {
    { "none", guard::none },
    { "pivi", guard::pivi },
    { "dstw", guard::dstw },
    { "pividstw", guard::pividstw },
};
const std::pair<const char*, stop_rule> stop_names[] = {
    { "off", stop_rule::off },         { "crc24a", stop_rule::crc24a },
    { "crc24b", stop_rule::crc24b },   { "mean-llr", stop_rule::mean_llr },
    { "min-llr", stop_rule::min_llr }, { "hard", stop_rule::hard },
};
const std::pair<const char*, arithmetic> arithmetic_names[] = {
    { "auto", arithmetic::automatic },
    { "float32", arithmetic::float32 },
    { "int16", arithmetic::int16 },
};
// The names of code.h's to_string(layout) (a test holds them equal).
const std::pair<const char*, layout> layout_names[] = {
    { "interleaved", layout::interleaved },
    { "streams", layout::streams },
};

template <class T, std::size_t N>
T parse(std::string_view param,
        std::string_view text,
        const std::pair<const char*, T> (&names)[N])
{
    return names[core::choice_index(parameter(param), text)].second;
}

using core::name_of;
using core::number;

template <class T, std::size_t N>
core::parameter choice(const char* name,
                       const std::pair<const char*, T> (&names)[N],
                       const char* default_value,
                       const char* help)
{
    core::parameter p{ name, parameter_kind::choice, default_value, help };
    p.choices = core::names_of(names);
    return p;
}

std::vector<core::parameter> make_table()
{
    constexpr auto integer = parameter_kind::integer;
    constexpr auto real = parameter_kind::real;
    std::vector<core::parameter> t;
    t.push_back(number(integer,
                       "K",
                       "6144",
                       min_block_size,
                       max_block_size,
                       "block size: information bits per codeword, one of the 188 LTE "
                       "sizes"));
    for (const auto& row : qpp_table())
        t.back().values.push_back(row.K);
    t.push_back(number(integer,
                       "iterations",
                       "6",
                       1,
                       max_iterations,
                       "full turbo iterations (the most, with early stopping)"));
    t.push_back(choice("algorithm",
                       algorithm_names,
                       "scaled-max-log",
                       "SISO arithmetic (scaled-max-log: max-log whose extrinsic values "
                       "are multiplied by scaling)"));
    t.push_back(number(real,
                       "scaling",
                       "0.75",
                       0.0,
                       1.0,
                       "extrinsic scaling of "
                       "scaled-max-log"));
    t.back().min_exclusive = true;
    t.push_back(number(integer,
                       "subblocks",
                       "0",
                       1,
                       max_block_size,
                       "sub-blocks per codeword, decoded in parallel; P divides K "
                       "(automatic: sub-blocks of about 32 bits on CUDA; on the CPU in "
                       "int16 up to 16 (AVX2) or 32 (AVX-512) of at least 64 bits, in "
                       "float32 P = 1)"));
    t.back().zero_means = "automatic";
    t.back().symbol = "P";
    t.push_back(choice("guard",
                       guard_names,
                       "pividstw",
                       "how sub-blocks start at their inner edges when P > 1: "
                       "equiprobable, edge metrics of the previous iteration (pivi), "
                       "training windows (dstw) or both (pividstw)"));
    t.push_back(number(integer,
                       "guard_window",
                       "8",
                       1,
                       max_block_size,
                       "training window of dstw and pividstw, at most K/P when P > 1"));
    t.back().symbol = "g";
    t.push_back(
        choice("early_stop",
               stop_names,
               "off",
               "per-codeword early termination: the CRC in the last 24 bits "
               "passes (crc24a/b), mean or min |L| reaches stop_threshold, or the "
               "hard decisions stop changing"));
    t.push_back(number(real,
                       "stop_threshold",
                       "40",
                       0.0,
                       core::unbounded,
                       "threshold of mean-llr and min-llr"));
    t.back().symbol = "T";
    t.push_back(choice("layout",
                       layout_names,
                       "interleaved",
                       "order of the 3K+12 input LLRs: triples d0 d1 d2, or the three "
                       "streams one after the other"));
    t.push_back(core::find_parameter(core::engine_parameters(), "invert_llr"));
    t.push_back(core::find_parameter(core::engine_parameters(), "threads"));
    t.push_back(core::find_parameter(core::engine_parameters(), "devices"));
    t.push_back(
        choice("arithmetic",
               arithmetic_names,
               "auto",
               "metric arithmetic: auto is int16 (CUDA: two codewords per GPU "
               "thread; CPU: sub-blocks in AVX2 / AVX-512 lanes, where they fit), "
               "else float32, the exact reference (CUDA float32 is bit-identical "
               "to the CPU's but for log-map's correction)"));
    t.push_back(core::find_parameter(core::block_parameters(), "input_type"));
    t.push_back(core::find_parameter(core::engine_parameters(), "int8_scale"));
    // The blocks' own, shared by every family.
    for (const auto& p : core::block_parameters())
        if (std::string_view(p.name) != "input_type")
            t.push_back(p);
    return t;
}

std::string text_of(int v) { return std::to_string(v); }
std::string text_of(float v) { return core::format_real(v); }
std::string text_of(bool v) { return v ? "true" : "false"; }
std::string text_of(const std::string& v) { return v; }
template <class Enum, class = std::enable_if_t<std::is_enum_v<Enum>>>
std::string text_of(Enum v)
{
    return to_string(v);
}

void from_text(const core::parameter& p, std::string_view t, int& m)
{
    m = int(core::parse_number(p, t));
}
void from_text(const core::parameter& p, std::string_view t, float& m)
{
    m = float(core::parse_number(p, t));
}
void from_text(const core::parameter& p, std::string_view t, bool& m)
{
    m = core::parse_flag(p, t);
}
void from_text(const core::parameter&, std::string_view t, std::string& m) { m = t; }
void from_text(const core::parameter&, std::string_view t, algorithm& m)
{
    m = parse_algorithm(t);
}
void from_text(const core::parameter&, std::string_view t, guard& m)
{
    m = parse_guard(t);
}
void from_text(const core::parameter&, std::string_view t, stop_rule& m)
{
    m = parse_stop_rule(t);
}
void from_text(const core::parameter&, std::string_view t, arithmetic& m)
{
    m = parse_arithmetic(t);
}
void from_text(const core::parameter& p, std::string_view t, layout& m)
{
    m = parse(p.name, t, layout_names);
}

void from_value(const core::parameter& p, const core::value& v, int& m)
{
    m = core::integer_of<int>(p, v);
}
void from_value(const core::parameter& p, const core::value& v, float& m)
{
    m = core::real_of(p, v);
}
void from_value(const core::parameter& p, const core::value& v, bool& m)
{
    m = core::flag_of(p, v);
}
// The blocks' message of a bad layout, as code.h's parse_layout() gives it.
void from_value(const core::parameter& p, const core::value& v, layout& m)
{
    m = parse_layout(core::text_of(p, v));
}
template <class Member>
void from_value(const core::parameter& p, const core::value& v, Member& m)
{
    from_text(p, core::text_of(p, v), m); // a choice's name, or a text
}

template <class Convert>
void set_member(decoder_config& c, std::string_view name, Convert&& convert)
{
    bool found = false;
    for_each_member(c, [&](std::string_view member_name, auto& member) {
        if (member_name == name) {
            convert(member);
            found = true;
        }
    });
    if (!found)
        throw std::logic_error("decoder_config has no " + std::string(name));
}

} // namespace

algorithm parse_algorithm(std::string_view n)
{
    return parse("algorithm", n, algorithm_names);
}
arithmetic parse_arithmetic(std::string_view n)
{
    return parse("arithmetic", n, arithmetic_names);
}
guard parse_guard(std::string_view n) { return parse("guard", n, guard_names); }
stop_rule parse_stop_rule(std::string_view n)
{
    return parse("early_stop", n, stop_names);
}
const char* to_string(algorithm a) { return name_of(a, algorithm_names); }
const char* to_string(arithmetic a) { return name_of(a, arithmetic_names); }
const char* to_string(guard g) { return name_of(g, guard_names); }
const char* to_string(stop_rule r) { return name_of(r, stop_names); }

const std::vector<core::parameter>& parameters()
{
    static const std::vector<core::parameter> table = make_table();
    return table;
}

const core::parameter& parameter(std::string_view name)
{
    return core::find_parameter(parameters(), name);
}

bool in_config(std::string_view name)
{
    bool found = false;
    const decoder_config c;
    for_each_member(c, [&](std::string_view member, const auto&) {
        found = found || member == name;
    });
    return found;
}

std::vector<std::pair<const core::parameter*, std::string>>
config_values(const decoder_config& c)
{
    std::vector<std::pair<const core::parameter*, std::string>> values;
    for (const auto& p : parameters())
        for_each_member(c, [&](std::string_view name, const auto& member) {
            if (name == p.name)
                values.emplace_back(&p, text_of(member));
        });
    return values;
}

void set_config_value(decoder_config& c, std::string_view name, std::string_view text)
{
    const core::parameter& p = parameter(name);
    set_member(c, name, [&](auto& member) { from_text(p, text, member); });
}

void assign(decoder_config& c, std::string_view name, const core::value& v)
{
    const core::parameter& p = parameter(name);
    set_member(c, name, [&](auto& member) { from_value(p, v, member); });
}

} // namespace gputurbo::turbo
