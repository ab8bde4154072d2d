/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Decoder behaviour on every backend (one body, parametrised by backend), and the fast
// CPU kernels against the reference on fresh random inputs (their seed is printed;
// GPUTURBO_TEST_SEED replays one, see test_seed()).

#include "test_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

using namespace gputurbo;
using namespace gputurbo::test; // and the namespaces it uses

namespace {

class Backend : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(Backend, NoiselessRoundTripEveryBlockSizeEveryAlgorithm)
{
    std::mt19937 rng(11);
    for (auto algo :
         { algorithm::log_map, algorithm::max_log, algorithm::scaled_max_log }) {
        for (const auto& row : turbo::qpp_table()) {
            decoder_config c;
            c.K = row.K;
            c.algo = algo;
            c.iterations = 2;
            GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
            std::vector<std::uint8_t> bits(2 * row.K), out;
            for (auto& b : bits)
                b = rng() & 1;
            dec->decode(noiseless_llrs(row.K, bits, 4.0f), out);
            ASSERT_EQ(out, bits) << to_string(algo) << " K=" << row.K;
        }
    }
}

TEST_P(Backend, DecodesNoisyFramesAndReportsIterations)
{
    decoder_config c;
    c.K = 1024;
    c.iterations = 8;
    c.subblocks = 1; // the error-free bound is that of whole codewords on every backend
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = make_batch(c.K, 1.5, 20, 5);
    std::vector<std::uint8_t> out;
    std::vector<codeword_status> status;
    dec->decode(b.llrs, out, &status);
    ASSERT_EQ(status.size(), 20u);
    EXPECT_EQ(bit_errors(out, b.bits), 0u);
    for (const auto& s : status) {
        EXPECT_EQ(s.iterations, 8);
        EXPECT_TRUE(s.passed); // stop rule off: nothing can fail
    }
}

TEST_P(Backend, CodewordsWithoutInformationNeverPass)
{
    // Erased (NaN, zero) or near-zero input decodes to all-zero bits, which pass
    // CRC-24A/B: no stop rule may report such a codeword passed. A codeword with little
    // but real information (LLRs of 0.25) still passes.
    const int K = 256;
    const std::size_t n = turbo::codeword_length(K);
    std::mt19937 rng(5);
    std::vector<std::uint8_t> bits(K);
    for (auto& b : bits)
        b = rng() & 1;
    const auto weak = noiseless_llrs(K, bits, 0.25f);
    std::vector<float> llrs(4 * n, 0.0f); // zero, NaN, 1e-6 x a codeword, weak
    std::fill_n(llrs.begin() + n, n, std::numeric_limits<float>::quiet_NaN());
    for (std::size_t i = 0; i < n; ++i)
        llrs[2 * n + i] = weak[i] * 4e-6f;
    std::copy(weak.begin(), weak.end(), llrs.begin() + 3 * n);
    for (auto rule : { stop_rule::off,
                       stop_rule::crc24a,
                       stop_rule::crc24b,
                       stop_rule::mean_llr,
                       stop_rule::min_llr,
                       stop_rule::hard }) {
        decoder_config c;
        c.K = K;
        c.iterations = 4;
        c.early_stop = rule;
        c.stop_threshold = 0.0f; // the threshold rules hold for any LLRs
        GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
        std::vector<std::uint8_t> out;
        std::vector<codeword_status> status;
        dec->decode(llrs, out, &status);
        ASSERT_EQ(status.size(), 4u);
        for (int i = 0; i < 3; ++i) {
            EXPECT_FALSE(status[i].passed) << to_string(rule) << " input " << i;
            EXPECT_EQ(status[i].iterations, 4) << to_string(rule) << " input " << i;
        }
        EXPECT_TRUE(std::all_of(out.begin(), out.begin() + 2 * K, [](auto b) {
            return b == 0;
        })) << to_string(rule);
        if (rule == stop_rule::off || rule == stop_rule::mean_llr ||
            rule == stop_rule::min_llr) {
            EXPECT_TRUE(status[3].passed) << to_string(rule);
            EXPECT_TRUE(std::equal(bits.begin(), bits.end(), out.begin() + 3 * K))
                << to_string(rule);
        }
    }
}

TEST_P(Backend, EveryTailLlrIsRead)
{
    // Each of the 12 tail values, forced to +20 and then to -20 in every codeword of a
    // noisy batch, changes some decision: a kernel that reads a tail value from the
    // wrong place leaves one of them without effect.
    const int K = 40, n = 48;
    decoder_config c;
    c.K = K;
    c.iterations = 2;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = make_batch(K, 0.0, n, 31);
    const std::size_t len = turbo::codeword_length(K);
    for (int t = 0; t < turbo::num_tail_bits; ++t) {
        std::vector<std::uint8_t> out[2];
        for (int sign = 0; sign < 2; ++sign) {
            auto llrs = b.llrs;
            for (int i = 0; i < n; ++i)
                llrs[i * len + 3 * std::size_t(K) + t] = sign ? -20.0f : 20.0f;
            dec->decode(llrs, out[sign]);
        }
        EXPECT_NE(out[0], out[1]) << "tail value " << t << " is not read";
    }
}

TEST_P(Backend, EarlyStopRulesStopConvergedCodewordsOnly)
{
    const int K = 512;
    for (auto rule : { stop_rule::crc24a,
                       stop_rule::crc24b,
                       stop_rule::mean_llr,
                       stop_rule::min_llr,
                       stop_rule::hard }) {
        decoder_config c;
        c.K = K;
        c.iterations = 16;
        c.subblocks = 1; // the iteration bounds are those of whole codewords
        c.early_stop = rule;
        c.stop_threshold = rule == stop_rule::min_llr ? 5.0f : 20.0f;
        GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
        const auto crc = stop_crc(rule);
        // Good channel: every codeword converges well before the limit.
        const auto good = make_batch(K, 3.0, 24, 21, layout::interleaved, crc);
        std::vector<std::uint8_t> out;
        std::vector<codeword_status> status;
        dec->decode(good.llrs, out, &status);
        EXPECT_EQ(bit_errors(out, good.bits), 0u) << to_string(rule);
        for (const auto& s : status) {
            EXPECT_TRUE(s.passed) << to_string(rule);
            EXPECT_LT(s.iterations, 6) << to_string(rule);
            EXPECT_GE(s.iterations, rule == stop_rule::hard ? 2 : 1) << to_string(rule);
        }
        // Hopeless channel mixed with good codewords: the bad ones run to the limit and
        // fail, the good ones still stop early.
        auto mixed = make_batch(K, -4.0, 24, 22, layout::interleaved, crc);
        const std::size_t n = turbo::codeword_length(K);
        for (std::size_t i = 0; i < 24; i += 2) {
            std::copy_n(good.llrs.begin() + i * n, n, mixed.llrs.begin() + i * n);
            std::copy_n(good.bits.begin() + i * K, K, mixed.bits.begin() + i * K);
        }
        dec->decode(mixed.llrs, out, &status);
        for (std::size_t i = 0; i < 24; ++i) {
            if (i % 2 == 0) {
                EXPECT_TRUE(status[i].passed) << to_string(rule) << " codeword " << i;
                EXPECT_LT(status[i].iterations, 6) << to_string(rule);
                EXPECT_TRUE(std::equal(out.begin() + i * K,
                                       out.begin() + (i + 1) * K,
                                       good.bits.begin() + i * K));
            } else if (rule != stop_rule::hard) { // hard decisions may freeze on noise
                EXPECT_FALSE(status[i].passed) << to_string(rule) << " codeword " << i;
                EXPECT_EQ(status[i].iterations, 16) << to_string(rule);
            }
        }
    }
}

TEST_P(Backend, InputSanitisingAndSignConvention)
{
    decoder_config c;
    c.K = 256;
    c.iterations = 4;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = make_batch(c.K, 0.5, 4, 31);
    std::vector<std::uint8_t> ref, out;
    std::vector<codeword_status> st_ref, st;

    // NaN decodes exactly like an erasure (0).
    auto zeros = b.llrs, nans = b.llrs;
    for (std::size_t i = 0; i < zeros.size(); i += 7) {
        zeros[i] = 0.0f;
        nans[i] = std::numeric_limits<float>::quiet_NaN();
    }
    dec->decode(zeros, ref, &st_ref);
    dec->decode(nans, out, &st);
    EXPECT_EQ(out, ref);

    // +-Inf decodes exactly like +-llr_limit, and so does anything beyond it.
    auto limits = b.llrs, infs = b.llrs;
    for (std::size_t i = 0; i < limits.size(); i += 5) {
        const bool neg = b.llrs[i] < 0;
        limits[i] = neg ? -llr_limit : llr_limit;
        infs[i] = (i % 10 == 0 ? std::numeric_limits<float>::infinity() : 1e30f) *
                  (neg ? -1.0f : 1.0f);
    }
    dec->decode(limits, ref);
    dec->decode(infs, out);
    EXPECT_EQ(out, ref);

    // invert_llr: negated input gives the same bits.
    decoder_config ci = c;
    ci.invert_llr = true;
    GPUTURBO_MAKE_OR_SKIP(inv, ci, GetParam());
    auto negated = b.llrs;
    for (auto& x : negated)
        x = -x;
    dec->decode(b.llrs, ref);
    inv->decode(negated, out);
    EXPECT_EQ(out, ref);
}

TEST_P(Backend, StreamsLayoutEqualsInterleaved)
{
    decoder_config c;
    c.K = 2048;
    c.iterations = 3;
    c.subblocks = 4;
    GPUTURBO_MAKE_OR_SKIP(a, c, GetParam());
    c.input_layout = layout::streams;
    GPUTURBO_MAKE_OR_SKIP(s, c, GetParam());
    const auto tri = make_batch(c.K, 0.7, 3, 41, layout::interleaved);
    const auto streams = as_streams(c.K, tri.llrs);
    std::vector<std::uint8_t> x, y;
    a->decode(tri.llrs, x);
    s->decode(streams, y);
    EXPECT_EQ(x, y);
    EXPECT_LT(bit_errors(x, tri.bits), tri.bits.size() / 100);
}

TEST_P(Backend, BatchCompositionAndThreadsDoNotChangeResults)
{
    decoder_config c;
    c.K = 1008;
    c.iterations = 5;
    c.early_stop = stop_rule::mean_llr;
    c.stop_threshold = 15.0f;
    const auto b = make_batch(c.K, 0.6, 37, 51);
    std::vector<std::uint8_t> all, one;
    std::vector<codeword_status> st_all, st_one;
    c.threads = 2;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    dec->decode(b.llrs, all, &st_all);
    c.threads = 1;
    GPUTURBO_MAKE_OR_SKIP(single, c, GetParam());
    const std::size_t n = turbo::codeword_length(c.K);
    for (std::size_t i = 0; i < 37; i += 6) { // decoded alone
        std::vector<float> llrs(b.llrs.begin() + i * n, b.llrs.begin() + (i + 1) * n);
        single->decode(llrs, one, &st_one);
        EXPECT_TRUE(std::equal(one.begin(), one.end(), all.begin() + i * c.K)) << i;
        EXPECT_EQ(st_one[0].iterations, st_all[i].iterations) << i;
        EXPECT_EQ(st_one[0].passed, st_all[i].passed) << i;
    }
}

TEST_P(Backend, EmptyBatchAndBadSizes)
{
    decoder_config c;
    c.K = 40;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    dec->decode(static_cast<const float*>(nullptr), 0, nullptr, nullptr); // nothing to do
    std::vector<float> llrs(turbo::codeword_length(40) + 1);
    std::vector<std::uint8_t> out;
    EXPECT_THROW(dec->decode(llrs, out), std::invalid_argument);
    llrs.resize(turbo::codeword_length(40));
    EXPECT_NO_THROW(dec->decode(llrs, out)); // a later call still works
    EXPECT_EQ(out.size(), 40u);
}

TEST_P(Backend, RuntimeSetters)
{
    decoder_config c;
    c.K = 256;
    c.iterations = 3;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = make_batch(c.K, -1.0, 2, 61);
    std::vector<std::uint8_t> out;
    std::vector<codeword_status> st;
    dec->set_iterations(7);
    dec->decode(b.llrs, out, &st);
    EXPECT_EQ(st[0].iterations, 7);
    EXPECT_THROW(dec->set_iterations(0), std::invalid_argument);
    EXPECT_THROW(dec->set_iterations(33), std::invalid_argument);
    EXPECT_THROW(dec->set_stop_threshold(-1.0f), std::invalid_argument);
    EXPECT_THROW(dec->set_stop_threshold(std::nanf("")), std::invalid_argument);
    EXPECT_EQ(dec->config().iterations, 7);
}

// A training window is at most K/P where sub-blocks have inner edges (P > 1), and does
// nothing where there are none (P = 1, any g): each setting, with K in the config or per
// call, P fixed or automatic, is either refused with the window's range or decoded as
// the reference decodes (float32: bit for bit; int16: the same bits at 2.5 dB, and at
// P = 1 the bits of no guard at all).
TEST_P(Backend, GuardWindowBeyondTheSubblockIsRefusedOrHasNoEffect)
{
    constexpr int K = 1024;
    struct setting
    {
        int P; // 0: automatic
        guard g;
        int window;
    };
    const setting settings[] = {
        { 0, guard::pividstw, 6144 }, // the CPU picks P = 1: no edges
        { 0, guard::dstw, K + 1 },
        { 0, guard::pividstw, 300 }, // the CPU's int16 picks P = 2
        { 1, guard::pividstw, 6144 },
        { 1, guard::pividstw, K },
        { 1, guard::dstw, 6144 },
        { 1, guard::pivi, 6144 },
        { 2, guard::pividstw, K / 2 }, // the longest windows
        { 32, guard::dstw, K / 32 },
        { 32, guard::pividstw, K / 32 },
        { 2, guard::pividstw, K / 2 + 1 }, // longer than a sub-block
        { 32, guard::dstw, K / 32 + 1 },
    };
    const std::size_t n = 6;
    const auto noisy = make_batch(K, 0.5, n, 71);
    const auto clean = make_batch(K, 2.5, n, 72);
    for (const int config_K : { K, 0 }) {
        for (const auto& s : settings) {
            decoder_config c;
            c.K = config_K;
            c.subblocks = s.P;
            c.guarding = s.g;
            c.guard_window = s.window;
            const std::string what = "K=" + std::to_string(config_K) +
                                     " P=" + std::to_string(s.P) + " " + to_string(s.g) +
                                     " g=" + std::to_string(s.window);
            std::unique_ptr<decoder> dec;
            auto decode = [&](decoder& d, const noisy_batch& b) {
                std::vector<std::uint8_t> bits(n * K);
                d.decode(K, b.llrs.data(), n, bits.data(), nullptr);
                return bits;
            };
            std::vector<std::uint8_t> bits;
            try {
                dec = make_or_skip(c, GetParam());
                if (!dec)
                    GTEST_SKIP() << "backend '" << GetParam()
                                 << "' is not available on this machine";
                bits = decode(*dec, noisy);
            } catch (const std::invalid_argument& e) {
                const std::string m = e.what();
                EXPECT_NE(m.find("guard_window g=" + std::to_string(s.window)),
                          std::string::npos)
                    << what << ": " << m;
                EXPECT_NE(m.find("K/P"), std::string::npos) << what << ": " << m;
                EXPECT_NE(s.P, 1) << what << ": " << m;
                if (s.P > 1)
                    EXPECT_GT(s.window, K / s.P) << what << ": " << m;
                continue;
            }
            const int P = dec->subblocks(K);
            EXPECT_TRUE(P == 1 || s.window <= K / P) << what << " decoded at P=" << P;
            decoder_config rc = c;
            rc.subblocks = P;
            auto ref = make_decoder(rc, "reference");
            if (dec->metric_arithmetic() == arithmetic::float32)
                EXPECT_EQ(bits, decode(*ref, noisy)) << what << " " << dec->device();
            EXPECT_EQ(decode(*dec, clean), decode(*ref, clean))
                << what << " " << dec->device();
            if (P == 1) {
                decoder_config none = rc;
                none.guarding = guard::none;
                none.guard_window = 8;
                EXPECT_EQ(bits, decode(*make_or_skip(none, GetParam()), noisy))
                    << what << " " << dec->device();
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllBackends,
                         Backend,
                         ::testing::ValuesIn(all_backends),
                         backend_test_name);

TEST(Config, BadParametersHaveClearErrors)
{
    auto message = [](auto edit) {
        decoder_config c;
        edit(c);
        try {
            make_decoder(c, "cpu");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(message([](auto& c) { c.K = 6000; }).find("K=6000"), std::string::npos);
    EXPECT_NE(message([](auto& c) { c.iterations = 0; }).find("iterations=0"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) { c.iterations = 33; }).find("1 ... 32"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) { c.subblocks = 7; }).find("divide K=6144"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) {
                  c.subblocks = 96;
                  c.guard_window = 65;
              }).find("guard_window g=65"),
              std::string::npos);
    // With no K of its own, a fixed P must fit some LTE size, and g its K/P.
    EXPECT_NE(message([](auto& c) {
                  c.K = 0;
                  c.subblocks = 6143;
              }).find("subblocks P=6143 divides none"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) {
                  c.K = 0;
                  c.subblocks = 8;
                  c.guard_window = 769;
              }).find("guard_window g=769 is larger than K/P for every"),
              std::string::npos);
    EXPECT_EQ(message([](auto& c) {
                  c.K = 0;
                  c.subblocks = 8;
                  c.guard_window = 768;
              }),
              "(accepted)");
    EXPECT_NE(message([](auto& c) { c.scaling = 0.0f; }).find("scaling"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) { c.stop_threshold = -2.0f; }).find("stop_threshold"),
              std::string::npos);
    EXPECT_NE(message([](auto& c) { c.threads = -1; }).find("threads"),
              std::string::npos);
    EXPECT_THROW(make_decoder(decoder_config{}, "gpu"), std::invalid_argument);
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        EXPECT_THROW(make_decoder(decoder_config{}, "cuda"), std::runtime_error);
    EXPECT_THROW(parse_algorithm("map"), std::invalid_argument);
    EXPECT_EQ(parse_guard("pividstw"), guard::pividstw);
    EXPECT_EQ(parse_stop_rule("mean-llr"), stop_rule::mean_llr);
    EXPECT_STREQ(to_string(algorithm::scaled_max_log), "scaled-max-log");
}

// Every SIMD kernel this CPU runs gives exactly the reference's bits and statuses.
class Kernel : public ::testing::TestWithParam<std::string>
{
};

TEST_P(Kernel, EqualsReferenceOnRandomNoisyInput)
{
    struct setting
    {
        algorithm algo;
        int P;
        guard g;
        int window;
        stop_rule rule;
    };
    const setting settings[] = {
        { algorithm::log_map, 1, guard::none, 0, stop_rule::off },
        { algorithm::max_log, 1, guard::none, 0, stop_rule::hard },
        { algorithm::scaled_max_log, 1, guard::none, 0, stop_rule::mean_llr },
        { algorithm::scaled_max_log, 16, guard::none, 0, stop_rule::off },
        { algorithm::scaled_max_log, 16, guard::pivi, 0, stop_rule::min_llr },
        { algorithm::max_log, 16, guard::dstw, 5, stop_rule::off },
        { algorithm::log_map, 16, guard::pividstw, 8, stop_rule::crc24a },
        { algorithm::scaled_max_log, 16, guard::pividstw, 64, stop_rule::crc24b },
    };
    const std::uint64_t seed = test_seed(); // fresh inputs on every run, printed
    ::setenv("GPUTURBO_CPU_KERNEL", GetParam().c_str(), 1);
    for (const auto& s : settings) {
        decoder_config c;
        c.K = 1024;
        c.iterations = 6;
        c.algo = s.algo;
        c.subblocks = s.P;
        c.guarding = s.g;
        c.guard_window = s.window ? s.window : 8;
        c.early_stop = s.rule;
        c.stop_threshold = s.rule == stop_rule::min_llr ? 3.0f : 12.0f;
        c.cuda_arithmetic = arithmetic::float32;
        std::unique_ptr<decoder> fast;
        try {
            fast = make_decoder(c, "cpu");
        } catch (const std::runtime_error& e) {
            ::unsetenv("GPUTURBO_CPU_KERNEL");
            GTEST_SKIP() << e.what();
        }
        auto ref = make_decoder(c, "reference");
        const auto crc = stop_crc(s.rule);
        const auto b = make_batch(c.K, 0.4, 21, seed, layout::interleaved, crc);
        std::vector<std::uint8_t> x, y;
        std::vector<codeword_status> sx, sy;
        fast->decode(b.llrs, x, &sx);
        ref->decode(b.llrs, y, &sy);
        EXPECT_EQ(x, y) << fast->device() << " seed " << seed << " " << to_string(s.algo)
                        << " P=" << s.P << " " << to_string(s.g);
        for (std::size_t i = 0; i < sx.size(); ++i) {
            EXPECT_EQ(sx[i].iterations, sy[i].iterations) << "seed " << seed;
            EXPECT_EQ(sx[i].passed, sy[i].passed) << "seed " << seed;
        }
    }
    ::unsetenv("GPUTURBO_CPU_KERNEL");
}

INSTANTIATE_TEST_SUITE_P(AllKernels,
                         Kernel,
                         ::testing::Values("scalar", "generic", "avx2", "avx512"),
                         backend_test_name);

// The CUDA backend against the CPU on fresh random noisy inputs.
// float32: both run the same float operations in the same order (trellis_math.h, no fused
// multiply-add), so max-log and scaled-max-log hard decisions agree bit for bit. Stated
// exceptions: log-map (the GPU computes max*'s correction with its special-function
// unit, about 1e-6 apart) may differ on at most 1e-4 of the bits, with frame errors
// within one; the mean-llr rule, whose sum is accumulated in another order, may stop one
// codeword an iteration apart.
// int16 (with log-map's correction term in two pieces, see turbo_kernel.cu): quantised
// metrics decide differently only where a codeword is on the edge of failing: at 0.5
// and 1.2 dB the frame-error counts agree within two standard deviations, and where the
// CPU decodes (nearly) every codeword at 1.2 dB, int16 decodes all but at most one of
// them to the same bits. (A loose stop rule, mean-llr at 12 here, ends many codewords
// before they converge; which ones then depends on the arithmetic.)
TEST(CudaVsCpu, SameDecisionsOnRandomNoisyInput)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    struct setting
    {
        algorithm algo;
        int P;
        guard g;
        stop_rule rule;
    };
    const setting settings[] = {
        { algorithm::scaled_max_log, 1, guard::none, stop_rule::off },
        { algorithm::max_log, 32, guard::none, stop_rule::hard },
        { algorithm::scaled_max_log, 96, guard::pivi, stop_rule::min_llr },
        { algorithm::scaled_max_log, 96, guard::dstw, stop_rule::mean_llr },
        { algorithm::scaled_max_log, 96, guard::pividstw, stop_rule::crc24b },
        { algorithm::scaled_max_log, 192, guard::pividstw, stop_rule::off },
        // Sub-blocks of 12 stages (partial segments); blocks of 384 threads.
        { algorithm::scaled_max_log, 256, guard::pividstw, stop_rule::off },
        { algorithm::scaled_max_log, 384, guard::pividstw, stop_rule::crc24b },
        { algorithm::log_map, 48, guard::pividstw, stop_rule::crc24a },
        { algorithm::log_map, 1, guard::none, stop_rule::off },
    };
    const std::uint64_t seed = test_seed(); // fresh inputs on every run, printed
    struct outcome
    {
        std::vector<std::uint8_t> bits;
        std::vector<codeword_status> status;
        std::size_t frame_errors = 0;
    };
    for (const auto& s : settings) {
        decoder_config c;
        c.K = 3072;
        c.iterations = 6;
        c.algo = s.algo;
        c.subblocks = s.P;
        c.guarding = s.g;
        c.early_stop = s.rule;
        c.stop_threshold = s.rule == stop_rule::min_llr ? 3.0f : 12.0f;
        const auto crc = stop_crc(s.rule);
        const std::size_t n = 45;
        const std::string what =
            std::string(to_string(s.algo)) + " P=" + std::to_string(s.P) + " " +
            to_string(s.g) + " " + to_string(s.rule) + " seed " + std::to_string(seed);
        auto decode = [&](const noisy_batch& b, const char* backend, arithmetic a) {
            decoder_config ca = c;
            ca.cuda_arithmetic = a;
            outcome o;
            make_decoder(ca, backend)->decode(b.llrs, o.bits, &o.status);
            for (std::size_t i = 0; i < n; ++i)
                o.frame_errors += !std::equal(o.bits.begin() + i * c.K,
                                              o.bits.begin() + (i + 1) * c.K,
                                              b.bits.begin() + i * c.K);
            return o;
        };
        auto differing_codewords = [&](const outcome& x, const outcome& y, bool status) {
            std::size_t count = 0;
            for (std::size_t i = 0; i < n; ++i)
                count += !std::equal(x.bits.begin() + i * c.K,
                                     x.bits.begin() + (i + 1) * c.K,
                                     y.bits.begin() + i * c.K) ||
                         (status && (x.status[i].iterations != y.status[i].iterations ||
                                     x.status[i].passed != y.status[i].passed));
            return count;
        };

        const auto b = make_batch(c.K, 0.5, n, seed, layout::interleaved, crc);
        const outcome cpu = decode(b, "cpu", arithmetic::float32);
        const outcome gpu = decode(b, "cuda", arithmetic::float32);
        if (s.algo == algorithm::log_map) {
            EXPECT_LE(bit_errors(gpu.bits, cpu.bits), gpu.bits.size() / 10000) << what;
            EXPECT_NEAR(double(gpu.frame_errors), double(cpu.frame_errors), 1.0) << what;
        } else if (s.rule == stop_rule::mean_llr) {
            EXPECT_LE(differing_codewords(gpu, cpu, true), 1u) << what;
            EXPECT_NEAR(double(gpu.frame_errors), double(cpu.frame_errors), 1.0) << what;
        } else {
            EXPECT_EQ(differing_codewords(gpu, cpu, true), 0u) << what;
            EXPECT_EQ(gpu.bits, cpu.bits) << what;
            EXPECT_EQ(gpu.frame_errors, cpu.frame_errors) << what;
        }

        const outcome packed = decode(b, "cuda", arithmetic::int16);
        const double spread =
            2.0 * std::sqrt(double(packed.frame_errors + cpu.frame_errors));
        std::printf("  int16 %s: 0.5 dB frame errors %zu (cpu %zu), differing bits %zu\n",
                    what.c_str(),
                    packed.frame_errors,
                    cpu.frame_errors,
                    bit_errors(packed.bits, cpu.bits));
        EXPECT_NEAR(double(packed.frame_errors), double(cpu.frame_errors), spread + 1.0)
            << what;
        const auto clean = make_batch(c.K, 1.2, n, seed + 1, layout::interleaved, crc);
        const outcome cpu_clean = decode(clean, "cpu", arithmetic::float32);
        const outcome packed_clean = decode(clean, "cuda", arithmetic::int16);
        std::size_t lost = 0; // decoded correctly by the CPU, differently by int16
        for (std::size_t i = 0; i < n; ++i) {
            auto at = [&](const outcome& o) { return o.bits.begin() + i * c.K; };
            lost += std::equal(at(cpu_clean),
                               at(cpu_clean) + c.K,
                               clean.bits.begin() + i * c.K) &&
                    !std::equal(at(cpu_clean), at(cpu_clean) + c.K, at(packed_clean));
        }
        std::printf("  int16 %s: 1.2 dB frame errors %zu (cpu %zu), lost %zu\n",
                    what.c_str(),
                    packed_clean.frame_errors,
                    cpu_clean.frame_errors,
                    lost);
        if (cpu_clean.frame_errors <= 1) // else the stop rule, not the channel, decides
            EXPECT_LE(lost, 1u) << what;
        EXPECT_NEAR(
            double(packed_clean.frame_errors),
            double(cpu_clean.frame_errors),
            2.0 * std::sqrt(double(packed_clean.frame_errors + cpu_clean.frame_errors)) +
                1.0)
            << what;
    }
}

