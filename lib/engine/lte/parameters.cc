/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

core::parameter choice(const char* name,
                       const char* default_value,
                       std::vector<std::string> choices,
                       const char* help)
{
    core::parameter p{ name, core::parameter_kind::choice, default_value, help };
    p.choices = std::move(choices);
    return p;
}

std::vector<core::parameter> make_control_table()
{
    using phich = phich_resource;
    std::vector<core::parameter> t;
    t.push_back(choice(
        "mode",
        to_string(pdcch_search_options{}.mode),
        { to_string(pdcch_search_mode::ue), to_string(pdcch_search_mode::exhaustive) },
        "blind search: ue (the common space and the UE-specific spaces "
        "of the RNTIs listed) or exhaustive (every CCE-aligned "
        "candidate, the RNTI read from the CRC)"));
    t.push_back(core::number(core::parameter_kind::real,
                             "min_correlation",
                             "0.6",
                             -1.0,
                             1.0,
                             "the re-encoding check: a DCI is reported when its "
                             "re-encoded bits correlate with its LLRs at least this "
                             "much (-1: every DCI the CRC passes)"));
    t.push_back(core::number(core::parameter_kind::real,
                             "max_false_alarm",
                             "1e-4",
                             0.0,
                             1.0,
                             "the false alarms allowed: a decoded candidate is reported "
                             "only where noise would pass its CRC rule with a "
                             "correlation as high with at most this probability (1: "
                             "off; with any RNTI, level-1 DCIs then need 0.93 ... 1)"));
    t.back().min_exclusive = true;
    t.push_back(integer("n_prb",
                        "100",
                        min_cell_prb,
                        max_cell_prb,
                        "the cell's bandwidth N_RB^DL in resource blocks"));
    t.push_back(integer("cfi",
                        "3",
                        1,
                        3,
                        "control format indicator: OFDM symbols of the control region "
                        "(one more at 10 resource blocks or fewer)"));
    t.push_back(
        integer("antenna_ports", "2", 1, 4, "the cell's antenna ports: 1, 2 or 4"));
    t.back().values = { 1, 2, 4 };
    t.push_back(choice("ng",
                       to_string(control_region{}.ng),
                       { to_string(phich::one_sixth),
                         to_string(phich::half),
                         to_string(phich::one),
                         to_string(phich::two) },
                       "the PHICH resource N_g of the MIB"));
    t.push_back(integer("phich_mi",
                        "1",
                        0,
                        2,
                        "m_i, the PHICH groups' factor: 1 in FDD; in TDD 0, 1 or 2 by "
                        "subframe and uplink-downlink configuration"));
    t.push_back(choice("duplex",
                       to_string(pdcch_subframe{}.duplex),
                       { to_string(duplex_mode::fdd), to_string(duplex_mode::tdd) },
                       "duplex mode: fdd or tdd (the DCI sizes)"));
    t.push_back(integer("subframe",
                        "0",
                        0,
                        9,
                        "subframe index k = floor(n_s / 2): the UE-specific spaces' Y_k "
                        "and the scrambling"));
    t.push_back(integer("cell_id",
                        "0",
                        0,
                        max_cell_id,
                        "the physical cell identity N_ID^cell (the scrambling)"));
    t.push_back({ "descramble",
                  core::parameter_kind::flag,
                  "false",
                  "the LLRs come scrambled: descramble them with the sequence of the "
                  "cell and subframe first" });
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

const std::vector<core::parameter>& control_parameters()
{
    static const std::vector<core::parameter> table = make_control_table();
    return table;
}

const core::parameter& control_parameter(std::string_view name)
{
    return core::find_parameter(control_parameters(), name);
}

void check_control_value(std::string_view name, long value)
{
    const core::parameter& p = control_parameter(name);
    if (p.values.empty()) {
        core::check(p, double(value));
        return;
    }
    if (std::find(p.values.begin(), p.values.end(), value) != p.values.end())
        return;
    std::string allowed;
    for (std::size_t i = 0; i < p.values.size(); ++i) {
        if (i > 0)
            allowed += i + 1 == p.values.size() ? " or " : ", ";
        allowed += std::to_string(p.values[i]);
    }
    throw std::invalid_argument(std::string(p.name) + "=" + std::to_string(value) +
                                " is out of range: use " + allowed);
}

} // namespace gputurbo::lte
