/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_PBCH_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_PBCH_H

/*!
 * \file pbch.h
 * \brief The MIB (3GPP TS 36.331 §6.2.2) and the PBCH that carries it (36.212 §5.3.1,
 *        36.211 §6.6): the BCH block of 24 MIB bits (control.h, the CRC masked by the
 *        antenna ports) is rate matched to E bits (1920 with a normal cyclic prefix,
 *        1728 with an extended one), scrambled with the cell's sequence (c_init =
 *        N_cell_ID, started in each radio frame with n_f mod 4 = 0) and sent over 40 ms:
 *        the radio frame with n_f mod 4 = i carries bits [i E / 4, (i + 1) E / 4).
 *
 * The receiver does not know where in the 40 ms period its radio frames are. From a
 * window of up to four consecutive frames it tries each position that the window's
 * received parts fit in, all windows' hypotheses in one call of a Viterbi decoder of
 * any backend (pbch_decode()), and takes the one whose CRC carries an antenna-port mask:
 * the MIB, the cell's antenna ports and the SFN of the window's first frame.
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h> // max_cell_id
#include <gnuradio/gputurbo/engine/lte/search_space.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gputurbo::lte {

//! Bits of the MIB.
constexpr int mib_bits = 24;

//! The radio frames a BCH block is sent over (40 ms), each with one part of its E bits.
constexpr int pbch_parts = 4;

//! The PHICH duration of the MIB (36.211 Table 6.9.3-1).
enum class phich_duration { normal, extended };

//! The cyclic prefix of the cell's OFDM symbols.
enum class cyclic_prefix { normal, extended };

/*!
 * \brief The fields of the MIB, in the order 36.331 sends them (unaligned PER: 3 + 1 +
 * 2 + 8 + 10 bits, MSB first).
 */
struct mib
{
    int n_prb = 100; //!< dl-Bandwidth: 6, 15, 25, 50, 75 or 100 resource blocks
    phich_duration duration = phich_duration::normal; //!< phich-Duration
    phich_resource ng = phich_resource::one;          //!< phich-Resource N_g
    //! systemFrameNumber: the 8 MSBs of the SFN (SFN / 4), 0 … 255; the 2 LSBs are the
    //! radio frame's place in the 40 ms period
    int sfn_msbs = 0;
    //! the 10 bits after it, 0 … 1023 (spare in Release 8, some of them used later)
    int spare = 0;

    bool operator==(const mib& o) const
    {
        return n_prb == o.n_prb && duration == o.duration && ng == o.ng &&
               sfn_msbs == o.sfn_msbs && spare == o.spare;
    }
};

/*!
 * \brief The 24 bits of \p m, one a byte, dl-Bandwidth's MSB first. Throws
 * std::invalid_argument naming n_prb not one of 6, 15, 25, 50, 75, 100, a duration or
 * ng that is no value of its enum, sfn_msbs outside 0 … 255 and spare outside 0 … 1023.
 */
std::array<std::uint8_t, mib_bits> pack_mib(const mib& m);

/*!
 * \brief The fields of the 24 MIB bits at \p bits (bit 0 of each byte read); none where
 * dl-Bandwidth is 6 or 7, values that 36.331 leaves undefined (a block decoded in error
 * can hold them).
 */
std::optional<mib> parse_mib(const std::uint8_t* bits);

//! E, the bits sent for a BCH block over 40 ms: 1920 (normal cyclic prefix) or 1728.
int pbch_bits(cyclic_prefix cp);

/*!
 * \brief The pbch_bits(\p cp) scrambled bits that send \p m from a cell of \p ports
 * transmit antenna ports (1, 2 or 4: the CRC mask) and identity \p cell_id (0 … 503):
 * control_encode() of its 24 bits, each bit k then XORed with c(k) of the sequence of
 * c_init = cell_id (scrambling.h). Part i (i = 0 … 3), bits [i E / 4, (i + 1) E / 4), is
 * sent in the radio frames with n_f mod 4 = i. Throws std::invalid_argument naming a
 * field of \p m as pack_mib() does, \p ports other than 1, 2, 4 and \p cell_id out of
 * range.
 */
std::vector<std::uint8_t>
pbch_encode(const mib& m, int ports, int cell_id, cyclic_prefix cp);

/*!
 * \brief Where a window of radio frames comes from: up to four consecutive frames of
 * one cell, their positions in the 40 ms period unknown.
 */
struct pbch_window
{
    int cell_id = 0; //!< N_cell_ID, 0 … 503
    /*!
     * Bit k (k = 0 … 3): the part of the window's frame k was received. Bit 0 must be
     * set (the window starts at its first part received); 1 … 4 consecutive parts are
     * (1 << count) - 1, and other odd masks (0b1011: frame 2 lost) are taken as well.
     */
    unsigned parts = 0b1111;
};

//! What pbch_decode() found in a window.
struct pbch_result
{
    std::array<std::uint8_t, mib_bits> bits{}; //!< the MIB's bits as decoded
    //! parse_mib() of them; none where they hold an undefined dl-Bandwidth
    std::optional<mib> message;
    int ports = 0;  //!< the cell's transmit antenna ports, 1, 2 or 4 (the CRC mask)
    int offset = 0; //!< n_f mod 4 of the window's first frame, 0 … 3
    core::codeword_status status; //!< the decoder's, of this hypothesis

    //! The SFN of the window's first frame: 4 systemFrameNumber + offset.
    int sfn() const;
};

/*!
 * \brief Decodes the MIBs of \p n windows of radio frames in one call of \p decoder.
 *
 * For each window and each offset o its parts fit in (o + k <= 3 for each part k
 * received: 4 hypotheses for one part, 1 for four), the parts' LLRs are descrambled
 * with bits [(o + k) E / 4, (o + k + 1) E / 4) of the cell's sequence and put in those
 * places of an E-LLR block, the other parts erased (0); control_decode() decodes every
 * window's hypotheses together. A window's result is its lowest offset whose status
 * passed (the block carries information) and whose CRC mask is an antenna-port mask;
 * none where no offset gives one. A window whose parts straddle two periods (two MIBs)
 * fits none of its parts' positions and gives none at best.
 *
 * \param decoder a Viterbi decoder of any backend made with control_decoder_config()
 * \param cp the cyclic prefix of every window's cell: E = pbch_bits(cp)
 * \param windows n windows
 * \param llrs n * E LLRs, window j from llrs + j * E: part k of its frames (E / 4 LLRs,
 * GNU Radio's sign: positive means 1) from k * E / 4; parts not received are not read
 * \param n windows; 0 returns none at once
 *
 * Noise passes the CRC with one of its three masks at 3 / 65536 a hypothesis, a wrong
 * cell identity at about as much; a false MIB holds an undefined dl-Bandwidth a quarter
 * of the time (message is none). Memory: E floats a hypothesis for the E-LLR blocks.
 *
 * Throws std::invalid_argument naming a window's cell_id out of range and parts
 * without bit 0 or outside 1 … 15, and what control_decode() refuses (a decoder of
 * another code).
 */
std::vector<std::optional<pbch_result>> pbch_decode(core::batch_decoder& decoder,
                                                    cyclic_prefix cp,
                                                    const pbch_window* windows,
                                                    const float* llrs,
                                                    std::size_t n);

} // namespace gputurbo::lte

#endif