TEST(Int8, QuantizeRoundsAndSaturates)
{
    const float in[] = {
        0.0f,         0.06f, 0.07f,  -0.07f, 1.0f,
        -1.0f,        15.9f, 100.0f, -1e30f, std::numeric_limits<float>::infinity(),
        std::nanf("")
    };
    std::int8_t out[sizeof in / sizeof in[0]];
    quantize_llrs(in, sizeof in / sizeof in[0], out, 8.0f);
    const std::int8_t expected[] = { 0, 0, 1, -1, 8, -8, 127, 127, -127, 127, 0 };
    for (std::size_t i = 0; i < sizeof in / sizeof in[0]; ++i)
        EXPECT_EQ(out[i], expected[i]) << "input " << in[i];
    // A 4-bit format: the same rounding, saturated to +-7.
    quantize_llrs(in, sizeof in / sizeof in[0], out, 8.0f, 4);
    const std::int8_t four_bits[] = { 0, 0, 1, -1, 7, -7, 7, 7, -7, 7, 0 };
    for (std::size_t i = 0; i < sizeof in / sizeof in[0]; ++i)
        EXPECT_EQ(out[i], four_bits[i]) << "input " << in[i];
    EXPECT_THROW(quantize_llrs(in, 1, out, 8.0f, 1), std::invalid_argument);
    EXPECT_THROW(quantize_llrs(in, 1, out, 8.0f, 9), std::invalid_argument);
}

