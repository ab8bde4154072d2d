/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The parameter table (core/parameters.h, turbo/parameters.h): decoder_config agrees
// with it, validation and the text interface speak its ranges and messages.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

using namespace gputurbo;
using gputurbo::test::invalid_argument_message;
using namespace gputurbo::turbo;

namespace {

std::string validate_message(void (*edit)(decoder_config&))
{
    decoder_config c;
    edit(c);
    return invalid_argument_message([&] { c.validate(); });
}

} // namespace

TEST(Parameters, ConfigDefaultsAreTheTables)
{
    const auto values = config_values(decoder_config{});
    std::set<std::string> in_table;
    for (const auto& [p, text] : values) {
        EXPECT_EQ(text, p->default_value) << p->name;
        EXPECT_TRUE(in_config(p->name)) << p->name;
        in_table.insert(p->name);
    }
    // Every parameter is the config's or one of the blocks' own.
    std::set<std::string> blocks_own;
    for (const auto& p : core::block_parameters())
        blocks_own.insert(p.name);
    for (const auto& p : parameters())
        if (!in_table.count(p.name))
            EXPECT_TRUE(blocks_own.count(p.name)) << p.name;
    EXPECT_EQ(in_table.size(), parameters().size() - blocks_own.size());
    EXPECT_THROW(parameter("no_such"), std::logic_error);
}

TEST(Parameters, LimitsAreTheEngines)
{
    EXPECT_EQ(parameter("iterations").max, max_iterations);
    EXPECT_EQ(parameter("batches_in_flight").max, core::batch_decoder::max_in_flight);
    EXPECT_EQ(parameter("max_batch").max, core::max_batch_limit);
    const auto& K = parameter("K");
    ASSERT_EQ(K.values.size(), qpp_table().size());
    for (std::size_t i = 0; i < K.values.size(); ++i)
        EXPECT_EQ(K.values[i], qpp_table()[i].K);
    EXPECT_EQ(K.min, min_block_size);
    EXPECT_EQ(K.max, max_block_size);
}

TEST(Parameters, EveryChoiceAndDefaultReadsBack)
{
    for (const auto& p : parameters()) {
        if (!in_config(p.name))
            continue;
        std::vector<std::string> texts{ p.default_value };
        texts.insert(texts.end(), p.choices.begin(), p.choices.end());
        for (const auto& text : texts) {
            decoder_config c;
            set_config_value(c, p.name, text);
            for (const auto& [q, value] : config_values(c))
                if (q == &p)
                    EXPECT_EQ(value, text) << p.name;
        }
    }
    EXPECT_TRUE(core::parse_input_type("int8"));
    EXPECT_FALSE(core::parse_input_type("float"));
}

TEST(Parameters, OneWordingForBadValues)
{
    decoder_config c;
    auto set = [&](const char* name, const char* text) {
        return invalid_argument_message([&] { set_config_value(c, name, text); });
    };
    EXPECT_EQ(set("iterations", "0"), "iterations=0 is out of range: use 1 ... 32");
    EXPECT_EQ(set("iterations", "six"), "iterations='six' is not an integer");
    EXPECT_EQ(set("subblocks", "-1"),
              "subblocks P=-1 is out of range: use 1 ... 6144, or 0 (automatic)");
    EXPECT_EQ(set("subblocks", "0"), "(accepted)");
    EXPECT_EQ(set("scaling", "0"), "scaling=0 is out of range: use 0 < scaling <= 1");
    EXPECT_EQ(set("scaling", "1"), "(accepted)");
    EXPECT_EQ(set("stop_threshold", "-2.5"),
              "stop_threshold T=-2.5 is out of range: use a finite value >= 0");
    EXPECT_EQ(set("int8_scale", "0"),
              "int8_scale=0 is out of range: use a finite value > 0");
    EXPECT_EQ(set("threads", "5000"),
              "threads=5000 is out of range: use 1 ... 4096, or 0 (all cores)");
    EXPECT_EQ(set("guard", "wide"),
              "unknown guard 'wide': use one of none, pivi, dstw, pividstw");
    EXPECT_EQ(set("layout", "rows"),
              "unknown layout 'rows': use one of interleaved, streams");
    EXPECT_EQ(set("invert_llr", "maybe"), "invert_llr='maybe' is not true or false");
    EXPECT_THROW(set_config_value(c, "max_batch", "1"), std::logic_error);
    EXPECT_EQ(core::range_text(parameter("early_stop")),
              "one of off, crc24a, crc24b, mean-llr, min-llr, hard");
}

