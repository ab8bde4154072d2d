/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The control channels' coding (36.212 §5.3.1, §5.3.3): the independent DCI and BCH
// vectors encode bit for bit and decode from noiseless LLRs on every backend, the RNTI
// or the port count read from the CRC; rate matching for convolutional codes (the
// interleaver of Table 5.1.4-2, repetition adding up, puncturing leaving erasures);
// the masked CRC; bad arguments.

#include "conv/conv_test_util.h"
#include "lte/control_vectors.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::lte_test;

namespace {

std::vector<std::uint8_t>
encoded(const std::vector<std::uint8_t>& payload, long mask, int E)
{
    std::vector<std::uint8_t> e(E);
    lte::control_encode(int(payload.size()), payload.data(), mask, E, e.data());
    return e;
}

// Table 5.1.4-2 as the specification prints it.
const int spec_permutation[32] = { 1,  17, 9,  25, 5,  21, 13, 29, 3,  19, 11,
                                   27, 7,  23, 15, 31, 0,  16, 8,  24, 4,  20,
                                   12, 28, 2,  18, 10, 26, 6,  22, 14, 30 };

// One stream of D bits through §5.1.4.2.1 as written: a matrix of R rows of 32, filled
// row by row with the dummies (-1) first and then d_0 ... d_(D-1), its columns read
// out in the table's order.
std::vector<int> interleaved_stream(int D)
{
    const int R = (D + 31) / 32;
    std::vector<std::vector<int>> matrix(R, std::vector<int>(32));
    for (int y = 0; y < 32 * R; ++y)
        matrix[y / 32][y % 32] = y - (32 * R - D);
    std::vector<int> v;
    for (const int column : spec_permutation)
        for (int row = 0; row < R; ++row)
            v.push_back(matrix[row][column] < 0 ? -1 : matrix[row][column]);
    return v;
}

// w's positions that hold coded bits (not NULL), in order.
std::vector<std::int32_t> sent_order(int D)
{
    std::vector<std::int32_t> order;
    for (const std::int32_t at : lte::conv_circular_buffer(D))
        if (at != lte::null_bit)
            order.push_back(at);
    return order;
}

} // namespace

TEST(LteControl, EncodesEveryVectorBitForBit)
{
    const auto cases = read_cases();
    ASSERT_EQ(cases.size(), 54u) << "read from " << vectors_dir();
    for (const control_case& c : cases)
        EXPECT_EQ(encoded(c.data, c.mask, c.E), c.e) << "case " << c.number;
}

TEST(LteControl, AVectorOfFewerBitsThanItsBlockFitsAnotherRnti)
{
    // Cases 40 and 44 send blocks of A + 16 = 73 and 76 bits in E = 72. The coding is
    // linear over GF(2) in the payload and the mask, so a block that it maps to 0 exists;
    // here one with a mask part: the vector's E bits are also another payload's to
    // another RNTI, and no decoder recovers its RNTI from them (the decoding test asks
    // of these two only a block that encodes to their bits).
    int shared = 0;
    for (const control_case& c : read_cases()) {
        const int n = c.A + lte::control_crc_bits;
        if (c.E >= n)
            continue;
        ASSERT_LE(c.E, 256);
        ASSERT_LE(n, 128);
        // Block bit j (payload bits, then the mask's) as the E bits it sends, reduced
        // against those before it (Gaussian elimination, each kept vector with the
        // block bits it sums) until one reduces to 0: a block sent as nothing.
        struct kept
        {
            std::bitset<256> sent;
            std::bitset<128> block;
            int pivot;
        };
        std::vector<kept> basis;
        std::bitset<128> silent;
        for (int j = 0; j < n; ++j) {
            std::vector<std::uint8_t> payload(c.A, 0);
            long mask = 0;
            if (j < c.A)
                payload[j] = 1;
            else
                mask = 1L << (j - c.A);
            kept k{ {}, {}, -1 };
            const auto e = encoded(payload, mask, c.E);
            for (int i = 0; i < c.E; ++i)
                k.sent[i] = e[i];
            k.block[j] = true;
            for (const kept& b : basis)
                if (k.sent[b.pivot]) {
                    k.sent ^= b.sent;
                    k.block ^= b.block;
                }
            if (k.sent.none()) {
                silent = k.block;
                break;
            }
            for (int i = 0; i < c.E; ++i)
                if (k.sent[i]) {
                    k.pivot = i;
                    break;
                }
            basis.push_back(k);
        }
        ASSERT_TRUE(silent.any()) << "case " << c.number;
        std::vector<std::uint8_t> other = c.data;
        long other_mask = c.mask;
        for (int j = 0; j < n; ++j)
            if (silent[j]) {
                if (j < c.A)
                    other[j] ^= 1u;
                else
                    other_mask ^= 1L << (j - c.A);
            }
        EXPECT_NE(other_mask, c.mask) << "case " << c.number;
        EXPECT_EQ(encoded(other, other_mask, c.E), c.e) << "case " << c.number;
        ++shared;
    }
    EXPECT_EQ(shared, 2);
}

