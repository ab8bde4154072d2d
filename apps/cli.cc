/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cli.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/version.h>

#include "gputurbo_commit.h" // generated at build time: GPUTURBO_COMMIT

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <unistd.h>

namespace gputurbo::cli {

option section(const std::string& title) { return { "", "", "", title }; }

args::args(std::string program, std::string summary, std::vector<option> options)
    : d_program(std::move(program)),
      d_summary(std::move(summary)),
      d_options(std::move(options))
{
    d_options.push_back(section("Other"));
    d_options.push_back(
        { "parameters-json",
          "",
          "",
          "print the decoder parameters (names, ranges, defaults, help) as "
          "JSON and exit" });
    d_options.push_back({ "version", "", "", "show the version and exit" });
    d_options.push_back({ "help", "", "", "show this help and exit" });
}

const option& args::find(const std::string& name) const
{
    for (const auto& o : d_options)
        if (!o.name.empty() &&
            (o.name == name ||
             std::find(o.aliases.begin(), o.aliases.end(), name) != o.aliases.end()))
            return o;
    throw usage_error("unknown option --" + name);
}

bool args::print_info() const
{
    if (flag("help"))
        std::cout << help();
    else if (flag("parameters-json"))
        std::cout << parameters_json(given("code") ? get("code") : "turbo").dump();
    else if (flag("version"))
        std::cout << d_program << " " << core::version() << " (commit " << source_commit()
                  << ")\n";
    else
        return false;
    return true;
}

void args::parse(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        std::string word = argv[i];
        if (word == "-h")
            word = "--help";
        if (word.rfind("--", 0) != 0 || word.size() == 2)
            throw usage_error("unexpected argument '" + word + "'");
        std::string name = word.substr(2);
        std::string value;
        const auto eq = name.find('=');
        const bool inline_value = eq != std::string::npos;
        if (inline_value) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        const option& o = find(name);
        if (o.metavar.empty()) {
            if (inline_value)
                throw usage_error("--" + name + " takes no value");
        } else if (!inline_value) {
            // No value of ours starts with "--": "--K --iterations 4" lacks K's value.
            if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0)
                throw usage_error("--" + name + " needs a value (" + o.metavar + ")");
            value = argv[++i];
        }
        d_values[o.name] = value; // under its name, whichever alias was typed
    }
}

const std::string& args::get(const std::string& name) const
{
    const auto it = d_values.find(name);
    return it != d_values.end() ? it->second : find(name).default_value;
}

std::string args::help() const
{
    std::ostringstream out;
    out << "Usage: " << d_program << " " << d_synopsis << "\n\n" << d_summary << "\n";
    for (const auto& o : d_options) {
        if (o.name.empty()) {
            out << "\n" << o.help << ":\n";
            continue;
        }
        const std::string left =
            "  --" + o.name + (o.metavar.empty() ? "" : " " + o.metavar);
        std::string text = o.help;
        if (o.required)
            text += " (required)";
        else if (!o.metavar.empty())
            text += " (default: " + (o.default_value.empty() ? "none" : o.default_value) +
                    ")";
        for (const auto& alias : o.aliases)
            text += " (also --" + alias + ")";
        // Words wrapped at 90 columns, continuation lines under the first.
        const std::size_t indent = 28, width = 90;
        std::string line = left.size() < indent
                               ? left + std::string(indent - left.size(), ' ')
                               : left + "\n" + std::string(indent, ' ');
        std::size_t used = line.size() - line.rfind('\n') - 1;
        std::istringstream words(text);
        std::string word;
        bool first = true;
        while (words >> word) {
            if (!first && used + 1 + word.size() > width) {
                line += "\n" + std::string(indent, ' ');
                used = indent;
            } else if (!first) {
                line += ' ';
                ++used;
            }
            line += word;
            used += word.size();
            first = false;
        }
        out << line << "\n";
    }
    out << "\nExit status: " << d_exit_status << "\n";
    return out.str();
}

