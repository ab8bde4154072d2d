/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Error-rate tests at K = 6144, 6 iterations, fixed seeds, each with an upper AND a lower
// bound (a lower bound catches transmitted bits leaking into the decoder's output).
//  - Band tests (fast tier, CI): every algorithm and every guarding mode lands in a band
//    around the curves recorded in docs/PERFORMANCE.md.
//  - *Slow tests (ctest -L slow): the published reference curve, log-map against
//    max-log, and P = 96 guarding against P = 1 with many more frames.

#include "test_util.h"

#include <cstdio>

using namespace gputurbo;
using namespace gputurbo::core;
using namespace gputurbo::sim;
using namespace gputurbo::turbo;
using namespace gputurbo::test;

namespace {

class Ber : public ::testing::TestWithParam<std::string>
{
protected:
    // Frames with seed 1 through the given configuration (K = 6144, 6 iterations).
    ber_point run(decoder_config c,
                  double ebn0_db,
                  std::uint64_t min_frame_errors,
                  std::uint64_t max_frames)
    {
        c.K = 6144;
        c.iterations = 6;
        auto dec = make_or_skip(c, GetParam());
        if (!dec)
            return {};
        ber_run r;
        r.ebn0_db = ebn0_db;
        r.min_frame_errors = min_frame_errors;
        r.max_frames = max_frames;
        r.seed = 1;
        r.batch = 64;
        const ber_point p = measure_ber(*dec, r);
        std::printf("  %-14s P=%-3d %-8s g=%d  %.2f dB  BER %.3e (%llu/%llu)  FER %.3e "
                    "(%llu/%llu)\n",
                    to_string(c.algo),
                    c.subblocks,
                    to_string(c.guarding),
                    c.guard_window,
                    ebn0_db,
                    p.ber(),
                    (unsigned long long)p.bit_errors,
                    (unsigned long long)p.bits,
                    p.fer(),
                    (unsigned long long)p.frame_errors,
                    (unsigned long long)p.frames);
        return p;
    }
};

#define SKIP_IF_MISSING()                                                                \
    do {                                                                                 \
        const auto have = available_backends();                                          \
        if (std::find(have.begin(), have.end(), backend_of(GetParam())) == have.end())   \
            GTEST_SKIP() << "backend '" << GetParam() << "' is not available here";      \
    } while (0)

decoder_config with(algorithm a, int P = 1, guard g = guard::none, int window = 8)
{
    decoder_config c;
    c.algo = a;
    c.subblocks = P;
    c.guarding = g;
    c.guard_window = window;
    return c;
}

#define EXPECT_BER_IN(point, low, high)                                                  \
    do {                                                                                 \
        const double ber_ = (point).ber();                                               \
        EXPECT_GE(ber_, (low));                                                          \
        EXPECT_LE(ber_, (high));                                                         \
    } while (0)

} // namespace

// --- Fast tier -------------------------------------------------------------------------
// Bands are about a factor 3 around the long-run values in docs/PERFORMANCE.md.

TEST_P(Ber, BandEveryAlgorithm)
{
    SKIP_IF_MISSING();
    // scaled-max-log: long run 1.35e-4 at 0.6 dB (published reference 1.0e-4).
    EXPECT_BER_IN(run(with(algorithm::scaled_max_log), 0.6, 1000, 768), 4.5e-5, 4.0e-4);
    // max-log: long run 2.3e-2 at 0.6 dB.
    EXPECT_BER_IN(run(with(algorithm::max_log), 0.6, 1000, 64), 7.5e-3, 7.0e-2);
    // log-map: long run 8.9e-4 at 0.4 dB.
    EXPECT_BER_IN(run(with(algorithm::log_map), 0.4, 1000, 64), 3.0e-4, 2.7e-3);
}

TEST_P(Ber, BandEveryGuardAtP96)
{
    SKIP_IF_MISSING();
    const auto smlog = algorithm::scaled_max_log;
    // Long runs at 0.6 dB: none 3.0e-2, pivi 1.05e-3, dstw (g=8) 1.1e-3, pividstw
    // (g=8) 2.8e-4.
    EXPECT_BER_IN(run(with(smlog, 96, guard::none), 0.6, 1000, 64), 1.0e-2, 9.0e-2);
    EXPECT_BER_IN(run(with(smlog, 96, guard::pivi), 0.6, 1000, 192), 3.5e-4, 3.2e-3);
    EXPECT_BER_IN(run(with(smlog, 96, guard::dstw, 8), 0.6, 1000, 192), 3.7e-4, 3.3e-3);
    EXPECT_BER_IN(
        run(with(smlog, 96, guard::pividstw, 8), 0.6, 1000, 384), 9.0e-5, 8.5e-4);
}