TEST(LteControlRateMatching, TheInterleaverFollowsTable5_1_4_2)
{
    // D = 32: one row, no dummies; 40: two rows after 24 dummies (the MIB's A + 16);
    // 1 and 33: 31 dummies.
    for (const int D : { 1, 24, 32, 33, 40, 63, 64, 76, 100 }) {
        const auto w = lte::conv_circular_buffer(D);
        const auto v = interleaved_stream(D);
        ASSERT_EQ(w.size(), 3 * v.size()) << "D " << D;
        for (std::size_t s = 0; s < 3; ++s)
            for (std::size_t k = 0; k < v.size(); ++k)
                ASSERT_EQ(w[s * v.size() + k],
                          v[k] < 0 ? lte::null_bit : 3 * v[k] + int(s))
                    << "D " << D << " stream " << s << " position " << k;
    }
}

TEST(LteControlRateMatching, EveryCodedBitOnceWhateverD)
{
    for (int D = 1; D <= 200; ++D) {
        auto order = sent_order(D);
        ASSERT_EQ(order.size(), 3u * D) << "D " << D;
        std::sort(order.begin(), order.end());
        for (int i = 0; i < 3 * D; ++i)
            ASSERT_EQ(order[i], i) << "D " << D;
    }
}

TEST(LteControlRateMatching, RepeatedLlrsAddUp)
{
    // E = 1728 of D = 40 (the MIB with the extended cyclic prefix): each coded bit sent
    // 14 or 15 times, its LLR the sum of the LLRs that conv_select_bits() sends from it.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-3.0f, 3.0f);
    for (const auto [D, E] :
         { std::pair{ 40, 1728 }, std::pair{ 37, 576 }, std::pair{ 24, 73 } }) {
        const auto w = lte::conv_circular_buffer(D);
        std::vector<float> llrs(E), coded(3 * D, 99.0f);
        for (float& x : llrs)
            x = value(rng);
        lte::conv_combine_bits(w, llrs.data(), E, coded.data());
        for (int i = 0; i < 3 * D; ++i) {
            std::vector<std::uint8_t> one_hot(3 * D, 0), e(E);
            one_hot[i] = 1;
            lte::conv_select_bits(w, one_hot.data(), E, e.data());
            float sum = 0.0f;
            int times = 0;
            for (int k = 0; k < E; ++k)
                if (e[k]) {
                    sum += llrs[k];
                    ++times;
                }
            EXPECT_GE(times, E / (3 * D)) << "D " << D << " E " << E << " bit " << i;
            EXPECT_LE(times, E / (3 * D) + 1) << "D " << D << " E " << E << " bit " << i;
            EXPECT_FLOAT_EQ(coded[i], sum) << "D " << D << " E " << E << " bit " << i;
        }
    }
}

TEST(LteControlRateMatching, PuncturedBitsAreErasures)
{
    // The bit collection holds stream 0, then 1, then 2: E = 2 D sends streams 0 and 1
    // (rate 1/2) and E = D stream 0; the bits not sent are 0, those sent their LLR.
    for (const int D : { 24, 40, 45 }) {
        const auto w = lte::conv_circular_buffer(D);
        for (const int streams_sent : { 1, 2 }) {
            const int E = streams_sent * D;
            const std::vector<float> ones(E, 1.0f);
            std::vector<float> coded(3 * D, 99.0f);
            lte::conv_combine_bits(w, ones.data(), E, coded.data());
            for (int i = 0; i < 3 * D; ++i)
                EXPECT_EQ(coded[i], i % 3 < streams_sent ? 1.0f : 0.0f)
                    << "D " << D << " E " << E << " bit " << i;
        }
        // Any E < 3 D: E bits sent once, the others erased.
        const int E = 3 * D - 11;
        const std::vector<float> ones(E, 1.0f);
        std::vector<float> coded(3 * D, 99.0f);
        lte::conv_combine_bits(w, ones.data(), E, coded.data());
        EXPECT_EQ(std::count(coded.begin(), coded.end(), 1.0f), E) << "D " << D;
        EXPECT_EQ(std::count(coded.begin(), coded.end(), 0.0f), 11) << "D " << D;
    }
}

