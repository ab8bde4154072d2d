/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/sim/soft_statistics.h>

#include <algorithm>
#include <cmath>

namespace gputurbo::sim {

void soft_statistics::add(const float* values, const std::uint8_t* bits, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        const double L = values[i];
        if (std::isnan(L)) {
            ++nan_values;
            continue;
        }
        const double seen = bits[i] ? -L : L; // positive: the bit sent's sign
        const double magnitude = std::fabs(L);
        ++count;
        wrong_signs += seen < 0.0;
        zeros += L == 0.0;
        abs_sum += magnitude;
        const double e = std::exp(-magnitude); // 1 / (1 + e^|L|) without overflow
        predicted_errors += e / (1.0 + e);
        const double clamped = std::clamp(seen, -histogram_limit, histogram_limit);
        const int bin = int((clamped + histogram_limit) / histogram_width);
        ++histogram[std::min(bin, histogram_bins - 1)];
    }
}

void soft_statistics::add_channel(const float* llrs, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        channel_abs_sum += std::fabs(llrs[i]);
    channel_count += n;
}

} // namespace gputurbo::sim
