/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decision_check.h"

#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <cmath>
#include <vector>

namespace gputurbo::lte {
namespace {

// Standard deviations of a sum of random signs whose tail is 2^-24.
constexpr double evidence_sigmas = 5.5;
// ln 2^24: the tail of the contradiction count's bound.
const double contradiction_tail = 24.0 * std::log(2.0);

} // namespace

contradiction_odds make_contradiction_odds(float int8_scale)
{
    contradiction_odds t{};
    const double unit = std::ldexp(1.0, odds_bits);
    for (int q = 0; q < 128; ++q) {
        const double p = 1.0 / (1.0 + std::exp(q / (double(int8_scale) * llr_tolerance)));
        t.p[q] = std::uint32_t(std::lround(p * unit));
        t.spread[q] = std::uint32_t(std::lround(p * (1.0 - p) * unit));
    }
    return t;
}

agreement agreement_of(int K,
                       int filler,
                       const std::int8_t* values,
                       const std::uint8_t* bits,
                       const contradiction_odds& odds)
{
    std::vector<std::uint8_t> codeword(turbo::codeword_length(K));
    turbo::encode(K, bits, 1, codeword.data());
    agreement a;
    for (std::size_t i = 3 * std::size_t(filler); i < codeword.size(); ++i)
        a.add(odds, values[i], codeword[i]);
    for (std::size_t i = 0; i < 3 * std::size_t(filler); i += 3)
        a.add(odds, values[i + 2], codeword[i + 2]); // d2 of a filler bit is sent
    return a;
}

bool consistent(const agreement& a)
{
    const double correlation = double(a.correlation), energy = double(a.energy);
    if (!(correlation > evidence_sigmas * std::sqrt(energy)))
        return false;
    // Bernstein: P(count - expected >= t) <= exp(-t^2 / (2 (variance + t / 3))).
    const double unit = std::ldexp(1.0, -odds_bits);
    const double expected = double(a.expected) * unit, variance = double(a.spread) * unit;
    const double lambda = contradiction_tail;
    const double t =
        lambda / 3.0 + std::sqrt(lambda * lambda / 9.0 + 2.0 * lambda * variance);
    return double(a.contradictions) <= expected + t;
}

} // namespace gputurbo::lte
