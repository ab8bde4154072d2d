/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CRCs in the core (the turbo stop rules and the LTE transport layer share them):
// the transport layer's names are the core's, and the contribution tables the GPU
// kernels check CRCs with agree with the register.

#include <gnuradio/gputurbo/engine/core/crc.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

using namespace gputurbo;

static_assert(std::is_same_v<lte::crc, core::crc>, "one CRC enum for every floor");

TEST(CoreCrc, ContributionsOfTheSetBitsXorToTheParity)
{
    std::mt19937 rng(5);
    for (const core::crc type :
         { core::crc::crc24a, core::crc::crc24b, core::crc::crc16, core::crc::crc8 })
        for (const int K : { 1, 8, 40, 1000, 6144 }) {
            const std::vector<std::uint32_t> table = core::crc_contributions(type, K);
            ASSERT_EQ(table.size(), std::size_t(K));
            for (int trial = 0; trial < 4; ++trial) {
                std::vector<std::uint8_t> bits(K);
                std::uint32_t x = 0;
                for (int k = 0; k < K; ++k) {
                    bits[k] = rng() & 1u;
                    x ^= bits[k] ? table[k] : 0u;
                }
                ASSERT_EQ(x, core::crc_parity(type, bits.data(), bits.size()))
                    << "K=" << K << " crc " << int(type);
            }
        }
}
