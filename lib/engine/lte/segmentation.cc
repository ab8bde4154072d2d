/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

// Where block r's share of b starts.
std::size_t share_start(const segmentation& s, int r)
{
    std::size_t at = 0;
    for (int i = 0; i < r; ++i)
        at += std::size_t(s.payload(i));
    return at;
}

void check_block(const segmentation& s, int r)
{
    if (r < 0 || r >= s.C)
        throw std::invalid_argument("code block " + std::to_string(r) + " of " +
                                    std::to_string(s.C));
}

} // namespace

segmentation segment(int B)
{
    if (B < 1)
        throw std::invalid_argument("segment: B = " + std::to_string(B) +
                                    " bits: a transport block has 1 or more");
    constexpr int Z = turbo::max_block_size;
    segmentation s;
    s.B = B;
    s.L = B <= Z ? 0 : crc_length(crc::crc24b);
    s.C = B <= Z ? 1 : (B + (Z - s.L) - 1) / (Z - s.L);
    const long B_prime = long(B) + long(s.C) * s.L;
    // K+: the smallest size with C K+ >= B'; K-: the largest below it.
    const auto& table = turbo::qpp_table();
    const auto plus = std::find_if(table.begin(), table.end(), [&](const auto& row) {
        return long(s.C) * row.K >= B_prime;
    });
    s.K_plus = plus->K;
    if (s.C == 1) {
        s.C_plus = 1;
    } else {
        s.K_minus = plus == table.begin() ? 0 : std::prev(plus)->K;
        const int delta = s.K_plus - s.K_minus;
        s.C_minus = int((long(s.C) * s.K_plus - B_prime) / delta);
        s.C_plus = s.C - s.C_minus;
    }
    s.F = int(long(s.C_plus) * s.K_plus + long(s.C_minus) * s.K_minus - B_prime);
    return s;
}

void code_block(const segmentation& s, const std::uint8_t* b, int r, std::uint8_t* out)
{
    check_block(s, r);
    const int filler = r == 0 ? s.F : 0;
    std::fill_n(out, filler, std::uint8_t(0));
    std::copy_n(b + share_start(s, r), s.payload(r), out + filler);
    if (s.L > 0)
        attach_crc(crc::crc24b, out, std::size_t(s.block_size(r)));
}

void concatenate_block(const segmentation& s,
                       const std::uint8_t* block,
                       int r,
                       std::uint8_t* b)
{
    check_block(s, r);
    std::copy_n(block + (r == 0 ? s.F : 0), s.payload(r), b + share_start(s, r));
}

} // namespace gputurbo::lte
