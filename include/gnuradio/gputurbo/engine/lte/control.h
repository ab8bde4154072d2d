/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_CONTROL_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_CONTROL_H

/*!
 * \file control.h
 * \brief Coding of the LTE control channels' blocks (3GPP TS 36.212), the DCI of the
 *        PDCCH (§5.3.3) and the MIB of the BCH (§5.3.1), on unpacked bits: a payload of
 *        A bits gets a CRC-16 (§5.1.1) whose 16 bits are XORed with a mask (the RNTI of
 *        a DCI, the antenna-port mask of a MIB), the A + 16 bits are encoded by the
 *        tail-biting K = 7 rate-1/3 convolutional code (the preset "lte", §5.1.3.1), and
 *        rate matching for convolutional codes (§5.1.4.2) sends E bits of its 3 (A + 16).
 *
 * The receiver decodes many blocks of one A and E in one call of a Viterbi decoder of
 * any backend (control_decode()), and reads from each the mask it was sent with: the
 * CRC it computes XOR the one received (a receiver that does not know the RNTI finds it
 * so; a block received in error gives some other value).
 */

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputurbo::lte {

//! Bits of a control block's CRC and of the mask over it.
constexpr int control_crc_bits = 16;
//! The most payload bits (A) a control block takes here: a DCI has under 70, a MIB 24;
//! the bound keeps what a caller's sizes make the coding allocate small.
constexpr int max_control_bits = 1 << 16;

/*!
 * \brief The bit collection w of rate matching for convolutional codes (§5.1.4.2) of a
 * block of \p D bits a stream (D >= 1; A + 16 for a control block): for each of its K_w
 * = 3 K_Π positions, the index of the coded bit there in the convolutional encoder's
 * order (conv/code.h: coded[3k + s] = d^(s)_k), or null_bit (a dummy bit). K_Π = 32 R, R
 * = ceil(D / 32): each stream is written row by row after 32 R - D dummy bits, its 32
 * columns permuted by Table 5.1.4-2 and read column by column; w holds the three
 * streams one after another. conv_select_bits() and conv_combine_bits() read it.
 */
std::vector<std::int32_t> conv_circular_buffer(int D);

/*!
 * \brief Rate matching for convolutional codes: the \p E bits e_k = w_(j mod K_w) of
 * the coded bits \p coded (3 D, the encoder's order), NULL bits skipped, into \p e. The
 * coded bits repeat when E > 3 D and the last ones of w are left out when E < 3 D.
 */
void conv_select_bits(const std::vector<std::int32_t>& w,
                      const std::uint8_t* coded,
                      int E,
                      std::uint8_t* e);

/*!
 * \brief The receiver's side of conv_select_bits(): the 3 D coded LLRs, in the
 * decoder's input order, into \p coded, each the sum of the \p E LLRs \p llrs sent from
 * its bit (a repeated bit's add up; the sign is the input's), 0 (an erasure) where
 * none was sent.
 */
void conv_combine_bits(const std::vector<std::int32_t>& w,
                       const float* llrs,
                       int E,
                       float* coded);

/*!
 * \brief A de-rate-matched frame of \p K float LLRs \p coded (conv_combine_bits()) as
 * int8 input of a Viterbi decoder into \p q: q = round(L 127 / max |L|), halves away
 * from zero (core::quantize_llrs()), so the frame's largest |LLR| is 127; all 0 for a
 * frame of zeros. The max-log Viterbi's decisions do not depend on a frame's scale: only
 * the rounding differs from float input. (The frame's scale is its own: the decoder's
 * int8_scale sets only the magnitudes behind its status.)
 */
void quantize_control_frame(const float* coded, int K, std::int8_t* q);

/*!
 * \brief Attaches the masked CRC to a control block: \p bits holds the A payload bits,
 * and bits[A ... A + 16) gets their CRC-16 XORed with \p mask, the mask's MSB with the
 * first CRC bit (x_rnti,0 of §5.3.3.2, x_ant,0 of §5.3.1.1). Throws
 * std::invalid_argument for A outside 1 ... max_control_bits or a mask outside 0 ...
 * 0xFFFF.
 */
void attach_masked_crc(int A, long mask, std::uint8_t* bits);

/*!
 * \brief The mask of a received control block: \p bits holds A payload bits and the
 * 16 CRC bits received after them; the result is those 16 bits (MSB first) XOR the
 * CRC-16 computed of the payload. Throws std::invalid_argument for A outside 1 ...
 * max_control_bits.
 */
std::uint16_t crc_mask(int A, const std::uint8_t* bits);

/*!
 * \brief The BCH's CRC mask for 1, 2 or 4 transmit antenna ports (§5.3.1.1): 0x0000,
 * 0xFFFF, 0x5555. Throws std::invalid_argument for another count.
 */
std::uint16_t bch_mask(int ports);

//! The antenna ports (1, 2 or 4) of a BCH CRC mask; 0 for a mask that is none of the
//! three (a MIB received in error, or none at all).
int bch_ports(std::uint16_t mask);

/*!
 * \brief The \p E bits sent for a control block of the \p A payload bits \p payload
 * and mask \p mask (the RNTI, or bch_mask()): the CRC-16 masked (attach_masked_crc()),
 * tail-biting encoding by the "lte" code, rate matching (conv_select_bits()). Throws
 * std::invalid_argument naming A outside 1 ... max_control_bits, a mask outside 0 ...
 * 0xFFFF or E < 1.
 */
void control_encode(
    int A, const std::uint8_t* payload, long mask, int E, std::uint8_t* e);

/*!
 * \brief The Viterbi decoder configuration of control blocks: the "lte" code,
 * tail-biting, GNU Radio's LLR sign (invert_llr: positive means 1). The rest (threads,
 * devices, int8_scale, geometry) is the caller's to set before
 * conv::make_viterbi_decoder(config, backend) makes the decoder of control_decode().
 */
conv::viterbi_config control_decoder_config();

/*!
 * \brief Decodes \p n control blocks of \p A payload bits, each received as \p E LLRs,
 * in one call of \p decoder (blind decoding's candidates of one size).
 * \param decoder a Viterbi decoder of the "lte" code, tail-biting, of any backend:
 * conv::make_viterbi_decoder(control_decoder_config(), backend)
 * \param llrs n * E LLRs, block i from llrs + i * E, in the sign \p decoder reads
 * (GNU Radio's, positive means 1, with control_decoder_config()); each block is
 * de-rate-matched (conv_combine_bits()) into one frame of A + 16 bits
 * \param n blocks; 0 returns at once
 * \param payload n * A decoded payload bits out
 * \param masks n masks out (crc_mask() of each decoded block: the RNTI of a DCI, the
 * port mask of a MIB; any value for a block received in error)
 * \param status n of the decoder's statuses, or nullptr (passed is false for a block
 * that carries no information, such as an erased one)
 *
 * A block sent as fewer bits than it has (E < A + 16) cannot be told from the other
 * blocks sent as the same bits: what comes out is one of them at best.
 *
 * Throws std::invalid_argument naming A outside 1 ... max_control_bits, E < 1, and a
 * decoder that does not read 3 (A + 16) LLRs for a frame of A + 16 bits (another
 * termination or rate). The decoder cannot say which code it decodes: one of another
 * rate-1/3 tail-biting code, or of the engine's sign, gives wrong bits and masks.
 */
void control_decode(core::batch_decoder& decoder,
                    int A,
                    int E,
                    const float* llrs,
                    std::size_t n,
                    std::uint8_t* payload,
                    std::uint16_t* masks,
                    core::codeword_status* status = nullptr);

} // namespace gputurbo::lte

#endif
