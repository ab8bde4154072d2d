/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_SEGMENTATION_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_SEGMENTATION_H

/*!
 * \file segmentation.h
 * \brief Code-block segmentation of 3GPP TS 36.212 §5.1.2 and its inverse, the
 *        code-block concatenation of a receiver, on unpacked bits (one bit per byte).
 */

#include <cstddef>
#include <cstdint>

namespace gputurbo::lte {

/*!
 * \brief How B bits (a transport block with its CRC-24A) are cut into code blocks of
 * the turbo code's sizes (36.212 §5.1.2): C blocks, the C_minus smaller ones (K_minus
 * bits) first, F filler bits at the start of block 0, and a CRC-24B at the end of each
 * block when C > 1.
 */
struct segmentation
{
    int B = 0;       //!< bits cut
    int C = 0;       //!< code blocks
    int K_plus = 0;  //!< the larger block size
    int K_minus = 0; //!< the size below K_plus when C > 1 (even if C_minus is 0), else 0
    int C_plus = 0;  //!< blocks of K_plus bits
    int C_minus = 0; //!< blocks of K_minus bits, first
    int F = 0;       //!< filler bits, the first of block 0
    int L = 0;       //!< CRC-24B bits a block: 24 when C > 1, else 0

    //! K_r, the size of block r.
    int block_size(int r) const { return r < C_minus ? K_minus : K_plus; }
    //! The bits of the B that block r carries (its size less filler and CRC bits).
    int payload(int r) const { return block_size(r) - L - (r == 0 ? F : 0); }
};

//! The segmentation of \p B bits, 1 or more (std::invalid_argument otherwise).
segmentation segment(int B);

/*!
 * \brief Block \p r (0 … C-1) of the B bits \p b into \p out (block_size(r) bits):
 * filler bits (0, which the CRC reads as 0) first in block 0, then its share of b,
 * then its CRC-24B when C > 1.
 */
void code_block(const segmentation& s, const std::uint8_t* b, int r, std::uint8_t* out);

/*!
 * \brief The B bits back from block \p r's decoded bits \p block (block_size(r) of
 * them): its share of b, filler and CRC bits left out, written to \p b.
 */
void concatenate_block(const segmentation& s,
                       const std::uint8_t* block,
                       int r,
                       std::uint8_t* b);

} // namespace gputurbo::lte

#endif