std::uint64_t to_count(const std::string& flag, const std::string& text)
{
    errno = 0;
    char* end = nullptr;
    // strtoull accepts "-1" and wraps it; refuse signs explicitly.
    const bool digits =
        !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (!digits || *end != '\0' || errno == ERANGE)
        throw usage_error("--" + flag + ": '" + text + "' is not a non-negative integer");
    return v;
}

double to_double(const std::string& flag, const std::string& text)
{
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        throw usage_error("--" + flag + ": '" + text + "' is not a finite number");
    return v;
}

std::vector<std::string> split_list(const std::string& flag, const std::string& text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma - start);
        if (item.empty())
            throw usage_error("--" + flag + ": empty item in list '" + text + "'");
        items.push_back(item);
        if (comma == std::string::npos)
            return items;
        start = comma + 1;
    }
}

std::vector<double> to_range(const std::string& flag, const std::string& text)
{
    if (text.find(':') == std::string::npos) {
        std::vector<double> values;
        for (const auto& item : split_list(flag, text))
            values.push_back(to_double(flag, item));
        return values;
    }
    const auto c1 = text.find(':');
    const auto c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos || text.find(':', c2 + 1) != std::string::npos)
        throw usage_error("--" + flag + ": '" + text + "' is not START:STOP:STEP");
    const double start = to_double(flag, text.substr(0, c1));
    const double stop = to_double(flag, text.substr(c1 + 1, c2 - c1 - 1));
    const double step = to_double(flag, text.substr(c2 + 1));
    if (step == 0.0 || (stop - start) * step < 0.0)
        throw usage_error("--" + flag + ": step " + format("%g", step) +
                          " does not lead from " + format("%g", start) + " to " +
                          format("%g", stop));
    // A small tolerance so that 0:1:0.1 includes 1 despite rounding.
    const double count = std::floor((stop - start) / step + 1e-9) + 1.0;
    if (count > 10000)
        throw usage_error("--" + flag + ": '" + text + "' gives more than 10000 points");
    std::vector<double> values;
    for (int i = 0; i < int(count); ++i) // rounded so that 0.1 * 3 prints as 0.3
        values.push_back(std::round((start + i * step) * 1e9) / 1e9);
    return values;
}

option parameter_option(const core::parameter& p, bool list)
{
    std::string metavar = p.symbol;
    for (auto& ch : metavar)
        ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (metavar.empty())
        switch (p.kind) {
        case core::parameter_kind::integer:
            metavar = "N";
            break;
        case core::parameter_kind::real:
            metavar = "X";
            break;
        case core::parameter_kind::choice:
            metavar = "NAME";
            break;
        default:
            metavar = "TEXT";
        }
    const std::string range = core::range_text(p);
    return { flag_of(p.name),
             metavar + (list ? ",..." : ""),
             p.default_value,
             p.help + (range.empty() ? "" : "; " + range) };
}

double number(const core::parameter& p, const std::string& text)
{
    try {
        return core::parse_number(p, text);
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag_of(p.name) + ": " + e.what());
    }
}

double number(const args& a, const core::parameter& p)
{
    return number(p, a.get(flag_of(p.name)));
}

std::string flag_of(const std::string& parameter)
{
    std::string flag = parameter;
    std::replace(flag.begin(), flag.end(), '_', '-');
    return flag;
}

const std::vector<std::string> decoder_axes = {
    "K", "iterations", "algorithm", "subblocks", "guard"
};

namespace {

// The table's parameters the apps leave out: the channel does not invert its LLRs,
// int8 soft output is the float values quantised on the host (output_type: the same
// decoding), and the others are the GNU Radio blocks' own.
const std::vector<std::string> not_offered = { "invert_llr",        "max_batch",
                                               "batches_in_flight", "codeword_tags",
                                               "llr_sign",          "length_tag_key",
                                               "output_type" };

// Option names of earlier versions, still accepted.
const std::map<std::string, std::vector<std::string>> aliases = {
    { "stop_threshold", { "threshold" } },
    { "input_type", { "input" } },
    { "devices", { "device" } },
};

bool offered(const core::parameter& p)
{
    return std::find(not_offered.begin(), not_offered.end(), p.name) == not_offered.end();
}

bool is_axis(const std::string& name)
{
    return std::find(decoder_axes.begin(), decoder_axes.end(), name) !=
           decoder_axes.end();
}

} // namespace

