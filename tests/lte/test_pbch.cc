/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PBCH (36.212 §5.3.1, 36.211 §6.6): the MIB's fields in 36.331's order; the BCH
// vectors scrambled by a cell's sequence encode bit for bit and decode from their four
// parts on every backend; every place in the period of every subset of parts that
// starts a window decodes with its offset; noisy parts combine; a wrong cell, erased
// parts and bad arguments give nothing.

#include "conv/conv_test_util.h"
#include "lte/control_vectors.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/pbch.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::lte_test;

namespace {

std::vector<control_case> bch_cases()
{
    std::vector<control_case> bch;
    for (control_case& c : read_cases())
        if (c.bch)
            bch.push_back(std::move(c));
    return bch;
}

lte::cyclic_prefix cp_of(int E)
{
    return E == 1920 ? lte::cyclic_prefix::normal : lte::cyclic_prefix::extended;
}

// The bits of a case's block as sent from cell cell_id: its E bits scrambled.
std::vector<std::uint8_t> scrambled(const control_case& c, int cell_id)
{
    std::vector<std::uint8_t> seq(c.e.size()), e = c.e;
    lte::scrambling_sequence(cell_id, seq.size(), seq.data());
    for (std::size_t k = 0; k < e.size(); ++k)
        e[k] ^= seq[k];
    return e;
}

lte::mib random_mib(std::mt19937& rng)
{
    constexpr int bandwidths[] = { 6, 15, 25, 50, 75, 100 };
    lte::mib m;
    m.n_prb = bandwidths[rng() % 6];
    m.duration = lte::phich_duration(rng() % 2);
    m.ng = lte::phich_resource(rng() % 4);
    m.sfn_msbs = int(rng() % 256);
    m.spare = int(rng() % 1024);
    return m;
}

// A window of a period's E LLRs: the parts of frames offset + k for the bits k of
// parts; the others hold the period's bits inverted (wrong and strong), which a
// decoder that read them would not survive.
std::vector<float>
window_llrs(const std::vector<float>& period, int offset, unsigned parts)
{
    const std::size_t part = period.size() / lte::pbch_parts;
    std::vector<float> w(period.size());
    for (std::size_t k = 0; k < std::size_t(lte::pbch_parts); ++k)
        for (std::size_t i = 0; i < part; ++i) {
            const std::size_t at = (offset + k) * part + i;
            w[k * part + i] = parts >> k & 1u      ? period[at]
                              : at < period.size() ? -100.0f * period[at]
                                                   : 100.0f;
        }
    return w;
}

// BPSK through white Gaussian noise at Es/N0 (dB) a sent bit, in GNU Radio's sign.
std::vector<float>
noisy_llrs(const std::vector<std::uint8_t>& bits, double esn0_db, std::mt19937_64& rng)
{
    auto llrs = conv_test::awgn_llrs(bits, conv_test::sigma_at(esn0_db, 1.0), rng);
    for (float& l : llrs)
        l = -l;
    return llrs;
}

} // namespace

TEST(LtePbchMib, FieldsInTheOrder36_331SendsThem)
{
    lte::mib m;
    m.n_prb = 50;                               // n50: 3
    m.duration = lte::phich_duration::extended; // 1
    m.ng = lte::phich_resource::half;           // 1
    m.sfn_msbs = 0xA5;
    m.spare = 0x2C3;
    const auto bits = lte::pack_mib(m);
    // 011 | 1 | 01 | 10100101 | 1011000011
    const std::string expected = "011101101001011011000011";
    ASSERT_EQ(expected.size(), std::size_t(lte::mib_bits));
    for (int i = 0; i < lte::mib_bits; ++i)
        EXPECT_EQ(bits[i], expected[i] - '0') << "bit " << i;
    EXPECT_EQ(lte::parse_mib(bits.data()), m);
}

