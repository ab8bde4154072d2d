/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The conv parameter table (conv/parameters.h): viterbi_config's defaults are the
// table's, every choice and value reads back, and bad values name their parameter.

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

using namespace gputurbo;
using namespace gputurbo::conv;

namespace {

std::string config_message(const std::map<std::string, std::string>& values)
{
    try {
        config_from(values);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

std::string value_of(const viterbi_config& c, const std::string& name)
{
    for (const auto& [p, text] : config_values(c))
        if (p->name == name)
            return text;
    return "(missing)";
}

} // namespace

TEST(ConvParameters, ConfigDefaultsAreTheTables)
{
    const auto values = config_values(viterbi_config{});
    std::set<std::string> in_table;
    for (const auto& [p, text] : values) {
        EXPECT_EQ(text, p->default_value) << p->name;
        in_table.insert(p->name);
    }
    // Every parameter is the config's, the block size, the preset or the blocks' own.
    std::set<std::string> not_config = { "preset", "frame_bits" };
    for (const auto& p : core::block_parameters())
        not_config.insert(p.name);
    for (const auto& p : parameters())
        EXPECT_EQ(in_table.count(p.name) + not_config.count(p.name), 1u) << p.name;
    // The defaults, read as text, give the default config.
    const viterbi_config c = config_from({});
    EXPECT_EQ(c.generator.text(), viterbi_config{}.generator.text());
    EXPECT_EQ(c.mode, viterbi_config{}.mode);
    EXPECT_TRUE(c.punctured.none());
    EXPECT_EQ(c.threads, viterbi_config{}.threads);
    EXPECT_EQ(c.int8_scale, viterbi_config{}.int8_scale);
    EXPECT_EQ(c.invert_llr, viterbi_config{}.invert_llr);
}

TEST(ConvParameters, SharedParametersAreTheCoresInBothFamilies)
{
    for (const auto& shared : core::engine_parameters()) {
        const core::parameter& mine = parameter(shared.name);
        const core::parameter& turbos = turbo::parameter(shared.name);
        EXPECT_EQ(core::range_text(mine), core::range_text(shared)) << shared.name;
        EXPECT_EQ(core::range_text(turbos), core::range_text(shared)) << shared.name;
        EXPECT_STREQ(mine.help, turbos.help) << shared.name;
        EXPECT_STREQ(mine.default_value, turbos.default_value) << shared.name;
    }
}

TEST(ConvParameters, EveryChoiceReadsBack)
{
    for (const auto& name : parameter("termination").choices)
        EXPECT_EQ(value_of(config_from({ { "termination", name } }), "termination"),
                  name);
    for (const auto& name : parameter("preset").choices) {
        if (name == "none")
            continue;
        const viterbi_config c = config_from({ { "preset", name } });
        EXPECT_EQ(c.generator.text(), preset(name).text()) << name;
        // The code's own text reads back as the same code.
        const viterbi_config again =
            config_from({ { "constraint", value_of(c, "constraint") },
                          { "polys", value_of(c, "polys") } });
        EXPECT_EQ(again.generator.text(), c.generator.text()) << name;
    }
    const viterbi_config ccsds = config_from({ { "constraint", "7" },
                                               { "polys", "171,-133" },
                                               { "puncture", "3/4" },
                                               { "invert_llr", "true" },
                                               { "int8_scale", "4.5" },
                                               { "threads", "3" } });
    EXPECT_EQ(value_of(ccsds, "polys"), "171,-133");
    EXPECT_EQ(value_of(ccsds, "puncture"), "101,110");
    EXPECT_EQ(value_of(ccsds, "invert_llr"), "true");
    EXPECT_EQ(value_of(ccsds, "int8_scale"), "4.5");
    EXPECT_EQ(value_of(ccsds, "threads"), "3");
    // The patterns read back as the same puncturing.
    EXPECT_EQ(puncture_text(config_from({ { "constraint", "7" },
                                          { "polys", "171,-133" },
                                          { "puncture", "101,110" } })
                                .punctured),
              "101,110");
}

TEST(ConvParameters, BadValuesNameTheirParameter)
{
    EXPECT_EQ(config_message({ { "constraint", "10" } }),
              "constraint K=10 is out of range: use 3 ... 9");
    EXPECT_EQ(config_message({ { "preset", "wifi" } }).rfind("unknown preset 'wifi'", 0),
              0u);
    EXPECT_EQ(config_message({ { "preset", "ccsds" }, { "polys", "171,133" } }),
              "preset ccsds and polys exclude each other: give one of them");
    EXPECT_EQ(config_message({ { "termination", "wrapped" } }),
              "unknown termination 'wrapped': use one of terminated, truncated, "
              "tail-biting, streaming");
    EXPECT_EQ(config_message({ { "threads", "-1" } }),
              "threads=-1 is out of range: use 1 ... 4096, or 0 (all cores)");
    EXPECT_EQ(config_message({ { "int8_scale", "0" } }),
              "int8_scale=0 is out of range: use a finite value > 0");
    EXPECT_NE(config_message({ { "puncture", "2/3" }, { "preset", "gsm" } }),
              "(accepted)");
    EXPECT_THROW(config_from({ { "frame_bits", "8" } }), std::logic_error);
    // validate() reads the table's ranges.
    viterbi_config c;
    c.threads = 5000;
    EXPECT_THROW(c.validate(), std::invalid_argument);
    c.threads = 0;
    c.int8_scale = -1.0f;
    EXPECT_THROW(c.validate(), std::invalid_argument);
}
