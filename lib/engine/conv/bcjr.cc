/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "bcjr.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace gputurbo::conv {
namespace {

constexpr double impossible = -std::numeric_limits<double>::infinity();

//! ln(e^a + e^b), or max(a, b) for max-log.
double combine(double a, double b, soft_algorithm algorithm)
{
    const double best = std::max(a, b);
    if (algorithm == soft_algorithm::max_log || best == impossible)
        return best;
    return best + std::log1p(std::exp(-std::fabs(a - b)));
}

//! The branch metrics of a frame's trellis. A branch is named by its register: the
//! input u at bit K-1 and the state p below it; it goes from p to reg >> 1.
class branch_metrics
{
public:
    branch_metrics(const code& c,
                   termination t,
                   int frame_bits,
                   const float* llrs,
                   const float* apriori)
        : d_constraint(c.constraint),
          d_outputs(c.outputs()),
          d_pattern(std::size_t(1) << c.constraint),
          d_coded(conv::steps(c, t, frame_bits) << c.outputs()),
          d_prior(conv::steps(c, t, frame_bits), 0.0)
    {
        for (unsigned reg = 0; reg < d_pattern.size(); ++reg)
            d_pattern[reg] = std::uint8_t(c.coded_bits(reg));
        const int patterns = 1 << d_outputs;
        for (std::size_t k = 0; k < d_prior.size(); ++k) {
            for (int pattern = 0; pattern < patterns; ++pattern) {
                double m = 0.0;
                for (int o = 0; o < d_outputs; ++o) {
                    const double half =
                        0.5 * core::sanitize_llr(llrs[k * d_outputs + o], false);
                    m += (pattern >> o & 1) ? -half : half;
                }
                d_coded[k * patterns + pattern] = m;
            }
            if (apriori && k < std::size_t(frame_bits))
                d_prior[k] = 0.5 * core::sanitize_llr(apriori[k], false);
        }
    }

    std::size_t steps() const { return d_prior.size(); }
    //! The coded bits (bit o: output o) of branch \p reg.
    unsigned coded_bits(unsigned reg) const { return d_pattern[reg]; }
    int input(unsigned reg) const { return int(reg >> (d_constraint - 1)); }

    //! The metric of branch \p reg at step \p k.
    double operator()(std::size_t k, unsigned reg) const
    {
        return d_coded[(k << d_outputs) + d_pattern[reg]] +
               (input(reg) ? -d_prior[k] : d_prior[k]);
    }

private:
    int d_constraint, d_outputs;
    std::vector<std::uint8_t> d_pattern; // [reg]
    std::vector<double> d_coded;         // [step][output pattern]: the channel's part
    std::vector<double> d_prior;         // [step]: +La/2 (the a-priori part of input 0)
};

} // namespace

soft_frame bcjr(const code& c,
                termination t,
                int frame_bits,
                const float* llrs,
                soft_algorithm a,
                const float* apriori)
{
    c.validate();
    check_frame_bits(c, t, frame_bits);
    if (t == termination::streaming)
        throw std::invalid_argument(
            "termination=streaming: bcjr() takes whole frames (terminated, truncated or "
            "tail-biting)");
    const branch_metrics gamma(c, t, frame_bits, llrs, apriori);
    const int K = c.constraint, n = c.outputs(), S = c.states();
    const unsigned registers = 1u << K;
    const std::size_t N = gamma.steps();

    // The log-probabilities, summed over every path, of each input value and each coded
    // bit's value at each step: [step][2] and [step][output][2].
    std::vector<double> info_sum(2 * N, impossible), code_sum(2 * n * N, impossible);
    std::vector<double> alpha((N + 1) * S), beta((N + 1) * S);
    // One pass per start state s of the paths that start in s (and for tail-biting end
    // in s); terminated and truncated frames start in 0 only.
    const int starts = t == termination::tail_biting ? S : 1;
    auto only = [&](double* at, int state) {
        std::fill(at, at + S, impossible);
        at[state] = 0.0;
    };
    for (int s = 0; s < starts; ++s) {
        only(alpha.data(), s);
        // Ending in 0 leaves a terminated frame's tail steps no input but 0.
        if (t == termination::truncated)
            std::fill(beta.begin() + N * S, beta.end(), 0.0);
        else
            only(beta.data() + N * S, s);

        for (std::size_t k = 0; k < N; ++k) {
            const double* from = alpha.data() + k * S;
            double* to = alpha.data() + (k + 1) * S;
            std::fill(to, to + S, impossible);
            for (unsigned reg = 0; reg < registers; ++reg)
                to[reg >> 1] =
                    combine(to[reg >> 1], from[reg & (S - 1)] + gamma(k, reg), a);
        }
        for (std::size_t k = N; k-- > 0;) {
            const double* from = beta.data() + (k + 1) * S;
            double* to = beta.data() + k * S;
            std::fill(to, to + S, impossible);
            for (unsigned reg = 0; reg < registers; ++reg)
                to[reg & (S - 1)] =
                    combine(to[reg & (S - 1)], gamma(k, reg) + from[reg >> 1], a);
        }
        for (std::size_t k = 0; k < N; ++k)
            for (unsigned reg = 0; reg < registers; ++reg) {
                const double m = alpha[k * S + (reg & (S - 1))] + gamma(k, reg) +
                                 beta[(k + 1) * S + (reg >> 1)];
                double& u = info_sum[2 * k + gamma.input(reg)];
                u = combine(u, m, a);
                const unsigned bits = gamma.coded_bits(reg);
                for (int o = 0; o < n; ++o) {
                    double& b = code_sum[2 * (k * n + o) + (bits >> o & 1)];
                    b = combine(b, m, a);
                }
            }
    }

    soft_frame out;
    for (int k = 0; k < frame_bits; ++k)
        out.info.push_back(float(info_sum[2 * k] - info_sum[2 * k + 1]));
    for (std::size_t j = 0; j < n * N; ++j)
        out.code.push_back(float(code_sum[2 * j] - code_sum[2 * j + 1]));
    return out;
}

} // namespace gputurbo::conv
