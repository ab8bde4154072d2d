/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The statistics of soft values (sim/soft_statistics.h): where each value is counted,
// the error rate an LLR states, calibrated LLRs meeting it; and measure_ber() with soft
// output: the same bits as without, the statistics of every value.

#include "test_util.h"

#include <gnuradio/gputurbo/engine/sim/soft_statistics.h>

#include <cmath>
#include <limits>
#include <numeric>

using namespace gputurbo;
using namespace gputurbo::test; // and the namespaces it uses

namespace {

std::uint64_t sum(const std::vector<std::uint64_t>& counts)
{
    return std::accumulate(counts.begin(), counts.end(), std::uint64_t(0));
}

TEST(SoftStatistics, EachValueInItsBinSeenFromTheBitSent)
{
    const float inf = std::numeric_limits<float>::infinity();
    // The engine's sign: positive means 0. Seen from the bit sent: -40, -0.5, 0 (no
    // decision), 0.5, 31.5, -inf, +inf; then NaN.
    const std::vector<float> values = {
        -40.0f, -0.5f, 0.0f, -0.5f, 31.5f, inf, inf, NAN
    };
    const std::vector<std::uint8_t> bits = { 0, 0, 1, 1, 0, 1, 0, 0 };
    soft_statistics s;
    s.add(values.data(), bits.data(), values.size());
    EXPECT_EQ(s.count, 7u);
    EXPECT_EQ(s.nan_values, 1u);
    EXPECT_EQ(s.wrong_signs, 3u); // -40, -0.5 and -inf
    EXPECT_EQ(s.zeros, 1u);
    EXPECT_EQ(sum(s.histogram), s.count);
    const int middle = soft_statistics::histogram_bins / 2; // [0, width)
    EXPECT_EQ(s.histogram[0], 2u);                          // -40 and -inf
    EXPECT_EQ(s.histogram[middle - 1], 1u);                 // -0.5
    EXPECT_EQ(s.histogram[middle], 2u);                     // 0 and 0.5
    EXPECT_EQ(s.histogram.back(), 2u);                      // 31.5 and +inf
    EXPECT_DOUBLE_EQ(s.sign_error_rate(), 3.5 / 7);
}

TEST(SoftStatistics, AnLlrStatesItsErrorProbability)
{
    // |L| = ln 3: wrong with probability 1/4; 0: 1/2; 1000: none. Mean |L| and the
    // channel's apart.
    const std::vector<float> values = {
        float(std::log(3.0)), -float(std::log(3.0)), 0.0f, 1000.0f
    };
    const std::vector<std::uint8_t> bits = { 0, 0, 0, 0 };
    soft_statistics s;
    s.add(values.data(), bits.data(), values.size());
    EXPECT_NEAR(s.predicted_ber(), (0.25 + 0.25 + 0.5 + 0.0) / 4, 1e-7);
    EXPECT_NEAR(s.mean_abs(), (2 * std::log(3.0) + 1000.0) / 4, 1e-5);
    const std::vector<float> channel = { -1.0f, 3.0f };
    s.add_channel(channel.data(), channel.size());
    EXPECT_DOUBLE_EQ(s.channel_mean_abs(), 2.0);
    EXPECT_EQ(s.channel_count, 2u);
}

TEST(SoftStatistics, CalibratedLlrsPredictTheirErrorRate)
{
    // BPSK over AWGN, L = 2y / sigma^2: calibrated by construction. LLRs scaled by 2
    // state half the errors they make, and fewer: the check tells them apart.
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 1.0);
    const double sigma = 1.0;
    const std::size_t n = 400000;
    std::vector<float> llrs(n), doubled(n);
    std::vector<std::uint8_t> bits(n);
    for (std::size_t i = 0; i < n; ++i) {
        bits[i] = std::uint8_t(rng() & 1u);
        const double y = (bits[i] ? -1.0 : 1.0) + sigma * noise(rng);
        llrs[i] = float(2.0 * y / (sigma * sigma));
        doubled[i] = 2.0f * llrs[i];
    }
    soft_statistics s, overconfident;
    s.add(llrs.data(), bits.data(), n);
    overconfident.add(doubled.data(), bits.data(), n);
    // Q(1) = 0.1587 errors, measured over 4e5 bits within about 0.4 %.
    EXPECT_NEAR(s.sign_error_rate(), 0.1587, 0.003);
    EXPECT_NEAR(s.predicted_ber() / s.sign_error_rate(), 1.0, 0.02);
    EXPECT_LT(overconfident.predicted_ber() / overconfident.sign_error_rate(), 0.8);
    EXPECT_EQ(sum(s.histogram), n);
}

