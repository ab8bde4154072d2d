/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cli.h"

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
    d_options.push_back({ "help", "", "", "show this help and exit" });
}

const option& args::find(const std::string& name) const
{
    for (const auto& o : d_options)
        if (!o.name.empty() && o.name == name)
            return o;
    throw usage_error("unknown option --" + name);
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
        d_values[name] = value;
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
    out << "Usage: " << d_program << " [options]\n\n" << d_summary << "\n";
    for (const auto& o : d_options) {
        if (o.name.empty()) {
            out << "\n" << o.help << ":\n";
            continue;
        }
        const std::string left =
            "  --" + o.name + (o.metavar.empty() ? "" : " " + o.metavar);
        std::string text = o.help;
        if (!o.metavar.empty())
            text += " (default: " + (o.default_value.empty() ? "none" : o.default_value) +
                    ")";
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
    out << "\nExit status: 0 on success, 2 for a bad option or value, 1 for a failure "
           "while running.\n";
    return out.str();
}

long to_int(const std::string& flag, const std::string& text, long min, long max)
{
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE)
        throw usage_error("--" + flag + ": '" + text + "' is not an integer");
    if (v < min || v > max)
        throw usage_error("--" + flag + ": " + text + " is out of range " +
                          std::to_string(min) + " ... " + std::to_string(max));
    return v;
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

std::vector<option> decoder_options(bool axes)
{
    const decoder_config d;
    const std::string list = axes ? ",..." : ""; // these axes take lists
    return {
        section("Code and decoder"),
        { "K",
          "N" + list,
          std::to_string(d.K),
          "block size, one of the 188 LTE sizes 40 ... 6144" },
        { "iterations",
          "N" + list,
          std::to_string(d.iterations),
          "full turbo iterations, 1 ... " + std::to_string(max_iterations) },
        { "algorithm",
          "NAME" + list,
          to_string(d.algo),
          "SISO arithmetic: log-map, max-log or scaled-max-log" },
        { "scaling",
          "X",
          format("%g", d.scaling),
          "extrinsic scaling of scaled-max-log, 0 < X <= 1" },
        { "subblocks",
          "P" + list,
          std::to_string(d.subblocks),
          "sub-blocks decoded in parallel per codeword; must divide K" },
        { "guard",
          "NAME" + list,
          to_string(d.guarding),
          "sub-block edge handling: none, pivi, dstw or pividstw" },
        { "guard-window",
          "G",
          std::to_string(d.guard_window),
          "training window of dstw/pividstw, 1 ... K/P" },
        { "early-stop",
          "RULE",
          to_string(d.early_stop),
          "early termination: off, crc24a, crc24b, mean-llr, min-llr or hard (crc24a/b "
          "frames carry that CRC)" },
        { "threshold",
          "T",
          format("%g", d.stop_threshold),
          "stop threshold of mean-llr/min-llr" },
        { "backend",
          "NAME",
          "auto",
          "auto, cpu, cuda, or reference (the slow exact CPU decoder)" },
        { "threads",
          "N",
          std::to_string(d.threads),
          "CPU worker threads, 0 = all cores" },
        { "arithmetic",
          "NAME",
          to_string(d.cuda_arithmetic),
          "CUDA metric arithmetic: auto (= int16), float32 (bit-identical to the CPU "
          "but for log-map's correction) or int16 (two codewords per GPU thread)" },
        { "input",
          "TYPE",
          "float",
          "LLR input type: float, or int8 (round(L * int8-scale), saturated to +-127)" },
        { "int8-scale",
          "Q",
          format("%g", d.int8_scale),
          "int8 input: LLR step 1/Q, range +-127/Q" },
    };
}

bool int8_input(const args& a)
{
    const std::string input = a.get("input");
    if (input != "float" && input != "int8")
        throw usage_error("--input: unknown type '" + input + "': use float or int8");
    return input == "int8";
}

decoder_config config_from(const args& a, bool axes)
{
    decoder_config c;
    c.scaling = float(to_double("scaling", a.get("scaling")));
    c.guard_window =
        int(to_int("guard-window", a.get("guard-window"), 1, turbo::max_block_size));
    c.early_stop = to_enum("early-stop", a.get("early-stop"), parse_stop_rule);
    c.stop_threshold = float(to_double("threshold", a.get("threshold")));
    c.threads = int(to_int("threads", a.get("threads"), 0, 4096));
    c.int8_scale = float(to_double("int8-scale", a.get("int8-scale")));
    c.cuda_arithmetic = to_enum("arithmetic", a.get("arithmetic"), parse_arithmetic);
    if (!axes) {
        c.K = int(to_int("K", a.get("K"), turbo::min_block_size, turbo::max_block_size));
        c.iterations = int(to_int("iterations", a.get("iterations"), 1, max_iterations));
        c.algo = to_enum("algorithm", a.get("algorithm"), parse_algorithm);
        c.subblocks =
            int(to_int("subblocks", a.get("subblocks"), 0, turbo::max_block_size));
        c.guarding = to_enum("guard", a.get("guard"), parse_guard);
    }
    return c;
}

std::string arithmetic_used(const decoder& d)
{
    const decoder_config& c = d.config();
    if (d.backend() != "cuda")
        return "float32";
    if (c.cuda_arithmetic == arithmetic::automatic)
        return "int16";
    return to_string(c.cuda_arithmetic);
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

int run_main(const char* program, const std::function<int()>& body)
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
        std::cerr << program << ": error: out of memory (try a smaller --batch)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << program << ": error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace gputurbo::cli
