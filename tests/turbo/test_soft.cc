/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Soft output of the turbo decoders (decode_soft): on every backend the signs of the
// a-posteriori LLRs are decode()'s bits and the extrinsic values are the a-posteriori
// ones less the input; float32 backends give the reference's values, int16 ones the
// float values within their quantisation. Fresh random inputs (seed printed).

#include "test_util.h"

#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

using namespace gputurbo;
using namespace gputurbo::test;

namespace {

class TurboSoft : public ::testing::TestWithParam<std::string>
{
};

struct soft_run
{
    std::vector<float> app, extrinsic;
    std::vector<std::uint8_t> bits;
    std::vector<codeword_status> status;
};

soft_run decode_soft(decoder& dec, int K, const std::vector<float>& llrs)
{
    const std::size_t n = llrs.size() / turbo::codeword_length(K);
    soft_run r;
    r.app.resize(n * K);
    r.extrinsic.resize(n * K);
    r.bits.resize(n * K);
    r.status.resize(n);
    dec.decode_soft(K,
                    llrs.data(),
                    n,
                    { r.app.data(), core::soft_output::app },
                    r.bits.data(),
                    r.status.data());
    dec.decode_soft(
        K, llrs.data(), n, { r.extrinsic.data(), core::soft_output::extrinsic });
    return r;
}

//! The systematic input LLR of bit k of codeword c (interleaved layout), as a decoder
//! reads it: NaN as 0, clamped.
float systematic(const std::vector<float>& llrs, int K, std::size_t c, int k)
{
    return core::sanitize_llr(llrs[c * turbo::codeword_length(K) + 3 * std::size_t(k)],
                              false);
}

//! A random LTE block size from the first \p rows of the table.
int random_K(std::mt19937_64& rng, std::size_t rows)
{
    return turbo::qpp_table()[rng() % rows].K;
}

} // namespace

TEST_P(TurboSoft, SignsAreTheBitsAndExtrinsicIsAppLessInput)
{
    std::mt19937_64 rng(test_seed());
    for (auto algo :
         { algorithm::log_map, algorithm::max_log, algorithm::scaled_max_log })
        for (auto stop : { stop_rule::off,
                           stop_rule::hard,
                           stop_rule::crc24b,
                           stop_rule::mean_llr,
                           stop_rule::min_llr }) {
            decoder_config c;
            c.K = random_K(rng, 100);
            c.algo = algo;
            c.early_stop = stop;
            c.stop_threshold = stop == stop_rule::min_llr ? 3.0f : 12.0f;
            GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
            const bool int16 = dec->metric_arithmetic() == arithmetic::int16;
            // CRC stop rules stop early only on frames that carry the CRC.
            const auto b = make_batch(c.K,
                                      0.3 + 0.1 * (rng() % 8),
                                      9,
                                      rng(),
                                      layout::interleaved,
                                      stop_crc(stop));
            std::vector<std::uint8_t> bits;
            std::vector<codeword_status> status;
            dec->decode(b.llrs, bits, &status);
            const soft_run r = decode_soft(*dec, c.K, b.llrs);
            const std::string what = to_string(algo) + std::string(" ") +
                                     to_string(stop) + " K=" + std::to_string(c.K);
            ASSERT_EQ(r.bits, bits) << what;
            for (std::size_t i = 0; i < status.size(); ++i) {
                EXPECT_EQ(r.status[i].iterations, status[i].iterations) << what;
                EXPECT_EQ(r.status[i].passed, status[i].passed) << what;
            }
            for (std::size_t i = 0; i < bits.size(); ++i) {
                ASSERT_EQ(bits[i], r.app[i] < 0.0f ? 1 : 0) << what << " bit " << i;
                // int16 reads its input in steps of 1/16.
                const float sys = systematic(b.llrs, c.K, i / c.K, int(i % c.K));
                const float tolerance = int16 ? 0.5f / 16.0f : 1e-5f * std::fabs(sys);
                ASSERT_NEAR(r.extrinsic[i], r.app[i] - sys, tolerance + 1e-6f)
                    << what << " bit " << i;
            }
        }
}

