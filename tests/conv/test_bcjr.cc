/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The BCJR reference of a-posteriori LLRs: against every message's path on tiny codes,
// its max-log decisions against the exact Viterbi decoder, signs and erasures, bad
// arguments. Fixed seeds throughout.

#include "conv/bcjr.h"
#include "conv/conv_test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::conv;
using namespace gputurbo::conv_test;

namespace {

const soft_algorithm algorithms[] = { soft_algorithm::log_map, soft_algorithm::max_log };

const char* name_of(soft_algorithm a)
{
    return a == soft_algorithm::log_map ? "log-map" : "max-log";
}

// ln sum exp(m), or max(m) for max-log, over the metrics of the paths in one set.
double over_paths(const std::vector<double>& metrics, soft_algorithm a)
{
    if (metrics.empty()) // a coded bit that no path sets so
        return -std::numeric_limits<double>::infinity();
    const double best = *std::max_element(metrics.begin(), metrics.end());
    if (a == soft_algorithm::max_log || std::isinf(best))
        return best;
    double sum = 0.0;
    for (const double m : metrics)
        sum += std::exp(m - best);
    return best + std::log(sum);
}

// The APP LLRs of a frame from every message's path, in double: each path's metric is
// the sum of +-L/2 over its coded bits and +-La/2 over its information bits (+ for a 0).
struct exact_app
{
    std::vector<double> info, code;
};

exact_app by_enumeration(const code& c,
                         termination t,
                         int frame_bits,
                         const std::vector<float>& llrs,
                         const float* apriori,
                         soft_algorithm a)
{
    const std::size_t length = coded_length(c, t, frame_bits);
    // The metrics of the paths whose bit j is 0 (j*2) or 1 (j*2+1).
    std::vector<std::vector<double>> info(2 * frame_bits), coded(2 * length);
    std::vector<std::uint8_t> bits(frame_bits), word(length);
    for (unsigned w = 0; w < (1u << frame_bits); ++w) {
        for (int k = 0; k < frame_bits; ++k)
            bits[k] = w >> k & 1;
        encode(c, t, frame_bits, bits.data(), 1, word.data());
        double metric = 0.0;
        for (std::size_t j = 0; j < length; ++j)
            metric += (word[j] ? -0.5 : 0.5) * llrs[j];
        for (int k = 0; apriori && k < frame_bits; ++k)
            metric += (bits[k] ? -0.5 : 0.5) * apriori[k];
        for (int k = 0; k < frame_bits; ++k)
            info[2 * k + bits[k]].push_back(metric);
        for (std::size_t j = 0; j < length; ++j)
            coded[2 * j + word[j]].push_back(metric);
    }
    auto app = [&](const std::vector<std::vector<double>>& sets) {
        std::vector<double> out;
        for (std::size_t j = 0; j < sets.size(); j += 2)
            out.push_back(over_paths(sets[j], a) - over_paths(sets[j + 1], a));
        return out;
    };
    return { app(info), app(coded) };
}

// LLRs of every size: a fifth 0 (erasures), the rest Gaussian of a deviation drawn from
// 0.5 (near 0) to 20 (large).
std::vector<float> random_llrs(std::size_t n, std::mt19937& rng)
{
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    const float deviations[] = { 0.5f, 2.0f, 6.0f, 20.0f };
    std::vector<float> llrs(n);
    for (auto& l : llrs)
        l = rng() % 5 == 0 ? 0.0f : deviations[rng() % 4] * gauss(rng);
    return llrs;
}

} // namespace

TEST(ConvBcjr, EqualsTheAppOfEveryMessagesPath)
{
    // Tiny codes (K = 3 and 4, rates 1/2 and 1/3, inverted outputs), frames of 3 ... 7
    // bits, every frame termination, with and without a-priori LLRs: both algorithms'
    // outputs against log-sum-exp (or max) over every message's path. For tail-biting
    // the paths are the encoder's tail-biting codewords, so this is also where max-log's
    // decisions are checked to be maximum likelihood. Generator 3 does not tap the
    // current input: a frame that starts in state 0 sends 0 first, an infinite APP.
    struct setup
    {
        int constraint;
        const char* polynomials;
    };
    const setup setups[] = {
        { 3, "7,5" }, { 3, "5,-7,7" }, { 3, "3,-7" }, { 4, "13,15,17" }, { 4, "15,-17" }
    };
    std::mt19937 rng(41);
    double worst_relative = 0.0,
           worst_absolute = 0.0; // log-map, over |want| >= 1 and < 1
    int compared = 0;
    for (const setup& s : setups)
        for (const termination mode : frame_modes)
            for (int frame_bits = 3; frame_bits <= 7; ++frame_bits)
                for (int trial = 0; trial < 6; ++trial) {
                    const code c = parse_code(s.constraint, s.polynomials);
                    const auto llrs = random_llrs(coded_length(c, mode, frame_bits), rng);
                    const auto priors = random_llrs(frame_bits, rng);
                    const float* apriori = trial % 2 ? priors.data() : nullptr;
                    for (const soft_algorithm a : algorithms) {
                        const auto got =
                            bcjr(c, mode, frame_bits, llrs.data(), a, apriori);
                        const auto want =
                            by_enumeration(c, mode, frame_bits, llrs, apriori, a);
                        ASSERT_EQ(got.info.size(), want.info.size());
                        ASSERT_EQ(got.code.size(), want.code.size());
                        const std::string what =
                            c.text() + " " + to_string(mode) +
                            " frame_bits=" + std::to_string(frame_bits) + " " +
                            name_of(a) + (apriori ? " a-priori" : "");
                        auto check = [&](const std::vector<float>& g,
                                         const std::vector<double>& w,
                                         const char* which) {
                            for (std::size_t j = 0; j < g.size(); ++j) {
                                ++compared;
                                if (std::isinf(w[j])) { // a bit every path sets alike
                                    EXPECT_EQ(g[j], w[j])
                                        << what << " " << which << "[" << j << "]";
                                    continue;
                                }
                                // log-map: 1e-4 relative, 1e-5 absolute near 0;
                                // max-log: float's rounding of the same maxima.
                                const double error = std::fabs(double(g[j]) - w[j]);
                                const double magnitude = std::fabs(w[j]);
                                const double tolerance =
                                    a == soft_algorithm::log_map
                                        ? std::max(1e-4 * magnitude, 1e-5)
                                        : 1e-5 * std::max(magnitude, 1.0);
                                EXPECT_LE(error, tolerance)
                                    << what << " " << which << "[" << j << "] = " << g[j]
                                    << ", by enumeration " << w[j];
                                if (a == soft_algorithm::log_map) {
                                    if (magnitude >= 1.0)
                                        worst_relative =
                                            std::max(worst_relative, error / magnitude);
                                    else
                                        worst_absolute = std::max(worst_absolute, error);
                                }
                            }
                        };
                        check(got.info, want.info, "info");
                        check(got.code, want.code, "code");
                    }
                }
    std::printf("log-map against enumeration, %d values: worst relative error %.3g "
                "(|L| >= 1), worst absolute %.3g (|L| < 1)\n",
                compared,
                worst_relative,
                worst_absolute);
}

TEST(ConvBcjr, MaxLogDecisionsAreTheReferenceViterbis)
{
    // Noisy frames of K=7 codes, unpunctured and punctured, terminated and truncated:
    // the hard decisions of the max-log APP (bit 1 where L < 0) are the exact Viterbi
    // decoder's, bit for bit. Continuous noise makes the best path unique.
    std::mt19937 rng(4141);
    std::mt19937_64 noise(4141);
    int errors = 0; // decisions other than the bits sent: the noise mattered
    for (const char* name : { "ccsds", "802.11" })
        for (const char* pattern : { "none", "3/4" })
            for (const termination mode :
                 { termination::terminated, termination::truncated }) {
                viterbi_config c;
                c.generator = preset(name);
                c.punctured = parse_puncturing(pattern, c.generator);
                c.mode = mode;
                const int frame_bits = 96, frames = 20;
                const auto bits = random_bits(frames * frame_bits, rng);
                const auto sent = noisy_llrs(c, frame_bits, bits, 2.0, noise);
                std::vector<std::uint8_t> viterbi(bits.size());
                const auto dec = make_viterbi_decoder(c, "reference");
                dec->decode(frame_bits, sent.data(), frames, viterbi.data(), nullptr);
                std::vector<float> llrs(coded_length(c.generator, mode, frame_bits));
                for (int f = 0; f < frames; ++f) {
                    depuncture(c.generator,
                               c.punctured,
                               mode,
                               frame_bits,
                               sent.data() + f * dec->input_length(frame_bits),
                               1,
                               llrs.data());
                    const auto app = bcjr(c.generator,
                                          mode,
                                          frame_bits,
                                          llrs.data(),
                                          soft_algorithm::max_log);
                    for (int k = 0; k < frame_bits; ++k) {
                        const std::size_t at = std::size_t(f) * frame_bits + k;
                        EXPECT_EQ(app.info[k] < 0.0f, viterbi[at] == 1)
                            << name << " " << pattern << " " << to_string(mode)
                            << " frame " << f << " bit " << k << ": L = " << app.info[k];
                        errors += viterbi[at] != bits[at];
                    }
                }
            }
    EXPECT_GT(errors, 200);
}

