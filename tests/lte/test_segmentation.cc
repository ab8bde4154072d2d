/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Code-block segmentation (36.212 §5.1.2): the parameters of every transport block size
// of the independent DL-SCH vectors, and for any size the rules of the section, the
// blocks' CRC-24B and the way back.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace gputurbo;

namespace {

std::string vectors_dir()
{
    const char* env = std::getenv("GPUTURBO_DLSCH_VECTORS_DIR");
    return env && *env ? env : GPUTURBO_DLSCH_VECTORS_DIR;
}

// The "case" lines of dlsch.txt (each transport block size and modulation once; the
// four redundancy versions share a segmentation): name -> value.
std::map<std::pair<int, int>, std::map<std::string, int>> vector_cases()
{
    std::ifstream in(vectors_dir() + "/dlsch.txt");
    std::map<std::pair<int, int>, std::map<std::string, int>> cases;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string word;
        if (!(words >> word) || word != "case")
            continue;
        std::map<std::string, int> fields;
        int value;
        for (words >> value; words >> word >> value;)
            fields[word] = value;
        cases[{ fields.at("tbs"), fields.at("Qm") }] = fields;
    }
    return cases;
}

} // namespace

TEST(LteSegmentation, MatchesTheIndependentVectors)
{
    const auto cases = vector_cases();
    ASSERT_EQ(cases.size(), 35u) << "read from " << vectors_dir();
    for (const auto& [key, f] : cases) {
        const int tbs = key.first;
        const lte::segmentation s = lte::segment(tbs + 24); // with the CRC-24A
        EXPECT_EQ(s.C, f.at("C")) << tbs;
        EXPECT_EQ(s.K_plus, f.at("Kplus")) << tbs;
        EXPECT_EQ(s.K_minus, f.at("Kminus")) << tbs;
        EXPECT_EQ(s.C_minus, f.at("Cminus")) << tbs;
        EXPECT_EQ(s.F, f.at("F")) << tbs;
    }
}

TEST(LteSegmentation, FollowsTheRulesForEverySize)
{
    // Every B up to two blocks and a sample beyond: C the fewest blocks, K+ the
    // smallest size that holds them, K- the size below it, the filler bits fewer than
    // a step between sizes, every bit in exactly one block.
    std::mt19937_64 rng(test::test_seed());
    std::vector<int> sizes;
    for (int B = 1; B <= 2 * turbo::max_block_size; ++B)
        sizes.push_back(B);
    for (int i = 0; i < 2000; ++i)
        sizes.push_back(1 + int(rng() % 400000));
    for (const int B : sizes) {
        const lte::segmentation s = lte::segment(B);
        ASSERT_GE(s.C, 1);
        const int L = s.C > 1 ? 24 : 0;
        EXPECT_EQ(s.L, L);
        EXPECT_LE(B + s.C * L, s.C * turbo::max_block_size) << B;
        if (s.C > 1)
            EXPECT_GT(B + (s.C - 1) * L, (s.C - 1) * turbo::max_block_size) << B;
        EXPECT_TRUE(turbo::is_valid_block_size(s.K_plus)) << B;
        EXPECT_EQ(s.C_plus + s.C_minus, s.C) << B;
        long total = 0;
        for (int r = 0; r < s.C; ++r)
            total += s.block_size(r);
        EXPECT_EQ(total, long(B) + long(s.C) * L + s.F) << B;
        EXPECT_GE(s.F, 0) << B;
        if (s.C_minus > 0) {
            EXPECT_TRUE(turbo::is_valid_block_size(s.K_minus)) << B;
            EXPECT_LT(s.F, s.K_plus - s.K_minus) << B;
        }
        const auto& table = turbo::qpp_table();
        const auto plus = std::find_if(table.begin(), table.end(), [&](const auto& row) {
            return row.K == s.K_plus;
        });
        if (plus != table.begin()) // the size below holds fewer than B'
            EXPECT_LT(long(s.C) * std::prev(plus)->K, long(B) + long(s.C) * L) << B;
        if (s.C > 1)
            EXPECT_EQ(s.K_minus, std::prev(plus)->K) << B;
    }
}

TEST(LteSegmentation, BlocksCarryTheirShareAndCheckAndComeBack)
{
    // Sizes with filler bits and with both block sizes among them.
    std::mt19937 rng{ unsigned(test::test_seed()) };
    for (const int B : { 1, 30, 40, 100, 6144, 6145, 6200, 12000, 20000, 75400 }) {
        const lte::segmentation s = lte::segment(B);
        std::vector<std::uint8_t> b(B), back(B, 7);
        for (auto& bit : b)
            bit = std::uint8_t(rng() & 1u);
        for (int r = 0; r < s.C; ++r) {
            std::vector<std::uint8_t> block(s.block_size(r), 7);
            lte::code_block(s, b.data(), r, block.data());
            for (int i = 0; i < (r == 0 ? s.F : 0); ++i)
                EXPECT_EQ(block[i], 0) << B << " filler bit " << i;
            if (s.C > 1)
                EXPECT_TRUE(lte::check_crc24(lte::crc24::b, block.data(), block.size()))
                    << B << " block " << r;
            lte::concatenate_block(s, block.data(), r, back.data());
        }
        EXPECT_EQ(back, b) << B;
    }
    EXPECT_THROW(lte::segment(0), std::invalid_argument);
    const lte::segmentation one = lte::segment(100);
    std::vector<std::uint8_t> b(100), block(one.K_plus);
    EXPECT_THROW(lte::code_block(one, b.data(), 1, block.data()), std::invalid_argument);
}
