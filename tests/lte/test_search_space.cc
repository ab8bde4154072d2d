/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PDCCH search spaces: N_CCE of the control region (36.211 §6.8.1) against srsRAN's
// count, Y_k and the candidates of 36.213 §9.1.1 against values computed apart from
// this code, and refusals.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/lte/search_space.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gputurbo::lte {
// Failures show a candidate as {first CCE, level}, not its bytes.
void PrintTo(const pdcch_candidate& c, std::ostream* os)
{
    *os << "{" << c.first_cce << ", " << c.level << "}";
}
} // namespace gputurbo::lte

using namespace gputurbo;
using lte::pdcch_candidate;
using lte::phich_resource;

namespace {

lte::control_region
region(int n_prb, int cfi, phich_resource ng, int ports = 2, int mi = 1)
{
    lte::control_region r;
    r.n_prb = n_prb;
    r.cfi = cfi;
    r.ng = ng;
    r.antenna_ports = ports;
    r.phich_mi = mi;
    return r;
}

constexpr phich_resource resources[] = { phich_resource::one_sixth,
                                         phich_resource::half,
                                         phich_resource::one,
                                         phich_resource::two };

} // namespace

TEST(LteSearchSpace, PhichResourceNames)
{
    const char* names[] = { "1/6", "1/2", "1", "2" };
    for (int i = 0; i < 4; ++i) {
        EXPECT_STREQ(lte::to_string(resources[i]), names[i]);
        EXPECT_EQ(lte::parse_phich_resource(names[i]), resources[i]);
    }
    try {
        lte::parse_phich_resource("1/3");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()),
                  "unknown PHICH resource ng '1/3': use 1/6, 1/2, 1, 2");
    }
}

// N_CCE with 2 antenna ports: rows 6, 15, 25, 50, 75, 100 PRB, then CFI 1, 2, 3, then
// N_g 1/6, 1/2, 1, 2. srsRAN 4G's count, transliterated to Python and run: regs.c's
// srsran_regs_init_opts() (REGs a PRB by symbol from regs_num_x_symbol(): 2, 3 with 1 or
// 2 ports, 3, 3; cfi + 1 symbols at 10 PRB or less), the PCFICH's 4 REGs, the PHICH's 3
// per group of ceil(N_g N / 8) groups in symbol 0 (phich_mi 1), and
// srsran_regs_pdcch_ncce() = REGs left / 9.
TEST(LteSearchSpace, CceCountsMatchSrsRan)
{
    const int bandwidths[] = { 6, 15, 25, 50, 75, 100 };
    const int expected[6][3][4] = {
        { { 2, 2, 2, 2 }, { 4, 4, 4, 4 }, { 6, 6, 6, 6 } },
        { { 2, 2, 2, 1 }, { 7, 7, 7, 6 }, { 12, 12, 12, 11 } },
        { { 4, 4, 3, 2 }, { 13, 12, 12, 11 }, { 21, 21, 20, 19 } },
        { { 10, 9, 8, 6 }, { 26, 26, 25, 23 }, { 43, 42, 41, 39 } },
        { { 15, 14, 12, 9 }, { 40, 39, 37, 34 }, { 65, 64, 62, 59 } },
        { { 20, 19, 17, 13 }, { 54, 52, 50, 46 }, { 87, 86, 84, 80 } },
    };
    for (int b = 0; b < 6; ++b)
        for (int cfi = 1; cfi <= 3; ++cfi)
            for (int g = 0; g < 4; ++g)
                EXPECT_EQ(lte::cce_count(region(bandwidths[b], cfi, resources[g])),
                          expected[b][cfi - 1][g])
                    << bandwidths[b] << " PRB, CFI " << cfi << ", N_g "
                    << lte::to_string(resources[g]);
}

