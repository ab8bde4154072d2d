/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PDCCH search's false-alarm floor (false_alarm_floor() of pdcch.h): how high a
// correlation noise reaches with a given probability, from a Chernoff bound.

#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include "control_check.h"

#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

constexpr double ln2 = 0.69314718055994530942, pi = 3.14159265358979323846;

// ln E[exp(u |X|)], X standard normal: ln(2 exp(u^2 / 2) Phi(u)).
double log_half_normal_mgf(double u)
{
    if (u > -30.0)
        return std::log(std::erfc(-u / std::sqrt(2.0))) + u * u / 2.0;
    // Phi(u) ~ phi(u) / -u (1 - 1 / u^2 + 3 / u^4): erfc underflows this far out.
    const double v = 1.0 / (u * u);
    return ln2 - std::log(-u) - 0.5 * std::log(2.0 * pi) + std::log1p(-v + 3.0 * v * v);
}

// ln E[exp(lambda (L s - t |L|))] for L zero-mean Gaussian, s a codeword's sign (+-1,
// independent of noise): |L| (s - t) with s = +-1 alike. Convex in lambda.
double log_mgf(double lambda, double t)
{
    const double a = log_half_normal_mgf(lambda * (1.0 - t)),
                 b = log_half_normal_mgf(-lambda * (1.0 + t)), top = std::max(a, b);
    return top + std::log(0.5 * (std::exp(a - top) + std::exp(b - top)));
}

// The rate function I(t) = -min over lambda >= 0 of log_mgf(lambda, t), 0 <= t < 1:
// a codeword's correlation over E LLRs of noise reaches t with probability at most
// exp(-E I(t)). The minimum bracketed by doubling, then found by golden sections.
double rate_function(double t)
{
    double hi = 1.0;
    while (hi < 1e6 && log_mgf(2.0 * hi, t) < log_mgf(hi, t))
        hi *= 2.0;
    double lo = 0.0;
    hi *= 2.0;
    const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int i = 0; i < 80; ++i) {
        const double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
        if (log_mgf(a, t) < log_mgf(b, t))
            hi = b;
        else
            lo = a;
    }
    return -log_mgf((lo + hi) / 2.0, t);
}

} // namespace

double false_alarm_floor(int A, int level, int hypotheses, double max_false_alarm)
{
    if (A < 1 || A > max_dci_bits)
        throw std::invalid_argument("false_alarm_floor: A=" + std::to_string(A) +
                                    " is out of range: use 1 ... " +
                                    std::to_string(max_dci_bits));
    if (level != 1 && level != 2 && level != 4 && level != 8)
        throw std::invalid_argument("false_alarm_floor: level=" + std::to_string(level) +
                                    " is out of range: use 1, 2, 4 or 8");
    if (hypotheses < 1 || hypotheses > 65536)
        throw std::invalid_argument(
            "false_alarm_floor: hypotheses=" + std::to_string(hypotheses) +
            " is out of range: use 1 ... 65536");
    try {
        core::check(control_parameter("max_false_alarm"), max_false_alarm);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("false_alarm_floor: ") + e.what());
    }
    const double crc_share = std::ldexp(double(hypotheses), -control_crc_bits);
    if (crc_share <= max_false_alarm)
        return -1.0;
    // hypotheses 2^A exp(-E I(t)) <= p where I(t) >= needed; I rises from 0 to ln 2.
    const int E = cce_llrs * level;
    const double needed =
        (A * ln2 + std::log(double(hypotheses)) - std::log(max_false_alarm)) / E;
    if (needed > ln2)
        return std::numeric_limits<double>::infinity();
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 48; ++i) {
        const double mid = (lo + hi) / 2.0;
        (rate_function(mid) < needed ? lo : hi) = mid;
    }
    return hi;
}

correlation_floors
least_correlations(int A, double min_correlation, double max_false_alarm)
{
    // Kept for the process (never destroyed: searches may run while it exits).
    static auto& lock = *new std::mutex;
    static auto& kept = *new std::map<std::pair<int, double>, correlation_floors>;
    const std::pair key{ A, max_false_alarm };
    std::optional<correlation_floors> floors;
    {
        const std::lock_guard<std::mutex> hold(lock);
        if (const auto at = kept.find(key); at != kept.end())
            floors = at->second;
    }
    if (!floors) { // made outside the lock: other searches go on meanwhile
        floors.emplace();
        for (int l = 0; l < correlation_floors::levels; ++l)
            for (int step = 0; step < correlation_floors::hypothesis_steps; ++step)
                floors->least[l][step] =
                    false_alarm_floor(A, 1 << l, 1 << step, max_false_alarm);
        const std::lock_guard<std::mutex> hold(lock);
        if (kept.size() >= 4096) // a caller trying many thresholds
            kept.clear();
        kept.emplace(key, *floors);
    }
    floors->min_correlation = min_correlation;
    floors->crc_covered = int(std::floor(std::ldexp(max_false_alarm, control_crc_bits)));
    for (auto& by_hypotheses : floors->least)
        for (double& least : by_hypotheses)
            least = std::max(min_correlation, least);
    return *floors;
}

} // namespace gputurbo::lte
