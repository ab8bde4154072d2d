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
// The receiver's plan cache, whose bounds a test checks.
#include "../../lib/engine/lte/transport_plan.h"

#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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
        c.data = test::hex_bits(data.substr(5), std::size_t(c.f.at("tbs")));
        c.e = test::hex_bits(e.substr(2), std::size_t(c.f.at("G")));
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

// ---- The library's transmit chain and transport-block decoder -------------------------

namespace {

// Noiseless LLRs of bits in the engine's sign (+ means 0), of magnitude 4.
std::vector<float> noiseless(const std::vector<std::uint8_t>& e)
{
    std::vector<float> llrs(e.size());
    for (std::size_t i = 0; i < e.size(); ++i)
        llrs[i] = e[i] ? -4.0f : 4.0f;
    return llrs;
}

lte::transport_format format_of(const vector_case& c)
{
    lte::transport_format f;
    f.tbs = c.f.at("tbs");
    f.G = c.f.at("G");
    f.Qm = c.f.at("Qm");
    f.rv = c.f.at("rv");
    return f;
}

std::vector<std::uint8_t> random_bits(std::size_t n, std::mt19937_64& rng)
{
    std::vector<std::uint8_t> bits(n);
    for (auto& b : bits)
        b = std::uint8_t(rng() & 1u);
    return bits;
}

// A transport block of random bits in format f and its LLRs, sent without noise.
struct sent_block
{
    std::vector<std::uint8_t> data;
    std::vector<float> llrs;
};

sent_block send_noiseless(const lte::transport_format& f, std::mt19937_64& rng)
{
    sent_block b;
    b.data = random_bits(std::size_t(f.tbs), rng);
    std::vector<std::uint8_t> e(std::size_t(f.G));
    lte::transport_encode(f, b.data.data(), e.data());
    b.llrs = noiseless(e);
    return b;
}

// A transport-block decoder of a test backend ("cuda-float32": CUDA in float32), or
// nullptr when the backend is missing here.
std::unique_ptr<lte::transport_decoder>
make_transport_or_null(const std::string& name, lte::transport_config c = {})
{
    const auto have = core::available_backends();
    if (std::find(have.begin(), have.end(), test::backend_of(name)) == have.end())
        return nullptr;
    if (const auto dash = name.find('-'); dash != std::string::npos)
        c.turbo.cuda_arithmetic = turbo::parse_arithmetic(name.substr(dash + 1));
    return lte::make_transport_decoder(c, test::backend_of(name));
}

#define GPUTURBO_TRANSPORT_OR_SKIP(var, backend, ...)                                    \
    auto var = make_transport_or_null(backend, ##__VA_ARGS__);                           \
    if (!var)                                                                            \
    GTEST_SKIP() << "backend '" << (backend) << "' is not available on this machine"

class LteTransport : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST(LteTransportEncode, ReproducesEveryVectorAndTheChainOfItsParts)
{
    const auto cases = read_cases();
    ASSERT_EQ(cases.size(), 140u);
    for (const vector_case& c : cases) {
        std::vector<std::uint8_t> e(c.e.size(), 7);
        lte::transport_encode(format_of(c), c.data.data(), e.data());
        EXPECT_EQ(e, c.e) << "tbs " << c.f.at("tbs") << " rv " << c.f.at("rv");
    }
    // With a soft-buffer limit and filler bits, as the chain of the parts sends.
    std::mt19937_64 rng(test::test_seed());
    for (const int tbs : { 100, 6500, 20000 }) {
        lte::transport_format f;
        f.tbs = tbs;
        f.G = 2 * (3 * tbs);
        f.rv = 2;
        f.soft_buffer = 3 * tbs / 2;
        const auto data = random_bits(std::size_t(tbs), rng);
        std::vector<std::uint8_t> e(std::size_t(f.G));
        lte::transport_encode(f, data.data(), e.data());
        EXPECT_EQ(e, transmit(data, f.G, f.Qm, f.rv, f.soft_buffer)) << tbs;
    }
}

TEST(LteTransportEncode, ScramblesWithTheGoldSequence)
{
    // The sequence's first bits for c_init = 0 … (x2 all zero: c is x1 alone) and the
    // scrambled bits differ from the plain ones exactly where c(n) = 1.
    std::vector<std::uint8_t> c(64);
    lte::scrambling_sequence(0, c.size(), c.data());
    // x1 alone: x1(n + 31) = x1(n + 3) + x1(n), from x1(0) = 1; c(n) = x1(n + 1600).
    std::vector<std::uint8_t> x1(1600 + 64 + 31, 0);
    x1[0] = 1;
    for (std::size_t n = 0; n + 31 < x1.size(); ++n)
        x1[n + 31] = x1[n + 3] ^ x1[n];
    EXPECT_EQ(c, std::vector<std::uint8_t>(x1.begin() + 1600, x1.begin() + 1664));
    EXPECT_THROW(lte::scrambling_sequence(-1, 1, c.data()), std::invalid_argument);
    EXPECT_THROW(lte::scrambling_sequence(lte::max_c_init + 1, 1, c.data()),
                 std::invalid_argument);
    lte::transport_format f;
    f.tbs = 1000;
    f.G = 3000;
    std::mt19937_64 rng(test::test_seed());
    const auto data = random_bits(1000, rng);
    std::vector<std::uint8_t> plain(3000), scrambled(3000), seq(3000);
    lte::transport_encode(f, data.data(), plain.data());
    f.c_init = (0x1234L << 14) + 301;
    lte::transport_encode(f, data.data(), scrambled.data());
    lte::scrambling_sequence(f.c_init, seq.size(), seq.data());
    for (std::size_t k = 0; k < plain.size(); ++k)
        ASSERT_EQ(scrambled[k], plain[k] ^ seq[k]) << k;
}

TEST(LteTransportEncode, ClearErrorsForBadFormats)
{
    auto bad = [](auto change) {
        lte::transport_format f;
        f.tbs = 1000;
        f.G = 3000;
        change(f);
        return f;
    };
    std::vector<std::uint8_t> data(400000), e(400000);
    for (const auto& f : { bad([](auto& f) { f.tbs = 0; }),
                           bad([](auto& f) { f.tbs = lte::max_tbs + 1; }),
                           bad([](auto& f) { f.Qm = 3; }),
                           bad([](auto& f) { f.rv = 4; }),
                           bad([](auto& f) { f.layers = 0; }),
                           bad([](auto& f) { f.G = 3001; }), // not a whole symbol
                           bad([](auto& f) { f.G = 0; }),
                           bad([](auto& f) { f.c_init = -2; }),
                           bad([](auto& f) { f.soft_buffer = -1; }),
                           bad([](auto& f) {
                               f.tbs = 20000; // 4 code blocks …
                               f.G = 6;       // … and 3 symbols
                           }) })
        EXPECT_THROW(lte::transport_encode(f, data.data(), e.data()),
                     std::invalid_argument);
}

TEST_P(LteTransport, DecodesEveryVectorInOneMixedBatch)
{
    // Every case in one call, noiseless; the rv 1 … 3 of the highest code rates (which
    // cannot decode alone, see NoiselessLlrsDecodeToTheData) come as HARQ
    // retransmissions: rv 1 starts a process, rv 2 and 3 add in over two more calls.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    const auto cases = read_cases();
    std::vector<lte::transport_block> batch;
    std::vector<std::vector<float>> llrs;
    std::vector<const vector_case*> expected;
    std::vector<const vector_case*> later[2];
    llrs.reserve(cases.size());
    for (const vector_case& c : cases) {
        const double rate = double(c.f.at("tbs") + 24) / c.f.at("G");
        const int rv = c.f.at("rv");
        if (rv > 1 && rate >= 0.85) {
            later[rv - 2].push_back(&c);
            continue;
        }
        llrs.push_back(noiseless(c.e));
        lte::transport_block t;
        t.format = format_of(c);
        t.f32 = llrs.back().data();
        if (rv == 1 && rate >= 0.85)
            t.harq_process = c.f.at("tbs");
        batch.push_back(t);
        expected.push_back(&c);
    }
    auto run = [&](const std::vector<lte::transport_block>& b,
                   const std::vector<const vector_case*>& want,
                   const char* what) {
        std::size_t total = 0;
        for (const auto& t : b)
            total += std::size_t(t.format.tbs);
        std::vector<std::uint8_t> data(total, 7);
        std::vector<lte::transport_result> results(b.size());
        decoder->decode(b.data(), b.size(), data.data(), results.data());
        std::size_t at = 0;
        for (std::size_t i = 0; i < b.size(); ++i) {
            const auto& c = *want[i];
            const bool high = double(c.f.at("tbs") + 24) / c.f.at("G") >= 0.85;
            const bool complete = !high || c.f.at("rv") == 0 || c.f.at("rv") == 3;
            const std::vector<std::uint8_t> got(data.begin() + std::ptrdiff_t(at),
                                                data.begin() + std::ptrdiff_t(at) +
                                                    c.f.at("tbs"));
            at += std::size_t(c.f.at("tbs"));
            if (!complete)
                continue; // rv 1 of a high rate: not decodable yet
            EXPECT_TRUE(results[i].crc_ok) << what << " tbs " << c.f.at("tbs") << " rv "
                                           << c.f.at("rv") << " Qm " << c.f.at("Qm");
            EXPECT_EQ(got, c.data) << what << " tbs " << c.f.at("tbs");
            EXPECT_EQ(results[i].code_blocks.size(),
                      std::size_t(lte::segment(c.f.at("tbs") + 24).C));
            for (const auto& s : results[i].code_blocks) {
                EXPECT_TRUE(s.passed);
                EXPECT_LT(s.iterations,
                          decoder->config().turbo.iterations); // stopped early
            }
        }
    };
    run(batch, expected, "first call");
    EXPECT_EQ(decoder->harq_processes(), 5u);
    for (int i = 0; i < 2; ++i) {
        std::vector<lte::transport_block> again;
        std::vector<std::vector<float>> more;
        more.reserve(later[i].size());
        for (const vector_case* c : later[i]) {
            more.push_back(noiseless(c->e));
            lte::transport_block t;
            t.format = format_of(*c);
            t.f32 = more.back().data();
            t.harq_process = c->f.at("tbs");
            t.new_data = false;
            again.push_back(t);
        }
        run(again, later[i], i == 0 ? "rv 2 added" : "rv 3 added");
    }
}

TEST_P(LteTransport, Int8AndInvertedAndScrambledInputDecode)
{
    // One transport block with filler bits, from int8 LLRs, in GNU Radio's sign
    // (invert_llr), scrambled: the data back; descrambled with the wrong c_init: no CRC.
    lte::transport_config config;
    config.turbo.invert_llr = true;
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam(), config);
    std::mt19937_64 rng(test::test_seed());
    lte::transport_format f;
    f.tbs = 6500;
    f.G = 4 * 5000;
    f.Qm = 4;
    f.c_init = 12345678;
    ASSERT_GT(lte::segment(f.tbs + 24).F, 0);
    const auto data = random_bits(std::size_t(f.tbs), rng);
    std::vector<std::uint8_t> e(std::size_t(f.G));
    lte::transport_encode(f, data.data(), e.data());
    std::vector<std::int8_t> q(e.size());
    for (std::size_t k = 0; k < e.size(); ++k)
        q[k] = std::int8_t(e[k] ? 30 : -30); // positive means 1
    lte::transport_block t;
    t.format = f;
    t.i8 = q.data();
    std::vector<std::uint8_t> out(std::size_t(f.tbs));
    lte::transport_result r;
    decoder->decode(&t, 1, out.data(), &r);
    EXPECT_TRUE(r.crc_ok);
    EXPECT_EQ(out, data);
    t.format.c_init = 12345679;
    decoder->decode(&t, 1, out.data(), &r);
    EXPECT_FALSE(r.crc_ok);
}

TEST_P(LteTransport, HarqBuffersCheckTheirSizeAndKeepTheirValues)
{
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    lte::transport_format f;
    f.tbs = 1000;
    f.G = 1200;
    const sent_block sent = send_noiseless(f, rng);
    std::vector<std::uint8_t> out(1000);
    lte::transport_block t;
    t.format = f;
    t.f32 = sent.llrs.data();
    t.harq_process = 3;
    decoder->decode(&t, 1, out.data(), nullptr);
    const std::vector<std::int8_t> once = decoder->soft_buffer(3);
    ASSERT_EQ(once.size(), lte::soft_buffer_length(1000));
    // A retransmission of the same rv doubles every value sent (4 * 8 = 32, then 64).
    t.new_data = false;
    decoder->decode(&t, 1, out.data(), nullptr);
    const std::vector<std::int8_t> twice = decoder->soft_buffer(3);
    for (std::size_t i = 0; i < once.size(); ++i)
        if (once[i] != 127 && once[i] != 0)
            ASSERT_EQ(twice[i], 2 * once[i]) << i;
    // Errors leave every buffer as it was.
    lte::transport_block wrong = t;
    wrong.format.tbs = 1001;
    EXPECT_THROW(decoder->decode(&wrong, 1, out.data(), nullptr), std::invalid_argument);
    const lte::transport_block both[2] = { t, t };
    EXPECT_THROW(decoder->decode(both, 2, out.data(), nullptr), std::invalid_argument);
    lte::transport_block none = t;
    none.f32 = nullptr;
    EXPECT_THROW(decoder->decode(&none, 1, out.data(), nullptr), std::invalid_argument);
    EXPECT_EQ(decoder->soft_buffer(3), twice);
    // Saved and set back; released; a new transport block starts afresh.
    decoder->release(3);
    EXPECT_EQ(decoder->harq_processes(), 0u);
    EXPECT_THROW(decoder->soft_buffer(3), std::invalid_argument);
    decoder->set_soft_buffer(7, 1000, twice);
    EXPECT_EQ(decoder->soft_buffer(7), twice);
    EXPECT_THROW(decoder->set_soft_buffer(7, 5000, twice), std::invalid_argument);
    t.harq_process = 7;
    t.new_data = true;
    decoder->decode(&t, 1, out.data(), nullptr);
    EXPECT_EQ(decoder->soft_buffer(7), once);
    EXPECT_EQ(out, sent.data);
}

TEST_P(LteTransport, SoftBuffersEqualTheCpusValueForValue)
{
    // Noisy LLRs of several transport blocks, three transmissions each (rv 0, 2, 3; one
    // with a soft-buffer limit, one scrambled): every backend's buffers hold exactly the
    // values of the CPU's, and the data decoded agree with the CPU's but for blocks
    // whose CRC fails on one of them.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    const auto cpu = lte::make_transport_decoder({}, "cpu");
    std::mt19937_64 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    struct tb
    {
        lte::transport_format f;
        std::vector<std::uint8_t> data, e;
    };
    std::vector<tb> tbs;
    // 3000 bits at code rate 0.06: a block's 54000 LLRs wrap its circular buffer six
    // times, the sums saturate, and the GPU takes them in several tiles.
    for (const int size : { 40, 1000, 3000, 6500, 20000, 75376 }) {
        tb t;
        t.f.tbs = size;
        t.f.G = size == 3000 ? 54000
                             : 6 * ((size + 24) * 7 / 6 / 6 + lte::segment(size + 24).C);
        t.f.Qm = 6;
        t.f.soft_buffer = size == 20000 ? 40000 : 0;
        t.f.c_init = size == 1000 ? 777 : lte::no_scrambling;
        t.data = random_bits(std::size_t(size), rng);
        tbs.push_back(t);
    }
    for (const int rv : { 0, 2, 3 }) {
        std::vector<lte::transport_block> batch;
        std::vector<std::vector<float>> llrs;
        llrs.reserve(tbs.size());
        std::size_t total = 0;
        for (std::size_t i = 0; i < tbs.size(); ++i) {
            tb& t = tbs[i];
            t.f.rv = rv;
            t.e.resize(std::size_t(t.f.G));
            lte::transport_encode(t.f, t.data.data(), t.e.data());
            std::vector<float> l(t.e.size());
            for (std::size_t k = 0; k < l.size(); ++k)
                l[k] = 2.0f * ((t.e[k] ? -1.0f : 1.0f) + 0.9f * noise(rng)) / 0.81f;
            llrs.push_back(std::move(l));
            lte::transport_block b;
            b.format = t.f;
            b.f32 = llrs.back().data();
            b.harq_process = int(i);
            b.new_data = rv == 0;
            batch.push_back(b);
            total += std::size_t(t.f.tbs);
        }
        std::vector<std::uint8_t> ours(total), theirs(total);
        std::vector<lte::transport_result> r_ours(batch.size()), r_theirs(batch.size());
        decoder->decode(batch.data(), batch.size(), ours.data(), r_ours.data());
        cpu->decode(batch.data(), batch.size(), theirs.data(), r_theirs.data());
        std::size_t at = 0;
        for (std::size_t i = 0; i < tbs.size(); ++i) {
            EXPECT_EQ(decoder->soft_buffer(int(i)), cpu->soft_buffer(int(i)))
                << "rv " << rv << " tbs " << tbs[i].f.tbs;
            const std::size_t n = std::size_t(tbs[i].f.tbs);
            if (r_ours[i].crc_ok && r_theirs[i].crc_ok)
                EXPECT_TRUE(std::equal(ours.begin() + std::ptrdiff_t(at),
                                       ours.begin() + std::ptrdiff_t(at + n),
                                       theirs.begin() + std::ptrdiff_t(at)))
                    << "rv " << rv << " tbs " << tbs[i].f.tbs;
            at += n;
        }
    }
}

TEST_P(LteTransport, CombiningRv0And2DecodesWhereEachAloneFails)
{
    // Code rate 0.93 (rv 0 and rv 2 each) over BPSK and AWGN at Eb/N0 where either
    // transmission alone mostly fails and the two combined mostly pass.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    lte::transport_format f;
    f.tbs = 2000;
    f.G = 2 * ((f.tbs + 24) * 107 / 100 / 2);
    const float rate = float(f.tbs) / float(f.G), ebn0_db = 2.5f;
    const float sigma = std::sqrt(1.0f / (2.0f * rate * std::pow(10.0f, ebn0_db / 10)));
    const int trials = 40;
    int alone = 0, rv2_alone = 0, combined = 0;
    for (int i = 0; i < trials; ++i) {
        const auto data = random_bits(std::size_t(f.tbs), rng);
        std::vector<float> llrs[2];
        for (int k = 0; k < 2; ++k) {
            lte::transport_format fk = f;
            fk.rv = 2 * k;
            std::vector<std::uint8_t> e(std::size_t(f.G));
            lte::transport_encode(fk, data.data(), e.data());
            for (const auto bit : e)
                llrs[k].push_back(2.0f * ((bit ? -1.0f : 1.0f) + sigma * noise(rng)) /
                                  (sigma * sigma));
        }
        std::vector<std::uint8_t> out(std::size_t(f.tbs));
        lte::transport_result r;
        lte::transport_block t;
        t.format = f;
        t.f32 = llrs[0].data();
        t.harq_process = 0;
        decoder->decode(&t, 1, out.data(), &r);
        alone += r.crc_ok;
        t.format.rv = 2;
        t.f32 = llrs[1].data();
        t.new_data = false;
        decoder->decode(&t, 1, out.data(), &r);
        combined += r.crc_ok && out == data;
        t.harq_process = lte::no_harq;
        decoder->decode(&t, 1, out.data(), &r);
        rv2_alone += r.crc_ok;
    }
    std::printf("  passed of %d: rv 0 %d, rv 2 %d, rv 0 + 2 %d\n",
                trials,
                alone,
                rv2_alone,
                combined);
    EXPECT_LT(alone, trials / 4);
    EXPECT_LT(rv2_alone, trials / 4);
    EXPECT_GT(combined, 3 * trials / 4);
}

TEST_P(LteTransport, NeverPassesAWrongBlock)
{
    // Parity bits alone (rv 2 at code rate 0.94) far below the threshold: the decoder
    // often settles on the all-zero codeword, which passes every CRC, yet no block
    // counts as received unless its data are right; all-zero data sent do.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    lte::transport_format f;
    f.tbs = 2000;
    f.G = 2148;
    f.rv = 2;
    const float sigma = 0.9f;
    const int trials = 60;
    std::vector<lte::transport_block> batch(trials);
    std::vector<std::vector<float>> llrs(trials);
    std::vector<std::vector<std::uint8_t>> sent(trials);
    for (int i = 0; i < trials; ++i) {
        // Every third transport block is all zeros, sent at a decodable SNR (rv 0).
        const bool zeros = i % 3 == 0;
        sent[i] = zeros ? std::vector<std::uint8_t>(2000, 0)
                        : random_bits(std::size_t(f.tbs), rng);
        batch[i].format = f;
        batch[i].format.rv = zeros ? 0 : 2;
        batch[i].format.G = zeros ? 3 * 2048 : f.G;
        std::vector<std::uint8_t> e(std::size_t(batch[i].format.G));
        lte::transport_encode(batch[i].format, sent[i].data(), e.data());
        const float s = zeros ? 0.6f : sigma;
        for (const auto bit : e)
            llrs[i].push_back(2.0f * ((bit ? -1.0f : 1.0f) + s * noise(rng)) / (s * s));
        batch[i].f32 = llrs[i].data();
    }
    std::vector<std::uint8_t> out(std::size_t(trials) * 2000);
    std::vector<lte::transport_result> results(trials);
    decoder->decode(batch.data(), batch.size(), out.data(), results.data());
    int zeros_passed = 0;
    for (int i = 0; i < trials; ++i) {
        const std::vector<std::uint8_t> got(out.begin() + 2000 * i,
                                            out.begin() + 2000 * (i + 1));
        if (results[i].crc_ok)
            EXPECT_EQ(got, sent[i]) << "transport block " << i;
        zeros_passed += i % 3 == 0 && results[i].crc_ok;
    }
    EXPECT_EQ(zeros_passed, trials / 3);
}

TEST_P(LteTransport, NeverPassesALowWeightBlockAsZeros)
{
    // Data of weight 1 to 3 sent in one redundancy version alone, or in two combined,
    // noiseless at full confidence and in noise: a decoder given mostly parity bits
    // settles on the all-zero codeword (which passes every CRC) whatever was sent, yet
    // a block passes only with its data right; all-zero data sent pass.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    const int tbs = 2000, trials = 96;
    const std::vector<float> sigmas = { 0.0f, 0.4f, 0.6f }; // noiseless: L = +-8
    std::vector<std::vector<std::uint8_t>> sent(trials);
    int wrong = 0, zeros_passed = 0, zeros_sent = 0;
    for (int pass = 0; pass < 2; ++pass) { // transmission 1, then 2 into the buffer
        std::vector<lte::transport_block> batch(trials);
        std::vector<std::vector<float>> llrs(trials);
        for (int i = 0; i < trials; ++i) {
            if (pass == 0) {
                sent[i].assign(tbs, 0);
                const int weight = i % 4; // 0: all zeros, sent as such
                for (int k = 0; k < weight; ++k)
                    sent[i][std::size_t(rng() % tbs)] = 1;
            }
            lte::transport_format& f = batch[i].format;
            f.tbs = tbs;
            f.G = 2400;
            f.rv = pass == 0 ? 2 + i % 2 : (i / 2) % 2; // rv 2 or 3, then 0 or 1
            batch[i].harq_process = i;
            batch[i].new_data = pass == 0;
            std::vector<std::uint8_t> e(std::size_t(f.G));
            lte::transport_encode(f, sent[i].data(), e.data());
            const float s = sigmas[std::size_t(i / 4) % sigmas.size()];
            for (const auto bit : e)
                llrs[i].push_back(
                    s == 0.0f ? (bit ? -8.0f : 8.0f)
                              : 2.0f * ((bit ? -1.0f : 1.0f) + s * noise(rng)) / (s * s));
            batch[i].f32 = llrs[i].data();
        }
        std::vector<std::uint8_t> out(std::size_t(trials) * tbs);
        std::vector<lte::transport_result> results(trials);
        decoder->decode(batch.data(), batch.size(), out.data(), results.data());
        for (int i = 0; i < trials; ++i) {
            const bool right = std::equal(
                sent[i].begin(), sent[i].end(), out.begin() + std::ptrdiff_t(tbs) * i);
            wrong += results[i].crc_ok && !right;
            const bool zeros = i % 4 == 0;
            zeros_sent += zeros && pass == 1;
            zeros_passed += zeros && pass == 1 && results[i].crc_ok;
        }
    }
    EXPECT_EQ(wrong, 0) << "blocks delivered with crc_ok and wrong bits";
    EXPECT_EQ(zeros_passed, zeros_sent) << "all-zero blocks sent, combined rv 2/3 + 0/1";
}

TEST_P(LteTransport, ChecksEachDecisionAsTheCpuDoes)
{
    // Soft buffers of the codewords of random data at |q| = 40 (L = 5), a share f of
    // the values flipped, f from 0 to 0.25 (past what the decision check lets pass:
    // about 8 % contradictions at that confidence); decoded from the buffer alone (a
    // retransmission of zeros) by the backend and by the CPU in the same arithmetic
    // (P = 1, no guard: the same decisions bit for bit). Each block passes or fails
    // alike on both: the CPU's check and the backend's add the same integers.
    lte::transport_config c;
    c.turbo.subblocks = 1;
    c.turbo.guarding = turbo::guard::none;
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam(), c);
    std::string cpu_name = GetParam();
    if (cpu_name.rfind("cuda", 0) == 0)
        cpu_name.replace(0, 4, "cpu");
    auto cpu = make_transport_or_null(cpu_name, c);
    std::mt19937_64 rng(test::test_seed());
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int passed = 0, failed = 0;
    for (const int tbs : { 16, 1000, 6200 }) { // filler bits, one block, two blocks
        const int trials = 24;
        std::vector<std::vector<std::uint8_t>> sent(trials);
        std::vector<lte::transport_block> batch(trials);
        std::vector<float> zeros(std::size_t(3 * (tbs + 24) + 64), 0.0f);
        for (int i = 0; i < trials; ++i) {
            sent[i] = random_bits(std::size_t(tbs), rng);
            std::vector<std::uint8_t> b = sent[i];
            b.resize(std::size_t(tbs) + 24);
            lte::attach_crc(lte::crc::crc24a, b.data(), b.size());
            const lte::segmentation seg = lte::segment(tbs + 24);
            std::vector<std::int8_t> buffer;
            const double f = 0.25 * i / (trials - 1);
            for (int r = 0; r < seg.C; ++r) {
                const int K = seg.block_size(r);
                std::vector<std::uint8_t> block(std::size_t{ K }),
                    codeword(turbo::codeword_length(K));
                lte::code_block(seg, b.data(), r, block.data());
                turbo::encode(K, block.data(), 1, codeword.data());
                for (std::size_t k = 0; k < codeword.size(); ++k) {
                    const bool filler =
                        r == 0 && k < 3 * std::size_t(seg.F) && k % 3 != 2;
                    const int v = (codeword[k] ? -40 : 40) * (unit(rng) < f ? -1 : 1);
                    buffer.push_back(std::int8_t(filler ? 127 : v));
                }
            }
            decoder->set_soft_buffer(i, tbs, buffer);
            cpu->set_soft_buffer(i, tbs, buffer);
            batch[i].format.tbs = tbs;
            batch[i].format.G = 3 * (tbs + 24) + 60; // a multiple of Qm = 2
            batch[i].f32 = zeros.data();
            batch[i].harq_process = i;
            batch[i].new_data = false;
        }
        std::vector<std::uint8_t> ours(std::size_t(trials) * tbs),
            theirs(std::size_t(trials) * tbs);
        std::vector<lte::transport_result> r_ours(trials), r_theirs(trials);
        decoder->decode(batch.data(), batch.size(), ours.data(), r_ours.data());
        cpu->decode(batch.data(), batch.size(), theirs.data(), r_theirs.data());
        EXPECT_EQ(ours, theirs) << "tbs " << tbs;
        for (int i = 0; i < trials; ++i) {
            EXPECT_EQ(r_ours[i].crc_ok, r_theirs[i].crc_ok)
                << "tbs " << tbs << ", block " << i;
            passed += r_ours[i].crc_ok;
            failed += !r_ours[i].crc_ok;
        }
    }
    EXPECT_GT(passed, 5); // the threshold lies inside the sweep
    EXPECT_GT(failed, 5);
}