TEST_P(Ber, LogMapBeatsMaxLogAtTheSameEbN0)
{
    SKIP_IF_MISSING();
    const ber_point exact = run(with(algorithm::log_map), 0.6, 1000, 64);
    const ber_point approx = run(with(algorithm::max_log), 0.6, 1000, 64);
    EXPECT_GT(approx.bit_errors, 0u);
    EXPECT_LT(exact.ber() * 20, approx.ber()); // more than a factor 20 better
    EXPECT_LT(exact.frame_errors, approx.frame_errors);
}

// --- Slow tier -------------------------------------------------------------------------

// Published reference for scaled-max-log, P = 1, K = 6144, 6 iterations: BER 1.0e-4 at
// 0.6 dB, 5.0e-6 at 0.7 dB, 1.9e-7 at 0.8 dB. "Tracks" = within a factor 2.5 either way,
// which on this waterfall (about a decade per 0.1 dB) is within about 0.04 dB.
TEST_P(Ber, SlowReferenceCurveScaledMaxLog)
{
    SKIP_IF_MISSING();
    const struct
    {
        double ebn0, ber;
        std::uint64_t min_fe, max_frames;
    } reference[] = { { 0.6, 1.0e-4, 200, 20000 },
                      { 0.7, 5.0e-6, 100, 100000 },
                      { 0.8, 1.9e-7, 40, 400000 } };
    for (const auto& r : reference) {
        const ber_point p =
            run(with(algorithm::scaled_max_log), r.ebn0, r.min_fe, r.max_frames);
        EXPECT_GE(p.frame_errors, r.min_fe) << "too few frames to judge at " << r.ebn0;
        EXPECT_BER_IN(p, r.ber / 2.5, r.ber * 2.5);
    }
}

TEST_P(Ber, SlowLogMapBeatsScaledAndPlainMaxLog)
{
    SKIP_IF_MISSING();
    const ber_point exact = run(with(algorithm::log_map), 0.6, 20, 2000);
    const ber_point scaled = run(with(algorithm::scaled_max_log), 0.6, 200, 20000);
    const ber_point plain = run(with(algorithm::max_log), 0.6, 200, 20000);
    EXPECT_GT(exact.bit_errors, 0u);
    EXPECT_LT(exact.ber(), scaled.ber());
    EXPECT_LT(scaled.ber(), plain.ber());
}

// Seed 000, fig. 6.2: at P = 96 (sub-blocks of 64), pividstw with g = 8 is within 0.05 dB
// of P = 1, and no guarding is far worse.
TEST_P(Ber, SlowP96PividstwWithinFiveHundredthsOfADecibel)
{
    SKIP_IF_MISSING();
    const auto smlog = algorithm::scaled_max_log;
    for (double x : { 0.6, 0.65 }) {
        const ber_point p96 = run(with(smlog, 96, guard::pividstw, 8), x, 200, 40000);
        const ber_point below = run(with(smlog), x - 0.05, 200, 40000);
        const ber_point same = run(with(smlog), x, 200, 40000);
        EXPECT_LE(p96.ber(), below.ber())
            << "P=96 pividstw is more than 0.05 dB off at " << x;
        EXPECT_LE(p96.fer(), below.fer())
            << "P=96 pividstw is more than 0.05 dB off at " << x;
        EXPECT_GE(p96.ber(), same.ber()) << "P=96 cannot beat P=1";
    }
    const ber_point none = run(with(smlog, 96, guard::none), 0.6, 100, 2000);
    const ber_point p1 = run(with(smlog), 0.6, 200, 40000);
    EXPECT_GT(none.ber(), 50 * p1.ber()) << "no guarding must be far worse";
    EXPECT_GT(none.fer(), 0.9);
}

INSTANTIATE_TEST_SUITE_P(Backends,
                         Ber,
                         ::testing::Values("cpu", "cuda", "cuda-float32"),
                         [](const auto& info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });
