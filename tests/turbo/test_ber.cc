/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Error-rate tests at K = 6144, 6 iterations, fixed seeds, each with an upper AND a lower
// bound (a lower bound catches transmitted bits leaking into the decoder's output).
//  - Band tests (fast tier, CI): every algorithm and every guarding mode lands in a band
//    around the curves recorded in docs/journal.md.
//  - *Slow tests (ctest -L slow): the published reference curve, log-map against
//    max-log, and P = 96 guarding against P = 1 with many more frames.
// The bands and the reference curve are data, with their provenance:
// tests/data/ber-reference.txt (another file: environment variable
// GPUTURBO_BER_REFERENCE).

#include "test_util.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace gputurbo;
using namespace gputurbo::test; // and the namespaces it uses

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

    // Each band row of `test` (exactly `expected` of them): the BER of its configuration
    // lies in its band. `setting` names what the rows vary, for the failure trace.
    void expect_bands(const std::string& test,
                      std::size_t expected,
                      std::string (*setting)(const decoder_config&));
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

// tests/data/ber-reference.txt (its header describes the columns).
struct band_row
{
    std::string test;
    decoder_config config;
    double ebn0 = 0, long_run = 0, low = 0, high = 0;
    std::uint64_t min_frame_errors = 0, max_frames = 0;
};

struct curve_row
{
    decoder_config config;
    double ebn0 = 0, ber = 0, factor = 0;
    std::uint64_t min_frame_errors = 0, max_frames = 0;
};

struct reference_data
{
    std::string path, error; // error: why the file could not be read, empty if it was
    std::vector<band_row> bands;
    std::vector<curve_row> curve;
};

const reference_data& reference()
{
    static const reference_data ref = [] {
        reference_data r;
        const char* env = std::getenv("GPUTURBO_BER_REFERENCE");
        r.path = env && *env ? env : GPUTURBO_BER_REFERENCE;
        std::ifstream file(r.path);
        if (!file) {
            r.error = "cannot read " + r.path;
            return r;
        }
        int number = 0;
        for (std::string line; std::getline(file, line);) {
            ++number;
            std::istringstream in(line);
            std::string table, algo, g;
            if (!(in >> table) || table[0] == '#')
                continue;
            decoder_config c;
            try {
                if (table == "band") {
                    band_row b;
                    in >> b.test >> algo >> c.subblocks >> g >> c.guard_window >>
                        b.ebn0 >> b.min_frame_errors >> b.max_frames >> b.long_run >>
                        b.low >> b.high;
                    if (in) {
                        c.algo = parse_algorithm(algo);
                        c.guarding = parse_guard(g);
                        b.config = c;
                        r.bands.push_back(b);
                    }
                } else if (table == "curve") {
                    curve_row p;
                    in >> algo >> c.subblocks >> g >> c.guard_window >> p.ebn0 >> p.ber >>
                        p.factor >> p.min_frame_errors >> p.max_frames;
                    if (in) {
                        c.algo = parse_algorithm(algo);
                        c.guarding = parse_guard(g);
                        p.config = c;
                        r.curve.push_back(p);
                    }
                } else {
                    in.setstate(std::ios::failbit);
                }
            } catch (const std::invalid_argument&) { // a name parse_* does not know
                in.setstate(std::ios::failbit);
            }
            std::string rest;
            if (!in || in >> rest) {
                r.error = r.path + ":" + std::to_string(number) + ": not a row: " + line;
                return r;
            }
        }
        return r;
    }();
    return ref;
}

// The band rows of one test; fails the test when there are not exactly `expected`.
std::vector<band_row> bands_of(const std::string& test, std::size_t expected)
{
    const auto& ref = reference();
    std::vector<band_row> rows;
    if (!ref.error.empty()) {
        ADD_FAILURE() << ref.error;
        return rows;
    }
    for (const auto& b : ref.bands)
        if (b.test == test)
            rows.push_back(b);
    if (rows.size() != expected) {
        ADD_FAILURE() << ref.path << ": " << rows.size() << " band rows of '" << test
                      << "', expected " << expected;
        rows.clear();
    }
    for (const auto& b : rows)
        EXPECT_TRUE(b.low <= b.long_run && b.long_run <= b.high)
            << ref.path << ": the band of '" << test << "' at " << b.ebn0
            << " dB does not hold its long run " << b.long_run;
    return rows;
}

#define EXPECT_BER_IN(point, low, high)                                                  \
    do {                                                                                 \
        const double ber_ = (point).ber();                                               \
        EXPECT_GE(ber_, (low));                                                          \
        EXPECT_LE(ber_, (high));                                                         \
    } while (0)

void Ber::expect_bands(const std::string& test,
                       std::size_t expected,
                       std::string (*setting)(const decoder_config&))
{
    for (const auto& b : bands_of(test, expected)) {
        SCOPED_TRACE(setting(b.config) + " long run " + std::to_string(b.long_run));
        EXPECT_BER_IN(
            run(b.config, b.ebn0, b.min_frame_errors, b.max_frames), b.low, b.high);
    }
}

} // namespace

// --- Fast tier -------------------------------------------------------------------------
// Bands about a factor 3 around long runs: the band rows of tests/data/ber-reference.txt,
// with the commands of those runs.

TEST_P(Ber, BandEveryAlgorithm)
{
    SKIP_IF_MISSING();
    expect_bands("every-algorithm", 3, [](const decoder_config& c) {
        return std::string(to_string(c.algo));
    });
}

TEST_P(Ber, BandEveryGuardAtP96)
{
    SKIP_IF_MISSING();
    expect_bands("every-guard-p96", 4, [](const decoder_config& c) {
        return std::string(to_string(c.guarding));
    });
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

// Published reference for scaled-max-log, P = 1, K = 6144, 6 iterations: the curve rows
// of tests/data/ber-reference.txt. "Tracks" = within their factor (2.5) either way,
// which on this waterfall (about a decade per 0.1 dB) is within about 0.04 dB.
TEST_P(Ber, SlowReferenceCurveScaledMaxLog)
{
    SKIP_IF_MISSING();
    const auto& ref = reference();
    ASSERT_TRUE(ref.error.empty()) << ref.error;
    ASSERT_EQ(ref.curve.size(), 3u) << ref.path << ": curve rows";
    for (const auto& r : ref.curve) {
        const ber_point p = run(r.config, r.ebn0, r.min_frame_errors, r.max_frames);
        EXPECT_GE(p.frame_errors, r.min_frame_errors)
            << "too few frames to judge at " << r.ebn0;
        EXPECT_BER_IN(p, r.ber / r.factor, r.ber * r.factor);
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
                         ::testing::Values("cpu", "cpu-float32", "cuda", "cuda-float32"),
                         backend_test_name);