TEST(LteSearchSpace, ControlRegionParts)
{
    // 20 MHz, CFI 3, 2 ports, N_g = 1: 100 (2 + 3 + 3) = 800 REGs, 4 PCFICH,
    // 3 ceil(100 / 8) = 39 PHICH: 757 left, 84 CCEs.
    const auto r = region(100, 3, phich_resource::one);
    EXPECT_EQ(lte::control_symbols(r), 3);
    EXPECT_EQ(lte::phich_groups(r), 13);
    EXPECT_EQ(lte::pdcch_regs(r), 757);
    EXPECT_EQ(lte::cce_count(r), 84);
    // The most a 20 MHz FDD subframe has: N_g = 1/6 (3 groups), 87; 88 without PHICH
    // (m_i = 0, some TDD subframes); 1 port as 2; 4 ports lose a REG a block.
    EXPECT_EQ(lte::cce_count(region(100, 3, phich_resource::one_sixth)), 87);
    EXPECT_EQ(lte::cce_count(region(100, 3, phich_resource::one, 2, 0)), 88);
    EXPECT_EQ(lte::cce_count(region(100, 3, phich_resource::one, 2, 2)), 79);
    EXPECT_EQ(lte::cce_count(region(100, 3, phich_resource::one, 1)), 84);
    EXPECT_EQ(lte::cce_count(region(100, 3, phich_resource::one, 4)), 73);
    // 10 PRB or less: one more symbol; CFI 3 spans 4 (2 + 2 + 3 + 3 REGs a block with 4
    // ports): 60 - 4 - 3 * 2 * 2 = 44 REGs.
    const auto small = region(6, 3, phich_resource::two, 4, 2);
    EXPECT_EQ(lte::control_symbols(small), 4);
    EXPECT_EQ(lte::phich_groups(small), 4);
    EXPECT_EQ(lte::cce_count(small), 4);
    EXPECT_EQ(lte::control_symbols(region(10, 1, phich_resource::one)), 2);
    EXPECT_EQ(lte::control_symbols(region(11, 1, phich_resource::one)), 1);
}