// int8 input decodes exactly like the float values q / int8_scale it stands for.
// int8 input decodes as its dequantised float values q / int8_scale. log-map and the
// mean-llr rule are not scale-invariant (scaled max-log with a CRC stop is), so a wrong
// scale shows in their decisions and iterations.
TEST(Int4, PackedTwoToAByteSaturatedToSeven)
{
    const std::vector<std::int8_t> q = { 0, 1, -1, 7, -7, 8, -8, 127, -128, 3, -5 };
    std::vector<int4_pair> packed(int4_bytes(q.size()), int4_pair{ 0xee });
    pack_int4(q.data(), q.size(), packed.data());
    EXPECT_EQ(packed[0].nibbles, 0x10); // LLR 0 in the low nibble
    EXPECT_EQ(packed[5].nibbles, 0x0b); // an odd count: the last high nibble 0
    std::vector<std::int8_t> back(q.size());
    unpack_int4(packed.data(), q.size(), back.data());
    EXPECT_EQ(back, (std::vector<std::int8_t>{ 0, 1, -1, 7, -7, 7, -7, 7, -7, 3, -5 }));
    // -8, which pack_int4 never writes, is read as -7.
    const int4_pair minus_eight{ 0x88 };
    unpack_int4(&minus_eight, 2, back.data());
    EXPECT_EQ(back[0], -7);
    EXPECT_EQ(back[1], -7);
}