TEST(Parameters, ValidationUsesTheTable)
{
    EXPECT_EQ(validate_message([](decoder_config& c) { c.iterations = 33; }),
              "iterations=33 is out of range: use 1 ... 32");
    // The table's range holds whatever P turns out to be.
    EXPECT_EQ(validate_message([](decoder_config& c) { c.guard_window = 0; }),
              "guard_window g=0 is out of range: use 1 ... 6144");
    EXPECT_EQ(
        validate_message([](decoder_config& c) { c.stop_threshold = std::nanf(""); }),
        "stop_threshold T=nan is out of range: use a finite value >= 0");
    EXPECT_EQ(validate_message([](decoder_config& c) { c.threads = -1; }),
              "threads=-1 is out of range: use 1 ... 4096, or 0 (all cores)");
    EXPECT_EQ(validate_message([](decoder_config& c) { c.devices = "0,,1"; }),
              "devices='0,,1' is invalid: use GPU indices such as 0 or 0,1, or all");
    EXPECT_EQ(validate_message([](decoder_config& c) { c.K = 0; }), "(accepted)");
    EXPECT_NE(validate_message([](decoder_config& c) { c.K = 41; }).find("K=41"),
              std::string::npos);
}

TEST(Parameters, AssignTakesValuesOfTheirKind)
{
    decoder_config c;
    assign(c, "iterations", 8LL);
    assign(c, "scaling", 0.5);
    assign(c, "stop_threshold", 12LL); // an integer for a real
    assign(c, "algorithm", std::string("max-log"));
    assign(c, "invert_llr", true);
    EXPECT_EQ(c.iterations, 8);
    EXPECT_EQ(c.scaling, 0.5f);
    EXPECT_EQ(c.stop_threshold, 12.0f);
    EXPECT_EQ(c.algo, algorithm::max_log);
    EXPECT_TRUE(c.invert_llr);
    // The range is validate()'s; a value of another kind or an unknown name is not.
    assign(c, "iterations", 0LL);
    EXPECT_EQ(invalid_argument_message([&] { c.validate(); }),
              "iterations=0 is out of range: use 1 ... 32");
    EXPECT_EQ(
        invalid_argument_message([&] { assign(c, "iterations", std::string("8")); }),
        "iterations must be an integer");
    EXPECT_EQ(invalid_argument_message([&] { assign(c, "iterations", 1LL << 40); }),
              "iterations=1099511627776 is out of range: use 1 ... 32");
    EXPECT_EQ(invalid_argument_message([&] { assign(c, "algorithm", 1.0); }),
              "algorithm must be a text");
    EXPECT_EQ(invalid_argument_message([&] { assign(c, "algorithm", std::string("x")); }),
              "unknown algorithm 'x': use one of log-map, max-log, scaled-max-log");
    EXPECT_THROW(assign(c, "max_batch", 1LL), std::logic_error);

    // Every default, as default_of() reads it, gives the config's own.
    decoder_config d;
    d.iterations = 1;
    d.algo = algorithm::log_map;
    for (const auto& p : parameters())
        if (in_config(p.name))
            assign(d, p.name, core::default_of(p));
    for (const auto& [p, text] : config_values(d))
        EXPECT_EQ(text, p->default_value) << p->name;
}
