/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/block_options.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <variant>

namespace gr {
namespace gputurbo {

namespace core = ::gputurbo::core;
namespace turbo = ::gputurbo::turbo;
namespace conv = ::gputurbo::conv;
namespace lte = ::gputurbo::lte;

namespace {

// The engine's resolver checks the name (core/backend.h); GRC offers these.
core::parameter backend_parameter()
{
    core::parameter p{ "backend",
                       core::parameter_kind::text,
                       "auto",
                       "engine backend: auto (CUDA when built with it and a GPU is "
                       "present, else the CPU; the choice is logged), cpu or cuda" };
    p.choices = { "auto", "cpu", "cuda" };
    return p;
}

// The row of each name: the first table that has it (the transport channel's early_stop
// before the turbo decoder's); backend is the blocks' own.
core::parameter row(const std::vector<const std::vector<core::parameter>*>& tables,
                    std::string_view name)
{
    if (name == "backend")
        return backend_parameter();
    for (const auto* table : tables)
        for (const auto& p : *table)
            if (name == p.name)
                return p;
    throw std::logic_error("no parameter named '" + std::string(name) + "'");
}

std::vector<block_argument>
arguments(const std::vector<const std::vector<core::parameter>*>& tables,
          std::initializer_list<const char*> names)
{
    std::vector<block_argument> out;
    for (const char* name : names)
        out.push_back({ name, row(tables, name) });
    return out;
}

block_argument& argument(std::vector<block_argument>& args, std::string_view name)
{
    return *std::find_if(
        args.begin(), args.end(), [&](const auto& a) { return a.name == name; });
}

// Each decoder block's make() arguments, in the order of its Python keywords, and the
// tables they are rows of (the first that has a name gives its row).
std::map<std::string, std::vector<block_argument>> make_signatures()
{
    const std::vector<const std::vector<core::parameter>*> turbo_table = {
        &turbo::parameters()
    };
    const std::vector<const std::vector<core::parameter>*> conv_table = {
        &conv::parameters()
    };
    const std::vector<const std::vector<core::parameter>*> dlsch_table = {
        &lte::transport_parameters(), &turbo::parameters()
    };
    const std::vector<const std::vector<core::parameter>*> pdcch_table = {
        &lte::control_parameters(), &conv::parameters()
    };
    std::map<std::string, std::vector<block_argument>> s;
    // clang-format off
    s["turbo_decoder"] = arguments(turbo_table, {
        "K", "algorithm", "iterations", "scaling", "subblocks", "guard", "guard_window",
        "early_stop", "stop_threshold", "layout", "llr_sign", "backend", "max_batch",
        "threads", "input_type", "int8_scale", "batches_in_flight", "arithmetic",
        "codeword_tags", "devices", "length_tag_key", "output", "output_type" });
    s["turbo_decoder_pdu"] = arguments(turbo_table, {
        "algorithm", "iterations", "scaling", "subblocks", "guard", "guard_window",
        "early_stop", "stop_threshold", "layout", "llr_sign", "backend", "max_batch",
        "threads", "arithmetic", "devices", "output", "output_type", "int8_scale" });
    s["turbo_decoder_fec"] = arguments(turbo_table, {
        "K", "algorithm", "iterations", "scaling", "subblocks", "guard", "guard_window",
        "early_stop", "stop_threshold", "llr_sign", "backend", "threads", "devices",
        "arithmetic" });
    s["viterbi_decoder"] = arguments(conv_table, {
        "frame_bits", "preset", "constraint", "polys", "puncture", "termination",
        "decision_depth", "training_depth", "segment_bits", "llr_sign", "backend",
        "max_batch", "threads", "input_type", "int8_scale", "batches_in_flight",
        "codeword_tags", "devices", "length_tag_key", "node_sync", "output",
        "output_type" });
    s["viterbi_decoder_pdu"] = arguments(conv_table, {
        "preset", "constraint", "polys", "puncture", "termination", "decision_depth",
        "training_depth", "segment_bits", "llr_sign", "backend", "max_batch", "threads",
        "devices", "output", "output_type", "int8_scale" });
    s["dlsch_decoder_pdu"] = arguments(dlsch_table, {
        "algorithm", "iterations", "scaling", "subblocks", "guard", "guard_window",
        "early_stop", "llr_sign", "int8_scale", "Qm", "layers", "rv", "soft_buffer",
        "c_init", "backend", "max_batch", "threads", "arithmetic", "devices",
        "max_harq_processes" });
    s["pdcch_decoder_pdu"] = arguments(pdcch_table, {
        "mode", "min_correlation", "max_false_alarm", "n_prb", "cfi", "antenna_ports",
        "ng", "phich_mi", "duplex", "cell_id", "descramble", "backend", "max_batch",
        "threads", "devices" });
    // clang-format on
    argument(s["turbo_decoder"], "K").required = true;
    argument(s["turbo_decoder_fec"], "K").name = "frame_size";
    argument(s["turbo_decoder_fec"], "frame_size").required = true;
    // A stream block: a stream by default (the table's terminated is that of frames).
    argument(s["viterbi_decoder"], "termination").parameter.default_value = "streaming";
    // A PDU is a frame, never a stream (make() says so).
    auto& pdu_modes = argument(s["viterbi_decoder_pdu"], "termination").parameter.choices;
    pdu_modes.erase(std::find(pdu_modes.begin(), pdu_modes.end(), "streaming"));
    // A turbo decoder gives no soft output of the code bits; an information bit of a
    // convolutional code has no input LLR of its own to take away (no extrinsic).
    for (const auto& [block, left_out] :
         { std::pair{ "turbo_decoder", "code-extrinsic" },
           std::pair{ "turbo_decoder_pdu", "code-extrinsic" },
           std::pair{ "viterbi_decoder", "extrinsic" },
           std::pair{ "viterbi_decoder_pdu", "extrinsic" } }) {
        auto& outputs = argument(s[block], "output").parameter.choices;
        outputs.erase(std::find(outputs.begin(), outputs.end(), left_out));
    }
    // A PDU's LLRs are float: int8_scale is the unit of int8 soft output only.
    for (const char* block : { "turbo_decoder_pdu", "viterbi_decoder_pdu" })
        argument(s[block], "int8_scale").parameter.help =
            "int8 soft output (output_type int8): the value q means the LLR q / "
            "int8_scale";
    argument(s["dlsch_decoder_pdu"], "int8_scale").parameter.help =
        "the soft buffers' unit: an LLR L is held as round(L * int8_scale), saturated "
        "to +-127; an s8vector's value q is the LLR q / int8_scale";
    argument(s["pdcch_decoder_pdu"], "max_batch").parameter.help =
        "most subframes searched together, in one decoder call per DCI size "
        "(automatic: 1024 on CUDA, 64 on the CPU)";
    return s;
}

const std::map<std::string, std::vector<block_argument>>& signatures()
{
    static const auto s = make_signatures();
    return s;
}

// Calls set(parameter, value) for each argument of the block in order, a missing one
// at its default.
template <class Set>
void for_each_value(const std::string& block, const block_values& values, Set&& set)
{
    const auto& args = block_arguments(block);
    for (const auto& [name, value] : values)
        if (std::none_of(
                args.begin(), args.end(), [&](const auto& a) { return a.name == name; }))
            throw std::logic_error(block + " has no argument " + name);
    for (const auto& a : args) {
        const auto given = values.find(a.name);
        if (given == values.end() && a.required)
            throw std::invalid_argument(block + ": " + a.name + " is required");
        set(a.parameter,
            given != values.end() ? given->second : core::default_of(a.parameter));
    }
}

// Sets the block_options member of a parameter; false for another parameter.
bool set_block_option(block_options& b, const core::parameter& p, const core::value& v)
{
    const std::string_view name = p.name;
    if (name == "backend")
        b.backend = core::text_of(p, v);
    else if (name == "input_type")
        b.int8 = core::parse_input_type(core::text_of(p, v));
    else if (name == "max_batch")
        b.max_batch = core::integer_of<int>(p, v);
    else if (name == "batches_in_flight")
        b.batches_in_flight = core::integer_of<int>(p, v);
    else if (name == "codeword_tags")
        b.tags = codeword_tags(core::choice_index(p, core::text_of(p, v)));
    else if (name == "length_tag_key")
        b.length_tag_key = core::text_of(p, v);
    else if (name == "output") // one of the block's choices (p's), by the core's name
        b.output =
            core::parse_output(p.choices.at(core::choice_index(p, core::text_of(p, v))));
    else if (name == "output_type")
        b.int8_output = core::parse_output_type(core::text_of(p, v));
    else
        return false;
    return true;
}

// llr_sign is the blocks' name of the engine's invert_llr: the engine reads
// L = ln P(0)/P(1), and positive-one input is negated on the way in.
bool is_llr_sign(const core::parameter& p)
{
    return std::string_view(p.name) == "llr_sign";
}

bool inverted(const core::parameter& p, const core::value& v)
{
    return core::positive_means_one(core::text_of(p, v));
}

// What does not depend on the block size; make() checks the rest against its K.
void validate_without_block_size(::gputurbo::turbo::decoder_config c)
{
    c.K = 0;
    c.validate();
}

// A value as conv::config_from() reads it, of the parameter's kind.
std::string text(const core::parameter& p, const core::value& v)
{
    switch (p.kind) {
    case core::parameter_kind::integer:
        return std::to_string(core::integer_of<long>(p, v));
    case core::parameter_kind::real:
        return core::format_real(core::real_of(p, v));
    case core::parameter_kind::flag:
        return core::flag_of(p, v) ? "true" : "false";
    case core::parameter_kind::choice:
    case core::parameter_kind::text:
        break;
    }
    return core::text_of(p, v);
}

// A real parameter's value as a double (an integer too), checked against its range:
// real_of()'s float would make 0.6 0.6000000238.
double checked_real(const core::parameter& p, const core::value& v)
{
    double x = 0.0;
    if (const auto* d = std::get_if<double>(&v))
        x = *d;
    else if (const auto* i = std::get_if<long long>(&v))
        x = double(*i);
    else
        x = core::real_of(p, v); // throws, naming the parameter
    core::check(p, x);
    return x;
}

} // namespace

const std::vector<std::string>& option_blocks()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [name, args] : signatures())
            out.push_back(name);
        return out;
    }();
    return names;
}

const std::vector<block_argument>& block_arguments(const std::string& block)
{
    const auto it = signatures().find(block);
    if (it == signatures().end())
        throw std::invalid_argument("no decoder block named '" + block + "'");
    return it->second;
}

turbo_options turbo_options_from(const std::string& block, const block_values& values)
{
    turbo_options o;
    for_each_value(block, values, [&](const core::parameter& p, const core::value& v) {
        if (is_llr_sign(p))
            o.decoder.invert_llr = inverted(p, v);
        else if (!set_block_option(o.block, p, v))
            turbo::assign(o.decoder, p.name, v);
    });
    validate_without_block_size(o.decoder);
    return o;
}

viterbi_options viterbi_options_from(const std::string& block, const block_values& values)
{
    viterbi_options o;
    std::map<std::string, std::string> config;
    for_each_value(block, values, [&](const core::parameter& p, const core::value& v) {
        if (is_llr_sign(p))
            config["invert_llr"] = inverted(p, v) ? "true" : "false";
        else if (std::string_view(p.name) == "frame_bits")
            o.frame_bits = core::integer_of<int>(p, v);
        else if (!set_block_option(o.block, p, v))
            config[p.name] = text(p, v);
    });
    if (config["preset"] != "none") { // a preset's code overrides constraint and polys
        config.erase("constraint");
        config.erase("polys");
    }
    o.decoder = conv::config_from(config);
    return o;
}

dlsch_options dlsch_options_from(const std::string& block, const block_values& values)
{
    dlsch_options o;
    transport_defaults& d = o.defaults;
    for_each_value(block, values, [&](const core::parameter& p, const core::value& v) {
        const std::string_view name = p.name;
        if (is_llr_sign(p))
            o.decoder.turbo.invert_llr = inverted(p, v);
        else if (set_block_option(o.block, p, v))
            return;
        else if (name == "early_stop") // the transport decoder's CRC stop, a flag
            o.decoder.early_stop = core::flag_of(p, v);
        else if (name == "max_harq_processes") // checked by the engine
            o.decoder.max_harq_processes = core::integer_of<int>(p, v);
        else if (name == "Qm" || name == "layers" || name == "rv")
            (name == "Qm"       ? d.Qm
             : name == "layers" ? d.layers
                                : d.rv) = core::integer_of<int>(p, v);
        else if (name == "soft_buffer" || name == "c_init")
            (name == "soft_buffer" ? d.soft_buffer : d.c_init) =
                core::integer_of<long>(p, v);
        else
            turbo::assign(o.decoder.turbo, name, v);
    });
    validate_without_block_size(o.decoder.turbo);
    for (const auto& [name, value] : { std::pair<const char*, long>{ "Qm", d.Qm },
                                       { "layers", d.layers },
                                       { "rv", d.rv },
                                       { "soft_buffer", d.soft_buffer },
                                       { "c_init", d.c_init } })
        lte::check_transport_value(name, value);
    return o;
}

pdcch_options pdcch_options_from(const std::string& block, const block_values& values)
{
    pdcch_options o;
    pdcch_defaults& d = o.defaults;
    for_each_value(block, values, [&](const core::parameter& p, const core::value& v) {
        const std::string_view name = p.name;
        if (set_block_option(o.block, p, v))
            return;
        if (p.kind == core::parameter_kind::choice) {
            const std::string& text = core::text_of(p, v);
            const std::size_t index = core::choice_index(p, text); // checks the name
            if (name == "mode") // the table lists the modes in the enum's order
                o.search.mode = lte::pdcch_search_mode(index);
            else if (name == "ng")
                d.region.ng = lte::parse_phich_resource(text);
            else
                d.duplex = lte::parse_duplex_mode(text);
        } else if (name == "min_correlation")
            o.search.min_correlation = checked_real(p, v);
        else if (name == "max_false_alarm")
            o.search.max_false_alarm = checked_real(p, v);
        else if (name == "descramble")
            d.descramble = core::flag_of(p, v);
        else if (name == "threads") // the decoder's and the search's own
            o.decoder.threads = o.search.threads = core::integer_of<int>(p, v);
        else if (name == "devices")
            o.decoder.devices = core::text_of(p, v);
        else {
            const int value = core::integer_of<int>(p, v);
            lte::check_control_value(name, value);
            (name == "n_prb"           ? d.region.n_prb
             : name == "cfi"           ? d.region.cfi
             : name == "antenna_ports" ? d.region.antenna_ports
             : name == "phich_mi"      ? d.region.phich_mi
                                       : d.cell_id) = value;
        }
    });
    o.decoder.validate(); // threads, devices
    return o;
}

} // namespace gputurbo
} // namespace gr
