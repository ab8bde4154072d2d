/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_CRC_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_CRC_H

/*!
 * \file crc.h
 * \brief The CRCs of 3GPP TS 36.212 §5.1.1 on unpacked bits (one bit per byte, only
 *        bit 0 read). As in §5.1.1 the shift register starts at zero, and the L parity
 *        bits p_0 … p_{L-1} follow the data highest power first. They sit in the core:
 *        the turbo decoders' stop rules check them, and the LTE transport layer attaches
 *        them.
 */

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gputurbo::core {

//! The generator polynomials of 36.212 §5.1.1.
enum class crc {
    crc24a, //!< gCRC24A, L = 24: transport blocks
    crc24b, //!< gCRC24B, L = 24: code blocks
    crc16,  //!< gCRC16 = D^16 + D^12 + D^5 + 1: BCH, DCI
    crc8    //!< gCRC8 = D^8 + D^7 + D^4 + D^3 + D + 1: UCI on PUSCH
};

//! L, the CRC's length in bits.
constexpr int crc_length(crc type)
{
    switch (type) {
    case crc::crc24a:
    case crc::crc24b:
        return 24;
    case crc::crc16:
        return 16;
    case crc::crc8:
        return 8;
    }
    throw std::invalid_argument("crc_length: not a CRC of 36.212 §5.1.1");
}

//! CRC parity of n unpacked bits: the L-bit register after all of them.
std::uint32_t crc_parity(crc type, const std::uint8_t* bits, std::size_t n);

//! Overwrites the last L of n bits with the CRC of the first n-L (so the block checks);
//! throws std::invalid_argument when n < L.
void attach_crc(crc type, std::uint8_t* bits, std::size_t n);

//! True when the n bits (data followed by its L CRC bits) have zero remainder; false
//! when n < L.
bool check_crc(crc type, const std::uint8_t* bits, std::size_t n);

/*!
 * CRC remainder contributed by a 1 at bit k of a K-bit block: the CRC is linear, so a
 * block checks when the XOR of the contributions of its set bits is zero. It depends on
 * K - 1 - k alone, the bit's distance from the end. (The GPU kernels check CRCs so.)
 */
std::vector<std::uint32_t> crc_contributions(crc type, int K);

} // namespace gputurbo::core

#endif
