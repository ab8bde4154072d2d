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
#include <memory>
#include <string>
#include <vector>

namespace gputurbo::test {

using namespace gputurbo::core;
using namespace gputurbo::sim;
using namespace gputurbo::turbo;

//! Backends every decoding test runs on; unavailable ones skip visibly. "cuda" decodes in
//! its default arithmetic (int16 wherever it can), "cuda-float32" in float32.
inline const std::vector<std::string> all_backends = {
    "cpu", "reference", "cuda", "cuda-float32"
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

#define GPUTURBO_MAKE_OR_SKIP(var, config, backend)                                      \
    auto var = ::gputurbo::test::make_or_skip(config, backend);                          \
    if (!var)                                                                            \
    GTEST_SKIP() << "backend '" << (backend) << "' is not available on this machine"

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
                              std::optional<lte::crc24> crc = std::nullopt)
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
