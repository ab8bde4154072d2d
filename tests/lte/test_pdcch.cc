/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PDCCH's blind search (36.213 §9.1.1) on every backend: subframes of a 20 MHz cell
// carrying DCIs of several UEs at candidates of their UE-specific spaces and SI-RNTI
// ones in the common space, the other CCEs noise or zeros. Noiseless, every DCI is found
// where it was sent and nothing else; through QPSK/AWGN the detection rate; the
// exhaustive search finds them too; many subframes in one call are as many calls of
// one, and any threads find what one does. The re-encoding check's correlation
// against its definition, the false alarms on noise with and without it, the
// descrambling, the default sizes and bad arguments.

#include "conv/conv_test_util.h"
#include "lte/control_check.h"
#include "test_util.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "lte/cuda/pdcch_search.h"
#endif

#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace gputurbo;
using lte::pdcch_candidate;
using lte::pdcch_detection;
using lte::pdcch_search_mode;
using lte::pdcch_space;

namespace {

// 100 PRB, CFI 3, 2 antenna ports, N_g = 1: 84 CCEs; FDD.
const lte::control_region cell;
const lte::dci_config cell_dci;

// GNU Radio's sign (positive means 1) of the QPSK symbols' bits through AWGN at Es/N0
// (dB): each bit on one dimension, +-1/sqrt(2), noise N0/2 a dimension, L = 2 sqrt(2) y
// / N0 (negated: bit 0 is +1/sqrt(2)); noiseless (esn0 none) +-4.
struct qpsk_channel
{
    std::optional<double> esn0_db;

    void send(const std::uint8_t* bits, int n, float* llrs, std::mt19937& rng) const
    {
        if (!esn0_db) {
            for (int i = 0; i < n; ++i)
                llrs[i] = bits[i] ? 4.0f : -4.0f;
            return;
        }
        const double n0 = std::pow(10.0, -*esn0_db / 10.0), a = std::sqrt(0.5);
        std::normal_distribution<double> noise(0.0, std::sqrt(n0 / 2));
        for (int i = 0; i < n; ++i) {
            const double y = (bits[i] ? -a : a) + noise(rng);
            llrs[i] = float(-2.0 * a * y / (n0 / 2));
        }
    }
};

// A DCI sent: what a detection of it reports.
struct sent_dci
{
    std::size_t subframe;
    pdcch_candidate candidate;
    int size;
    std::vector<std::uint8_t> payload;
    int rnti;
    pdcch_space space;
};

// What identifies a DCI sent or found (the same fields in both).
template <class Dci>
auto key(const Dci& d)
{
    return std::make_tuple(d.subframe,
                           d.candidate.first_cce,
                           d.candidate.level,
                           d.size,
                           d.rnti,
                           d.payload,
                           d.space);
}

template <class Dci>
std::string describe(const Dci& d)
{
    return "subframe " + std::to_string(d.subframe) + " CCE " +
           std::to_string(d.candidate.first_cce) + " L" +
           std::to_string(d.candidate.level) + " A " + std::to_string(d.size) + " RNTI " +
           std::to_string(d.rnti) + " " + lte::to_string(d.space);
}

std::string describe(const pdcch_detection& d)
{
    return describe<pdcch_detection>(d) + " correlation " + std::to_string(d.correlation);
}

// Subframes with DCIs at free candidates of their spaces: the UEs' at candidates of
// their UE-specific spaces, SI-RNTI's in the common space; the other CCEs noise
// (unit Gaussian LLRs) or 0.
class subframes
{
public:
    subframes(std::uint32_t seed, qpsk_channel channel) : d_rng(seed), d_channel(channel)
    {
    }

    //! A subframe k with DCIs of \p ues UEs (each at a free candidate of its space,
    //! where there is one), one of SI-RNTI in the common space when \p si, at \p level
    //! (0: any), of sizes of \p sizes.
    void add(int k,
             int ues,
             bool si,
             bool noise_elsewhere,
             int level = 0,
             const std::vector<int>& sizes = lte::default_dci_sizes(cell_dci))
    {
        const int n_cce = lte::cce_count(cell);
        std::vector<float> llrs(std::size_t(lte::cce_llrs) * n_cce, 0.0f);
        if (noise_elsewhere) {
            std::normal_distribution<float> noise;
            for (float& x : llrs)
                x = noise(d_rng);
        }
        std::vector<bool> used(n_cce, false);
        std::vector<int> rntis;
        const std::size_t index = d_llrs.size();
        auto place =
            [&](const std::vector<pdcch_candidate>& space, int rnti, pdcch_space kind) {
                std::vector<pdcch_candidate> free;
                for (const pdcch_candidate& c : space)
                    if ((level == 0 || c.level == level || kind == pdcch_space::common) &&
                        std::none_of(used.begin() + c.first_cce,
                                     used.begin() + c.first_cce + c.level,
                                     [](bool u) { return u; }))
                        free.push_back(c);
                if (free.empty())
                    return;
                const pdcch_candidate c = free[d_rng() % free.size()];
                std::fill(used.begin() + c.first_cce,
                          used.begin() + c.first_cce + c.level,
                          true);
                const int A = sizes[d_rng() % sizes.size()];
                std::vector<std::uint8_t> payload(A), e(lte::cce_llrs * c.level);
                for (auto& b : payload)
                    b = d_rng() & 1;
                lte::control_encode(A, payload.data(), rnti, int(e.size()), e.data());
                d_channel.send(e.data(),
                               int(e.size()),
                               llrs.data() + std::size_t(lte::cce_llrs) * c.first_cce,
                               d_rng);
                // A UE's DCI on a candidate of the common space too is found there.
                const auto common = lte::common_search_space(n_cce);
                if (std::find(common.begin(), common.end(), c) != common.end())
                    kind = pdcch_space::common;
                d_sent.push_back({ index, c, A, payload, rnti, kind });
            };
        if (si)
            place(lte::common_search_space(n_cce), lte::si_rnti, pdcch_space::common);
        while (int(rntis.size()) < ues) {
            // C-RNTIs above the RA-RNTIs, each UE once.
            const int rnti = 61 + int(d_rng() % 65000);
            if (std::find(rntis.begin(), rntis.end(), rnti) != rntis.end())
                continue;
            rntis.push_back(rnti);
            place(lte::ue_search_space(n_cce, rnti, k), rnti, pdcch_space::ue_specific);
        }
        d_llrs.push_back(std::move(llrs));
        lte::pdcch_subframe sf;
        sf.region = cell;
        sf.subframe = k;
        sf.rntis = rntis;
        d_subframes.push_back(sf);
    }