// int4 input decodes bit for bit as int8 input of the same values, on every backend (the
// CUDA one unpacks on the GPU), with decode() and submit(), whatever the batch.
TEST_P(Backend, Int4InputEqualsInt8OfTheSameValues)
{
    decoder_config c;
    c.K = 1024;
    c.iterations = 5;
    c.subblocks = 16;
    c.int8_scale = 2.0f;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = make_batch(c.K, 0.7, 19, 72, layout::interleaved, core::crc::crc24a);
    std::vector<std::int8_t> q(b.llrs.size());
    quantize_llrs(b.llrs.data(), b.llrs.size(), q.data(), c.int8_scale, 4);
    std::vector<int4_pair> packed(int4_bytes(q.size()));
    pack_int4(q.data(), q.size(), packed.data());
    std::vector<std::uint8_t> x(19 * c.K), y(19 * c.K), z(19 * c.K);
    std::vector<codeword_status> sx(19), sy(19), sz(19);
    dec->decode(q.data(), 19, x.data(), sx.data());
    dec->decode(packed.data(), 19, y.data(), sy.data());
    dec->collect(dec->submit(packed.data(), 19), z.data(), sz.data());
    EXPECT_EQ(y, x);
    EXPECT_EQ(z, x);
    for (std::size_t i = 0; i < 19; ++i) {
        EXPECT_EQ(sy[i].iterations, sx[i].iterations);
        EXPECT_EQ(sz[i].passed, sx[i].passed);
    }
    EXPECT_LT(bit_errors(x, b.bits), x.size() / 20);
}