TEST(LteControlCrc, TheMaskComesBackAndNoMaskIsThePlainCrc)
{
    std::mt19937 rng(11);
    for (const int A : { 1, 8, 24, 27, 60 }) {
        std::vector<std::uint8_t> plain(A + 16), masked(A + 16);
        for (int i = 0; i < A; ++i)
            plain[i] = masked[i] = rng() & 1;
        lte::attach_crc(lte::crc::crc16, plain.data(), plain.size());
        lte::attach_masked_crc(A, 0, masked.data());
        EXPECT_EQ(masked, plain) << "A " << A;
        EXPECT_EQ(lte::crc_mask(A, plain.data()), 0) << "A " << A;
        for (const long mask :
             { 0x0001L, 0x8000L, 0xFFFEL, 0xFFFFL, long(rng() & 0xFFFF) }) {
            lte::attach_masked_crc(A, mask, masked.data());
            EXPECT_EQ(lte::crc_mask(A, masked.data()), mask) << "A " << A;
            // The mask's MSB meets the first CRC bit.
            for (int i = 0; i < 16; ++i)
                EXPECT_EQ(masked[A + i] ^ plain[A + i], (mask >> (15 - i)) & 1);
        }
    }
}

TEST(LteControlCrc, BchPortsAndTheirMasks)
{
    const std::map<int, std::uint16_t> masks = { { 1, 0x0000 },
                                                 { 2, 0xFFFF },
                                                 { 4, 0x5555 } };
    for (const auto& [ports, mask] : masks) {
        EXPECT_EQ(lte::bch_mask(ports), mask);
        EXPECT_EQ(lte::bch_ports(mask), ports);
    }
    for (const std::uint16_t other : { 0x0001, 0x5554, 0xAAAA, 0x1234 })
        EXPECT_EQ(lte::bch_ports(other), 0) << other;
}

TEST(LteControl, BadArgumentsAreRefusedNamingThem)
{
    const std::vector<std::uint8_t> payload(27, 0);
    std::vector<std::uint8_t> e(72);
    auto encode = [&](int A, long mask, int E) {
        return test::invalid_argument_message(
            [&] { lte::control_encode(A, payload.data(), mask, E, e.data()); });
    };
    EXPECT_EQ(encode(27, 0x1234, 0), "E=0 is out of range: use 1 or more");
    EXPECT_EQ(encode(27, 0x1234, -5), "E=-5 is out of range: use 1 or more");
    EXPECT_EQ(encode(0, 0x1234, 72), "A=0 is out of range: use 1 ... 65536");
    EXPECT_EQ(encode(lte::max_control_bits + 1, 0x1234, 72),
              "A=65537 is out of range: use 1 ... 65536");
    EXPECT_EQ(encode(INT_MAX, 0x1234, 72), // no overflow of A + 16
              "A=" + std::to_string(INT_MAX) + " is out of range: use 1 ... 65536");
    EXPECT_EQ(encode(27, 0x10000, 72),
              "mask=65536 is out of range: use 0 ... 65535 (16 bits)");
    EXPECT_EQ(encode(27, -1, 72), "mask=-1 is out of range: use 0 ... 65535 (16 bits)");
    EXPECT_EQ(test::invalid_argument_message([] { lte::bch_mask(3); }),
              "ports=3 is not an antenna port count of the BCH: use 1, 2 or 4");
    EXPECT_EQ(test::invalid_argument_message([] { lte::conv_circular_buffer(0); }),
              "D=0 is out of range: use 1 ... 65552");
    EXPECT_EQ(test::invalid_argument_message([] { lte::conv_circular_buffer(INT_MAX); }),
              "D=" + std::to_string(INT_MAX) + " is out of range: use 1 ... 65552");

    // A decoder of another termination or rate reads another number of LLRs a frame.
    std::vector<float> llrs(72);
    std::vector<std::uint16_t> masks(1);
    auto decode_with = [&](const conv::viterbi_config& c, int A, int E) {
        const auto dec = conv::make_viterbi_decoder(c, "cpu");
        return test::invalid_argument_message([&] {
            lte::control_decode(*dec, A, E, llrs.data(), 1, e.data(), masks.data());
        });
    };
    conv::viterbi_config terminated = lte::control_decoder_config();
    terminated.mode = conv::termination::terminated;
    EXPECT_EQ(decode_with(terminated, 27, 72),
              "control_decode: the decoder reads 147 LLRs a frame of A + 16 = 43 bits, a "
              "control block 129: use a decoder of the \"lte\" code, tail-biting "
              "(control_decoder_config())");
    conv::viterbi_config half_rate = lte::control_decoder_config();
    half_rate.generator = conv::preset("802.11");
    EXPECT_NE(decode_with(half_rate, 27, 72).find("reads 86 LLRs"), std::string::npos);
    EXPECT_EQ(decode_with(lte::control_decoder_config(), 27, 0),
              "E=0 is out of range: use 1 or more");
    EXPECT_EQ(decode_with(lte::control_decoder_config(), 0, 72),
              "A=0 is out of range: use 1 ... 65536");
}