    //! The subframes to search (pointing into this object).
    std::vector<lte::pdcch_subframe> input() const
    {
        auto out = d_subframes;
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i].llrs = d_llrs[i].data();
            out[i].llr_count = d_llrs[i].size();
        }
        return out;
    }

    const std::vector<sent_dci>& sent() const { return d_sent; }
    std::vector<float>& llrs(std::size_t i) { return d_llrs[i]; }

private:
    std::mt19937 d_rng;
    qpsk_channel d_channel;
    std::vector<std::vector<float>> d_llrs;
    std::vector<lte::pdcch_subframe> d_subframes;
    std::vector<sent_dci> d_sent;
};

std::unique_ptr<lte::pdcch_searcher> make_searcher(const std::string& backend,
                                                   int threads = 0)
{
    auto config = lte::control_decoder_config();
    config.threads = threads;
    return std::make_unique<lte::pdcch_searcher>(
        conv::make_viterbi_decoder(config, backend));
}

lte::pdcch_search_options
options(pdcch_search_mode mode,
        double min_correlation = 0.6,
        double max_false_alarm = lte::pdcch_search_options{}.max_false_alarm)
{
    lte::pdcch_search_options o;
    o.mode = mode;
    o.min_correlation = min_correlation;
    o.max_false_alarm = max_false_alarm;
    return o;
}

// Every candidate that the CRC rule passes: no re-encoding check, no false-alarm floor.
lte::pdcch_search_options crc_alone(pdcch_search_mode mode)
{
    return options(mode, -1.0, 1.0);
}

// The detections that are a DCI sent, by its key; the others in \p others.
std::size_t count_found(const std::vector<sent_dci>& sent,
                        const std::vector<pdcch_detection>& found,
                        std::vector<pdcch_detection>* others = nullptr)
{
    std::set<decltype(key(sent[0]))> keys;
    for (const sent_dci& d : sent)
        keys.insert(key(d));
    std::size_t hits = 0;
    for (const pdcch_detection& d : found) {
        if (keys.count(key(d)))
            ++hits;
        else if (others)
            others->push_back(d);
    }
    return hits;
}

class LtePdcch : public conv_test::backend_test
{
};

} // namespace

TEST(LtePdcchScrambling, CInitAndTheSequenceUndone)
{
    EXPECT_EQ(lte::pdcch_c_init(0, 0), 0);
    EXPECT_EQ(lte::pdcch_c_init(3, 101), 3 * 512 + 101);
    EXPECT_EQ(lte::pdcch_c_init(9, 503), 9 * 512 + 503);
    // Bits scrambled by c (36.211 §6.8.2), sent noiselessly, descrambled: the bits'
    // own LLRs.
    std::mt19937 rng(3);
    const std::size_t n = 84 * 72;
    std::vector<std::uint8_t> bits(n), c(n);
    for (auto& b : bits)
        b = rng() & 1;
    lte::scrambling_sequence(lte::pdcch_c_init(7, 331), n, c.data());
    std::vector<float> llrs(n);
    for (std::size_t i = 0; i < n; ++i)
        llrs[i] = float(1 + i % 5) * ((bits[i] ^ c[i]) ? 1.0f : -1.0f);
    lte::descramble_pdcch(7, 331, llrs.data(), n);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(llrs[i], float(1 + i % 5) * (bits[i] ? 1.0f : -1.0f)) << i;
    EXPECT_EQ(test::invalid_argument_message([] { lte::pdcch_c_init(10, 0); }),
              "subframe=10 is out of range: use 0 ... 9");
    EXPECT_EQ(test::invalid_argument_message([] { lte::pdcch_c_init(0, 504); }),
              "cell_id=504 is out of range: use 0 ... 503");
    EXPECT_EQ(test::invalid_argument_message(
                  [&] { lte::descramble_pdcch(-1, 0, llrs.data(), n); }),
              "subframe=-1 is out of range: use 0 ... 9");
}

TEST(LtePdcchSizes, FormatsZeroOneAOneCOneAndTwoA)
{
    for (const int n_prb : { 6, 15, 25, 50, 75, 100 })
        for (const auto duplex : { lte::duplex_mode::fdd, lte::duplex_mode::tdd })
            for (const int ports : { 1, 2, 4 }) {
                const lte::dci_config c{ n_prb, duplex, ports };
                std::vector<int> expected = { lte::dci_size(lte::dci_format::f1a, c),
                                              lte::dci_size(lte::dci_format::f1c, c),
                                              lte::dci_size(lte::dci_format::f1, c) };
                if (ports > 1)
                    expected.push_back(lte::dci_size(lte::dci_format::f2a, c));
                // Format 1 is padded to differ from 0/1A; 1C is shorter than both.
                EXPECT_EQ(lte::default_dci_sizes(c), expected)
                    << n_prb << " PRB, " << ports << " ports";
            }
    EXPECT_EQ(lte::default_dci_sizes(cell_dci), (std::vector<int>{ 28, 15, 39, 48 }));
    EXPECT_STREQ(lte::to_string(pdcch_space::ue_specific), "ue-specific");
    EXPECT_STREQ(lte::to_string(pdcch_search_mode::exhaustive), "exhaustive");
}

