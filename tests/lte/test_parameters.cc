/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transport channel's parameter table (lte/parameters.h): its defaults are
// transport_format's and transport_config's, and it accepts exactly what
// transport_format::validate() and make_transport_decoder() accept. The control
// channel's: its defaults are control_region's, pdcch_subframe's and
// pdcch_search_options', and it accepts what cce_count(), pdcch_c_init() and
// pdcch_searcher::search() accept.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace gputurbo;
using gputurbo::test::invalid_argument_message;

namespace {

long& field(lte::transport_format& f, const std::string& name, long& scratch)
{
    if (name == "soft_buffer")
        return f.soft_buffer;
    if (name == "c_init")
        return f.c_init;
    return scratch;
}

// A format of 1000 bits with one field set; G fits every Qm and layers.
lte::transport_format with(const std::string& name, long value)
{
    lte::transport_format f;
    f.tbs = 1000;
    f.G = 8 * 4 * 3 * 100;
    long scratch = 0;
    field(f, name, scratch) = value;
    if (name == "Qm")
        f.Qm = int(value);
    else if (name == "layers")
        f.layers = int(value);
    else if (name == "rv")
        f.rv = int(value);
    return f;
}

} // namespace

TEST(LteParameters, DefaultsAreTheFormatsAndTheConfigs)
{
    const lte::transport_format f;
    EXPECT_EQ(std::to_string(f.Qm), lte::transport_parameter("Qm").default_value);
    EXPECT_EQ(std::to_string(f.layers), lte::transport_parameter("layers").default_value);
    EXPECT_EQ(std::to_string(f.rv), lte::transport_parameter("rv").default_value);
    EXPECT_EQ(std::to_string(f.soft_buffer),
              lte::transport_parameter("soft_buffer").default_value);
    EXPECT_EQ(std::to_string(f.c_init), lte::transport_parameter("c_init").default_value);
    EXPECT_EQ(lte::transport_config{}.early_stop ? "true" : "false",
              std::string(lte::transport_parameter("early_stop").default_value));
    EXPECT_EQ(std::to_string(lte::transport_config{}.max_harq_processes),
              lte::transport_parameter("max_harq_processes").default_value);
    EXPECT_THROW(lte::transport_parameter("tbs"), std::logic_error);
}

TEST(LteParameters, TheTableAcceptsWhatValidateAccepts)
{
    for (const auto& p : lte::transport_parameters()) {
        if (p.kind != core::parameter_kind::integer)
            continue;
        const double high = std::isinf(p.max) ? 1e12 : p.max;
        for (const double v : { p.min - 2,
                                p.min - 1,
                                p.min,
                                p.min + 1,
                                0.0,
                                high - 1,
                                high,
                                high + 1,
                                3.0,
                                5.0,
                                7.0 }) {
            const long value = long(v);
            const bool table = invalid_argument_message([&] {
                                   lte::check_transport_value(p.name, value);
                               }) == "(accepted)";
            const bool engine = invalid_argument_message([&] {
                                    if (p.name == std::string("max_harq_processes")) {
                                        lte::transport_config c;
                                        c.max_harq_processes = int(value);
                                        lte::make_transport_decoder(c, "reference");
                                    } else
                                        with(p.name, value).validate();
                                }) == "(accepted)";
            EXPECT_EQ(table, engine) << p.name << "=" << value;
        }
    }
    EXPECT_EQ(invalid_argument_message([] { lte::check_transport_value("rv", 4); }),
              "rv=4 is out of range: use 0 ... 3");
}

TEST(LteControlParameters, DefaultsAreThoseOfTheRegionSubframeAndSearch)
{
    const lte::control_region r;
    const lte::pdcch_subframe sf;
    const lte::pdcch_search_options o;
    auto text = [](const char* name) {
        return std::string(lte::control_parameter(name).default_value);
    };
    EXPECT_EQ(text("n_prb"), std::to_string(r.n_prb));
    EXPECT_EQ(text("cfi"), std::to_string(r.cfi));
    EXPECT_EQ(text("antenna_ports"), std::to_string(r.antenna_ports));
    EXPECT_EQ(text("ng"), lte::to_string(r.ng));
    EXPECT_EQ(text("phich_mi"), std::to_string(r.phich_mi));
    EXPECT_EQ(text("duplex"), lte::to_string(sf.duplex));
    EXPECT_EQ(text("subframe"), std::to_string(sf.subframe));
    EXPECT_EQ(text("mode"), lte::to_string(o.mode));
    EXPECT_EQ(std::stod(text("min_correlation")), o.min_correlation);
    EXPECT_EQ(std::stod(text("max_false_alarm")), o.max_false_alarm);
    EXPECT_EQ(text("cell_id"), "0");
    EXPECT_EQ(text("descramble"), "false");
    // The choices name every value of their enums, in the enums' order.
    EXPECT_EQ(lte::control_parameter("mode").choices,
              (std::vector<std::string>{ "ue", "exhaustive" }));
    for (std::size_t i = 0; i < lte::control_parameter("ng").choices.size(); ++i)
        EXPECT_EQ(lte::control_parameter("ng").choices[i],
                  lte::to_string(lte::phich_resource(i)));
    EXPECT_THROW(lte::control_parameter("rnti"), std::logic_error);
}

TEST(LteControlParameters, TheTableAcceptsWhatTheEngineAccepts)
{
    lte::pdcch_searcher searcher(
        conv::make_viterbi_decoder(lte::control_decoder_config(), "reference"));
    for (const auto& p : lte::control_parameters()) {
        if (p.kind != core::parameter_kind::integer)
            continue;
        const std::string name = p.name;
        for (const double v : { p.min - 2,
                                p.min - 1,
                                p.min,
                                p.min + 1,
                                3.0,
                                p.max - 1,
                                p.max,
                                p.max + 1 }) {
            const int value = int(v);
            const bool table = invalid_argument_message([&] {
                                   lte::check_control_value(name, value);
                               }) == "(accepted)";
            const std::string engine = invalid_argument_message([&] {
                lte::control_region r;
                if (name == "subframe")
                    lte::pdcch_c_init(value, 0);
                else if (name == "cell_id")
                    lte::pdcch_c_init(0, value);
                else {
                    (name == "n_prb"           ? r.n_prb
                     : name == "cfi"           ? r.cfi
                     : name == "antenna_ports" ? r.antenna_ports
                                               : r.phich_mi) = value;
                    lte::cce_count(r);
                }
            });
            EXPECT_EQ(table, engine == "(accepted)") << name << "=" << value;
            if (!table) // the same words
                EXPECT_EQ(invalid_argument_message(
                              [&] { lte::check_control_value(name, value); }),
                          engine);
        }
    }
    // The search options' reals: the table's range is what the search accepts.
    using option = double lte::pdcch_search_options::*;
    const std::tuple<const char*, option, std::vector<double>> reals[] = {
        { "min_correlation",
          &lte::pdcch_search_options::min_correlation,
          { -1.5, -1.0, 0.0, 0.6, 1.0, 1.0001 } },
        { "max_false_alarm",
          &lte::pdcch_search_options::max_false_alarm,
          { -1.0, 0.0, 1e-300, 1e-4, 1.0, 1.0001 } },
    };
    for (const auto& [name, member, values] : reals)
        for (const double v : values) {
            lte::pdcch_search_options o;
            o.*member = v;
            EXPECT_EQ(core::in_range(lte::control_parameter(name), v),
                      invalid_argument_message([&] { searcher.search(nullptr, 0, o); }) ==
                          "(accepted)")
                << name << " " << v;
        }
}
