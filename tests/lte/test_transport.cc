/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transmit side of the transport channel (36.212 §5.1): code-block segmentation
// (the parameters of every transport block size of the independent DL-SCH vectors, and
// for any size the rules of §5.1.2, the blocks' CRC-24B and the way back), and rate
// matching: TB CRC, segmentation, turbo encoding and rate matching reproduce every e of
// the vectors; and back: noiseless LLRs of every e decode to its data.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

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
    return test::data_dir("GPUTURBO_DLSCH_VECTORS_DIR", GPUTURBO_DLSCH_VECTORS_DIR);
}

// The first n bits of hex digits, MSB first.
std::vector<std::uint8_t> hex_bits(const std::string& hex, std::size_t n)
{
    std::vector<std::uint8_t> bits;
    for (const char c : hex)
        for (int i = 3; i >= 0; --i)
            bits.push_back(
                std::uint8_t((std::stoi(std::string(1, c), nullptr, 16) >> i) & 1));
    bits.resize(n);
    return bits;
}

// Each case of dlsch.txt: its fields, data (TBS bits) and e (G bits).
struct vector_case
{
    std::map<std::string, int> f;
    std::vector<std::uint8_t> data, e;
};

std::vector<vector_case> read_cases()
{
    std::ifstream in(vectors_dir() + "/dlsch.txt");
    std::vector<vector_case> cases;
    for (std::string line, data, e; std::getline(in, line);) {
        std::istringstream words(line);
        std::string word;
        if (!(words >> word) || word != "case")
            continue;
        vector_case c;
        int value;
        for (words >> value; words >> word >> value;)
            c.f[word] = value;
        std::getline(in, data);
        std::getline(in, e);
        c.data = hex_bits(data.substr(5), std::size_t(c.f.at("tbs")));
        c.e = hex_bits(e.substr(2), std::size_t(c.f.at("G")));
        cases.push_back(std::move(c));
    }
    return cases;
}

// The G bits sent for transport block \p data (rv \p rv, Qm \p Qm, one layer): CRC-24A,
// segmentation, CRC-24B, turbo encoding, rate matching of each block from k0(rv) in a
// soft buffer of N_IR bits (0: no limit, N_cb = K_w), blocks concatenated.
std::vector<std::uint8_t>
transmit(const std::vector<std::uint8_t>& data, int G, int Qm, int rv, long N_IR = 0)
{
    std::vector<std::uint8_t> b = data;
    b.resize(data.size() + 24);
    lte::attach_crc(lte::crc::crc24a, b.data(), b.size());
    const lte::segmentation s = lte::segment(int(b.size()));
    std::vector<std::uint8_t> sent;
    for (int r = 0; r < s.C; ++r) {
        const int K = s.block_size(r);
        std::vector<std::uint8_t> block(K), codeword(turbo::codeword_length(K));
        lte::code_block(s, b.data(), r, block.data());
        turbo::encode(K, block.data(), 1, codeword.data());
        const auto w = lte::circular_buffer(K, r == 0 ? s.F : 0);
        const int Ncb = lte::circular_buffer_bits(int(w.size()), s.C, N_IR);
        const int E = lte::block_bits(G, s.C, Qm, 1, r);
        std::vector<std::uint8_t> e(E);
        lte::select_bits(
            w, Ncb, lte::start_position(K, Ncb, rv), codeword.data(), E, e.data());
        sent.insert(sent.end(), e.begin(), e.end());
    }
    return sent;
}

// The cases of each transport block (size and modulation): its four redundancy
// versions, which share a segmentation.
std::map<std::pair<int, int>, std::vector<const vector_case*>>
by_transport_block(const std::vector<vector_case>& cases)
{
    std::map<std::pair<int, int>, std::vector<const vector_case*>> blocks;
    for (const vector_case& c : cases)
        blocks[{ c.f.at("tbs"), c.f.at("Qm") }].push_back(&c);
    return blocks;
}

} // namespace