TEST_P(LteTransport, ManyFormatsDecodeBeforeAndAfterThePlansAreForgotten)
{
    // 5000 transport blocks of 5000 formats (G apart) in one call, then one more call:
    // the receiver keeps at most 4096 plans between calls, and forgets them only
    // between calls.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    const int n = 5000;
    std::vector<lte::transport_block> batch(n);
    std::vector<std::vector<float>> llrs(n);
    std::vector<std::uint8_t> sent;
    for (int i = 0; i < n; ++i) {
        batch[i].format.tbs = 40;
        batch[i].format.G = 2 * (100 + i);
        const auto data = random_bits(40, rng);
        sent.insert(sent.end(), data.begin(), data.end());
        std::vector<std::uint8_t> e(std::size_t(batch[i].format.G));
        lte::transport_encode(batch[i].format, data.data(), e.data());
        llrs[i] = noiseless(e);
        batch[i].f32 = llrs[i].data();
    }
    for (int call = 0; call < 2; ++call) {
        const std::size_t count = call == 0 ? std::size_t(n) : 1;
        std::vector<std::uint8_t> out(40 * count);
        std::vector<lte::transport_result> results(count);
        decoder->decode(batch.data(), count, out.data(), results.data());
        EXPECT_TRUE(std::equal(out.begin(), out.end(), sent.begin())) << "call " << call;
        EXPECT_TRUE(std::all_of(
            results.begin(), results.end(), [](const auto& r) { return r.crc_ok; }))
            << "call " << call;
    }
}

TEST_P(LteTransport, CheckNamesWhatIsWrongWithOneBlock)
{
    // check() refuses what decode() would, one transport block against the buffers as
    // they are, and a call with such a block changes no buffer: a soft buffer too small
    // for any bit (it passes validate()), a code block the turbo decoder does not take
    // (P = 16 does not divide K = 40), no LLRs, a bad process, a retransmission of
    // another tbs.
    lte::transport_config config;
    config.turbo.subblocks = 16;
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam(), config);
    std::mt19937_64 rng(test::test_seed());
    lte::transport_format f;
    f.tbs = 1000; // one code block of K = 1024
    f.G = 1200;
    const auto llrs = send_noiseless(f, rng).llrs;
    std::vector<std::uint8_t> out(3000);
    lte::transport_block good;
    good.format = f;
    good.f32 = llrs.data();
    good.harq_process = 1;
    decoder->decode(&good, 1, out.data(), nullptr);
    const std::vector<std::int8_t> before = decoder->soft_buffer(1);
    good.new_data = false;
    EXPECT_NO_THROW(decoder->check(good));

    auto bad = [&](auto change) {
        lte::transport_block t = good;
        t.harq_process = 2;
        t.new_data = true;
        change(t);
        return t;
    };
    const std::vector<float> few(132, 1.0f);
    const std::vector<std::pair<lte::transport_block, std::string>> cases = {
        { bad([&](auto& t) {
              t.format.tbs = 1;
              t.format.G = 132;
              t.format.soft_buffer = 3;
              t.f32 = few.data();
          }),
          "soft_buffer=3 leaves code block 0 (K=40) a circular buffer of N_cb=3 bits "
          "with none to send" },
        { bad([&](auto& t) {
              t.format.tbs = 16;
              t.format.G = 132;
              t.f32 = few.data();
          }),
          "code block size K=40 of tbs=16: " },
        { bad([](auto& t) { t.f32 = nullptr; }), "give exactly one of float or int8" },
        { bad([](auto& t) { t.harq_process = -2; }), "harq_process=-2 is out of range" },
        { bad([](auto& t) {
              t.harq_process = 1;
              t.new_data = false;
              t.format.tbs = 1001;
          }),
          "a retransmission of tbs=1001 into HARQ process 1, whose buffer holds "
          "tbs=1000" },
    };
    for (const auto& [t, reason] : cases) {
        try {
            decoder->check(t);
            ADD_FAILURE() << "check() took a block: " << reason;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
        }
        // Behind a good block that adds into process 1: the call fails first.
        const lte::transport_block call[2] = { good, t };
        try {
            decoder->decode(call, 2, out.data(), nullptr);
            ADD_FAILURE() << "decode() took a block: " << reason;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("transport block 1: " + reason),
                      std::string::npos)
                << e.what();
        }
        EXPECT_EQ(decoder->soft_buffer(1), before) << reason;
        EXPECT_EQ(decoder->harq_processes(), 1u) << reason;
    }
}

