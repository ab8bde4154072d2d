/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The code definition: table, interleavers, encoder against independent vectors.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

using namespace gputurbo;

using namespace gputurbo::turbo;

namespace {

std::string vectors_dir()
{
    return test::data_dir("GPUTURBO_VECTORS_DIR", GPUTURBO_VECTORS_DIR);
}

std::vector<std::uint8_t> to_bits(const std::string& text)
{
    std::vector<std::uint8_t> bits;
    for (char c : text)
        bits.push_back(std::uint8_t(c - '0'));
    return bits;
}

} // namespace

TEST(LteTable, Has188IncreasingRows)
{
    const auto& t = turbo::qpp_table();
    ASSERT_EQ(t.size(), 188u);
    EXPECT_EQ(t.front().K, 40);
    EXPECT_EQ(t.back().K, 6144);
    for (std::size_t i = 1; i < t.size(); ++i) {
        const int step = t[i - 1].K < 512    ? 8
                         : t[i - 1].K < 1024 ? 16
                         : t[i - 1].K < 2048 ? 32
                                             : 64;
        EXPECT_EQ(t[i].K - t[i - 1].K, step) << "after K=" << t[i - 1].K;
    }
}

TEST(LteTable, InvalidBlockSizeHasClearError)
{
    EXPECT_FALSE(turbo::is_valid_block_size(41));
    EXPECT_TRUE(turbo::is_valid_block_size(6144));
    try {
        turbo::qpp(6000);
        FAIL() << "K=6000 accepted";
    } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("K=6000"), std::string::npos) << msg;
        EXPECT_NE(msg.find("5952 and 6016"), std::string::npos) << msg;
    }
    EXPECT_THROW(turbo::interleaver(0), std::invalid_argument);
    EXPECT_THROW(turbo::interleaver(6152), std::invalid_argument);
}

TEST(LteInterleaver, AllAreInversePermutations)
{
    for (const auto& row : turbo::qpp_table()) {
        const auto pi = turbo::interleaver(row.K);
        const auto inv = turbo::deinterleaver(row.K);
        std::vector<int> seen(row.K, 0);
        for (int i = 0; i < row.K; ++i) {
            ASSERT_LT(pi[i], std::uint32_t(row.K));
            ++seen[pi[i]];
            ASSERT_EQ(inv[pi[i]], std::uint32_t(i));
        }
        for (int i = 0; i < row.K; ++i)
            ASSERT_EQ(seen[i], 1) << "K=" << row.K << " is not a permutation";
        // Spot check the definition pi(i) = (f1 i + f2 i^2) mod K.
        const long long i = row.K - 1;
        EXPECT_EQ(pi[i], std::uint32_t((row.f1 * i + row.f2 * i * i) % row.K));
    }
}