TEST_P(Backend, Int8InputEqualsDequantizedFloat)
{
    for (const algorithm a : { algorithm::scaled_max_log, algorithm::log_map })
        for (const stop_rule r : { stop_rule::crc24a, stop_rule::mean_llr }) {
            decoder_config c;
            c.K = 1024;
            c.iterations = 5;
            c.subblocks = 16;
            c.algo = a;
            c.early_stop = r;
            c.stop_threshold = 12.0f;
            GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
            const auto b =
                make_batch(c.K, 0.7, 19, 71, layout::interleaved, core::crc::crc24a);
            std::vector<std::int8_t> q(b.llrs.size());
            quantize_llrs(b.llrs.data(), b.llrs.size(), q.data(), c.int8_scale);
            std::vector<float> dequantized(q.size());
            for (std::size_t i = 0; i < q.size(); ++i)
                dequantized[i] = float(q[i]) * (1.0f / c.int8_scale);
            std::vector<std::uint8_t> x(19 * c.K), y;
            std::vector<codeword_status> sx(19), sy;
            dec->decode(q.data(), 19, x.data(), sx.data());
            dec->decode(dequantized, y, &sy);
            const std::string what = std::string(to_string(a)) + " " + to_string(r);
            EXPECT_EQ(x, y) << what;
            for (std::size_t i = 0; i < 19; ++i) {
                EXPECT_EQ(sx[i].iterations, sy[i].iterations) << what;
                EXPECT_EQ(sx[i].passed, sy[i].passed) << what;
            }
            EXPECT_LT(bit_errors(x, b.bits), x.size() / 50) << what;
        }
}

