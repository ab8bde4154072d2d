/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

core::parameter integer(
    const char* name, const char* default_value, double min, double max, const char* help)
{
    return core::number(
        core::parameter_kind::integer, name, default_value, min, max, help);
}

std::vector<core::parameter> make_table()
{
    std::vector<core::parameter> t;
    t.push_back(integer("Qm",
                        "2",
                        2,
                        8,
                        "bits per modulation symbol: 2 (QPSK), 4 (16QAM), 6 (64QAM) or "
                        "8 (256QAM)"));
    t.back().values = { 2, 4, 6, 8 };
    t.push_back(integer("layers",
                        "1",
                        1,
                        4,
                        "transmission layers of the transport block (N_L of the "
                        "rate matching)"));
    t.push_back(integer("rv", "0", 0, 3, "redundancy version"));
    t.push_back(integer("soft_buffer",
                        "0",
                        1,
                        core::unbounded,
                        "N_IR, the transport block's soft buffer in bits (the circular "
                        "buffer of each code block is cut to N_IR / C)"));
    t.back().zero_means = "no limit";
    t.push_back(integer("c_init",
                        "-1",
                        double(no_scrambling),
                        double(max_c_init),
                        "c_init of the 36.211 scrambling sequence over the G bits; -1: "
                        "no scrambling"));
    t.push_back({ "early_stop",
                  core::parameter_kind::flag,
                  "true",
                  "a code block stops iterating once its CRC checks (CRC-24B, or the "
                  "transport block's CRC-24A when it is the only block)" });
    t.push_back(integer("max_harq_processes",
                        "4096",
                        1,
                        2147483647,
                        "HARQ processes that keep a soft buffer: one more drops the "
                        "buffer of the process used least recently (4096: 256 users of "
                        "8 processes of two transport blocks; a buffer takes 3 bytes a "
                        "bit of its transport block, 1.2 MB at most)"));
    return t;
}

} // namespace

const std::vector<core::parameter>& transport_parameters()
{
    static const std::vector<core::parameter> table = make_table();
    return table;
}

const core::parameter& transport_parameter(std::string_view name)
{
    return core::find_parameter(transport_parameters(), name);
}

void check_transport_value(std::string_view name, long value)
{
    const core::parameter& p = transport_parameter(name);
    if (p.values.empty()) {
        core::check(p, double(value));
        return;
    }
    if (std::find(p.values.begin(), p.values.end(), value) == p.values.end())
        throw std::invalid_argument(
            std::string(p.name) + "=" + std::to_string(value) +
            " is not a modulation order of LTE: use 2, 4, 6 or 8");
}

} // namespace gputurbo::lte