TEST(LtePbchMib, EveryFieldValueComesBack)
{
    for (const int n_prb : { 6, 15, 25, 50, 75, 100 })
        for (const auto duration :
             { lte::phich_duration::normal, lte::phich_duration::extended })
            for (const int ng : { 0, 1, 2, 3 })
                for (const int sfn_msbs : { 0, 1, 128, 255 })
                    for (const int spare : { 0, 1, 512, 1023 }) {
                        const lte::mib m{
                            n_prb, duration, lte::phich_resource(ng), sfn_msbs, spare
                        };
                        EXPECT_EQ(lte::parse_mib(lte::pack_mib(m).data()), m)
                            << n_prb << " " << int(duration) << " " << ng << " "
                            << sfn_msbs << " " << spare;
                    }
    // dl-Bandwidth codes 6 and 7 name no bandwidth.
    for (const std::uint8_t first : { 0b110, 0b111 }) {
        std::uint8_t bits[lte::mib_bits] = { std::uint8_t(first >> 2),
                                             std::uint8_t(first >> 1 & 1),
                                             std::uint8_t(first & 1) };
        EXPECT_FALSE(lte::parse_mib(bits)) << int(first);
    }
}

TEST(LtePbchMib, TheVectorsMibs)
{
    // Random payloads: four name a bandwidth and pack back to themselves; two (cases
    // 48 and 49) start with 110.
    int defined = 0;
    for (const control_case& c : bch_cases()) {
        const auto m = lte::parse_mib(c.data.data());
        if (!m) {
            EXPECT_EQ(c.data[0] * 4 + c.data[1] * 2 + c.data[2], 6)
                << "case " << c.number;
            continue;
        }
        ++defined;
        const auto bits = lte::pack_mib(*m);
        EXPECT_EQ(std::vector<std::uint8_t>(bits.begin(), bits.end()), c.data)
            << "case " << c.number;
    }
    EXPECT_EQ(defined, 4);
}