TEST_P(LteTransport, HarqProcessesBeyondTheLimitDropTheLeastRecentlyUsed)
{
    lte::transport_config config;
    config.max_harq_processes = 4;
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam(), config);
    std::mt19937_64 rng(test::test_seed());
    lte::transport_format f;
    f.tbs = 40;
    f.G = 132;
    const auto llrs = send_noiseless(f, rng).llrs;
    std::vector<std::uint8_t> out(40 * 8);
    auto call = [&](std::vector<int> processes, bool new_data = true) {
        std::vector<lte::transport_block> batch(processes.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
            batch[i].format = f;
            batch[i].f32 = llrs.data();
            batch[i].harq_process = processes[i];
            batch[i].new_data = new_data;
        }
        std::vector<lte::transport_result> results(batch.size());
        decoder->decode(batch.data(), batch.size(), out.data(), results.data());
        for (const auto& r : results)
            EXPECT_TRUE(r.crc_ok);
    };
    call({ 0, 2, 3 });
    call({ 1 });
    call({ 0 }, false); // used again: 2, 3, 1, 0 from the least recent
    EXPECT_TRUE(decoder->dropped_processes().empty());
    EXPECT_EQ(decoder->harq_processes(), 4u);
    call({ 10 });
    EXPECT_EQ(decoder->dropped_processes(), std::vector<int>({ 2 }));
    EXPECT_THROW(decoder->soft_buffer(2), std::invalid_argument);
    call({ 20, 3, 21 }); // 3 is in the call: 1 and 0 go
    EXPECT_EQ(decoder->dropped_processes(), std::vector<int>({ 1, 0 }));
    EXPECT_EQ(decoder->harq_processes(), 4u);
    EXPECT_EQ(decoder->dropped_count(), 3u);
    // More processes than the limit in one call: refused, nothing changes.
    try {
        call({ 30, 31, 32, 33, 34 });
        ADD_FAILURE() << "a call of 5 processes was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "decode: 5 HARQ processes in one call, more than "
                     "max_harq_processes=4");
    }
    EXPECT_EQ(decoder->harq_processes(), 4u);
    EXPECT_EQ(decoder->dropped_count(), 3u);
    // set_soft_buffer() makes room too; a call without a new process drops nothing.
    decoder->set_soft_buffer(40, 40, decoder->soft_buffer(3));
    EXPECT_EQ(decoder->dropped_processes(), std::vector<int>({ 10 }));
    call({ 40 }, false);
    EXPECT_TRUE(decoder->dropped_processes().empty());
    // A stream of new processes: the buffers stay at the limit, each drop counted.
    for (int p = 100; p < 1100; p += 2)
        call({ p, p + 1 });
    EXPECT_EQ(decoder->harq_processes(), 4u);
    EXPECT_EQ(decoder->dropped_count(), 4u + 1000u);
    EXPECT_NO_THROW(decoder->soft_buffer(1099));
    EXPECT_THROW(decoder->soft_buffer(1095), std::invalid_argument);
    lte::transport_config none;
    none.max_harq_processes = 0;
    EXPECT_THROW(make_transport_or_null(GetParam(), none), std::invalid_argument);
}

TEST_P(LteTransport, ManySoftBufferSizesDecodeAsTheirTablesAreForgotten)
{
    // 1100 transport blocks of one code block (K = 6144) in 11 calls, each with a soft
    // buffer (N_cb) of its own, and so a rate-matching table of its own: more tables
    // than the receiver keeps (74 MB), which it forgets between calls (the GPU's copies
    // with them). Rate 0.8, rv 0: every N_cb used sends the bits of the unlimited
    // buffer.
    GPUTURBO_TRANSPORT_OR_SKIP(decoder, GetParam());
    std::mt19937_64 rng(test::test_seed());
    lte::transport_format f;
    f.tbs = 6120;
    f.G = 7680;
    const auto data = random_bits(6120, rng);
    std::vector<std::uint8_t> e(7680), limited(7680);
    lte::transport_encode(f, data.data(), e.data());
    const long first = 17000;
    f.soft_buffer = first;
    lte::transport_encode(f, data.data(), limited.data());
    ASSERT_EQ(limited, e);
    const auto llrs = noiseless(e);
    const int calls = 11, per_call = 100;
    for (int c = 0; c < calls; ++c) {
        std::vector<lte::transport_block> batch(per_call);
        for (int i = 0; i < per_call; ++i) {
            batch[i].format = f;
            batch[i].format.soft_buffer = first + c * per_call + i;
            batch[i].f32 = llrs.data();
        }
        std::vector<std::uint8_t> out(std::size_t(per_call) * 6120);
        std::vector<lte::transport_result> results(per_call);
        decoder->decode(batch.data(), batch.size(), out.data(), results.data());
        for (int i = 0; i < per_call; ++i) {
            ASSERT_TRUE(results[i].crc_ok) << "call " << c << " block " << i;
            ASSERT_TRUE(std::equal(
                data.begin(), data.end(), out.begin() + std::ptrdiff_t(6120) * i))
                << "call " << c << " block " << i;
        }
    }
}

TEST(LteTransportPlans, TheTablesStayWithinTheirBound)
{
    // A receiver's cache of rate-matching tables, fed a new N_cb at every call (a
    // stream of distinct soft_buffer values): trim() between calls keeps its tables
    // under most_table_bytes.
    lte::plan_cache cache;
    lte::transport_format f;
    f.tbs = 6120; // K = 6144: 72 KiB tables
    f.G = 7680;
    std::size_t forgotten = 0, most = 0;
    for (long soft_buffer = 2000; soft_buffer < 18000; soft_buffer += 4) {
        forgotten += cache.trim();
        EXPECT_LE(cache.table_bytes(), lte::plan_cache::most_table_bytes);
        f.soft_buffer = soft_buffer;
        cache.plan(f);
        most = std::max(most, cache.tables());
    }
    EXPECT_GE(forgotten, 2u);
    EXPECT_LT(most, 2000u);
}

INSTANTIATE_TEST_SUITE_P(Backends,
                         LteTransport,
                         ::testing::ValuesIn(test::all_backends),
                         test::backend_test_name);