namespace {

class LteControlDecoder : public control_decoder_test
{
};

} // namespace

TEST_P(LteControlDecoder, EveryVectorFromNoiselessLlrs)
{
    const auto cases = read_cases();
    ASSERT_EQ(cases.size(), 54u) << "read from " << vectors_dir();
    const auto dec = decoder();
    int ambiguous = 0;
    for (const control_case& c : cases) {
        const auto llrs = noiseless_llrs(c.e);
        std::vector<std::uint8_t> payload(c.A);
        std::uint16_t mask = 0;
        core::codeword_status status;
        lte::control_decode(
            *dec, c.A, c.E, llrs.data(), 1, payload.data(), &mask, &status);
        if (c.E < c.A + lte::control_crc_bits) {
            // Fewer bits sent than the block has (a code rate above 1: 57 and 60 bits at
            // aggregation level 1): other blocks, to other RNTIs, are sent as the same E
            // bits (AVectorOfFewerBitsThanItsBlockFitsAnotherRnti). The exact decoder
            // finds one of them; the wrap-around Viterbi of the others needn't meet a
            // tail-biting path with two thirds of the code erased.
            ++ambiguous;
            if (GetParam() == std::string("reference"))
                EXPECT_EQ(encoded(payload, mask, c.E), c.e) << "case " << c.number;
            continue;
        }
        EXPECT_EQ(payload, c.data) << "case " << c.number;
        EXPECT_TRUE(status.passed) << "case " << c.number;
        if (c.bch)
            EXPECT_EQ(lte::bch_ports(mask),
                      c.mask == 0        ? 1
                      : c.mask == 0xFFFF ? 2
                                         : 4)
                << "case " << c.number;
        else
            EXPECT_EQ(mask, c.mask) << "case " << c.number;
    }
    EXPECT_EQ(ambiguous, 2);
}

TEST_P(LteControlDecoder, ManyCandidatesInOneCall)
{
    // Blind decoding's shape: candidates of one size and E, each to its own RNTI, in
    // one call; an erased candidate among them carries no information.
    std::mt19937 rng(19);
    const auto dec = decoder();
    for (const int A : { 8, 27, 44 })
        for (const int E : { 72, 144, 576 }) {
            const std::size_t n = 300, erased = 123;
            std::vector<std::uint8_t> sent(n * A);
            std::vector<std::uint16_t> rntis(n);
            std::vector<float> llrs(n * E);
            for (std::size_t i = 0; i < n; ++i) {
                for (int b = 0; b < A; ++b)
                    sent[i * A + b] = rng() & 1;
                rntis[i] = std::uint16_t(rng());
                const std::vector<std::uint8_t> payload(sent.begin() + i * A,
                                                        sent.begin() + (i + 1) * A);
                const auto l = noiseless_llrs(encoded(payload, rntis[i], E));
                std::copy(l.begin(), l.end(), llrs.begin() + i * E);
            }
            std::fill(llrs.begin() + erased * E, llrs.begin() + (erased + 1) * E, 0.0f);
            std::vector<std::uint8_t> payload(n * A);
            std::vector<std::uint16_t> masks(n);
            std::vector<core::codeword_status> status(n);
            lte::control_decode(
                *dec, A, E, llrs.data(), n, payload.data(), masks.data(), status.data());
            for (std::size_t i = 0; i < n; ++i) {
                if (i == erased) {
                    EXPECT_FALSE(status[i].passed);
                    continue;
                }
                EXPECT_TRUE(status[i].passed) << "A " << A << " E " << E << " #" << i;
                EXPECT_EQ(masks[i], rntis[i]) << "A " << A << " E " << E << " #" << i;
                EXPECT_TRUE(std::equal(payload.begin() + i * A,
                                       payload.begin() + (i + 1) * A,
                                       sent.begin() + i * A))
                    << "A " << A << " E " << E << " #" << i;
            }
        }
    // No candidates: nothing read or written.
    lte::control_decode(*dec, 27, 72, nullptr, 0, nullptr, nullptr);
}

