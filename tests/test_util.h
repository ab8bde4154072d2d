/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TEST_UTIL_H
#define INCLUDED_GPUTURBO_TEST_UTIL_H

#include <gnuradio/gputurbo/engine/sim/channel.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::test {

using namespace gputurbo::core;
using namespace gputurbo::sim;
using namespace gputurbo::turbo;

//! Backends every decoding test runs on; unavailable ones skip visibly. "cpu" and "cuda"
//! decode in their default arithmetic (int16 wherever they can), "cpu-float32" and
//! "cuda-float32" in float32.
inline const std::vector<std::string> all_backends = {
    "cpu", "cpu-float32", "reference", "cuda", "cuda-float32"
};

//! The backend of a test backend name ("cuda-float32" -> "cuda").
inline std::string backend_of(const std::string& name)
{
    return name.substr(0, name.find('-'));
}

//! A decoder, or a skip with the reason when the backend is missing here.
inline std::unique_ptr<decoder> make_or_skip(decoder_config c, const std::string& name)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), backend_of(name)) == have.end())
        return nullptr;
    if (const auto dash = name.find('-'); dash != std::string::npos)
        c.cuda_arithmetic = parse_arithmetic(name.substr(dash + 1));
    return make_decoder(c, backend_of(name));
}

//! The test name of a backend parameter: test names allow no '-' ("cuda-float32" ->
//! "cuda_float32"). For INSTANTIATE_TEST_SUITE_P.
inline std::string backend_test_name(const ::testing::TestParamInfo<std::string>& info)
{
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

//! The message of the std::invalid_argument that \p f throws, or "(accepted)".
template <class F>
std::string invalid_argument_message(F f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

#define GPUTURBO_MAKE_OR_SKIP(var, config, backend)                                      \
    auto var = ::gputurbo::test::make_or_skip(config, backend);                          \
    if (!var)                                                                            \
    GTEST_SKIP() << "backend '" << (backend) << "' is not available on this machine"

//! A folder of test data: the environment variable \p env when it is set, else the
//! repository's copy \p in_repository (tests/data, compiled in).
inline std::string data_dir(const char* env, const char* in_repository)
{
    const char* given = std::getenv(env);
    return given && *given ? given : in_repository;
}

//! The first n bits of hex digits, MSB first (the test vectors' notation).
inline std::vector<std::uint8_t> hex_bits(const std::string& hex, std::size_t n)
{
    std::vector<std::uint8_t> bits;
    for (const char c : hex)
        for (int i = 3; i >= 0; --i)
            bits.push_back(
                std::uint8_t((std::stoi(std::string(1, c), nullptr, 16) >> i) & 1));
    bits.resize(n);
    return bits;
}

//! The seed of a test that draws fresh random inputs on every run: the environment
//! variable GPUTURBO_TEST_SEED when it is set, else a new one. Printed (and recorded as
//! the test's "seed" property), so that a failure can be replayed:
//!   GPUTURBO_TEST_SEED=<seed> engine_tests --gtest_filter=<the test>
//! Tests with fixed seeds keep them.
inline std::uint64_t test_seed()
{
    std::uint64_t seed = 0;
    const char* env = std::getenv("GPUTURBO_TEST_SEED");
    const bool given = env && *env;
    if (given) {
        char* end = nullptr;
        errno = 0;
        seed = std::strtoull(env, &end, 0);
        if (errno || *end || *env == '-')
            throw std::invalid_argument("GPUTURBO_TEST_SEED='" + std::string(env) +
                                        "' is not an unsigned 64-bit number");
    } else {
        std::random_device source;
        seed = (std::uint64_t(source()) << 32) ^ source();
    }
    std::printf("  seed %llu (%s; replay: GPUTURBO_TEST_SEED=%llu)\n",
                (unsigned long long)seed,
                given ? "from GPUTURBO_TEST_SEED" : "fresh",
                (unsigned long long)seed);
    std::fflush(stdout);
    ::testing::Test::RecordProperty("seed", std::to_string(seed));
    return seed;
}

struct noisy_batch
{
    std::vector<std::uint8_t> bits;
    std::vector<float> llrs;
};

inline noisy_batch make_batch(int K,
                              double ebn0_db,
                              std::size_t n,
                              std::uint64_t seed,
                              layout l = layout::interleaved,
                              std::optional<core::crc> crc = std::nullopt)
{
    channel_setup setup;
    setup.K = K;
    setup.ebn0_db = ebn0_db;
    setup.seed = seed;
    setup.out_layout = l;
    setup.crc = crc;
    noisy_batch b;
    b.bits.resize(n * K);
    b.llrs.resize(n * turbo::codeword_length(K));
    make_noisy_frames(setup, 0, n, b.bits.data(), b.llrs.data());
    return b;
}

//! The LLRs of the codewords of \p bits (whole blocks of K) without noise: +magnitude
//! for a code bit 0, -magnitude for a 1 (the engine's sign).
inline std::vector<float>
noiseless_llrs(int K, const std::vector<std::uint8_t>& bits, float magnitude)
{
    const std::size_t n = bits.size() / K;
    std::vector<std::uint8_t> cw(n * turbo::codeword_length(K));
    turbo::encode(K, bits.data(), n, cw.data());
    std::vector<float> llrs(cw.size());
    for (std::size_t i = 0; i < cw.size(); ++i)
        llrs[i] = cw[i] ? -magnitude : magnitude;
    return llrs;
}

//! Codewords of K in the interleaved layout as d0 | d1 | d2 streams: the same values,
//! reordered.
inline std::vector<float> as_streams(int K, const std::vector<float>& interleaved)
{
    const std::size_t n = turbo::codeword_length(K);
    std::vector<float> streams(interleaved.size());
    for (std::size_t i = 0; i < interleaved.size() / n; ++i)
        for (int s = 0; s < 3; ++s)
            for (int k = 0; k < K + 4; ++k)
                streams[i * n + turbo::codeword_index(layout::streams, K, s, k)] =
                    interleaved[i * n +
                                turbo::codeword_index(layout::interleaved, K, s, k)];
    return streams;
}

inline std::size_t bit_errors(const std::vector<std::uint8_t>& a,
                              const std::vector<std::uint8_t>& b)
{
    std::size_t e = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        e += a[i] != b[i];
    return e;
}

} // namespace gputurbo::test

#endif