TEST(ConvBcjr, SignsOfACodewordAndErasures)
{
    // A noiseless codeword at |L| = 4: every information bit's APP has the bit's sign
    // (positive for 0) and more weight than one channel LLR; all-erased frames and
    // absent a-priori give 0 everywhere; a-priori LLRs alone come back as they are.
    std::mt19937 rng(414);
    for (const termination mode : frame_modes)
        for (const soft_algorithm a : algorithms) {
            const code c = preset("ccsds");
            const int frame_bits = 40;
            const std::string what = std::string(to_string(mode)) + " " + name_of(a);
            const auto bits = random_bits(frame_bits, rng);
            std::vector<std::uint8_t> word(coded_length(c, mode, frame_bits));
            encode(c, mode, frame_bits, bits.data(), 1, word.data());
            std::vector<float> llrs;
            for (const auto b : word)
                llrs.push_back(b ? -4.0f : 4.0f);
            const auto app = bcjr(c, mode, frame_bits, llrs.data(), a);
            for (int k = 0; k < frame_bits; ++k)
                EXPECT_GT(bits[k] ? -app.info[k] : app.info[k], 4.0f)
                    << what << " bit " << k;
            for (std::size_t j = 0; j < word.size(); ++j)
                EXPECT_GT(word[j] ? -app.code[j] : app.code[j], 4.0f)
                    << what << " coded " << j;

            const std::vector<float> erased(word.size(), 0.0f);
            const auto none = bcjr(c, mode, frame_bits, erased.data(), a);
            for (const float l : none.info)
                EXPECT_NEAR(l, 0.0f, 1e-6) << what;
            for (const float l : none.code)
                EXPECT_NEAR(l, 0.0f, 1e-6) << what;

            std::vector<float> priors(frame_bits);
            for (int k = 0; k < frame_bits; ++k)
                priors[k] = float(k % 7) - 3.0f;
            const auto prior_only =
                bcjr(c, mode, frame_bits, erased.data(), a, priors.data());
            for (int k = 0; k < frame_bits; ++k)
                EXPECT_NEAR(prior_only.info[k], priors[k], 1e-5) << what << " bit " << k;
        }
}

TEST(ConvBcjr, BadArgumentsHaveClearErrors)
{
    const code c = preset("ccsds");
    const std::vector<float> llrs(1000, 1.0f);
    auto run = [&](termination t, int frame_bits) {
        return message_of(
            [&] { bcjr(c, t, frame_bits, llrs.data(), soft_algorithm::log_map); });
    };
    EXPECT_NE(run(termination::streaming, 10).find("termination=streaming"),
              std::string::npos);
    EXPECT_NE(run(termination::terminated, 0).find("frame_bits=0"), std::string::npos);
    EXPECT_NE(run(termination::tail_biting, 5).find("frame_bits=5"), std::string::npos);
    code bad = c;
    bad.constraint = 12;
    EXPECT_NE(
        message_of([&] {
            bcjr(bad, termination::terminated, 10, llrs.data(), soft_algorithm::max_log);
        }),
        "(accepted)");
}