TEST_P(LtePdcch, NoiselessFindsEveryDciWhereItWasSentAndNothingElse)
{
    // Ten subframes (k = 0 … 9), five UEs and SI-RNTI each, the other CCEs noise in
    // the odd ones and 0 in the even ones.
    subframes s(21, qpsk_channel{});
    for (int k = 0; k < 10; ++k)
        s.add(k, 5, true, k % 2 == 1);
    ASSERT_GE(s.sent().size(), 50u);
    auto searcher = make_searcher(GetParam());
    const auto found = searcher->search(s.input());
    std::vector<pdcch_detection> others;
    EXPECT_EQ(count_found(s.sent(), found, &others), s.sent().size());
    EXPECT_EQ(found.size(), s.sent().size());
    for (const pdcch_detection& d : others)
        ADD_FAILURE() << "not sent: " << describe(d);
    for (const pdcch_detection& d : found)
        EXPECT_NEAR(d.correlation, 1.0f, 1e-6f) << describe(d);
    // Ordered by subframe, first CCE, level, size.
    EXPECT_TRUE(
        std::is_sorted(found.begin(), found.end(), [](const auto& a, const auto& b) {
            return std::tie(
                       a.subframe, a.candidate.first_cce, a.candidate.level, a.size) <
                   std::tie(b.subframe, b.candidate.first_cce, b.candidate.level, b.size);
        }));
    // Each candidate once a size: the union of the spaces.
    std::size_t candidates = 0;
    for (const auto& sf : s.input()) {
        std::set<std::pair<int, int>> spaces;
        for (const auto& c : lte::common_search_space(84))
            spaces.insert({ c.first_cce, c.level });
        for (const int rnti : sf.rntis)
            for (const auto& c : lte::ue_search_space(84, rnti, sf.subframe))
                spaces.insert({ c.first_cce, c.level });
        candidates += 4 * spaces.size();
    }
    // Those of the even subframes on CCEs of 0s only are not decoded.
    EXPECT_LE(searcher->decoded_candidates(), candidates);
    EXPECT_GT(searcher->decoded_candidates(), candidates / 2);
}

TEST_P(LtePdcch, ExhaustiveSearchFindsThemToo)
{
    subframes s(22, qpsk_channel{});
    for (int k = 0; k < 4; ++k)
        s.add(k, 5, true, false);
    auto searcher = make_searcher(GetParam());
    // Any RNTI: every DCI where it was sent, each once (the candidates that overlap it
    // decode it again, and are merged into it); other candidates may pass by chance.
    // With the false-alarm floor, only those whose floor a noiseless DCI (correlation
    // 1) reaches: none at level 1 of the larger sizes.
    auto any_rnti = s.input();
    for (auto& sf : any_rnti)
        sf.rntis.clear();
    for (const double floor : { 1e-4, 1.0 }) {
        const auto found = searcher->search(
            any_rnti, options(pdcch_search_mode::exhaustive, 0.6, floor));
        EXPECT_EQ(searcher->decoded_candidates() % 4, 0u);
        std::vector<sent_dci> reachable, beyond;
        for (sent_dci d : s.sent()) {
            d.space = pdcch_space::exhaustive;
            const bool reached =
                lte::false_alarm_floor(d.size, d.candidate.level, 65536, floor) <= 1.0;
            (reached ? reachable : beyond).push_back(d);
        }
        std::vector<pdcch_detection> others;
        EXPECT_EQ(count_found(reachable, found, &others), reachable.size());
        for (const pdcch_detection& d : others)
            for (const sent_dci& sent : s.sent())
                EXPECT_FALSE(d.subframe == sent.subframe && d.rnti == sent.rnti &&
                             d.payload == sent.payload)
                    << "found again: " << describe(d);
        if (floor < 1.0)
            EXPECT_GT(beyond.size(), 0u); // the case the floor is for
        else
            EXPECT_EQ(beyond.size(), 0u);
        std::printf("exhaustive, noiseless, max_false_alarm %g: %zu DCIs sent, %zu "
                    "beyond the floor, %zu other detections\n",
                    floor,
                    reachable.size() + beyond.size(),
                    beyond.size(),
                    others.size());
    }
    auto as_exhaustive = s.sent();
    for (sent_dci& d : as_exhaustive)
        d.space = pdcch_space::exhaustive;
    // The RNTIs listed: the DCIs sent, and a detection of another RNTI only where the
    // CRC passes for a listed one or a broadcast one by chance.
    const auto listed =
        searcher->search(s.input(), options(pdcch_search_mode::exhaustive, 0.99));
    std::vector<pdcch_detection> others;
    EXPECT_EQ(count_found(as_exhaustive, listed, &others), as_exhaustive.size());
    EXPECT_LE(others.size(), 2u);
}

TEST_P(LtePdcch, ManySubframesInOneCallAreAsManyCallsOfOne)
{
    subframes s(23, qpsk_channel{ 1.0 });
    for (int k = 0; k < 6; ++k)
        s.add(k, 6, k % 3 == 0, true);
    auto searcher = make_searcher(GetParam());
    for (const auto mode : { pdcch_search_mode::ue, pdcch_search_mode::exhaustive }) {
        const auto input = s.input();
        const auto together = searcher->search(input, crc_alone(mode));
        std::vector<pdcch_detection> apart;
        for (std::size_t i = 0; i < input.size(); ++i)
            for (pdcch_detection d : searcher->search(&input[i], 1, crc_alone(mode))) {
                d.subframe = i;
                apart.push_back(d);
            }
        ASSERT_EQ(together.size(), apart.size()) << lte::to_string(mode);
        for (std::size_t i = 0; i < apart.size(); ++i) {
            EXPECT_EQ(key(together[i]), key(apart[i])) << describe(together[i]);
            EXPECT_EQ(together[i].correlation, apart[i].correlation);
        }
    }
}

TEST_P(LtePdcch, AnyThreadsFindWhatOneDoes)
{
    // Noisy subframes, some with CCEs left empty, enough of them for many pieces of
    // each phase; mode exhaustive with no RNTI listed (many detections to merge). The
    // threads are the search's own, whatever the decoder: the exact one, slow, is left
    // out.
    if (std::string(GetParam()) == "reference")
        GTEST_SKIP() << "the search's threads do not depend on the decoder";
    subframes s(29, qpsk_channel{ 0.0 });
    for (int k = 0; k < 20; ++k)
        s.add(k % 10, 6, k % 2 == 0, k % 5 != 4);
    auto searcher = make_searcher(GetParam());
    for (const auto mode : { pdcch_search_mode::ue, pdcch_search_mode::exhaustive }) {
        auto input = s.input();
        if (mode == pdcch_search_mode::exhaustive)
            for (auto& sf : input)
                sf.rntis.clear();
        auto o = crc_alone(mode);
        o.threads = 1;
        const auto one = searcher->search(input, o);
        const std::size_t decoded = searcher->decoded_candidates();
        ASSERT_GT(one.size(), s.sent().size() / 2) << lte::to_string(mode);
        for (const int threads : { 2, 3, 8, 0 }) {
            o.threads = threads;
            const auto many = searcher->search(input, o);
            EXPECT_EQ(searcher->decoded_candidates(), decoded);
            ASSERT_EQ(many.size(), one.size()) << lte::to_string(mode) << " " << threads;
            for (std::size_t i = 0; i < one.size(); ++i) {
                EXPECT_EQ(key(many[i]), key(one[i])) << describe(one[i]);
                EXPECT_EQ(many[i].correlation, one[i].correlation);
            }
        }
    }
}