TEST_P(TurboSoft, StreamsLayoutGivesTheSameValues)
{
    // The same codewords as d0 | d1 | d2 streams: the same soft values, and the
    // extrinsic ones less the same systematic input.
    decoder_config c;
    c.K = 256;
    GPUTURBO_MAKE_OR_SKIP(interleaved, c, GetParam());
    c.input_layout = layout::streams;
    GPUTURBO_MAKE_OR_SKIP(streams, c, GetParam());
    const auto a = make_batch(c.K, 0.5, 6, 81, layout::interleaved);
    const soft_run x = decode_soft(*interleaved, c.K, a.llrs);
    const soft_run y = decode_soft(*streams, c.K, as_streams(c.K, a.llrs));
    EXPECT_EQ(x.app, y.app);
    EXPECT_EQ(x.extrinsic, y.extrinsic);
}

TEST_P(TurboSoft, GnuRadiosSignGivesTheOppositeValues)
{
    decoder_config c;
    c.K = 512;
    GPUTURBO_MAKE_OR_SKIP(engine_sign, c, GetParam());
    c.invert_llr = true;
    GPUTURBO_MAKE_OR_SKIP(gnuradio_sign, c, GetParam());
    const auto b = make_batch(c.K, 0.5, 5, 61);
    std::vector<float> negated(b.llrs.size());
    for (std::size_t i = 0; i < negated.size(); ++i)
        negated[i] = -b.llrs[i];
    const soft_run a = decode_soft(*engine_sign, c.K, b.llrs);
    const soft_run g = decode_soft(*gnuradio_sign, c.K, negated);
    EXPECT_EQ(a.bits, g.bits);
    for (std::size_t i = 0; i < a.app.size(); ++i) {
        ASSERT_EQ(g.app[i], -a.app[i]) << i;
        ASSERT_EQ(g.extrinsic[i], -a.extrinsic[i]) << i;
    }
}

TEST_P(TurboSoft, BadRequestsSayWhy)
{
    decoder_config c;
    c.K = 40;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    std::vector<float> llrs(turbo::codeword_length(c.K)), out(c.K);
    EXPECT_NE(invalid_argument_message([&] {
                  dec->decode_soft(
                      c.K, llrs.data(), 1, { out.data(), core::soft_output::none });
              }).find("none"),
              std::string::npos);
    EXPECT_NE(
        invalid_argument_message([&] {
            dec->decode_soft(c.K, llrs.data(), 1, { nullptr, core::soft_output::app });
        }).find("null"),
        std::string::npos);
    // A kind the turbo code does not give names the ones it does.
    EXPECT_EQ(invalid_argument_message([&] {
                  dec->decode_soft(c.K,
                                   llrs.data(),
                                   1,
                                   { out.data(), core::soft_output::code_extrinsic });
              }),
              "output=code-extrinsic is not given by this decoder (" + dec->backend() +
                  " backend): use bits, llr, extrinsic");
}

TEST_P(TurboSoft, SubmitAndCollectGiveWhatDecodeSoftGives)
{
    decoder_config c;
    c.K = 256;
    c.early_stop = stop_rule::hard;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto a = make_batch(c.K, 0.4, 7, 71), b = make_batch(c.K, 0.6, 5, 72);
    const auto ta = dec->submit(c.K, a.llrs.data(), 7, core::soft_output::app);
    const auto tb = dec->submit(c.K, b.llrs.data(), 5, core::soft_output::extrinsic);
    const auto th = dec->submit(c.K, a.llrs.data(), 7); // hard bits alone between them
    std::vector<float> sb(5 * c.K), sa(7 * c.K);
    std::vector<std::uint8_t> bits_b(5 * c.K), bits_a(7 * c.K), bits_h(7 * c.K);
    std::vector<codeword_status> status_a(7);
    dec->collect(tb, bits_b.data(), nullptr, core::bit_format::unpacked, sb.data());
    dec->collect(th, bits_h.data(), nullptr);
    dec->collect(
        ta, bits_a.data(), status_a.data(), core::bit_format::unpacked, sa.data());
    const soft_run ra = decode_soft(*dec, c.K, a.llrs),
                   rb = decode_soft(*dec, c.K, b.llrs);
    EXPECT_EQ(sa, ra.app);
    EXPECT_EQ(sb, rb.extrinsic);
    EXPECT_EQ(bits_a, ra.bits);
    EXPECT_EQ(bits_h, ra.bits);
    for (std::size_t i = 0; i < status_a.size(); ++i)
        EXPECT_EQ(status_a[i].iterations, ra.status[i].iterations);
    // Soft values of a batch that asked for none are refused; dropping them is not.
    const auto tn = dec->submit(c.K, a.llrs.data(), 7);
    EXPECT_NE(invalid_argument_message([&] {
                  dec->collect(
                      tn, bits_h.data(), nullptr, core::bit_format::unpacked, sa.data());
              }).find("without soft output"),
              std::string::npos);
    dec->collect(tn, bits_h.data(), nullptr); // still outstanding: refused, not taken
    const auto td = dec->submit(c.K, a.llrs.data(), 7, core::soft_output::app);
    dec->collect(td, bits_h.data(), nullptr);
    EXPECT_EQ(bits_h, ra.bits);
}