TEST(LteSegmentation, MatchesTheIndependentVectors)
{
    const auto cases = read_cases();
    const auto blocks = by_transport_block(cases);
    ASSERT_EQ(blocks.size(), 35u) << "read from " << vectors_dir();
    for (const auto& [key, rvs] : blocks) {
        const int tbs = key.first;
        const auto& f = rvs.front()->f;
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
                EXPECT_TRUE(lte::check_crc(lte::crc::crc24b, block.data(), block.size()))
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

TEST(LteRateMatching, TheTransmitChainReproducesEveryVector)
{
    const auto cases = read_cases();
    ASSERT_EQ(cases.size(), 140u) << "read from " << vectors_dir();
    for (const vector_case& c : cases)
        EXPECT_EQ(transmit(c.data, c.f.at("G"), c.f.at("Qm"), c.f.at("rv")), c.e)
            << "tbs " << c.f.at("tbs") << " rv " << c.f.at("rv") << " Qm "
            << c.f.at("Qm");
}

// The transport block from noiseless LLRs of the e of one or more redundancy versions
// \p rvs of one transport block (soft buffer N_IR, as transmit()): each block's LLRs
// combined back into its codeword (filler bits, known zeros, at full strength), decoded,
// its CRC-24B checked, the blocks concatenated; the data if the CRC-24A checks, else
// empty.
std::vector<std::uint8_t> receive(turbo::decoder& decoder,
                                  const std::vector<const vector_case*>& rvs,
                                  long N_IR = 0)
{
    const auto& f = rvs.front()->f;
    const int tbs = f.at("tbs"), G = f.at("G");
    const lte::segmentation s = lte::segment(tbs + 24);
    std::vector<std::uint8_t> b(std::size_t(s.B));
    bool blocks_check = true;
    for (int r = 0, at = 0; r < s.C; ++r) {
        const int K = s.block_size(r);
        const int filler = r == 0 ? s.F : 0;
        const auto w = lte::circular_buffer(K, filler);
        const int Ncb = lte::circular_buffer_bits(int(w.size()), s.C, N_IR);
        const int E = lte::block_bits(G, s.C, f.at("Qm"), 1, r);
        std::vector<float> codeword(turbo::codeword_length(K), 0.0f);
        for (int k = 0; k < filler; ++k)
            codeword[3 * k] = codeword[3 * k + 1] = core::llr_limit;
        for (const vector_case* c : rvs) {
            std::vector<float> llrs(E);
            for (int i = 0; i < E; ++i)
                llrs[i] = c->e[at + i] ? -4.0f : 4.0f; // the engine's sign: + means 0
            lte::combine_bits(w,
                              Ncb,
                              lte::start_position(K, Ncb, c->f.at("rv")),
                              llrs.data(),
                              E,
                              codeword.data());
        }
        at += E;
        std::vector<std::uint8_t> block(K);
        decoder.decode(K, codeword.data(), 1, block.data(), nullptr);
        blocks_check &= s.C == 1 || lte::check_crc(lte::crc::crc24b, block.data(), K);
        lte::concatenate_block(s, block.data(), r, b.data());
    }
    if (!blocks_check || !lte::check_crc(lte::crc::crc24a, b.data(), b.size()))
        return {};
    b.resize(std::size_t(tbs));
    return b;
}

TEST(LteRateMatching, NoiselessLlrsDecodeToTheData)
{
    // Every transport block from rv 0 alone, and from each other rv alone but where the
    // code rate is 0.85 or more: rv 1 … 3 then start deep in the parity and carry too
    // few systematic bits to decode alone (not even log-MAP with 32 iterations does),
    // so those three decode together.
    const auto decoder = turbo::make_decoder(turbo::decoder_config{}, "cpu");
    const auto cases = read_cases();
    const auto blocks = by_transport_block(cases);
    int alone = 0, together = 0;
    for (const auto& [key, rvs] : blocks) {
        ASSERT_EQ(rvs.size(), 4u);
        const double rate = double(key.first + 24) / rvs.front()->f.at("G");
        for (const vector_case* c : rvs) {
            if (c->f.at("rv") > 0 && rate >= 0.85)
                continue;
            EXPECT_EQ(receive(*decoder, { c }), c->data)
                << "tbs " << key.first << " Qm " << key.second << " rv " << c->f.at("rv");
            ++alone;
        }
        if (rate >= 0.85) {
            EXPECT_EQ(receive(*decoder, { rvs[1], rvs[2], rvs[3] }), rvs[0]->data)
                << "tbs " << key.first << " Qm " << key.second << ", rv 1 + 2 + 3";
            ++together;
        }
    }
    EXPECT_EQ(alone + 3 * together, 140);
    EXPECT_GT(alone, 120);
}

TEST(LteRateMatching, FillerBitsAreNeitherSentNorLost)
{
    // Sizes with filler bits (the vectors have none): the circular buffer leaves out
    // the filler's systematic and first parity bits, and the data come back.
    std::mt19937 rng{ unsigned(test::test_seed()) };
    const auto decoder = turbo::make_decoder(turbo::decoder_config{}, "cpu");
    for (const int tbs : { 8, 100, 1001, 6500, 20000 }) {
        const lte::segmentation s = lte::segment(tbs + 24);
        ASSERT_GT(s.F, 0) << tbs;
        const auto w = lte::circular_buffer(s.block_size(0), s.F);
        const auto sent = std::count_if(
            w.begin(), w.end(), [](std::int32_t at) { return at != lte::null_bit; });
        EXPECT_EQ(sent, long(turbo::codeword_length(s.block_size(0))) - 2 * s.F) << tbs;
        vector_case c;
        c.f = {
            { "tbs", tbs }, { "G", 3 * (tbs + 24) + 12 * s.C }, { "Qm", 2 }, { "rv", 0 }
        };
        c.data.resize(std::size_t(tbs));
        for (auto& bit : c.data)
            bit = std::uint8_t(rng() & 1u);
        c.e = transmit(c.data, c.f.at("G"), 2, 0);
        EXPECT_EQ(receive(*decoder, { &c }), c.data) << tbs;
    }
}

TEST(LteRateMatching, ALimitedSoftBufferWrapsEarlier)
{
    // UE category 1 (N_soft 250368, 8 HARQ processes: N_IR 31296 bits) and less: a
    // block's circular buffer shrinks to N_IR / C, k0 follows it, bits sent wrap round
    // within it, and the data still come back (rv 0 and rv 0 + 2).
    EXPECT_EQ(lte::soft_buffer_bits(250368, 1, 1, 8), 31296);
    EXPECT_EQ(lte::soft_buffer_bits(250368, 1, 1, 16), 31296); // min(M_DL_HARQ, 8)
    EXPECT_EQ(lte::circular_buffer_bits(18444, 2, 31296), 15648);
    EXPECT_EQ(lte::circular_buffer_bits(18444, 1, 0), 18444);
    EXPECT_THROW(lte::soft_buffer_bits(0, 1, 1, 8), std::invalid_argument);
    const auto w40 = lte::circular_buffer(40, 0);
    std::vector<std::uint8_t> codeword(turbo::codeword_length(40)), e(10);
    for (const int Ncb : { 0, int(w40.size()) + 1, 1 }) // the last: one NULL
        EXPECT_THROW(lte::select_bits(w40, Ncb, 0, codeword.data(), 10, e.data()),
                     std::invalid_argument)
            << Ncb;
    std::mt19937 rng{ unsigned(test::test_seed()) };
    const auto decoder = turbo::make_decoder(turbo::decoder_config{}, "cpu");
    for (const long N_IR : { 31296L, 26000L }) {
        const int tbs = 12000;
        const lte::segmentation s = lte::segment(tbs + 24);
        const int Kw = int(lte::circular_buffer(s.K_plus, 0).size());
        const int Ncb = lte::circular_buffer_bits(Kw, s.C, N_IR);
        ASSERT_LT(Ncb, Kw) << N_IR;
        const int R = (s.K_plus + 4 + 31) / 32; // rows of the sub-block interleaver
        EXPECT_EQ(lte::start_position(s.K_plus, Ncb, 2),
                  R * (2 * ((Ncb + 8 * R - 1) / (8 * R)) * 2 + 2));
        std::vector<vector_case> rvs(2);
        std::vector<std::uint8_t> data(tbs);
        for (auto& bit : data)
            bit = std::uint8_t(rng() & 1u);
        for (int i = 0; i < 2; ++i) {
            const int rv = 2 * i, G = 2 * Ncb * s.C; // each block's E wraps round
            rvs[i].f = { { "tbs", tbs }, { "G", G }, { "Qm", 2 }, { "rv", rv } };
            rvs[i].data = data;
            rvs[i].e = transmit(data, G, 2, rv, N_IR);
        }
        EXPECT_EQ(receive(*decoder, { &rvs[0] }, N_IR), data) << N_IR;
        EXPECT_EQ(receive(*decoder, { &rvs[0], &rvs[1] }, N_IR), data) << N_IR;
        // Without the limit the receiver reads the same bits elsewhere: no data.
        EXPECT_TRUE(receive(*decoder, { &rvs[1] }, 0).empty()) << N_IR;
    }
}
