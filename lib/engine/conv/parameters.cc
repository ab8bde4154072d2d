/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/names.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <algorithm>
#include <stdexcept>

namespace gputurbo::conv {
namespace {

using core::parameter_kind;

// In the order of the table's choices.
const std::pair<const char*, soft_algorithm> soft_algorithm_names[] = {
    { "max-log", soft_algorithm::max_log },
    { "log-map", soft_algorithm::log_map },
};

std::vector<core::parameter> make_table()
{
    std::vector<core::parameter> t;
    t.push_back({ "preset",
                  parameter_kind::choice,
                  "none",
                  "a named code, or none for the code of constraint and polys" });
    t.back().choices = { "none" };
    for (const auto& name : preset_names())
        t.back().choices.push_back(name);
    t.push_back(core::number(parameter_kind::integer,
                             "constraint",
                             "7",
                             min_constraint,
                             max_constraint,
                             "constraint length K: memory K-1, 2^(K-1) states"));
    t.back().symbol = "K";
    t.push_back({ "polys",
                  parameter_kind::text,
                  "133,171",
                  "generator polynomials in octal, 2 to 4 of them, the MSB tapping the "
                  "current bit; a leading minus inverts that output (171,-133)" });
    t.push_back({ "puncture",
                  parameter_kind::text,
                  "",
                  "puncturing: empty or none; 2/3, 3/4, 5/6 or 7/8 for the K=7 code of "
                  "171 and 133; or patterns per output such as 110,101" });
    t.push_back({ "termination",
                  parameter_kind::choice,
                  "terminated",
                  "how a frame starts and ends: K-1 zero tail bits (terminated), no "
                  "tail (truncated), tail-biting, or a continuous stream (streaming)" });
    for (const auto m : { termination::terminated,
                          termination::truncated,
                          termination::tail_biting,
                          termination::streaming }) // the enum's order
        t.back().choices.push_back(to_string(m));
    t.push_back(core::number(
        parameter_kind::integer,
        "decision_depth",
        "0",
        0,
        max_overlap,
        "steps traced back past the bits a segment or stream decides before they are "
        "released (v2); 0 = 5 K / (1 - R) rounded up to whole puncturing periods, R the "
        "punctured code rate"));
    t.back().symbol = "D";
    t.push_back(
        core::number(parameter_kind::integer,
                     "training_depth",
                     "0",
                     0,
                     max_overlap,
                     "steps a segment runs before the bits it decides, from every "
                     "state alike (v1); 0 = the decision depth"));
    t.push_back(core::number(parameter_kind::integer,
                             "segment_bits",
                             "0",
                             0,
                             max_frame_bits,
                             "bits one segment of a long frame or a stream decides (f); "
                             "frames that fit in one segment with its overlaps are "
                             "decoded whole; 0 = 32 times the decision depth"));
    t.push_back({ "node_sync",
                  parameter_kind::flag,
                  "false",
                  "a stream: find the phase of its steps in the LLRs (and its inversion, "
                  "where the code shows it) by the path metrics' growth, and follow a "
                  "slip" });
    t.push_back({ "soft_algorithm",
                  parameter_kind::choice,
                  "max-log",
                  "soft output only: the BCJR's arithmetic, the best path's metric "
                  "(max-log: its decisions are Viterbi's) or the exact log-sum-exp over "
                  "every path (log-map, about 5 times slower)" });
    t.back().choices = core::names_of(soft_algorithm_names);
    t.push_back(core::number(parameter_kind::integer,
                             "frame_bits",
                             "1024",
                             1,
                             max_frame_bits,
                             "block size: information bits per frame"));
    for (const auto& p : core::engine_parameters())
        t.push_back(p);
    for (const auto& p : core::block_parameters())
        t.push_back(p);
    return t;
}

const core::parameter& engine_parameter(std::string_view name)
{
    return core::find_parameter(core::engine_parameters(), name);
}

const char* const config_names[] = { "constraint",    "polys",          "puncture",
                                     "termination",   "decision_depth", "training_depth",
                                     "segment_bits",  "node_sync",      "invert_llr",
                                     "int8_scale",    "threads",        "devices",
                                     "soft_algorithm" };

} // namespace

const std::vector<core::parameter>& parameters()
{
    static const std::vector<core::parameter> table = make_table();
    return table;
}

const core::parameter& parameter(std::string_view name)
{
    return core::find_parameter(parameters(), name);
}

const char* to_string(soft_algorithm a) { return core::name_of(a, soft_algorithm_names); }

soft_algorithm parse_soft_algorithm(std::string_view name)
{
    return soft_algorithm_names[core::choice_index(parameter("soft_algorithm"), name)]
        .second;
}

bool in_config(std::string_view name)
{
    return std::find(std::begin(config_names), std::end(config_names), name) !=
           std::end(config_names);
}

std::string puncture_text(const puncturing& p)
{
    std::string text;
    for (const auto& pattern : p.keep) {
        if (!text.empty())
            text += ',';
        for (const std::uint8_t keep : pattern)
            text += char('0' + keep);
    }
    return text;
}

std::vector<std::pair<const core::parameter*, std::string>>
config_values(const viterbi_config& c)
{
    std::string polys = c.generator.text();
    polys = polys.substr(polys.find(' ') + 1); // "K=7 133,171" -> "133,171"
    const std::map<std::string_view, std::string> text = {
        { "constraint", std::to_string(c.generator.constraint) },
        { "polys", polys },
        { "puncture", puncture_text(c.punctured) },
        { "termination", to_string(c.mode) },
        { "decision_depth", std::to_string(c.geometry.depth) },
        { "training_depth", std::to_string(c.geometry.training) },
        { "segment_bits", std::to_string(c.geometry.bits) },
        { "node_sync", c.node_sync ? "true" : "false" },
        { "invert_llr", c.invert_llr ? "true" : "false" },
        { "int8_scale", core::format_real(c.int8_scale) },
        { "threads", std::to_string(c.threads) },
        { "devices", c.devices },
        { "soft_algorithm", to_string(c.soft_algorithm) },
    };
    std::vector<std::pair<const core::parameter*, std::string>> values;
    for (const auto& p : parameters())
        if (in_config(p.name))
            values.emplace_back(&p, text.at(p.name));
    return values;
}

viterbi_config config_from(const std::map<std::string, std::string>& values)
{
    for (const auto& [name, text] : values)
        if (name != "preset" && !in_config(name))
            throw std::logic_error("config_from: viterbi_config has no " + name);
    auto value = [&](const char* name) -> std::string {
        const auto it = values.find(name);
        return it != values.end() ? it->second : parameter(name).default_value;
    };
    viterbi_config c;
    const std::string preset_name = value("preset");
    const core::parameter& presets = parameter("preset");
    if (core::choice_index(presets, preset_name) != 0) {
        for (const char* own : { "constraint", "polys" })
            if (values.count(own))
                throw std::invalid_argument("preset " + preset_name + " and " + own +
                                            " exclude each other: give one of them");
        c.generator = preset(preset_name);
    } else {
        const int K =
            int(core::parse_number(parameter("constraint"), value("constraint")));
        c.generator = parse_code(K, value("polys"));
    }
    c.punctured = parse_puncturing(value("puncture"), c.generator);
    c.mode = parse_termination(value("termination"));
    auto integer = [&](const char* name) {
        return int(core::parse_number(parameter(name), value(name)));
    };
    c.geometry.depth = integer("decision_depth");
    c.geometry.training = integer("training_depth");
    c.geometry.bits = integer("segment_bits");
    c.node_sync = core::parse_flag(parameter("node_sync"), value("node_sync"));
    c.invert_llr = core::parse_flag(engine_parameter("invert_llr"), value("invert_llr"));
    c.int8_scale =
        float(core::parse_number(engine_parameter("int8_scale"), value("int8_scale")));
    c.threads = int(core::parse_number(engine_parameter("threads"), value("threads")));
    c.devices = value("devices");
    c.soft_algorithm = parse_soft_algorithm(value("soft_algorithm"));
    c.validate();
    return c;
}

} // namespace gputurbo::conv
