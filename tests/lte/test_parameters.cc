/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transport channel's parameter table (lte/parameters.h): its defaults are
// transport_format's and transport_config's, and it accepts exactly what
// transport_format::validate() and make_transport_decoder() accept.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

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
