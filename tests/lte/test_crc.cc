/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The four CRCs of 36.212 §5.1.1: known values, the bit-by-bit register at any length,
// attach-then-check, error detection.

#include <gnuradio/gputurbo/engine/lte/crc.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gputurbo;

namespace {

struct crc_case
{
    lte::crc type;
    const char* name;
    int length;
    std::uint32_t polynomial; // without its D^L term
    std::uint32_t check;      // parity of ASCII "123456789", MSB first
};

// The check values come from plain GF(2) long division of data(D) * D^L by g(D) with
// Python integers, not from this code:
//   v = int(bits, 2) << L
//   while v.bit_length() > L: v ^= g << (v.bit_length() - g.bit_length())
// They agree with the CRC catalogue's non-reflected, zero-init entries CRC-24/LTE-A,
// CRC-24/LTE-B, CRC-16/XMODEM and CRC-8/LTE (not CRC-8/WCDMA, which is reflected).
const crc_case cases[] = {
    { lte::crc::crc24a, "crc24a", 24, 0x864CFBu, 0xCDE703u },
    { lte::crc::crc24b, "crc24b", 24, 0x800063u, 0x23EF52u },
    { lte::crc::crc16, "crc16", 16, 0x1021u, 0x31C3u },
    { lte::crc::crc8, "crc8", 8, 0x9Bu, 0xEAu },
};

// The test names and ctest's list show the CRC's name, not the struct's bytes.
void PrintTo(const crc_case& c, std::ostream* os) { *os << c.name; }

std::vector<std::uint8_t> ascii_bits(const std::string& text)
{
    std::vector<std::uint8_t> bits;
    for (const unsigned char c : text)
        for (int i = 7; i >= 0; --i)
            bits.push_back(std::uint8_t((c >> i) & 1u));
    return bits;
}

class LteCrc : public testing::TestWithParam<crc_case>
{
};

TEST_P(LteCrc, LengthAndKnownValues)
{
    const crc_case& c = GetParam();
    EXPECT_EQ(lte::crc_length(c.type), c.length);
    const auto bits = ascii_bits("123456789");
    EXPECT_EQ(lte::crc_parity(c.type, bits.data(), bits.size()), c.check);
    // A single 1 leaves the polynomial in the register; nothing leaves it at zero.
    const std::uint8_t one = 1;
    EXPECT_EQ(lte::crc_parity(c.type, &one, 1), c.polynomial);
    EXPECT_EQ(lte::crc_parity(c.type, nullptr, 0), 0u);
}

// 36.212's shift register one bit at a time: what the byte-wise tables must equal.
std::uint32_t bitwise_parity(const crc_case& c, const std::uint8_t* bits, std::size_t n)
{
    const std::uint32_t top = std::uint32_t(1) << (c.length - 1);
    std::uint32_t reg = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool feedback = ((reg & top) != 0) != ((bits[i] & 1u) != 0);
        reg = (reg << 1) & (2 * top - 1);
        if (feedback)
            reg ^= c.polynomial;
    }
    return reg;
}

TEST_P(LteCrc, MatchesTheBitwiseRegisterAtEveryLength)
{
    const crc_case& c = GetParam();
    std::mt19937 rng(5);
    std::vector<std::uint8_t> bits(6200);
    for (auto& b : bits)
        b = rng() & 1u;
    for (std::size_t n = 0; n < 100; ++n)
        ASSERT_EQ(lte::crc_parity(c.type, bits.data(), n),
                  bitwise_parity(c, bits.data(), n))
            << "n=" << n;
    for (int trial = 0; trial < 20; ++trial) {
        const std::size_t n = rng() % bits.size();
        ASSERT_EQ(lte::crc_parity(c.type, bits.data(), n),
                  bitwise_parity(c, bits.data(), n))
            << "n=" << n;
    }
}

TEST_P(LteCrc, ReadsOnlyBitZero)
{
    const crc_case& c = GetParam();
    const auto clean = ascii_bits("123456789");
    auto dirty = clean;
    for (auto& b : dirty)
        b |= 0xFE;
    EXPECT_EQ(lte::crc_parity(c.type, dirty.data(), dirty.size()), c.check);
    // 69 bits: the last 5 go one at a time.
    EXPECT_EQ(lte::crc_parity(c.type, dirty.data(), 69),
              lte::crc_parity(c.type, clean.data(), 69));
}

TEST_P(LteCrc, AttachesParityMsbFirstAfterTheData)
{
    const crc_case& c = GetParam();
    const auto data = ascii_bits("123456789");
    auto bits = data;
    bits.resize(data.size() + c.length, 7);
    lte::attach_crc(c.type, bits.data(), bits.size());
    EXPECT_TRUE(std::equal(data.begin(), data.end(), bits.begin()));
    std::uint32_t attached = 0;
    for (int i = 0; i < c.length; ++i)
        attached = attached << 1 | bits[data.size() + i];
    EXPECT_EQ(attached, c.check);
}

TEST_P(LteCrc, AttachThenCheckAndOneFlippedBitFails)
{
    const crc_case& c = GetParam();
    std::mt19937 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        // Lengths from the CRC alone (no data) to past the largest code block.
        const std::size_t n = c.length + rng() % 6200;
        std::vector<std::uint8_t> bits(n);
        for (auto& b : bits)
            b = rng() & 1u;
        lte::attach_crc(c.type, bits.data(), n);
        ASSERT_TRUE(lte::check_crc(c.type, bits.data(), n)) << "n=" << n;
        // Every generator has more than one term, so it catches every single-bit error,
        // in the data or in the parity.
        const std::size_t k = rng() % n;
        bits[k] ^= 1u;
        ASSERT_FALSE(lte::check_crc(c.type, bits.data(), n)) << "n=" << n << " k=" << k;
    }
}

TEST_P(LteCrc, TooShortBlocks)
{
    const crc_case& c = GetParam();
    std::vector<std::uint8_t> bits(c.length - 1, 0);
    EXPECT_THROW(lte::attach_crc(c.type, bits.data(), bits.size()),
                 std::invalid_argument);
    // All zeros would have zero remainder, but a block shorter than L carries no CRC.
    EXPECT_FALSE(lte::check_crc(c.type, bits.data(), bits.size()));
    bits.push_back(0);
    EXPECT_TRUE(lte::check_crc(c.type, bits.data(), bits.size()));
}

INSTANTIATE_TEST_SUITE_P(All,
                         LteCrc,
                         testing::ValuesIn(cases),
                         [](const testing::TestParamInfo<crc_case>& info) {
                             return std::string(info.param.name);
                         });

} // namespace