TEST(LteSearchSpace, RefusesRegionsOutOfRange)
{
    auto message = [](const lte::control_region& r) {
        try {
            lte::cce_count(r);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(region(5, 1, phich_resource::one)),
              "n_prb=5 is out of range: use 6 ... 110");
    EXPECT_EQ(message(region(111, 1, phich_resource::one)),
              "n_prb=111 is out of range: use 6 ... 110");
    EXPECT_EQ(message(region(6, 4, phich_resource::one)),
              "cfi=4 is out of range: use 1 ... 3");
    EXPECT_EQ(message(region(50, 0, phich_resource::one)),
              "cfi=0 is out of range: use 1 ... 3");
    EXPECT_EQ(message(region(50, 2, phich_resource::one, 3)),
              "antenna_ports=3 is out of range: use 1, 2 or 4");
    EXPECT_EQ(message(region(50, 2, phich_resource(7))),
              "ng=7 is out of range: use 1/6, 1/2, 1 or 2");
    EXPECT_EQ(message(region(50, 2, phich_resource::one, 2, 3)),
              "phich_mi=3 is out of range: use 0 ... 2");
    // No region has more CCEs than 97 (110 PRB, 3 symbols, one port, no PHICH): the
    // candidate lists refuse more, and never overflow first + level.
    EXPECT_EQ(lte::cce_count({ 110, 3, 1, phich_resource::one_sixth, 0 }), 97);
    EXPECT_EQ(lte::every_candidate(97).size(), std::size_t(97 + 48 + 24 + 12));
    for (const int n_cce : { 98, INT_MAX })
        for (const auto& list : { lte::every_candidate, lte::common_search_space })
            EXPECT_EQ(test::invalid_argument_message([&] { list(n_cce); }),
                      "n_cce=" + std::to_string(n_cce) +
                          " is out of range: use 0 ... 97 (a control region's most)");
    EXPECT_THROW(lte::ue_search_space(98, 0x1234, 0), std::invalid_argument);
}

// Y_k for k = 0 … 9, by 3 lines of Python apart from this code:
//   y = rnti
//   for k in range(10): y = 39827 * y % 65537; print(y)
// srsRAN 4G's srsran_pdcch_ue_locations_ncce_L() starts the same way (Yk = rnti, then
// sf_idx + 1 steps).
TEST(LteSearchSpace, HashingFunction)
{
    const std::pair<int, std::vector<unsigned>> cases[] = {
        { 0x003D, { 4578, 4072, 37006, 41906, 25020, 46992, 10275, 9397, 38049, 31009 } },
        { 0x1234,
          { 58573, 62893, 15371, 65237, 45171, 34767, 65110, 33491, 37033, 3106 } },
        { 0xFFFF, { 51420, 4164, 31018, 46973, 40006, 48955, 5035, 51262, 3050, 32289 } },
    };
    for (const auto& [rnti, ys] : cases)
        for (int k = 0; k < 10; ++k)
            EXPECT_EQ(lte::ue_search_space_y(rnti, k), ys[std::size_t(k)])
                << "rnti " << rnti << " subframe " << k;
    EXPECT_THROW(lte::ue_search_space_y(0, 0), std::invalid_argument);
    EXPECT_THROW(lte::ue_search_space_y(65536, 0), std::invalid_argument);
    EXPECT_THROW(lte::ue_search_space_y(1, 10), std::invalid_argument);
    EXPECT_THROW(lte::ue_search_space_y(1, -1), std::invalid_argument);
}

// The candidates of 36.213 §9.1.1, computed with the Python of HashingFunction: level
// by level, m in order, L ((Y_k + m) mod (n_cce // L)), repeats left out (as srsRAN's
// srsran_pdcch_ue_locations_ncce_L() leaves them out).
TEST(LteSearchSpace, UeSpecificCandidates)
{
    using list = std::vector<pdcch_candidate>;
    EXPECT_EQ(lte::ue_search_space(84, 0x1234, 0),
              (list{ { 25, 1 },
                     { 26, 1 },
                     { 27, 1 },
                     { 28, 1 },
                     { 29, 1 },
                     { 30, 1 },
                     { 50, 2 },
                     { 52, 2 },
                     { 54, 2 },
                     { 56, 2 },
                     { 58, 2 },
                     { 60, 2 },
                     { 16, 4 },
                     { 20, 4 },
                     { 24, 8 },
                     { 32, 8 } }));
    EXPECT_EQ(lte::ue_search_space(84, 0x1234, 7),
              (list{ { 59, 1 },
                     { 60, 1 },
                     { 61, 1 },
                     { 62, 1 },
                     { 63, 1 },
                     { 64, 1 },
                     { 34, 2 },
                     { 36, 2 },
                     { 38, 2 },
                     { 40, 2 },
                     { 42, 2 },
                     { 44, 2 },
                     { 68, 4 },
                     { 72, 4 },
                     { 8, 8 },
                     { 16, 8 } }));
    // 13 CCEs: level 1 wraps round 13, level 4 round 3, level 8 has one place.
    EXPECT_EQ(lte::ue_search_space(13, 0x003D, 3),
              (list{ { 7, 1 },
                     { 8, 1 },
                     { 9, 1 },
                     { 10, 1 },
                     { 11, 1 },
                     { 12, 1 },
                     { 4, 2 },
                     { 6, 2 },
                     { 8, 2 },
                     { 10, 2 },
                     { 0, 2 },
                     { 2, 2 },
                     { 8, 4 },
                     { 0, 4 },
                     { 0, 8 } }));
    EXPECT_EQ(lte::ue_search_space(2, 0xFFFF, 9), (list{ { 1, 1 }, { 0, 1 }, { 0, 2 } }));
    EXPECT_TRUE(lte::ue_search_space(0, 0xFFFF, 9).empty());
}

TEST(LteSearchSpace, UeCandidatesAreAlignedDistinctAndWithinTheRegion)
{
    for (int n_cce = 0; n_cce <= 97; ++n_cce)
        for (const int rnti : { 1, 0x003D, 0x1234, 0xFFF3, 0xFFFF })
            for (int subframe = 0; subframe < 10; ++subframe) {
                const auto list = lte::ue_search_space(n_cce, rnti, subframe);
                std::set<std::pair<int, int>> seen;
                int per_level[9] = {};
                for (const auto& c : list) {
                    ASSERT_TRUE(c.level == 1 || c.level == 2 || c.level == 4 ||
                                c.level == 8);
                    ASSERT_EQ(c.first_cce % c.level, 0);
                    ASSERT_GE(c.first_cce, 0);
                    ASSERT_LE(c.first_cce + c.level, n_cce);
                    ASSERT_TRUE(seen.insert({ c.first_cce, c.level }).second);
                    ++per_level[c.level];
                }
                // M(L) candidates, or as many places as the level has.
                const std::pair<int, int> counts[] = {
                    { 1, 6 }, { 2, 6 }, { 4, 2 }, { 8, 2 }
                };
                for (const auto& [level, count] : counts)
                    ASSERT_EQ(per_level[level], std::min(count, n_cce / level))
                        << n_cce << " CCEs, level " << level;
            }
    EXPECT_THROW(lte::ue_search_space(-1, 1, 0), std::invalid_argument);
    EXPECT_THROW(lte::ue_search_space(84, 0, 0), std::invalid_argument);
}

TEST(LteSearchSpace, CommonCandidates)
{
    using list = std::vector<pdcch_candidate>;
    const list full{ { 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 0, 8 }, { 8, 8 } };
    EXPECT_EQ(lte::common_search_space(84), full);
    EXPECT_EQ(lte::common_search_space(16), full);
    // Fewer than 16 CCEs: the candidates that fit.
    EXPECT_EQ(lte::common_search_space(15),
              (list{ { 0, 4 }, { 4, 4 }, { 8, 4 }, { 0, 8 } }));
    EXPECT_EQ(lte::common_search_space(10), (list{ { 0, 4 }, { 4, 4 }, { 0, 8 } }));
    EXPECT_EQ(lte::common_search_space(6), (list{ { 0, 4 } }));
    EXPECT_TRUE(lte::common_search_space(3).empty());
    EXPECT_THROW(lte::common_search_space(-1), std::invalid_argument);
}

TEST(LteSearchSpace, EveryCandidate)
{
    for (const int n_cce : { 0, 1, 7, 13, 84, 87 }) {
        const auto list = lte::every_candidate(n_cce);
        std::size_t expected = 0;
        for (const int level : { 1, 2, 4, 8 })
            expected += std::size_t(n_cce / level);
        ASSERT_EQ(list.size(), expected) << n_cce;
        std::set<std::pair<int, int>> seen;
        for (const auto& c : list) {
            ASSERT_EQ(c.first_cce % c.level, 0);
            ASSERT_LE(c.first_cce + c.level, n_cce);
            ASSERT_TRUE(seen.insert({ c.first_cce, c.level }).second);
        }
        // Every candidate of both search spaces is one of them.
        for (const auto& c : lte::common_search_space(n_cce))
            EXPECT_TRUE(seen.count({ c.first_cce, c.level }));
        for (const auto& c : lte::ue_search_space(n_cce, 0x1234, 4))
            EXPECT_TRUE(seen.count({ c.first_cce, c.level }));
    }
    // 84 CCEs: 84 + 42 + 21 + 10.
    EXPECT_EQ(lte::every_candidate(84).size(), 157u);
    EXPECT_EQ(lte::every_candidate(13).front(), (pdcch_candidate{ 0, 1 }));
    EXPECT_EQ(lte::every_candidate(13).back(), (pdcch_candidate{ 0, 8 }));
    EXPECT_THROW(lte::every_candidate(-1), std::invalid_argument);
}