TEST(LtePbch, EncodesTheVectorsScrambledBitForBit)
{
    int checked = 0;
    for (const control_case& c : bch_cases()) {
        const auto m = lte::parse_mib(c.data.data());
        if (!m)
            continue;
        const int ports = lte::bch_ports(std::uint16_t(c.mask));
        for (const int cell_id : { 0, 1, 137, 503 }) {
            EXPECT_EQ(lte::pbch_encode(*m, ports, cell_id, cp_of(c.E)),
                      scrambled(c, cell_id))
                << "case " << c.number << " cell " << cell_id;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 16);
}

TEST(LtePbch, PartsAndBits)
{
    EXPECT_EQ(lte::pbch_bits(lte::cyclic_prefix::normal), 1920);
    EXPECT_EQ(lte::pbch_bits(lte::cyclic_prefix::extended), 1728);
    // The sequence restarts each period: part i is bits [i E / 4, (i + 1) E / 4) of
    // one E-bit sequence, not a sequence of its own.
    lte::mib m;
    const auto e = lte::pbch_encode(m, 1, 0, lte::cyclic_prefix::normal);
    std::vector<std::uint8_t> c(1920), coded(1920);
    lte::scrambling_sequence(0, c.size(), c.data());
    const auto bits = lte::pack_mib(m);
    lte::control_encode(lte::mib_bits, bits.data(), 0, 1920, coded.data());
    for (int k = 480; k < 960; ++k)
        EXPECT_EQ(e[k], coded[k] ^ c[k]) << k;
}

TEST(LtePbch, BadArgumentsAreRefusedNamingThem)
{
    auto pack = [](lte::mib m) {
        return test::invalid_argument_message([&] { lte::pack_mib(m); });
    };
    lte::mib m;
    m.n_prb = 20;
    EXPECT_EQ(pack(m), "n_prb=20 is out of range: use 6, 15, 25, 50, 75 or 100");
    m = {};
    m.duration = lte::phich_duration(2);
    EXPECT_EQ(pack(m), "duration=2 is out of range: use normal (0) or extended (1)");
    m = {};
    m.ng = lte::phich_resource(4);
    EXPECT_EQ(pack(m), "ng=4 is out of range: use 1/6, 1/2, 1 or 2");
    m = {};
    m.sfn_msbs = 256;
    EXPECT_EQ(pack(m), "sfn_msbs=256 is out of range: use 0 ... 255");
    m.sfn_msbs = -1;
    EXPECT_EQ(pack(m), "sfn_msbs=-1 is out of range: use 0 ... 255");
    m = {};
    m.spare = 1024;
    EXPECT_EQ(pack(m), "spare=1024 is out of range: use 0 ... 1023");

    auto encode = [](int ports, int cell_id, lte::cyclic_prefix cp) {
        return test::invalid_argument_message(
            [&] { lte::pbch_encode(lte::mib{}, ports, cell_id, cp); });
    };
    const auto normal = lte::cyclic_prefix::normal;
    EXPECT_EQ(encode(3, 0, normal),
              "ports=3 is not an antenna port count of the BCH: use 1, 2 or 4");
    EXPECT_EQ(encode(1, 504, normal), "cell_id=504 is out of range: use 0 ... 503");
    EXPECT_EQ(encode(1, -1, normal), "cell_id=-1 is out of range: use 0 ... 503");
    EXPECT_EQ(encode(1, 0, lte::cyclic_prefix(2)),
              "cp=2 is out of range: use normal (0) or extended (1)");

    const auto dec = conv::make_viterbi_decoder(lte::control_decoder_config(), "cpu");
    const std::vector<float> llrs(2 * 1920);
    auto decode = [&](std::vector<lte::pbch_window> windows) {
        return test::invalid_argument_message([&] {
            lte::pbch_decode(*dec, normal, windows.data(), llrs.data(), windows.size());
        });
    };
    EXPECT_EQ(decode({ { 0, 0b1111 }, { 504, 0b1 } }),
              "windows[1].cell_id=504 is out of range: use 0 ... 503");
    const std::string parts =
        " is out of range: use 1 ... 15 with bit 0 set (the window's first frame "
        "received)";
    EXPECT_EQ(decode({ { 7, 0 } }), "windows[0].parts=0" + parts);
    EXPECT_EQ(decode({ { 7, 0b0110 } }), "windows[0].parts=6" + parts);
    EXPECT_EQ(decode({ { 7, 0b10001 } }), "windows[0].parts=17" + parts);

    conv::viterbi_config terminated = lte::control_decoder_config();
    terminated.mode = conv::termination::terminated;
    const auto other = conv::make_viterbi_decoder(terminated, "cpu");
    const lte::pbch_window window;
    EXPECT_NE(test::invalid_argument_message([&] {
                  lte::pbch_decode(*other, normal, &window, llrs.data(), 1);
              }).find("use a decoder of the \"lte\" code, tail-biting"),
              std::string::npos);
}

namespace {

class LtePbchDecoder : public control_decoder_test
{
};

} // namespace

TEST_P(LtePbchDecoder, EveryBchVectorFromItsFourParts)
{
    // Each vector scrambled by a cell, the E bits of both cyclic prefixes in one call
    // each: the MIB's bits, the ports of its mask, offset 0.
    const auto dec = decoder();
    const auto cases = bch_cases();
    ASSERT_EQ(cases.size(), 6u) << "read from " << vectors_dir();
    for (const int E : { 1920, 1728 }) {
        std::vector<const control_case*> sent;
        std::vector<lte::pbch_window> windows;
        std::vector<float> llrs;
        for (const control_case& c : cases)
            if (c.E == E) {
                const int cell_id = (c.number * 97) % (lte::max_cell_id + 1);
                const auto l = noiseless_llrs(scrambled(c, cell_id));
                llrs.insert(llrs.end(), l.begin(), l.end());
                windows.push_back({ cell_id, 0b1111 });
                sent.push_back(&c);
            }
        ASSERT_EQ(windows.size(), 3u);
        const auto found =
            lte::pbch_decode(*dec, cp_of(E), windows.data(), llrs.data(), windows.size());
        ASSERT_EQ(found.size(), windows.size());
        for (std::size_t j = 0; j < found.size(); ++j) {
            const control_case& c = *sent[j];
            ASSERT_TRUE(found[j]) << "case " << c.number;
            EXPECT_EQ(
                std::vector<std::uint8_t>(found[j]->bits.begin(), found[j]->bits.end()),
                c.data)
                << "case " << c.number;
            EXPECT_EQ(found[j]->ports, lte::bch_ports(std::uint16_t(c.mask)))
                << "case " << c.number;
            EXPECT_EQ(found[j]->offset, 0) << "case " << c.number;
            EXPECT_TRUE(found[j]->status.passed) << "case " << c.number;
            EXPECT_EQ(found[j]->message, lte::parse_mib(c.data.data()))
                << "case " << c.number;
        }
    }
}

TEST_P(LtePbchDecoder, EveryOffsetOfEverySubsetOfParts)
{
    // Each window of parts (a mask with bit 0: 1, 3, 7 and 15 are 1 … 4 consecutive
    // parts) at each offset it fits, of each port count, from its own cell and MIB:
    // every cyclic prefix's windows in one call.
    const auto dec = decoder();
    std::mt19937 rng(42);
    for (const auto cp : { lte::cyclic_prefix::normal, lte::cyclic_prefix::extended }) {
        struct sent_window
        {
            lte::mib m;
            int ports, offset;
        };
        std::vector<sent_window> sent;
        std::vector<lte::pbch_window> windows;
        std::vector<float> llrs;
        for (unsigned parts = 1; parts < 16; parts += 2) {
            const int span = parts >= 8 ? 4 : parts >= 4 ? 3 : parts >= 2 ? 2 : 1;
            for (int offset = 0; offset + span <= lte::pbch_parts; ++offset)
                for (const int ports : { 1, 2, 4 }) {
                    const lte::mib m = random_mib(rng);
                    const int cell_id = int(rng() % (lte::max_cell_id + 1));
                    const auto l = window_llrs(
                        noiseless_llrs(lte::pbch_encode(m, ports, cell_id, cp)),
                        offset,
                        parts);
                    llrs.insert(llrs.end(), l.begin(), l.end());
                    windows.push_back({ cell_id, parts });
                    sent.push_back({ m, ports, offset });
                }
        }
        ASSERT_EQ(windows.size(), 3u * (4 + 3 + 2 + 2 + 1 + 1 + 1 + 1));
        const auto found =
            lte::pbch_decode(*dec, cp, windows.data(), llrs.data(), windows.size());
        for (std::size_t j = 0; j < found.size(); ++j) {
            const auto where = "cp " + std::to_string(int(cp)) + " parts " +
                               std::to_string(windows[j].parts) + " offset " +
                               std::to_string(sent[j].offset) + " ports " +
                               std::to_string(sent[j].ports);
            ASSERT_TRUE(found[j]) << where;
            EXPECT_EQ(found[j]->message, sent[j].m) << where;
            EXPECT_EQ(found[j]->ports, sent[j].ports) << where;
            EXPECT_EQ(found[j]->offset, sent[j].offset) << where;
            EXPECT_EQ(found[j]->sfn(), 4 * sent[j].m.sfn_msbs + sent[j].offset) << where;
            EXPECT_TRUE(found[j]->status.passed) << where;
        }
    }
}

TEST_P(LtePbchDecoder, NoisyPartsCombine)
{
    // At Es/N0 = -12 dB a bit (normal cyclic prefix, 1 port) one part alone, its offset
    // unknown, decodes about a third of the windows (0.337 of 1000 on the cpu backend),
    // four parts together all of them; a wrong MIB comes at the CRC's rate at most.
    const auto dec = decoder();
    std::mt19937 rng(5);
    std::mt19937_64 noise(6);
    const auto cp = lte::cyclic_prefix::normal;
    const std::size_t n = 300;
    std::vector<lte::mib> sent(n);
    std::vector<int> offsets(n);
    std::vector<lte::pbch_window> one(n), four(n);
    std::vector<float> llrs_one, llrs_four;
    for (std::size_t j = 0; j < n; ++j) {
        sent[j] = random_mib(rng);
        offsets[j] = int(rng() % 4);
        const int cell_id = int(rng() % (lte::max_cell_id + 1));
        const auto period =
            noisy_llrs(lte::pbch_encode(sent[j], 1, cell_id, cp), -12.0, noise);
        const auto l1 = window_llrs(period, offsets[j], 0b1);
        llrs_one.insert(llrs_one.end(), l1.begin(), l1.end());
        llrs_four.insert(llrs_four.end(), period.begin(), period.end());
        one[j] = { cell_id, 0b1 };
        four[j] = { cell_id, 0b1111 };
    }
    auto count = [&](const std::vector<lte::pbch_window>& windows,
                     const std::vector<float>& llrs,
                     bool whole_periods) {
        std::size_t right = 0, wrong = 0;
        const auto found = lte::pbch_decode(*dec, cp, windows.data(), llrs.data(), n);
        for (std::size_t j = 0; j < n; ++j)
            if (found[j]) {
                const int offset = whole_periods ? 0 : offsets[j];
                const bool ok = found[j]->message == sent[j] && found[j]->ports == 1 &&
                                found[j]->offset == offset;
                ++(ok ? right : wrong);
            }
        return std::pair{ right, wrong };
    };
    const auto [one_right, one_wrong] = count(one, llrs_one, false);
    const auto [four_right, four_wrong] = count(four, llrs_four, true);
    std::printf(
        "one part: %zu of %zu found; four parts: %zu\n", one_right, n, four_right);
    EXPECT_LE(one_right, n / 2);
    EXPECT_GE(one_right, n / 5); // the channel is not so bad as to find nothing
    EXPECT_GE(four_right, n - 3);
    EXPECT_LE(one_wrong, 1u);
    EXPECT_LE(four_wrong, 1u);
}

TEST_P(LtePbchDecoder, AWrongCellOrErasedPartsGiveNone)
{
    // Noiseless parts decoded with another cell's sequence: each window's hypotheses
    // pass the CRC with one of three masks at about 3 / 65536 each; 2000 windows of one
    // part (8000 hypotheses) expect 0.37 false MIBs.
    const auto dec = decoder();
    std::mt19937 rng(77);
    const auto cp = lte::cyclic_prefix::normal;
    const std::size_t n = 2000;
    std::vector<lte::pbch_window> windows(n);
    std::vector<float> llrs;
    for (std::size_t j = 0; j < n; ++j) {
        const int cell_id = int(rng() % (lte::max_cell_id + 1));
        const auto period = noiseless_llrs(
            lte::pbch_encode(random_mib(rng), 1 << (rng() % 3), cell_id, cp));
        const auto l = window_llrs(period, int(rng() % 4), 0b1);
        llrs.insert(llrs.end(), l.begin(), l.end());
        windows[j] = {
            (cell_id + 1 + int(rng() % lte::max_cell_id)) % (lte::max_cell_id + 1), 0b1
        };
    }
    const auto found = lte::pbch_decode(*dec, cp, windows.data(), llrs.data(), n);
    std::size_t false_mibs = 0;
    for (const auto& f : found)
        false_mibs += f.has_value();
    std::printf("wrong cell: %zu false MIBs of %zu windows (%zu hypotheses)\n",
                false_mibs,
                n,
                4 * n);
    EXPECT_LE(false_mibs, 4u);

    // Nothing received at all (every LLR 0) carries no information: no MIB of zeros
    // (whose CRC is zero: the mask of one port).
    const std::vector<float> zeros(4 * 1920, 0.0f);
    const std::vector<lte::pbch_window> erased = {
        { 0, 0b1 }, { 1, 0b11 }, { 2, 0b111 }, { 3, 0b1111 }
    };
    for (const auto& f : lte::pbch_decode(*dec, cp, erased.data(), zeros.data(), 4))
        EXPECT_FALSE(f);
    // No windows: none.
    EXPECT_TRUE(lte::pbch_decode(*dec, cp, nullptr, nullptr, 0).empty());
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         LtePbchDecoder,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });
