/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/crc.h>

#include <string>
#include <vector>

namespace gputurbo::core {
namespace {

// The register sits at the top of 32 bits, so that one loop serves every length: the
// feedback is always bit 31 and a left shift drops the bits that leave.
struct crc_tables
{
    std::uint32_t poly;      // the generator without its D^L term, at the top
    std::uint32_t byte[256]; // the register after 8 steps from (v << 24), no input
};

constexpr crc_tables make_tables(std::uint32_t poly, int L)
{
    crc_tables t{};
    t.poly = poly << (32 - L);
    for (std::uint32_t v = 0; v < 256; ++v) {
        std::uint32_t reg = v << 24;
        for (int k = 0; k < 8; ++k)
            reg = (reg << 1) ^ (t.poly & (0u - (reg >> 31)));
        t.byte[v] = reg;
    }
    return t;
}

// In the order of enum crc; the polynomials have bit i the coefficient of D^i.
constexpr crc_tables tables[] = {
    // D^24+D^23+D^18+D^17+D^14+D^11+D^10+D^7+D^6+D^5+D^4+D^3+D+1
    make_tables(0x864CFBu, 24),
    // D^24+D^23+D^6+D^5+D+1
    make_tables(0x800063u, 24),
    // D^16+D^12+D^5+1
    make_tables(0x1021u, 16),
    // D^8+D^7+D^4+D^3+D+1
    make_tables(0x9Bu, 8),
};

} // namespace

std::uint32_t crc_parity(crc type, const std::uint8_t* bits, std::size_t n)
{
    const int shift = 32 - crc_length(type); // throws for a value outside the enum
    const crc_tables& t = tables[int(type)];
    std::uint32_t reg = 0;
    std::size_t i = 0;
    // Eight bits a step: the input byte meets the register's top byte, as the bits would
    // one at a time.
    for (; i + 8 <= n; i += 8) {
        std::uint32_t byte = 0;
        for (int k = 0; k < 8; ++k)
            byte = byte << 1 | (bits[i + k] & 1u);
        reg = (reg << 8) ^ t.byte[(reg >> 24) ^ byte];
    }
    for (; i < n; ++i) {
        const std::uint32_t feedback = ((reg >> 31) ^ bits[i]) & 1u;
        reg = (reg << 1) ^ (t.poly & (0u - feedback));
    }
    return reg >> shift;
}

void attach_crc(crc type, std::uint8_t* bits, std::size_t n)
{
    const int L = crc_length(type);
    if (n < std::size_t(L))
        throw std::invalid_argument("attach_crc: a block needs at least " +
                                    std::to_string(L) + " bits");
    const std::uint32_t parity = crc_parity(type, bits, n - L);
    for (int i = 0; i < L; ++i)
        bits[n - L + i] = std::uint8_t((parity >> (L - 1 - i)) & 1u);
}

bool check_crc(crc type, const std::uint8_t* bits, std::size_t n)
{
    return n >= std::size_t(crc_length(type)) && crc_parity(type, bits, n) == 0;
}

std::vector<std::uint32_t> crc_contributions(crc type, int K)
{
    std::vector<std::uint8_t> unit(K, 0);
    std::vector<std::uint32_t> table(K);
    // The contribution of bit k is that of bit K-1 shifted through K-1-k zeros.
    unit[K - 1] = 1;
    std::uint32_t reg = crc_parity(type, unit.data(), K);
    const std::uint32_t poly = crc_parity(type, unit.data() + K - 1, 1);
    const int L = crc_length(type);
    const std::uint32_t mask = (std::uint32_t(1) << L) - 1;
    for (int k = K - 1; k >= 0; --k) {
        table[k] = reg;
        const bool feedback = (reg >> (L - 1)) & 1u;
        reg = (reg << 1) & mask;
        if (feedback)
            reg ^= poly;
    }
    return table;
}

} // namespace gputurbo::core
