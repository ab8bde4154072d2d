/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_RATE_MATCHING_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_RATE_MATCHING_H

/*!
 * \file rate_matching.h
 * \brief Rate matching of turbo code blocks (3GPP TS 36.212 §5.1.4.1), on unpacked bits:
 *        sub-block interleaving of the three streams, bit collection into the circular
 *        buffer, and bit selection from k0(rv), NULL (dummy and filler) bits skipped.
 */

#include <cstdint>
#include <vector>

namespace gputurbo::lte {

//! Position of a bit of the circular buffer that is not sent: a dummy or filler bit.
constexpr std::int32_t null_bit = -1;

/*!
 * \brief The circular buffer of a code block of \p K bits whose first \p filler bits
 * are filler: for each of its K_w = 3 K_Π positions, the index of the codeword bit
 * there (in the turbo encoder's interleaved layout, codeword[3k + s] = d^(s)_k), or
 * null_bit. K_Π = 32 R, R = ceil((K + 4) / 32).
 */
std::vector<std::int32_t> circular_buffer(int K, int filler);

/*!
 * \brief N_IR, a transport block's soft buffer in bits (§5.1.4.1.2): N_soft (the UE
 * category's total) over K_C (36.212 §5.1.4.1.2: 1 but for the largest categories),
 * K_MIMO (2 in the transmission modes of two transport blocks: 3, 4, 8, 9, 10; else 1)
 * and min(M_DL_HARQ, 8) HARQ processes.
 */
long soft_buffer_bits(long N_soft, int K_C, int K_MIMO, int M_DL_HARQ);

//! N_cb of a DL-SCH code block: min(floor(N_IR / C), K_w); K_w without a limit (N_IR 0).
int circular_buffer_bits(int Kw, int C, long N_IR);

//! k0 of redundancy version \p rv (0 … 3) for a buffer of \p Ncb bits of a block of
//! \p K bits.
int start_position(int K, int Ncb, int rv);

/*!
 * \brief E bits of a block's codeword \p codeword selected from its circular buffer
 * \p w (circular_buffer()), its first \p Ncb positions (K_w without a soft-buffer
 * limit), from k0(rv) on, NULL bits skipped, into \p e.
 */
void select_bits(const std::vector<std::int32_t>& w,
                 int Ncb,
                 int k0,
                 const std::uint8_t* codeword,
                 int E,
                 std::uint8_t* e);

/*!
 * \brief The receiver's side of select_bits(): adds each of the \p E LLRs \p llrs to
 * the codeword position its bit was sent from (a bit sent again adds up), in \p
 * codeword (turbo::codeword_length(K) LLRs, interleaved layout); positions not sent
 * keep their values.
 */
void combine_bits(const std::vector<std::int32_t>& w,
                  int Ncb,
                  int k0,
                  const float* llrs,
                  int E,
                  float* codeword);

/*!
 * \brief E of code block \p r of \p C (§5.1.4.1.2): G bits for layers \p layers and
 * \p Qm bits a symbol; the last G' mod C blocks get a symbol more.
 */
int block_bits(int G, int C, int Qm, int layers, int r);

} // namespace gputurbo::lte

#endif