namespace {

// The CPU's and the GPU's detections of the same input: equal, correlations bit for bit.
void expect_same_search(lte::pdcch_searcher& cpu,
                        lte::pdcch_searcher& gpu,
                        const std::vector<lte::pdcch_subframe>& input,
                        const lte::pdcch_search_options& o,
                        const std::string& what)
{
    const auto want = cpu.search(input, o);
    const auto got = gpu.search(input, o);
    EXPECT_EQ(gpu.decoded_candidates(), cpu.decoded_candidates()) << what;
    EXPECT_EQ(got.size(), want.size()) << what;
    // The first difference only: one detection more shifts all that follow.
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i)
        if (key(got[i]) != key(want[i]) || got[i].space != want[i].space ||
            got[i].correlation != want[i].correlation) {
            ADD_FAILURE() << what << ": detection " << i << " is " << describe(got[i])
                          << " (" << lte::to_string(got[i].space) << ", "
                          << got[i].correlation << "), the CPU's " << describe(want[i])
                          << " (" << lte::to_string(want[i].space) << ", "
                          << want[i].correlation << ")";
            return;
        }
}

} // namespace

TEST(LtePdcchCuda, TheGpuSearchFindsWhatTheCpuSearchFinds)
{
    // The CUDA decoder's search combines, decodes and checks on the GPU: the same
    // detections as the CPU search's, correlations bit for bit, in both modes, with and
    // without the re-encoding check, at 0 and -3 dB, with CCEs left empty; with LLRs of
    // NaN, infinities and beyond the clamp, and a candidate whose frame sums to 0; and
    // in one call of 1,000 subframes.
    if (!conv_test::have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    auto cpu = make_searcher("cpu"), gpu = make_searcher("cuda");
    ASSERT_TRUE(gpu->searches_on_device());
    EXPECT_FALSE(cpu->searches_on_device());
    auto without_rntis = [](std::vector<lte::pdcch_subframe> input) {
        for (auto& sf : input)
            sf.rntis.clear();
        return input;
    };
    const std::pair<double, double> checks[] = { { 0.6, 1e-4 },
                                                 { -1.0, 1.0 },
                                                 { 0.0, 1e-7 } };
    for (const double es_n0 : { 0.0, -3.0 }) {
        subframes s(31, qpsk_channel{ es_n0 });
        for (int k = 0; k < 40; ++k)
            s.add(k % 10, 6, k % 2 == 0, k % 5 != 4);
        // The defaults; the CRC alone; floors in mode ue too (1e-7 is less than one
        // RNTI's 2^-16).
        for (const auto [least, floor] : checks) {
            const std::string what = "Es/N0 " + std::to_string(es_n0) +
                                     " min_correlation " + std::to_string(least) +
                                     " max_false_alarm " + std::to_string(floor);
            expect_same_search(*cpu,
                               *gpu,
                               s.input(),
                               options(pdcch_search_mode::ue, least, floor),
                               "ue " + what);
            expect_same_search(*cpu,
                               *gpu,
                               without_rntis(s.input()),
                               options(pdcch_search_mode::exhaustive, least, floor),
                               "exhaustive " + what);
            expect_same_search(*cpu,
                               *gpu,
                               s.input(),
                               options(pdcch_search_mode::exhaustive, least, floor),
                               "exhaustive, RNTIs listed, " + what);
        }
    }
    {
        subframes s(37, qpsk_channel{ 0.0 });
        for (int k = 0; k < 6; ++k)
            s.add(k, 6, true, true);
        const float special[] = { NAN,    INFINITY, -INFINITY, 1e30f,
                                  -1e30f, 1500.0f,  -1500.0f };
        for (std::size_t i = 0; i < 6; ++i) {
            auto& l = s.llrs(i);
            for (std::size_t j = 0; j < std::size(special); ++j)
                l[(i * 97 + j * 131) % l.size()] = special[j];
        }
        // CCE 1 the negation of CCE 0: the level-2 candidate there sums to 0.
        auto& l = s.llrs(0);
        for (int e = 0; e < lte::cce_llrs; ++e)
            l[std::size_t(lte::cce_llrs + e)] = -l[std::size_t(e)];
        auto input = s.input();
        input[0].dci_sizes = { 8, 27 };
        for (const auto [least, floor] : checks) {
            const std::string what = "special values, min_correlation " +
                                     std::to_string(least) + " max_false_alarm " +
                                     std::to_string(floor);
            expect_same_search(*cpu,
                               *gpu,
                               input,
                               options(pdcch_search_mode::ue, least, floor),
                               what + ", ue");
            expect_same_search(*cpu,
                               *gpu,
                               without_rntis(input),
                               options(pdcch_search_mode::exhaustive, least, floor),
                               what + ", exhaustive");
        }
    }
    // A call of 2,100 subframes goes to the GPU in 4 chunks, each of its two device
    // searches taking two in turn: every mode, RNTIs listed and not.
    subframes many(41, qpsk_channel{ 0.0 });
    for (int k = 0; k < 2100; ++k)
        many.add(k % 10, 6, k % 2 == 0, true);
    expect_same_search(
        *cpu, *gpu, many.input(), options(pdcch_search_mode::ue), "2,100 subframes, ue");
    expect_same_search(*cpu,
                       *gpu,
                       many.input(),
                       options(pdcch_search_mode::exhaustive),
                       "2,100 subframes, exhaustive, RNTIs listed");
    expect_same_search(*cpu,
                       *gpu,
                       without_rntis(many.input()),
                       options(pdcch_search_mode::exhaustive),
                       "2,100 subframes, exhaustive");
}

#ifdef GPUTURBO_HAVE_CUDA
TEST(LtePdcchCuda, ANewCallForgetsWhatTheLastOneLeftUncollected)
{
    // A call that fails after submitting a size leaves its answer on the GPU; the next
    // call, which may not try that size, must not take it for its own (its candidates'
    // numbers would point into the other call's).
    if (!conv_test::have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    auto decoder = conv::make_viterbi_decoder(lte::control_decoder_config(), "cuda");
    auto search = lte::cuda::make_pdcch_device_search(*decoder);
    ASSERT_TRUE(search);
    constexpr int level = 8, A = 27, E = lte::cce_llrs * level;
    std::mt19937 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 4.0f);
    lte::cuda::device_rntis none; // one subframe, no RNTI listed
    none.first = { 0, 0 };
    // One candidate of noise, of any RNTI (mode exhaustive) and any correlation: it
    // passes whenever its CRC's mask is an RNTI.
    auto start_call = [&] {
        float* llrs = search->llr_room(E);
        float magnitude = 0.0f;
        for (int e = 0; e < E; ++e) {
            llrs[e] = noise(rng);
            magnitude += std::fabs(llrs[e]);
        }
        *search->candidate_room(1) = { 0, magnitude, level, 0, level, 0, 0, 0, 0 };
        search->send(E, 1, none);
    };
    lte::correlation_floors any_correlation;
    for (auto& by_hypotheses : any_correlation.least)
        std::fill(std::begin(by_hypotheses), std::end(by_hypotheses), -1.0);
    std::vector<lte::cuda::passed_block> blocks;
    std::vector<std::uint8_t> payloads;
    bool passed = false;
    for (int call = 0; call < 8 && !passed; ++call) {
        start_call();
        search->submit_size(A, nullptr, 1, true, any_correlation);
        search->collect_size(A, blocks, payloads);
        passed = blocks.size() == 1;
    }
    ASSERT_TRUE(passed) << "no noise candidate gave an RNTI in 8 tries";
    search->submit_size(A, nullptr, 1, true, any_correlation); // left uncollected
    start_call();
    search->collect_size(A, blocks, payloads);
    EXPECT_TRUE(blocks.empty());
    EXPECT_TRUE(payloads.empty());
}
#endif

TEST_P(LtePdcch, NoisyDetectionRateAndTheCheckLosesNone)
{
    // Es/N0 = 0 dB: formats 0/1A and 1C at levels 2, 4 and 8 (the code rates 0.31 …
    // 0.06) are all but always found; the re-encoding check (0.6) drops none of them.
    std::map<int, std::pair<std::size_t, std::size_t>> by_level; // found, sent
    auto searcher = make_searcher(GetParam());
    const bool slow = GetParam() == std::string("reference");
    for (const int level : { 2, 4, 8 }) {
        subframes s(24 + level, qpsk_channel{ 0.0 });
        for (int k = 0; k < (slow ? 3 : 20); ++k)
            s.add(k % 10, 4, false, true, level, { 15, 28 });
        const auto checked = searcher->search(s.input());
        const auto unchecked =
            searcher->search(s.input(), crc_alone(pdcch_search_mode::ue));
        const std::size_t hits = count_found(s.sent(), checked);
        EXPECT_EQ(hits, count_found(s.sent(), unchecked)) << "level " << level;
        by_level[level] = { hits, s.sent().size() };
        std::printf("Es/N0 0 dB, level %d: %zu of %zu DCIs found (%zu unchecked)\n",
                    level,
                    hits,
                    s.sent().size(),
                    count_found(s.sent(), unchecked));
    }
    for (const auto& [level, counts] : by_level)
        EXPECT_GE(double(counts.first), 0.97 * double(counts.second))
            << "level " << level;
}

TEST_P(LtePdcch, BadArgumentsAreRefusedNamingThem)
{
    subframes s(25, qpsk_channel{});
    s.add(0, 1, false, false);
    s.add(1, 1, false, false);
    auto searcher = make_searcher(GetParam());
    auto refused = [&](auto change, const lte::pdcch_search_options& o = {}) {
        auto input = s.input();
        change(input[1]);
        return test::invalid_argument_message([&] { searcher->search(input, o); });
    };
    EXPECT_EQ(refused([](auto& sf) { sf.llr_count -= 1; }),
              "subframe 1: llr_count=6047 does not fit the control region: use 6048 "
              "(72 N_CCE) ... 6056 (8 N_REG)");
    EXPECT_EQ(refused([](auto& sf) { sf.llrs = nullptr; }), "subframe 1: llrs is null");
    EXPECT_EQ(refused([](auto& sf) { sf.subframe = 10; }),
              "subframe 1: subframe=10 is out of range: use 0 ... 9");
    EXPECT_EQ(refused([](auto& sf) {
                  sf.rntis = { 100, 0 };
              }),
              "subframe 1: rntis[1]=0 is out of range: use 1 ... 65535");
    EXPECT_EQ(refused([](auto& sf) { sf.rntis = { 65536 }; }),
              "subframe 1: rntis[0]=65536 is out of range: use 1 ... 65535");
    EXPECT_EQ(refused([](auto& sf) {
                  sf.dci_sizes = { 27, 0 };
              }),
              "subframe 1: dci_sizes[1]=0 is out of range: use 1 ... 560");
    EXPECT_EQ(refused([](auto& sf) { sf.dci_sizes = { lte::max_dci_bits + 1 }; }),
              "subframe 1: dci_sizes[0]=561 is out of range: use 1 ... 560");
    EXPECT_EQ(refused([](auto& sf) { sf.region.cfi = 4; }),
              "subframe 1: cfi=4 is out of range: use 1 ... 3");
    EXPECT_EQ(refused([](auto& sf) { sf.region.antenna_ports = 3; }),
              "subframe 1: antenna_ports=3 is out of range: use 1, 2 or 4");
    auto identity = [](auto&) {};
    EXPECT_EQ(refused(identity, options(pdcch_search_mode::ue, 1.5)),
              "min_correlation=1.500000 is out of range: use -1 ... 1");
    EXPECT_EQ(refused(identity, options(pdcch_search_mode::ue, std::nan(""))),
              "min_correlation=nan is out of range: use -1 ... 1");
    EXPECT_EQ(refused(identity, options(pdcch_search_mode(7))),
              "mode=7 is out of range: use ue or exhaustive");
    auto negative = options(pdcch_search_mode::ue);
    negative.threads = -1;
    EXPECT_EQ(refused(identity, negative),
              "threads=-1 is out of range: use 0 (one per core) or more");
    EXPECT_EQ(test::invalid_argument_message([&] { searcher->search(nullptr, 2); }),
              "subframes is null for n=2");
    EXPECT_EQ(test::invalid_argument_message([] { lte::pdcch_searcher(nullptr); }),
              "pdcch_searcher: the decoder is null: use "
              "conv::make_viterbi_decoder(control_decoder_config(), backend)");
    // A decoder of another termination: control_decode()'s refusal, named.
    auto terminated = lte::control_decoder_config();
    terminated.mode = conv::termination::terminated;
    lte::pdcch_searcher wrong(conv::make_viterbi_decoder(terminated, "cpu"));
    const auto message = test::invalid_argument_message([&] { wrong.search(s.input()); });
    EXPECT_EQ(message.rfind("subframe 0: control_decode: the decoder reads 150 LLRs", 0),
              0u)
        << message;
    // Nothing to search, and a search after a refusal.
    EXPECT_TRUE(searcher->search(nullptr, 0).empty());
    EXPECT_EQ(searcher->search(s.input()).size(), s.sent().size());
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         LtePdcch,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });

TEST(LtePdcchCheck, TheCorrelationIsThatOfTheReencodedBits)
{
    // Its definition: the E bits control_encode() sends for the payload and RNTI found,
    // against the candidate's LLRs, sum L (2 e - 1) / sum |L|, at every level, sizes
    // whose E is below, near and above 3 (A + 16).
    subframes s(26, qpsk_channel{ 2.0 });
    for (int k = 0; k < 8; ++k)
        s.add(k, 6, true, true, 0, { 15, 28, 48, 60 });
    auto searcher = make_searcher("cpu");
    const auto input = s.input();
    const auto found = searcher->search(input, crc_alone(pdcch_search_mode::ue));
    std::set<int> levels;
    for (const pdcch_detection& d : found) {
        const int E = lte::cce_llrs * d.candidate.level;
        std::vector<std::uint8_t> e(E);
        lte::control_encode(d.size, d.payload.data(), d.rnti, E, e.data());
        const float* L =
            input[d.subframe].llrs + std::size_t(lte::cce_llrs) * d.candidate.first_cce;
        double agree = 0.0, magnitude = 0.0;
        for (int k = 0; k < E; ++k) {
            agree += e[k] ? L[k] : -L[k];
            magnitude += std::fabs(L[k]);
        }
        EXPECT_NEAR(d.correlation, agree / magnitude, 1e-5) << describe(d);
        levels.insert(d.candidate.level);
    }
    EXPECT_EQ(levels, (std::set<int>{ 1, 2, 4, 8 }));
    // NaN is an erasure and infinities are clamped, for the decoder and the check.
    s.llrs(0)[0] = std::nanf("");
    s.llrs(0)[1] = INFINITY;
    for (const pdcch_detection& d :
         searcher->search(input, crc_alone(pdcch_search_mode::ue)))
        EXPECT_TRUE(std::isfinite(d.correlation)) << describe(d);
}

