/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/crc.h>

#include <stdexcept>

namespace gputurbo::lte {
namespace {

constexpr std::uint32_t polynomial(crc24 type)
{
    // gCRC24A = D^24+D^23+D^18+D^17+D^14+D^11+D^10+D^7+D^6+D^5+D^4+D^3+D+1
    // gCRC24B = D^24+D^23+D^6+D^5+D+1
    return type == crc24::a ? 0x864CFBu : 0x800063u;
}

} // namespace

std::uint32_t crc24_parity(crc24 type, const std::uint8_t* bits, std::size_t n)
{
    const std::uint32_t poly = polynomial(type);
    std::uint32_t reg = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t feedback = ((reg >> 23) ^ bits[i]) & 1u;
        reg = (reg << 1) & 0xFFFFFFu;
        if (feedback)
            reg ^= poly;
    }
    return reg;
}

void attach_crc24(crc24 type, std::uint8_t* bits, std::size_t n)
{
    if (n < 24)
        throw std::invalid_argument("attach_crc24: a block needs at least 24 bits");
    const std::uint32_t parity = crc24_parity(type, bits, n - 24);
    for (int i = 0; i < 24; ++i)
        bits[n - 24 + i] = std::uint8_t((parity >> (23 - i)) & 1u);
}

bool check_crc24(crc24 type, const std::uint8_t* bits, std::size_t n)
{
    return n >= 24 && crc24_parity(type, bits, n) == 0;
}

} // namespace gputurbo::lte
