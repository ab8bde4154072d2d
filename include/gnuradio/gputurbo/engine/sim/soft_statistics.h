/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_SIM_SOFT_STATISTICS_H
#define INCLUDED_GPUTURBO_ENGINE_SIM_SOFT_STATISTICS_H

/*!
 * \file soft_statistics.h
 * \brief What tells whether a decoder's soft values are healthy, measured against the
 *        bits they are of: their mean magnitude against the channel's, their wrong
 *        signs, the error rate they predict against the one they meet, and a histogram.
 *
 * An LLR L states that its bit is wrong with the probability 1 / (1 + e^|L|), which is
 * (1 - tanh(|L|/2)) / 2: over many bits, calibrated LLRs meet the mean of that, the
 * predicted BER (examples/soft_output_calibration.py). Values are in the engine's sign,
 * L = ln P(0)/P(1) (positive: bit 0), as the decoders of the tools give them.
 */

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputurbo::sim {

struct soft_statistics
{
    //! The histogram is of L seen from the bit sent, s L with s = +1 for a 0 and -1 for
    //! a 1 (positive: the sign is right), in bins of histogram_width from
    //! -histogram_limit to +histogram_limit; the first and last bins also take the
    //! values beyond. Bin i holds [-limit + i width, -limit + (i + 1) width).
    static constexpr double histogram_limit = 32.0;
    static constexpr double histogram_width = 1.0;
    static constexpr int histogram_bins = int(2 * histogram_limit / histogram_width);

    std::uint64_t count = 0;       //!< soft values counted (NaN apart)
    std::uint64_t nan_values = 0;  //!< NaN: counted nowhere else
    std::uint64_t wrong_signs = 0; //!< of the sign of the other bit
    std::uint64_t zeros = 0;       //!< exactly 0: no decision, half an error
    double abs_sum = 0.0;          //!< the sum of |L|
    double predicted_errors = 0.0; //!< the sum of 1 / (1 + e^|L|)
    std::vector<std::uint64_t> histogram = std::vector<std::uint64_t>(histogram_bins);
    std::uint64_t channel_count = 0; //!< channel LLRs the decoder read
    double channel_abs_sum = 0.0;

    //! Counts \p n soft values of the bits \p bits (0 or 1, one a byte).
    void add(const float* values, const std::uint8_t* bits, std::size_t n);
    //! Counts \p n channel LLRs (for channel_mean_abs()).
    void add_channel(const float* llrs, std::size_t n);

    //! Mean |L| of the soft values.
    double mean_abs() const { return count ? abs_sum / count : 0.0; }
    //! Mean |L| of the channel's LLRs.
    double channel_mean_abs() const
    {
        return channel_count ? channel_abs_sum / channel_count : 0.0;
    }
    //! The measured error rate of the signs: wrong signs, and zeros as half an error.
    double sign_error_rate() const
    {
        return count ? (double(wrong_signs) + 0.5 * double(zeros)) / count : 0.0;
    }
    //! The error rate the values state: the mean of 1 / (1 + e^|L|).
    double predicted_ber() const { return count ? predicted_errors / count : 0.0; }
};

} // namespace gputurbo::sim

#endif