namespace {

// What the searches of noise alone (unit Gaussian LLRs in every CCE) of subframes of
// the 20 MHz cell find, the UE-specific spaces of some RNTIs, the default 4 sizes, the
// re-encoding check off.
struct noise_detections
{
    std::size_t subframes = 0, decoded = 0;
    double hypotheses = 0.0; // RNTIs tried over the decoded candidates (mode ue)
    std::vector<pdcch_detection> found;

    std::size_t count(double min_correlation, int level = 0) const
    {
        return std::count_if(found.begin(), found.end(), [&](const pdcch_detection& d) {
            return d.correlation >= min_correlation &&
                   (level == 0 || d.candidate.level == level);
        });
    }

    void print(const char* what, double min_correlation) const
    {
        std::printf("%s: %zu subframes, %zu candidates decoded: %zu false alarms "
                    "without the check (%.3g a candidate), %zu with %.2f (%.3g)\n",
                    what,
                    subframes,
                    decoded,
                    count(-1.0),
                    double(count(-1.0)) / double(decoded),
                    count(min_correlation),
                    min_correlation,
                    double(count(min_correlation)) / double(decoded));
        for (const int level : { 1, 2, 4, 8 })
            std::printf("  level %d: %zu without, %zu with\n",
                        level,
                        count(-1.0, level),
                        count(min_correlation, level));
    }
};

noise_detections noise_search(pdcch_search_mode mode,
                              int n,
                              int ues,
                              std::optional<lte::pdcch_search_options> o = {})
{
    subframes s(27, qpsk_channel{});
    for (int k = 0; k < n; ++k)
        s.add(k % 10, 0, false, true);
    auto input = s.input();
    noise_detections out;
    out.subframes = std::size_t(n);
    for (auto& sf : input) {
        for (int u = 0; u < ues; ++u)
            sf.rntis.push_back(0x1000 + 97 * u);
        // A common candidate is tried for the listed and the 62 broadcast RNTIs, one
        // of a UE-specific space for each RNTI whose space holds it.
        std::map<std::pair<int, int>, int> tried;
        for (const int rnti : sf.rntis)
            for (const pdcch_candidate& c : lte::ue_search_space(84, rnti, sf.subframe))
                ++tried[{ c.first_cce, c.level }];
        for (const pdcch_candidate& c : lte::common_search_space(84))
            tried[{ c.first_cce, c.level }] = ues + 62;
        for (const auto& [candidate, rntis] : tried)
            out.hypotheses += 4.0 * rntis;
    }
    auto searcher = make_searcher("cpu");
    out.found = searcher->search(input, o ? *o : crc_alone(mode));
    out.decoded = searcher->decoded_candidates();
    return out;
}

} // namespace

TEST(LtePdcchFalseAlarms, OnNoiseWithAndWithoutTheCheck)
{
    // Mode ue: a candidate passes the CRC for one of its RNTI hypotheses with about
    // 2^-16 each; exhaustive with any RNTI: nearly every candidate.
    const auto ue = noise_search(pdcch_search_mode::ue, 100, 16);
    ue.print("ue mode, 16 RNTIs", 0.6);
    EXPECT_LE(ue.count(-1.0), 20u);
    const auto any = noise_search(pdcch_search_mode::exhaustive, 20, 0);
    any.print("exhaustive, any RNTI", 0.6);
    EXPECT_GE(double(any.count(-1.0)), 0.99 * double(any.decoded));
    // The check rejects decoded noise by the code's rate: all of it at level 8, most at
    // level 4, little at levels 1 and 2.
    EXPECT_EQ(any.count(0.6, 8), 0u);
    EXPECT_LE(double(any.count(0.6, 4)), 0.2 * double(any.count(-1.0, 4)));
    EXPECT_LE(double(any.count(0.6)), 0.8 * double(any.count(-1.0)));
    EXPECT_EQ(any.count(0.9, 2), 0u);
}

TEST(LtePdcchFalseAlarms, SlowOnNoiseWithAndWithoutTheCheck)
{
    // The rates docs/usage.md gives. Mode ue without the check: 2^-16 a hypothesis.
    const auto ue = noise_search(pdcch_search_mode::ue, 2000, 16);
    const double expected = ue.hypotheses / 65536.0;
    std::printf("mode ue: %.1f false alarms expected of the CRC\n", expected);
    EXPECT_GE(double(ue.count(-1.0)), 0.6 * expected);
    EXPECT_LE(double(ue.count(-1.0)), 1.5 * expected);
    const auto any = noise_search(pdcch_search_mode::exhaustive, 200, 0);
    for (const double min_correlation : { 0.6, 0.9, 0.99 }) {
        ue.print("ue mode, 16 RNTIs", min_correlation);
        any.print("exhaustive, any RNTI", min_correlation);
    }
    EXPECT_LE(ue.count(0.6), ue.count(-1.0) / 2);
    EXPECT_LE(double(any.count(0.99)), 0.05 * double(any.count(-1.0)));
}

TEST(LtePdcchFalseAlarms, FloorsAreTheChernoffBoundsComputedElsewhere)
{
    // (A, level, hypotheses, max_false_alarm) and the floor that scipy gives for the
    // same bound (minimize_scalar over lambda of the half-normal's log-MGF, brentq for
    // t): the CRC's share alone, finite floors, one past any correlation.
    const std::tuple<int, int, int, double, double> cases[] = {
        { 27, 2, 65536, 1e-4, 0.8113591831072701 },
        { 15, 1, 65536, 1e-4, 0.9336370739144173 },
        { 42, 1, 65536, 1e-4, 0.9999629152161408 },
        { 48, 4, 128, 1e-4, 0.6667236742855546 },
        { 28, 8, 65536, 1e-3, 0.4389814299991144 },
        { 8, 1, 1, 1e-7, 0.8415698401577786 },
        { 60, 8, 65536, 1e-6, 0.5719066426176092 },
        { 31, 2, 78, 1e-4, 0.7801052360523887 },
        { 4, 1, 4, 1e-4, -1.0 },
    };
    for (const auto& [A, level, hypotheses, p, expected] : cases)
        EXPECT_NEAR(lte::false_alarm_floor(A, level, hypotheses, p), expected, 1e-7)
            << "A " << A << " level " << level << " hypotheses " << hypotheses << " p "
            << p;
    EXPECT_TRUE(std::isinf(lte::false_alarm_floor(43, 1, 65536, 1e-4)));
    EXPECT_EQ(lte::false_alarm_floor(560, 8, 65536, 1.0), -1.0);
    EXPECT_EQ(
        test::invalid_argument_message([] { lte::false_alarm_floor(27, 3, 1, 1e-4); }),
        "false_alarm_floor: level=3 is out of range: use 1, 2, 4 or 8");
    EXPECT_EQ(
        test::invalid_argument_message([] { lte::false_alarm_floor(27, 1, 1, 0.0); }),
        "false_alarm_floor: max_false_alarm=0 is out of range: use 0 < "
        "max_false_alarm <= 1");
    EXPECT_EQ(test::invalid_argument_message(
                  [] { lte::false_alarm_floor(27, 1, 65537, 1e-4); }),
              "false_alarm_floor: hypotheses=65537 is out of range: use 1 ... 65536");
    EXPECT_EQ(
        test::invalid_argument_message([] { lte::false_alarm_floor(0, 1, 1, 1e-4); }),
        "false_alarm_floor: A=0 is out of range: use 1 ... 560");
}

TEST(LtePdcchFalseAlarms, TheCrcAloneCoversExactlyTheHypothesesWithinItsShare)
{
    // 6 RNTIs pass noise with 6 2^-16 <= 1e-4: no floor; 7 with more, and the floor of
    // 8 (the table's power of 2) applies.
    const auto floors = lte::least_correlations(27, 0.6, 1e-4);
    EXPECT_EQ(floors.crc_covered, 6);
    for (const int level : { 1, 2, 4, 8 }) {
        EXPECT_EQ(floors.of(level, 6), 0.6) << level;
        EXPECT_EQ(floors.of(level, 7),
                  std::max(0.6, lte::false_alarm_floor(27, level, 8, 1e-4)))
            << level;
        EXPECT_EQ(floors.of(level, lte::rnti_mask_count),
                  std::max(0.6, lte::false_alarm_floor(27, level, 65536, 1e-4)))
            << level;
    }
    EXPECT_GT(floors.of(1, 7), 0.9);
    EXPECT_EQ(lte::least_correlations(27, -1.0, 1.0).of(1, 65536), -1.0); // off
}

TEST(LtePdcchFalseAlarms, TheFloorKeepsItsPromiseOnNoise)
{
    // Mode exhaustive, any RNTI, on noise: at most max_false_alarm of the decoded
    // candidates reported (the floor is a bound: fewer); without it, 0.6 lets most
    // of levels 1 and 2 through.
    for (const double p : { 1e-2, 1e-3 }) {
        auto o = options(pdcch_search_mode::exhaustive, 0.6, p);
        const auto any = noise_search(pdcch_search_mode::exhaustive, 40, 0, o);
        const double rate = double(any.found.size()) / double(any.decoded);
        std::printf("exhaustive, any RNTI, max_false_alarm %g: %zu of %zu decoded "
                    "candidates reported (%.3g)\n",
                    p,
                    any.found.size(),
                    any.decoded,
                    rate);
        EXPECT_LE(rate, p);
    }
    const auto none = noise_search(pdcch_search_mode::exhaustive,
                                   40,
                                   0,
                                   options(pdcch_search_mode::exhaustive, 0.6, 1.0));
    EXPECT_GE(double(none.found.size()), 0.5 * double(none.decoded));
    // Mode ue with 16 RNTIs: the default floor asks nothing more of a UE-specific
    // candidate (the CRC bounds it), the same detections as with none.
    const auto ue =
        noise_search(pdcch_search_mode::ue, 200, 16, options(pdcch_search_mode::ue));
    const auto ue_without = noise_search(
        pdcch_search_mode::ue, 200, 16, options(pdcch_search_mode::ue, 0.6, 1.0));
    std::vector<pdcch_detection> ue_specific, ue_specific_without;
    std::copy_if(ue.found.begin(),
                 ue.found.end(),
                 std::back_inserter(ue_specific),
                 [](const auto& d) { return d.space == pdcch_space::ue_specific; });
    std::copy_if(ue_without.found.begin(),
                 ue_without.found.end(),
                 std::back_inserter(ue_specific_without),
                 [](const auto& d) { return d.space == pdcch_space::ue_specific; });
    EXPECT_EQ(ue_specific.size(), ue_specific_without.size());
    EXPECT_LE(ue.found.size(), ue_without.found.size());
}