INSTANTIATE_TEST_SUITE_P(AllBackends,
                         TurboSoft,
                         ::testing::ValuesIn(all_backends),
                         backend_test_name);

// The SIMD float kernels run the reference's float operations in the same order: their
// soft values are the reference's, bit for bit, for every algorithm and sub-block
// guard.
TEST(TurboSoftFloat, CpuEqualsTheReferenceBitForBit)
{
    std::mt19937_64 rng(test_seed());
    for (auto algo :
         { algorithm::log_map, algorithm::max_log, algorithm::scaled_max_log })
        for (auto guarding : { guard::none, guard::pividstw }) {
            decoder_config c;
            c.K = random_K(rng, 188);
            c.algo = algo;
            c.guarding = guarding;
            c.subblocks = c.K % 4 == 0 ? 4 : 1;
            c.guard_window = 4;
            c.iterations = 1 + int(rng() % 6);
            c.cuda_arithmetic = arithmetic::float32;
            const auto cpu = make_decoder(c, "cpu");
            const auto reference = make_decoder(c, "reference");
            const auto b = make_batch(c.K, 0.2 * (rng() % 10), 11, rng());
            const soft_run x = decode_soft(*cpu, c.K, b.llrs);
            const soft_run y = decode_soft(*reference, c.K, b.llrs);
            ASSERT_EQ(
                std::memcmp(x.app.data(), y.app.data(), x.app.size() * sizeof(float)), 0)
                << to_string(algo) << " " << to_string(guarding) << " K=" << c.K;
            ASSERT_EQ(std::memcmp(x.extrinsic.data(),
                                  y.extrinsic.data(),
                                  x.extrinsic.size() * sizeof(float)),
                      0);
        }
}

// int16 decodes in steps of 1/16 LLR (metrics 1/32), with log-map's correction
// approximated: its soft values are steps of 1/32 that follow the float decoder's within
// that quantisation over one iteration (measured at 0 ... 2 dB, K = 1024, P = 4: mean
// |difference| 0.10 ... 0.14 max-log, 0.30 ... 0.33 log-map; worst 0.82 and 2.14). Over
// more iterations each follows its own trajectory, as its bits do.
TEST(TurboSoftInt16, FollowsTheFloatDecoderWithinItsSteps)
{
    std::mt19937_64 rng(test_seed());
    for (auto algo : { algorithm::max_log, algorithm::log_map }) {
        decoder_config c;
        c.K = 1024;
        c.algo = algo;
        c.iterations = 1;
        c.subblocks = 4;
        c.cuda_arithmetic = arithmetic::int16;
        GPUTURBO_MAKE_OR_SKIP(int16, c, "cpu");
        c.cuda_arithmetic = arithmetic::float32;
        const auto float32 = make_decoder(c, "cpu");
        const auto b = make_batch(c.K, 0.2 * (rng() % 10), 16, rng());
        const soft_run q = decode_soft(*int16, c.K, b.llrs);
        const soft_run f = decode_soft(*float32, c.K, b.llrs);
        const bool exact = algo == algorithm::log_map;
        double worst = 0.0, sum = 0.0;
        for (std::size_t i = 0; i < q.app.size(); ++i) {
            ASSERT_EQ(q.app[i] * 32.0f, std::round(q.app[i] * 32.0f)) << i;
            ASSERT_EQ(q.extrinsic[i] * 32.0f, std::round(q.extrinsic[i] * 32.0f)) << i;
            const double d = std::fabs(q.app[i] - f.app[i]);
            worst = std::max(worst, d);
            sum += d;
        }
        EXPECT_LT(sum / q.app.size(), exact ? 0.45 : 0.2) << to_string(algo);
        EXPECT_LT(worst, exact ? 3.0 : 1.5) << to_string(algo);
    }
}

