/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "record.h"

#include <gnuradio/gputurbo/engine/core/version.h>

#include <fstream>
#include <iterator>
#include <thread>

namespace gputurbo::cli {
namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to)
{
    for (auto at = s.find(from); at != std::string::npos;
         at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

} // namespace

json record(const std::string& tool,
            const std::string& device,
            json parameters,
            json rows)
{
    auto r = json::object();
    r.set("record", 1)
        .set("tool", tool)
        .set("command", command_line())
        .set("commit", source_commit())
        .set("version", core::version())
        .set("date", utc_timestamp())
        .set("device", device)
        .set("cpu", cpu_model())
        .set("parameters", std::move(parameters))
        .set("rows", std::move(rows));
    return r;
}

json llr_statistics(const sim::soft_statistics& s)
{
    const double measured = s.sign_error_rate();
    auto counts = json::array();
    for (const std::uint64_t c : s.histogram)
        counts.push(c);
    auto histogram = json::object();
    histogram.set("low", -sim::soft_statistics::histogram_limit)
        .set("high", sim::soft_statistics::histogram_limit)
        .set("bin_width", sim::soft_statistics::histogram_width)
        .set("counts", std::move(counts));
    auto j = json::object();
    j.set("count", s.count)
        .set("mean_abs_llr", s.mean_abs())
        .set("channel_mean_abs_llr", s.channel_mean_abs())
        .set("wrong_signs", s.wrong_signs)
        .set("zeros", s.zeros)
        .set("nan_values", s.nan_values)
        .set("sign_error_rate", measured)
        .set("predicted_ber", s.predicted_ber())
        .set("predicted_over_measured",
             measured > 0 ? json(s.predicted_ber() / measured) : json())
        .set("histogram", std::move(histogram));
    return j;
}

std::string command_line()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all{ std::istreambuf_iterator<char>(in), {} };
    std::string line;
    std::size_t start = 0;
    for (std::size_t end; (end = all.find('\0', start)) != std::string::npos;
         start = end + 1) {
        std::string word = all.substr(start, end - start);
        if (line.empty()) // the program by its name, not the path it was started by
            word = word.substr(word.rfind('/') + 1);
        else if (word.empty() ||
                 word.find_first_of(" \t'\"\\$|&;<>()*?") != std::string::npos)
            word = "'" + replace_all(word, "'", "'\\''") + "'";
        line += (line.empty() ? "" : " ") + word;
    }
    return line;
}

std::string cpu_model()
{
    // The first processor's fields: model names such as "AMD EPYC" leave the generation
    // to the family and model numbers.
    std::ifstream in("/proc/cpuinfo");
    std::string name = "unknown CPU", family, model;
    for (std::string line; std::getline(in, line) && !line.empty();) {
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon + 2 > line.size())
            continue;
        const std::string key = line.substr(0, line.find_first_of(" \t"));
        const std::string value = line.substr(colon + 2);
        if (line.rfind("model name", 0) == 0)
            name = value;
        else if (line.rfind("cpu family", 0) == 0)
            family = value;
        else if (key == "model")
            model = value;
    }
    if (!family.empty() && !model.empty())
        name += " (family " + family + ", model " + model + ")";
    return name + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
}

} // namespace gputurbo::cli