// The hard-decision stop rule compares each iteration with the previous one of the same
// codeword, never with what the decoder decided for an earlier batch: decoding a batch
// twice gives the same statuses, and no codeword stops after its first iteration. A
// single codeword at a high Eb/N0 is decided at once, so stale decisions would match.
TEST_P(Backend, HardRuleForgetsTheLastBatch)
{
    decoder_config c;
    c.K = 512;
    c.iterations = 8;
    c.subblocks = 8;
    c.early_stop = stop_rule::hard;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    for (const std::size_t n : { 1, 24 }) {
        const auto b = make_batch(c.K, 3.0, n, 73);
        std::vector<std::uint8_t> first, again;
        std::vector<codeword_status> s_first, s_again;
        dec->decode(b.llrs, first, &s_first);
        dec->decode(b.llrs, again, &s_again);
        EXPECT_EQ(first, again);
        EXPECT_EQ(first, b.bits);
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_GE(s_again[i].iterations, 2) << "codeword " << i << " of " << n;
            EXPECT_EQ(s_first[i].iterations, s_again[i].iterations) << "codeword " << i;
        }
    }
}

// Several GPUs share a batch and return what one GPU returns. "0,0" runs two decoders on
// GPU 0, so the multi-GPU path is exercised on a machine with one GPU too.
TEST(CudaDevices, SplittingABatchOverDevicesChangesNothing)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    decoder_config c;
    c.K = 2048;
    c.subblocks = 32;
    c.early_stop = stop_rule::crc24b;
    const auto b = make_batch(c.K, 0.6, 37, 81, layout::interleaved, core::crc::crc24b);
    std::vector<std::uint8_t> one, many;
    std::vector<codeword_status> s_one, s_many;
    make_decoder(c, "cuda")->decode(b.llrs, one, &s_one);
    for (const char* devices : { "0,0", "all" }) {
        c.devices = devices;
        auto dec = make_decoder(c, "cuda");
        dec->set_iterations(6);
        dec->decode(b.llrs, many, &s_many);
        EXPECT_EQ(many, one) << devices << ": " << dec->device();
        for (std::size_t i = 0; i < s_one.size(); ++i) {
            EXPECT_EQ(s_many[i].iterations, s_one[i].iterations) << devices;
            EXPECT_EQ(s_many[i].passed, s_one[i].passed) << devices;
        }
    }
}

