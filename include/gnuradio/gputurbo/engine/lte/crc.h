/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_CRC_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_CRC_H

/*!
 * \file crc.h
 * \brief The 24-bit CRCs of 3GPP TS 36.212 §5.1.1 (transport blocks and code blocks), on
 *        unpacked bits (one bit per byte, only bit 0 read).
 */

#include <cstddef>
#include <cstdint>

namespace gputurbo::lte {

//! CRC polynomials of 36.212 §5.1.1: gCRC24A (transport block), gCRC24B (code block).
enum class crc24 { a, b };

//! CRC parity of n unpacked bits (the register after all bits, 24 bits).
std::uint32_t crc24_parity(crc24 type, const std::uint8_t* bits, std::size_t n);

//! Overwrites the last 24 of n bits with the CRC of the first n-24 (so the block checks).
void attach_crc24(crc24 type, std::uint8_t* bits, std::size_t n);

//! True when the n bits (data followed by its 24 CRC bits) have zero remainder.
bool check_crc24(crc24 type, const std::uint8_t* bits, std::size_t n);

} // namespace gputurbo::lte

#endif