// The CUDA kernels in the CPU kernels' arithmetic: float32 max-log and scaled max-log,
// and int16 for the same P, guard and g, give the same soft values bit for bit;
// float32 log-map (CUDA's exp and log1p) within a hundredth of an LLR on most bits.
TEST(TurboSoftCuda, EqualsTheCpuInTheSameArithmetic)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    struct setting
    {
        arithmetic a;
        algorithm algo;
        int P;
        guard g;
        stop_rule rule;
    };
    const setting settings[] = {
        { arithmetic::float32,
          algorithm::scaled_max_log,
          1,
          guard::none,
          stop_rule::off },
        { arithmetic::float32, algorithm::max_log, 32, guard::pivi, stop_rule::hard },
        { arithmetic::float32,
          algorithm::scaled_max_log,
          16,
          guard::pividstw,
          stop_rule::off },
        { arithmetic::float32, algorithm::log_map, 1, guard::none, stop_rule::off },
        { arithmetic::int16,
          algorithm::scaled_max_log,
          16,
          guard::pividstw,
          stop_rule::off },
        { arithmetic::int16, algorithm::max_log, 16, guard::dstw, stop_rule::hard },
        { arithmetic::int16, algorithm::log_map, 16, guard::pividstw, stop_rule::off },
    };
    const std::uint64_t seed = test_seed();
    for (const auto& s : settings) {
        decoder_config c;
        c.K = 1024;
        c.algo = s.algo;
        c.subblocks = s.P;
        c.guarding = s.g;
        c.early_stop = s.rule;
        c.cuda_arithmetic = s.a;
        std::unique_ptr<decoder> cpu;
        try {
            cpu = make_decoder(c, "cpu");
        } catch (const std::runtime_error&) {
            continue; // int16 without AVX2 on this host
        }
        const auto gpu = make_decoder(c, "cuda");
        const auto b = make_batch(c.K, 0.5, 33, seed);
        const soft_run x = decode_soft(*cpu, c.K, b.llrs);
        const soft_run y = decode_soft(*gpu, c.K, b.llrs);
        const std::string what = std::string(to_string(s.a)) + " " + to_string(s.algo) +
                                 " P=" + std::to_string(s.P) + " " + to_string(s.g);
        EXPECT_EQ(x.bits, y.bits) << what;
        if (s.algo != algorithm::log_map || s.a == arithmetic::int16) {
            EXPECT_EQ(x.app, y.app) << what;
            EXPECT_EQ(x.extrinsic, y.extrinsic) << what;
            continue;
        }
        std::size_t far = 0;
        double worst = 0.0;
        for (std::size_t i = 0; i < x.app.size(); ++i) {
            const double d = std::fabs(x.app[i] - y.app[i]);
            worst = std::max(worst, d);
            far += d > 0.01;
        }
        std::printf("  %s: worst |difference| %.4f, %zu of %zu beyond 0.01\n",
                    what.c_str(),
                    worst,
                    far,
                    x.app.size());
        EXPECT_LE(far, x.app.size() / 100) << what;
    }
}

// The kinds' names are the parameter output's choices, in the enum's order.
TEST(SoftOutput, NamesReadBack)
{
    for (auto kind : { core::soft_output::none,
                       core::soft_output::app,
                       core::soft_output::extrinsic,
                       core::soft_output::code_extrinsic })
        EXPECT_EQ(core::parse_output(core::to_string(kind)), kind)
            << core::to_string(kind);
    EXPECT_STREQ(core::to_string(core::soft_output::none), "bits");
    EXPECT_STREQ(core::to_string(core::soft_output::app), "llr");
}