namespace {

// The decoder of the host memory tests: on CUDA the largest codewords and sub-blocks,
// small ones elsewhere.
decoder_config host_memory_config(bool cuda)
{
    decoder_config c;
    c.K = cuda ? 6144 : 40;
    c.subblocks = cuda ? 192 : 1;
    c.iterations = 3;
    return c;
}

} // namespace

// LLRs and bits in host_buffers (page-locked where CUDA is usable, which the CUDA backend
// then moves by DMA without staging) decode exactly like ordinary memory, synchronously
// and through submit()/collect(); on CUDA with more codewords than one launch takes on an
// H100 (2112 at K = 6144, P = 192), so that the bits of several chunks go straight out.
TEST_P(Backend, HostBuffersDecodeLikeOrdinaryMemory)
{
    const bool cuda = backend_of(GetParam()) == "cuda";
    const decoder_config c = host_memory_config(cuda);
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const std::size_t n = cuda ? 2200 : GetParam() == "reference" ? 300 : 3000;
    const auto b = make_batch(c.K, 1.0, n, 97);
    std::vector<std::uint8_t> want;
    std::vector<codeword_status> want_status;
    dec->decode(b.llrs, want, &want_status);

    host_buffer<float> llrs(b.llrs.size());
    std::copy(b.llrs.begin(), b.llrs.end(), llrs.begin());
    host_buffer<std::uint8_t> bits(want.size());
    std::vector<codeword_status> status(n);
    dec->decode(llrs.data(), n, bits.data(), status.data());
    EXPECT_TRUE(std::equal(want.begin(), want.end(), bits.begin()));
    for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(status[i].iterations, want_status[i].iterations);

    std::fill(bits.begin(), bits.end(), std::uint8_t(7));
    const auto t = dec->submit(llrs.data(), 50);
    std::fill(llrs.begin(), llrs.end(), 0.0f); // submit() is done with the input
    dec->collect(t, bits.data(), nullptr);
    EXPECT_TRUE(std::equal(want.begin(), want.begin() + 50 * c.K, bits.begin()));
    host_buffer<float> moved = std::move(llrs);
    EXPECT_EQ(moved.size(), b.llrs.size());
    EXPECT_EQ(llrs.size(), 0u);
}