// tests/data/lte-turbo (README.md there): records "<tag> <block> <bits>" from an
// independent encoder.
TEST(LteEncoder, MatchesIndependentVectors)
{
    std::ifstream index(vectors_dir() + "/index.txt");
    ASSERT_TRUE(index) << "cannot read " << vectors_dir() << "/index.txt";
    int files = 0, blocks = 0;
    for (std::string line; std::getline(index, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        int K = 0, cb = 0, f1 = 0, f2 = 0;
        std::istringstream(line) >> K >> cb >> f1 >> f2;
        EXPECT_EQ(turbo::qpp_table()[cb].K, K);
        EXPECT_EQ(turbo::qpp(K).f1, f1);
        EXPECT_EQ(turbo::qpp(K).f2, f2);

        char name[32];
        std::snprintf(name, sizeof name, "/K%04d.txt", K);
        std::ifstream file(vectors_dir() + name);
        ASSERT_TRUE(file) << name;
        ++files;
        std::map<std::string, std::map<int, std::vector<std::uint8_t>>> rec;
        for (std::string r; std::getline(file, r);) {
            if (r.empty() || r[0] == '#')
                continue;
            std::istringstream in(r);
            std::string tag, bits;
            int block = 0;
            in >> tag >> block >> bits;
            rec[tag][block] = to_bits(bits);
        }
        for (const auto& [block, info] : rec["info"]) {
            ASSERT_EQ(info.size(), std::size_t(K));
            std::vector<std::uint8_t> out(turbo::codeword_length(K));
            turbo::encode(K, info.data(), 1, out.data());
            EXPECT_EQ(out, rec["enc"][block]) << "K=" << K << " block " << block;
            turbo::encode(K, info.data(), 1, out.data(), layout::streams);
            for (int s = 0; s < 3; ++s) {
                const auto& d = rec["d" + std::to_string(s)][block];
                ASSERT_EQ(d.size(), std::size_t(K + 4));
                EXPECT_TRUE(std::equal(d.begin(), d.end(), out.begin() + s * (K + 4)))
                    << "K=" << K << " block " << block << " stream d" << s;
            }
            ++blocks;
        }
    }
    EXPECT_EQ(files, 6);
    EXPECT_EQ(blocks, 18);
}

namespace {

// The termination bits of a constituent encoder (g0 = 1 + D^2 + D^3 feedback, g1 = 1 +
// D + D^3 parity) after input c, written here from 36.212 §5.1.3.2.2 alone: x_K+j and
// z_K+j for j = 0 … 2.
std::array<std::uint8_t, 6> termination(const std::vector<std::uint8_t>& c)
{
    int s1 = 0, s2 = 0, s3 = 0; // the register, s1 the newest
    for (auto bit : c) {
        const int a = bit ^ s2 ^ s3;
        s3 = s2, s2 = s1, s1 = a;
    }
    std::array<std::uint8_t, 6> xz{};
    for (int j = 0; j < 3; ++j) {
        const int x = s2 ^ s3; // the input that feeds back a zero
        xz[2 * j] = std::uint8_t(x);
        xz[2 * j + 1] = std::uint8_t(s1 ^ s3);
        s3 = s2, s2 = s1, s1 = 0;
    }
    return xz;
}

} // namespace

TEST(LteEncoder, TailPositionsMatchIndependentVectors)
{
    // tail_position(), which every decoder kernel reads the tail through, against the
    // d0/d1/d2 streams of the vectors and termination bits computed here.
    std::ifstream index(vectors_dir() + "/index.txt");
    ASSERT_TRUE(index) << "cannot read " << vectors_dir() << "/index.txt";
    int checked = 0;
    for (std::string line; std::getline(index, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        int K = 0, cb = 0, f1 = 0, f2 = 0;
        std::istringstream(line) >> K >> cb >> f1 >> f2;
        char name[32];
        std::snprintf(name, sizeof name, "/K%04d.txt", K);
        std::ifstream file(vectors_dir() + name);
        ASSERT_TRUE(file) << name;
        std::map<std::string, std::map<int, std::vector<std::uint8_t>>> rec;
        for (std::string r; std::getline(file, r);) {
            std::istringstream in(r);
            std::string tag, bits;
            int block = 0;
            if (in >> tag >> block >> bits)
                rec[tag][block] = to_bits(bits);
        }
        for (const auto& [block, c] : rec["info"]) {
            std::vector<std::uint8_t> interleaved(K);
            for (long i = 0; i < K; ++i)
                interleaved[i] = c[(f1 * i + f2 * i % K * i) % K];
            const std::array<std::uint8_t, 6> xz[2] = { termination(c),
                                                        termination(interleaved) };
            for (int e = 0; e < 2; ++e)
                for (int j = 0; j < 3; ++j)
                    for (int parity = 0; parity < 2; ++parity) {
                        const auto at = turbo::tail_position(e, j, parity);
                        const auto& d = rec["d" + std::to_string(at.stream)][block];
                        ASSERT_EQ(d.size(), std::size_t(K + 4));
                        EXPECT_EQ(d[K + at.offset], xz[e][2 * j + parity])
                            << "K=" << K << " block " << block << " encoder " << e
                            << " step " << j << (parity ? " parity" : " systematic");
                        ++checked;
                    }
        }
    }
    EXPECT_EQ(checked, 18 * 12);
}

TEST(LteEncoder, BatchEqualsOneByOne)
{
    const int K = 104;
    std::mt19937 rng(3);
    std::vector<std::uint8_t> bits(5 * K);
    for (auto& b : bits)
        b = rng() & 1;
    std::vector<std::uint8_t> batch(5 * turbo::codeword_length(K)),
        one(turbo::codeword_length(K));
    turbo::encode(K, bits.data(), 5, batch.data());
    for (int n = 0; n < 5; ++n) {
        turbo::encode(K, bits.data() + n * K, 1, one.data());
        EXPECT_TRUE(std::equal(one.begin(), one.end(), batch.begin() + n * one.size()));
    }
}