TEST(LtePdcchFalseAlarms, CcesOfUnequalPowerTakeTheFloorOfTheirStrongOnes)
{
    // Noise ten times as strong on every other CCE: a candidate of two decodes the
    // word nearest its strong CCE, as a level-1 candidate would, and takes level 1's
    // floor (at level 2's, some 2 % of them would pass).
    constexpr int n = 40, n_cce = 84;
    std::mt19937 rng(test::test_seed());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<std::vector<float>> llrs(n);
    std::vector<lte::pdcch_subframe> input(n);
    for (int k = 0; k < n; ++k) {
        for (int cce = 0; cce < n_cce; ++cce)
            for (int e = 0; e < lte::cce_llrs; ++e)
                llrs[k].push_back((cce % 2 ? 10.0f : 1.0f) * noise(rng));
        input[k].llrs = llrs[k].data();
        input[k].llr_count = llrs[k].size();
        input[k].region = cell;
        input[k].subframe = k % 10;
    }
    auto searcher = make_searcher("cpu");
    for (const double p : { 1e-2, 1.0 }) {
        const auto found =
            searcher->search(input, options(pdcch_search_mode::exhaustive, 0.6, p));
        const auto above_level_1 =
            std::count_if(found.begin(), found.end(), [](const auto& d) {
                return d.candidate.level > 1;
            });
        std::printf("exhaustive, CCEs of unequal noise, max_false_alarm %g: %zu of %zu "
                    "decoded candidates reported, %zu above level 1\n",
                    p,
                    found.size(),
                    searcher->decoded_candidates(),
                    std::size_t(above_level_1));
        if (p < 1.0)
            EXPECT_LE(double(found.size()), p * double(searcher->decoded_candidates()));
        else
            EXPECT_GE(double(above_level_1),
                      1e-2 * double(searcher->decoded_candidates()));
    }
}

TEST(LtePdcchCheck, SlowKeepsTheDcisDecoded)
{
    // The share of the DCIs decoded (found without the check) that each threshold
    // keeps, by level and Es/N0: UEs' DCIs of formats 0/1A and 1C in noise.
    auto searcher = make_searcher("cpu");
    std::map<std::pair<double, double>, double> kept_least; // (Es/N0, threshold)
    for (const double esn0 : { 0.0, 3.0, 6.0, 10.0 })
        for (const int level : { 1, 2, 4, 8 }) {
            subframes s(29 + level, qpsk_channel{ esn0 });
            for (int k = 0; k < 100; ++k)
                s.add(k % 10, 8, false, true, level, { 15, 28 });
            const auto input = s.input();
            std::vector<pdcch_detection> decoded;
            for (const pdcch_detection& d :
                 searcher->search(input, crc_alone(pdcch_search_mode::ue)))
                if (count_found(s.sent(), { d }) == 1)
                    decoded.push_back(d);
            std::printf("Es/N0 %4.1f dB, level %d: %zu of %zu DCIs decoded; kept",
                        esn0,
                        level,
                        decoded.size(),
                        s.sent().size());
            for (const double min_correlation : { 0.6, 0.9, 0.99 }) {
                const double kept =
                    double(std::count_if(decoded.begin(),
                                         decoded.end(),
                                         [&](const pdcch_detection& d) {
                                             return d.correlation >= min_correlation;
                                         })) /
                    double(decoded.size());
                std::printf(" by %.2f: %.4f", min_correlation, kept);
                auto& least =
                    kept_least.try_emplace({ esn0, min_correlation }, 1.0).first->second;
                least = std::min(least, kept);
            }
            std::printf("\n");
        }
    EXPECT_GE((kept_least[{ 0.0, 0.6 }]), 0.99);
    EXPECT_GE((kept_least[{ 3.0, 0.9 }]), 0.9);
    EXPECT_GE((kept_least[{ 10.0, 0.99 }]), 0.99);
}

TEST(LtePdcchSpeed, DISABLED_TwentyMegahertzOneCore)
{
    // The 20 MHz FDD cell (CFI 3, 2 ports, N_g 1: 84 CCEs), the common space and the
    // UE-specific spaces of 16 RNTIs, 4 DCI sizes; and the exhaustive search (any
    // RNTI, the re-encoding check at its default). Noise LLRs; one core.
    subframes s(28, qpsk_channel{});
    const int n = 200;
    for (int k = 0; k < n; ++k)
        s.add(k % 10, 16, true, true);
    auto searcher = make_searcher("cpu", 1);
    for (const auto mode : { pdcch_search_mode::ue, pdcch_search_mode::exhaustive }) {
        auto input = s.input();
        if (mode == pdcch_search_mode::exhaustive)
            for (auto& sf : input)
                sf.rntis.clear();
        searcher->search(input, options(mode));
        const int rounds = 5;
        const auto start = std::chrono::steady_clock::now();
        std::size_t found = 0;
        for (int r = 0; r < rounds; ++r)
            found += searcher->search(input, options(mode)).size();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count();
        std::printf("%s: %.0f subframes/s (%zu candidates decoded a call of %d "
                    "subframes, %.0f decodes/s, %zu detections a call)\n",
                    lte::to_string(mode),
                    rounds * n / seconds,
                    searcher->decoded_candidates(),
                    n,
                    rounds * double(searcher->decoded_candidates()) / seconds,
                    found / rounds);
    }
}