// Memory locked with register_host_memory() (as the GNU Radio block locks its input
// buffer) decodes like ordinary memory; without a GPU registering declines harmlessly.
TEST_P(Backend, RegisteredHostMemoryDecodesLikeOrdinaryMemory)
{
    const bool cuda = backend_of(GetParam()) == "cuda";
    const decoder_config c = host_memory_config(cuda);
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const std::size_t n = cuda ? 700 : 100;
    const auto b = make_batch(c.K, 1.0, n, 99);
    std::vector<std::uint8_t> want;
    dec->decode(b.llrs, want);

    std::vector<float> llrs = b.llrs;
    const bool locked = register_host_memory(llrs.data(), llrs.size() * sizeof(float));
    const auto have = available_backends();
    EXPECT_EQ(locked, std::find(have.begin(), have.end(), "cuda") != have.end());
    std::vector<std::uint8_t> bits(want.size(), 7);
    const auto t = dec->submit(llrs.data(), n);
    dec->collect(t, bits.data(), nullptr);
    EXPECT_EQ(bits, want);
    if (locked)
        unregister_host_memory(llrs.data());
    EXPECT_FALSE(register_host_memory(nullptr, 16));
}

// A batch bigger than the GPU's memory is refused with a clear error before its input
// is read, and the decoder goes on working.
TEST(CudaMemory, BatchTooBigForTheGpuIsAClearErrorAndHarmless)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    decoder_config c;
    c.K = 6144;
    c.subblocks = 64;
    auto dec = make_decoder(c, "cuda");
    const auto b = make_batch(c.K, 1.0, 3, 98);
    std::vector<std::uint8_t> want;
    dec->decode(b.llrs, want);
    // 50 million codewords need 3.7 TB of LLRs alone; only the first 3 exist.
    try {
        dec->submit(b.llrs.data(), 50'000'000);
        ADD_FAILURE() << "an impossible batch was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("needs more memory"), std::string::npos)
            << e.what();
    }
    std::vector<std::uint8_t> again;
    dec->decode(b.llrs, again);
    EXPECT_EQ(again, want);
    const auto t = dec->submit(b.llrs.data(), 3);
    dec->collect(t, again.data(), nullptr);
    EXPECT_EQ(again, want);
}

// submit() returns at once, collect() in any order gives what decode() gives; tickets are
// single-use, and at most max_in_flight batches may be outstanding.
TEST_P(Backend, SubmitAndCollectInAnyOrder)
{
    decoder_config c;
    c.K = 512;
    c.iterations = 4;
    c.subblocks = 8;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto a = make_batch(c.K, 0.8, 5, 91);
    const auto b = make_batch(c.K, 0.8, 9, 92);
    std::vector<std::int8_t> b8(b.llrs.size());
    quantize_llrs(b.llrs.data(), b.llrs.size(), b8.data(), c.int8_scale);
    std::vector<std::uint8_t> want_a, want_b(9 * c.K);
    std::vector<codeword_status> want_sa, want_sb(9);
    dec->decode(a.llrs, want_a, &want_sa);
    dec->decode(b8.data(), 9, want_b.data(), want_sb.data());

    const auto ta = dec->submit(a.llrs.data(), 5);
    const auto te = dec->submit(static_cast<const float*>(nullptr), 0);
    const auto tb = dec->submit(b8.data(), 9);
    std::vector<std::uint8_t> got_b(9 * c.K), got_a(5 * c.K);
    std::vector<codeword_status> got_sb(9), got_sa(5);
    dec->collect(tb, got_b.data(), got_sb.data());
    dec->collect(te, nullptr, nullptr);
    dec->collect(ta, got_a.data(), got_sa.data());
    EXPECT_EQ(got_a, want_a);
    EXPECT_EQ(got_b, want_b);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(got_sa[i].iterations, want_sa[i].iterations);
    EXPECT_THROW(dec->collect(ta, got_a.data(), nullptr), std::invalid_argument);

    std::vector<decoder::ticket> tickets;
    for (int i = 0; i < decoder::max_in_flight; ++i)
        tickets.push_back(dec->submit(a.llrs.data(), 5));
    EXPECT_THROW(dec->submit(a.llrs.data(), 5), std::runtime_error);
    dec->decode(a.llrs, got_a); // decode() runs beside outstanding batches
    EXPECT_EQ(got_a, want_a);
    for (auto t : tickets) {
        dec->collect(t, got_a.data(), nullptr);
        EXPECT_EQ(got_a, want_a);
    }
    dec->decode(a.llrs, got_a); // nothing left behind
    EXPECT_EQ(got_a, want_a);
}