std::string code_family(int argc, char** argv, bool transport)
{
    std::string code = "turbo";
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--code" && i + 1 < argc)
            code = argv[i + 1];
        else if (word.rfind("--code=", 0) == 0)
            code = word.substr(7);
    }
    if (code != "turbo" && code != "conv" &&
        !(transport && (code == "lte" || code == "pdcch")))
        throw usage_error("--code: unknown code '" + code + "': use turbo or conv" +
                          (transport ? ", lte or pdcch" : ""));
    return code;
}

option code_option()
{
    return { "code",
             "NAME",
             "turbo",
             "code family: turbo (the LTE turbo code) or conv (convolutional codes, "
             "Viterbi decoding); the options below depend on it (--code conv --help "
             "lists conv's)" };
}

namespace {

// The first options of every family's decoder: the section, --code and --backend.
std::vector<option> code_and_backend(const std::string& backend_help)
{
    return { section("Code and decoder"),
             code_option(),
             { "backend", "NAME", "auto", backend_help } };
}

} // namespace

std::vector<option> decoder_options(bool axes)
{
    std::vector<option> options =
        code_and_backend("auto, cpu, cuda, or reference (the slow exact CPU decoder)");
    for (const auto& p : turbo::parameters()) {
        if (!offered(p))
            continue;
        options.push_back(parameter_option(p, axes && is_axis(p.name)));
        if (const auto it = aliases.find(p.name); it != aliases.end())
            options.back().aliases = it->second;
    }
    return options;
}

void set_value(decoder_config& c, const std::string& parameter, const std::string& text)
{
    try {
        turbo::set_config_value(c, parameter, text);
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag_of(parameter) + ": " + e.what());
    }
}

bool int8_input(const args& a)
{
    const std::string flag = flag_of("input_type");
    try {
        return core::parse_input_type(a.get(flag));
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag + ": " + e.what());
    }
}

core::soft_output soft_output_of(const args& a, bool stream)
{
    const std::string name = a.get("output");
    core::soft_output kind;
    try {
        kind = core::parse_output(name);
    } catch (const std::invalid_argument& e) {
        throw usage_error("--output: " + std::string(e.what()));
    }
    if (stream && kind != core::soft_output::none)
        throw usage_error("--output " + name +
                          ": a stream decoder gives bits only (termination streaming)");
    return kind;
}

decoder_config config_from(const args& a, bool axes)
{
    decoder_config c;
    for (const auto& p : turbo::parameters())
        if (offered(p) && turbo::in_config(p.name) && !(axes && is_axis(p.name)))
            set_value(c, p.name, a.get(flag_of(p.name)));
    return c;
}

void add_parameters(json& record, const decoder& d, int K, bool int8)
{
    record.set("code", "turbo");
    for (const auto& [p, text] : turbo::config_values(d.config())) {
        const std::string name = p->name;
        if (name == "subblocks") {
            record.set(name, d.subblocks(K))
                .set(name + "_requested", d.config().subblocks);
            continue;
        }
        if (name == "arithmetic") {
            record.set(name, to_string(d.metric_arithmetic()))
                .set(name + "_requested", text);
            continue;
        }
        switch (p->kind) {
        case core::parameter_kind::integer:
            record.set(name, std::stol(text));
            break;
        case core::parameter_kind::real:
            record.set(name, std::stod(text));
            break;
        case core::parameter_kind::flag:
            record.set(name, text == "true");
            break;
        default:
            record.set(name, text);
        }
    }
    record.set("input_type", int8 ? "int8" : "float");
}

std::vector<option> conv_decoder_options()
{
    std::vector<option> options = code_and_backend(
        "auto (cuda where it can run, else cpu), cuda (the GPU), cpu (the "
        "SIMD Viterbi decoder) or reference (the slow exact one)");
    for (const auto& p : conv::parameters()) {
        if (!offered(p))
            continue;
        options.push_back(parameter_option(p));
        if (const auto it = aliases.find(p.name); it != aliases.end())
            options.back().aliases = it->second;
    }
    return options;
}

conv::viterbi_config conv_config_from(const args& a)
{
    // Only what was given: a preset excludes a given constraint or polys.
    std::map<std::string, std::string> values;
    for (const auto& p : conv::parameters())
        if (offered(p) && (conv::in_config(p.name) || p.name == std::string("preset")) &&
            a.given(flag_of(p.name)))
            values[p.name] = a.get(flag_of(p.name));
    try {
        return conv::config_from(values);
    } catch (const std::invalid_argument& e) {
        throw usage_error(e.what());
    }
}

int frame_bits(const args& a, const conv::viterbi_config& c)
{
    const int bits = int(number(a, conv::parameter("frame_bits")));
    // A stream's frames are consecutive pieces of it, so a punctured one's are whole
    // puncturing periods: the default rounds up to them (a given value is checked).
    const int period = c.punctured.period();
    if (c.mode != conv::termination::streaming || a.given(flag_of("frame_bits")))
        return bits;
    return (bits + period - 1) / period * period;
}

std::string geometry_text(const conv::viterbi_config& c)
{
    const conv::segment_geometry g = conv::derived_geometry(c);
    return format("segments f=%d v1=%d D=%d", g.bits, g.training, g.depth);
}

void add_parameters(
    json& record, const args& a, const conv::viterbi_config& c, int frame_bits, bool int8)
{
    record.set("code", "conv").set("preset", a.get("preset"));
    for (const auto& [p, text] : conv::config_values(c)) {
        switch (p->kind) {
        case core::parameter_kind::integer:
            record.set(p->name, std::stol(text));
            break;
        case core::parameter_kind::real:
            record.set(p->name, std::stod(text));
            break;
        case core::parameter_kind::flag:
            record.set(p->name, text == "true");
            break;
        default:
            record.set(p->name, text);
        }
    }
    // The geometry as decoded, and as asked for (0: derived).
    const conv::segment_geometry g = conv::derived_geometry(c);
    record.set("decision_depth", g.depth)
        .set("decision_depth_requested", c.geometry.depth)
        .set("training_depth", g.training)
        .set("training_depth_requested", c.geometry.training)
        .set("segment_bits", g.bits)
        .set("segment_bits_requested", c.geometry.bits);
    const std::size_t sent =
        conv::punctured_length(c.generator, c.punctured, c.mode, frame_bits);
    record.set("frame_bits", frame_bits)
        .set("code_rate", double(frame_bits) / double(sent))
        .set("input_type", int8 ? "int8" : "float");
}

json parameters_json(const std::string& code)
{
    const bool conv = code == "conv";
    auto list = json::array();
    for (const auto& p : conv ? conv::parameters() : turbo::parameters()) {
        auto j = json::object();
        j.set("name", p.name)
            .set("kind", core::to_string(p.kind))
            .set("default", p.default_value)
            .set("help", p.help)
            .set("range", core::range_text(p))
            .set("option", offered(p) ? json("--" + flag_of(p.name)) : json())
            .set("config", conv ? conv::in_config(p.name) : turbo::in_config(p.name));
        if (p.kind == core::parameter_kind::integer ||
            p.kind == core::parameter_kind::real)
            j.set("min", p.min)
                .set("max", p.max) // unbounded: null
                .set("min_exclusive", p.min_exclusive)
                .set("zero_means", p.zero_means ? json(p.zero_means) : json());
        if (!p.choices.empty()) {
            auto choices = json::array();
            for (const auto& c : p.choices)
                choices.push(c);
            j.set("choices", choices);
        }
        if (!p.values.empty()) {
            auto values = json::array();
            for (const long v : p.values)
                values.push(v);
            j.set("values", values);
        }
        if (*p.symbol)
            j.set("symbol", p.symbol);
        list.push(j);
    }
    return list;
}

json::json(double v) : d_text(std::isfinite(v) ? format("%.15g", v) : "null") {}

json::json(const std::string& v) : d_text("\"")
{
    for (const char ch : v) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\')
            d_text += std::string("\\") + ch;
        else if (ch == '\n')
            d_text += "\\n";
        else if (u < 0x20)
            d_text += format("\\u%04x", u);
        else
            d_text += ch;
    }
    d_text += '"';
}

json json::object()
{
    json j;
    j.d_kind = kind::object;
    return j;
}

json json::array()
{
    json j;
    j.d_kind = kind::array;
    return j;
}

json& json::set(const std::string& key, json value)
{
    for (auto& [k, v] : d_members)
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    d_members.emplace_back(key, std::move(value));
    return *this;
}

json& json::push(json value)
{
    d_items.push_back(std::move(value));
    return *this;
}

void json::write(std::ostream& out, int indent) const
{
    const std::string pad(indent + 2, ' ');
    if (d_kind == kind::scalar) {
        out << d_text;
    } else if (d_kind == kind::object) {
        out << "{";
        for (std::size_t i = 0; i < d_members.size(); ++i) {
            out << (i ? ",\n" : "\n") << pad << json(d_members[i].first).d_text << ": ";
            d_members[i].second.write(out, indent + 2);
        }
        out << (d_members.empty() ? "" : "\n" + std::string(indent, ' ')) << "}";
    } else {
        out << "[";
        for (std::size_t i = 0; i < d_items.size(); ++i) {
            out << (i ? ",\n" : "\n") << pad;
            d_items[i].write(out, indent + 2);
        }
        out << (d_items.empty() ? "" : "\n" + std::string(indent, ' ')) << "]";
    }
}

std::string json::dump() const
{
    std::ostringstream out;
    write(out);
    out << "\n";
    return out.str();
}

std::string format(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[256];
    const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < int(sizeof buf))
        return std::string(buf, std::max(n, 0));
    std::string big(n + 1, '\0');
    va_start(ap, fmt);
    std::vsnprintf(big.data(), big.size(), fmt, ap);
    va_end(ap);
    big.resize(n);
    return big;
}

void print_table(std::ostream& out,
                 const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        width[c] = header[c].size();
        for (const auto& row : rows)
            width[c] = std::max(width[c], row[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < cells.size(); ++c)
            out << (c ? "  " : "") << std::string(width[c] - cells[c].size(), ' ')
                << cells[c];
        out << "\n";
    };
    line(header);
    for (const auto& row : rows)
        line(row);
}

void write_text_file(const std::string& path, const std::string& text)
{
    std::ofstream file(path, std::ios::binary);
    if (file)
        file << text;
    if (!file || !file.flush())
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

void check_output_path(const std::string& flag, const std::string& path)
{
    namespace fs = std::filesystem;
    if (path.empty())
        throw usage_error("--" + flag + ": empty file name");
    const fs::path dir = fs::path(path).parent_path();
    std::error_code ec;
    if (!dir.empty() && !fs::is_directory(dir, ec))
        throw usage_error("--" + flag + ": folder '" + dir.string() + "' does not exist");
}

bool stderr_is_terminal() { return isatty(fileno(stderr)) == 1; }

const char* source_commit() { return GPUTURBO_COMMIT; }

std::string utc_timestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

int run_main(const char* program,
             const std::function<int()>& body,
             const std::string& out_of_memory_hint)
{
    try {
        return body();
    } catch (const usage_error& e) {
        std::cerr << program << ": error: " << e.what() << "\nTry '" << program
                  << " --help' for the options.\n";
        return 2;
    } catch (const std::invalid_argument& e) { // the engine refusing a value
        std::cerr << program << ": error: " << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << program << ": error: out of memory"
                  << (out_of_memory_hint.empty() ? "" : " (" + out_of_memory_hint + ")")
                  << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << program << ": error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace gputurbo::cli