// Frames of seed 1 at a moderate Eb/N0: K = 128 turbo, 64 codewords.
ber_run soft_run(core::soft_output output)
{
    ber_run r;
    r.ebn0_db = 0.5;
    r.min_frame_errors = 1000;
    r.max_frames = 64;
    r.batch = 32;
    r.output = output;
    return r;
}

TEST(MeasureBerSoft, SameBitsAndTheStatisticsOfEveryValue)
{
    decoder_config c;
    c.K = 128;
    c.iterations = 4;
    const auto dec = make_decoder(c, "cpu");
    const ber_point bits = measure_ber(*dec, soft_run(core::soft_output::none));
    EXPECT_EQ(bits.soft.count, 0u);
    for (const auto kind : { core::soft_output::app, core::soft_output::extrinsic }) {
        SCOPED_TRACE(core::to_string(kind));
        const ber_point p = measure_ber(*dec, soft_run(kind));
        EXPECT_EQ(p.bit_errors, bits.bit_errors); // the turbo LLRs' signs are its bits
        EXPECT_EQ(p.frame_errors, bits.frame_errors);
        EXPECT_EQ(p.soft.count, p.bits);
        EXPECT_EQ(sum(p.soft.histogram), p.soft.count);
        EXPECT_EQ(p.soft.channel_count, p.frames * codeword_length(c.K));
        EXPECT_GT(p.soft.channel_mean_abs(), 1.0);
        EXPECT_GT(p.soft.mean_abs(), 1.0);
        if (kind == core::soft_output::app) { // a 0 decides for the bit 0
            EXPECT_LE(p.soft.wrong_signs, p.bit_errors);
            EXPECT_GE(p.soft.wrong_signs + p.soft.zeros, p.bit_errors);
        }
    }
}

TEST(MeasureBerSoft, CodeExtrinsicOfTheCodeBitsSent)
{
    conv::viterbi_config c;
    const auto dec = conv::make_viterbi_decoder(c, "cpu");
    conv_setup setup = conv_setup::of(c, 256);
    ber_run r = soft_run(core::soft_output::code_extrinsic);
    r.ebn0_db = 2.0;
    const ber_point p = measure_ber(*dec, setup, c.int8_scale, 0, r);
    EXPECT_EQ(p.soft.count + p.soft.nan_values, p.frames * setup.sent_length());
    // Against the code bits sent, the extrinsic values' signs are mostly right; against
    // anything else (the information bits, or none) about half of them would be wrong.
    EXPECT_GT(p.soft.wrong_signs, 0u);
    EXPECT_LT(p.soft.sign_error_rate(), 0.2);
}

TEST(MeasureBerSoft, AStreamGivesBitsOnly)
{
    conv::viterbi_config c;
    c.mode = conv::termination::streaming;
    const auto dec = conv::make_stream_decoder(c, "cpu");
    EXPECT_EQ(invalid_argument_message([&] {
                  measure_ber(*dec,
                              conv_setup::of(c, 256),
                              c.int8_scale,
                              0,
                              soft_run(core::soft_output::app));
              }),
              "output=llr: a stream decoder gives bits only");
}

} // namespace