TEST(LteControl, AFrameQuantisedToInt8HasItsLargestLlrAt127)
{
    const std::vector<float> frame = { 0.5f, -2.0f, 0.0f, 0.24f, 1.0f, -0.01f };
    std::vector<std::int8_t> q(frame.size());
    lte::quantize_control_frame(frame.data(), int(frame.size()), q.data());
    EXPECT_EQ(q, (std::vector<std::int8_t>{ 32, -127, 0, 15, 64, -1 }));
    // The scale is the frame's own: a frame 4 times as large is the same.
    std::vector<float> larger(frame);
    for (float& x : larger)
        x *= 4.0f;
    std::vector<std::int8_t> q3(frame.size());
    lte::quantize_control_frame(larger.data(), int(larger.size()), q3.data());
    EXPECT_EQ(q3, q);
    const std::vector<float> zeros(4, 0.0f);
    std::vector<std::int8_t> qz(4, 9);
    lte::quantize_control_frame(zeros.data(), 4, qz.data());
    EXPECT_EQ(qz, std::vector<std::int8_t>(4, 0));
}

TEST_P(LteControlDecoder, Int8FramesDecideAsFloatOnNoisyFrames)
{
    // Noisy blocks of one size at each level's E, from where half are lost to where
    // all decode, de-rate-matched (conv_combine_bits()) and decoded as the float frames
    // and as quantize_control_frame()'s int8: the max-log Viterbi's decisions do not
    // depend on a frame's scale, only the rounding to int8 differs.
    std::mt19937 rng(23);
    const auto dec = decoder();
    const int A = 27, D = A + lte::control_crc_bits, K = 3 * D;
    const auto w = lte::conv_circular_buffer(D);
    std::size_t frames = 0, differ = 0, right_float = 0, right_int8 = 0;
    for (const int E : { 72, 144, 288, 576 })
        for (const double esn0 : { -8.0, -4.0, -1.0, 2.0 }) {
            const std::size_t n = 200;
            const double n0 = std::pow(10.0, -esn0 / 10.0);
            std::normal_distribution<double> noise(0.0, std::sqrt(n0 / 2));
            std::vector<std::uint8_t> sent(n * D);
            std::vector<float> coded(n * K);
            std::vector<std::int8_t> quantised(n * K);
            std::vector<float> llrs(E);
            for (std::size_t i = 0; i < n; ++i) {
                std::vector<std::uint8_t> payload(A);
                for (auto& b : payload)
                    b = rng() & 1;
                const auto e = encoded(payload, 0x1234, E);
                const double a = std::sqrt(0.5);
                for (int k = 0; k < E; ++k)
                    llrs[k] = float(4 * a * ((e[k] ? a : -a) + noise(rng)) / n0);
                lte::conv_combine_bits(w, llrs.data(), E, coded.data() + i * K);
                lte::quantize_control_frame(
                    coded.data() + i * K, K, quantised.data() + i * K);
                std::copy(payload.begin(), payload.end(), sent.begin() + i * D);
                lte::attach_masked_crc(A, 0x1234, sent.data() + i * D);
            }
            std::vector<std::uint8_t> by_float(n * D), by_int8(n * D);
            dec->decode(D, coded.data(), n, by_float.data(), nullptr);
            dec->decode(D, quantised.data(), n, by_int8.data(), nullptr);
            for (std::size_t i = 0; i < n; ++i) {
                auto frame = [&](const std::vector<std::uint8_t>& v) {
                    return std::vector<std::uint8_t>(v.begin() + i * D,
                                                     v.begin() + (i + 1) * D);
                };
                ++frames;
                differ += frame(by_float) != frame(by_int8);
                right_float += frame(by_float) == frame(sent);
                right_int8 += frame(by_int8) == frame(sent);
            }
        }
    std::printf("%zu noisy frames: float decodes %zu right, int8 %zu, %zu decided "
                "otherwise\n",
                frames,
                right_float,
                right_int8,
                differ);
    // Frames that decode right as float decode right as int8 up to a few in a thousand
    // (rounding decides the near ties among the wrong ones more often).
    EXPECT_LE(std::max(right_float, right_int8) - std::min(right_float, right_int8),
              frames / 200);
    EXPECT_LE(differ, frames / 20);
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         LteControlDecoder,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });
