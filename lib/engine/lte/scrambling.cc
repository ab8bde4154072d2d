/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/scrambling.h>

#include <stdexcept>
#include <string>

namespace gputurbo::lte {

void scrambling_sequence(long c_init, std::size_t n, std::uint8_t* c)
{
    if (c_init < 0 || c_init > max_c_init)
        throw std::invalid_argument("c_init=" + std::to_string(c_init) +
                                    " is out of range: use 0 ... " +
                                    std::to_string(max_c_init));
    // Bit i of x1 (x2) is x(k + i): the registers hold the next 31 values.
    constexpr int Nc = 1600;
    std::uint32_t x1 = 1, x2 = std::uint32_t(c_init);
    auto step = [&] {
        const std::uint32_t b1 = ((x1 >> 3) ^ x1) & 1u;
        const std::uint32_t b2 = ((x2 >> 3) ^ (x2 >> 2) ^ (x2 >> 1) ^ x2) & 1u;
        x1 = (x1 >> 1) | (b1 << 30);
        x2 = (x2 >> 1) | (b2 << 30);
    };
    for (int k = 0; k < Nc; ++k)
        step();
    for (std::size_t k = 0; k < n; ++k) {
        c[k] = std::uint8_t((x1 ^ x2) & 1u);
        step();
    }
}

} // namespace gputurbo::lte
