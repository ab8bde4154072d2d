/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_TEST_UTIL_H
#define INCLUDED_GPUTURBO_CONV_TEST_UTIL_H

// What the Viterbi tests share: random frames, their sent bits, noiseless and noisy
// LLRs, the puncturings of a code.

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/backend.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::conv_test {

using namespace gputurbo::conv;

//! Tests run on each backend name; one this machine lacks skips visibly.
class backend_test : public ::testing::TestWithParam<std::string>
{
protected:
    void SetUp() override
    {
        const auto have = core::available_backends();
        if (std::find(have.begin(), have.end(), GetParam()) == have.end())
            GTEST_SKIP() << "backend '" << GetParam()
                         << "' is not available on this machine";
    }
};

//! Whether this machine runs the CUDA backend.
inline bool have_cuda()
{
    const auto have = core::available_backends();
    return std::find(have.begin(), have.end(), "cuda") != have.end();
}

//! A code and a puncturing pattern to test it with.
struct code_case
{
    code generator;
    const char* puncturing;

    //! Frames of this code and puncturing, terminated as \p mode says, in the sign
    //! \p invert says.
    viterbi_config config(termination mode, bool invert) const
    {
        viterbi_config c;
        c.generator = generator;
        c.mode = mode;
        c.punctured = parse_puncturing(puncturing, generator);
        c.invert_llr = invert;
        return c;
    }
};

/*!
 * \brief use(decoder) with the cpu backend's decoder of \p c on each instruction set
 * this CPU runs (GPUTURBO_CPU_KERNEL generic, avx2, avx512; the others are skipped),
 * printing those it lacks when \p say_missing.
 */
template <class Use>
void for_each_cpu_kernel(const viterbi_config& c,
                         const Use& use,
                         bool say_missing = false)
{
    for (const char* isa : { "generic", "avx2", "avx512" }) {
        ::setenv("GPUTURBO_CPU_KERNEL", isa, 1);
        std::unique_ptr<core::batch_decoder> dec;
        try {
            dec = make_viterbi_decoder(c, "cpu");
        } catch (const std::runtime_error& e) { // this CPU lacks it
            if (say_missing)
                std::printf("  %s: %s\n", isa, e.what());
            continue;
        }
        use(*dec);
    }
    ::unsetenv("GPUTURBO_CPU_KERNEL");
}

inline const termination frame_modes[] = { termination::terminated,
                                           termination::truncated,
                                           termination::tail_biting };

inline std::vector<std::uint8_t> random_bits(std::size_t n, std::mt19937& rng)
{
    std::vector<std::uint8_t> bits(n);
    for (auto& b : bits)
        b = rng() & 1;
    return bits;
}

// The sent (punctured) coded bits of frames of frame_bits bits.
inline std::vector<std::uint8_t>
sent_bits(const viterbi_config& c, int frame_bits, const std::vector<std::uint8_t>& bits)
{
    const std::size_t frames = bits.size() / frame_bits;
    std::vector<std::uint8_t> coded(frames *
                                    coded_length(c.generator, c.mode, frame_bits));
    encode(c.generator, c.mode, frame_bits, bits.data(), frames, coded.data());
    std::vector<std::uint8_t> sent(
        frames * punctured_length(c.generator, c.punctured, c.mode, frame_bits));
    puncture(
        c.generator, c.punctured, c.mode, frame_bits, coded.data(), frames, sent.data());
    return sent;
}

// Noiseless LLRs of the sent bits: the right sign, magnitudes drawn in 0.5 ... 4.
inline std::vector<float> noiseless_llrs(const viterbi_config& c,
                                         int frame_bits,
                                         const std::vector<std::uint8_t>& bits,
                                         std::mt19937& rng)
{
    std::uniform_real_distribution<float> magnitude(0.5f, 4.0f);
    std::vector<float> llrs;
    for (const std::uint8_t s : sent_bits(c, frame_bits, bits))
        llrs.push_back(s ? -magnitude(rng) : magnitude(rng));
    return llrs;
}

// BPSK (0 -> +1) through white Gaussian noise of deviation sigma: L = 2y / sigma^2.
// Box-Muller on a 64-bit Mersenne twister, the same numbers on every platform.
inline std::vector<float>
awgn_llrs(const std::vector<std::uint8_t>& sent, double sigma, std::mt19937_64& rng)
{
    auto uniform = [&] { return (double(rng() >> 11) + 1.0) * 0x1p-53; }; // (0, 1]
    std::vector<float> llrs(sent.size());
    for (std::size_t i = 0; i < sent.size(); i += 2) {
        const double r = std::sqrt(-2.0 * std::log(uniform()));
        const double phase = 2.0 * M_PI * uniform();
        const double noise[2] = { r * std::cos(phase), r * std::sin(phase) };
        for (std::size_t j = 0; j < 2 && i + j < sent.size(); ++j) {
            const double y = (sent[i + j] ? -1.0 : 1.0) + sigma * noise[j];
            llrs[i + j] = float(2.0 * y / (sigma * sigma));
        }
    }
    return llrs;
}

// Noise deviation at Eb/N0 (dB) for unit-energy BPSK carrying bits at rate R.
inline double sigma_at(double ebn0_db, double rate)
{
    return std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0)));
}

// The sent bits of frames through white Gaussian noise at Eb/N0 (dB), at the code's
// rate with its puncturing: frame_bits over the sent bits of a frame.
inline std::vector<float> noisy_llrs(const viterbi_config& c,
                                     int frame_bits,
                                     const std::vector<std::uint8_t>& bits,
                                     double ebn0_db,
                                     std::mt19937_64& rng)
{
    const double rate =
        double(frame_bits) /
        double(punctured_length(c.generator, c.punctured, c.mode, frame_bits));
    return awgn_llrs(sent_bits(c, frame_bits, bits), sigma_at(ebn0_db, rate), rng);
}

//! \p llrs negated when \p invert, and special values laid over them at fixed
//! places: NaN (an erasure), +-infinity, +-0.
inline void add_special_values(std::vector<float>& llrs, bool invert)
{
    for (std::size_t i = 0; i < llrs.size(); ++i) {
        if (invert)
            llrs[i] = -llrs[i];
        if (i % 17 == 3)
            llrs[i] = std::numeric_limits<float>::quiet_NaN();
        else if (i % 23 == 5)
            llrs[i] = i % 2 ? std::numeric_limits<float>::infinity()
                            : -std::numeric_limits<float>::infinity();
        else if (i % 29 == 7)
            llrs[i] = i % 2 ? 0.0f : -0.0f;
    }
}

inline std::string message_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

// The puncturings of a code in the round trip: none, and the named rates (2/3 ... 7/8)
// where the code has them (the K=7 171/133 codes; the same patterns make other codes,
// such as gsm's, catastrophic).
inline std::vector<puncturing> puncturings_of(const code& c)
{
    std::vector<puncturing> all{ puncturing{} };
    for (const char* rate : { "2/3", "3/4", "5/6", "7/8" }) {
        try {
            all.push_back(parse_puncturing(rate, c));
        } catch (const std::invalid_argument&) {
            // a rate of another code
        }
    }
    return all;
}

inline std::string pattern_text(const puncturing& p)
{
    std::string text;
    for (const auto& row : p.keep) {
        text += text.empty() ? "" : ",";
        for (const auto k : row)
            text += char('0' + k);
    }
    return p.none() ? "none" : text;
}

} // namespace gputurbo::conv_test

#endif
