/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CONV_CODE_H
#define INCLUDED_GPUTURBO_ENGINE_CONV_CODE_H

/*!
 * \file code.h
 * \brief Rate-1/n convolutional codes: the code (constraint length, generator
 *        polynomials, inverted outputs), named presets, frame termination, puncturing,
 *        and the encoder.
 *
 * Polynomials are in the textbook octal convention (MATLAB's poly2trellis, 802.11's
 * 133/171): bit K-1 (the MSB) taps the current input bit, bit 0 the oldest one. An output
 * may be inverted (CCSDS inverts its second). gr-fec's cc_encoder takes the same
 * polynomials bit-reversed, with a negative value for an inverted output.
 *
 * Order of the coded bits: for each trellis step t, the n outputs c_0(t) … c_{n-1}(t)
 * (the order of gr-fec's cc_encoder). Puncturing then drops bits of that sequence by a
 * pattern per output; depuncturing puts erasures (LLR 0) back in their place.
 */

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gputurbo::conv {

constexpr int min_constraint = 3;
constexpr int max_constraint = 9;
constexpr int min_outputs = 2;
constexpr int max_outputs = 4;

//! How a frame starts and ends.
enum class termination {
    terminated,  //!< starts in state 0; K-1 zero tail bits bring it back to state 0
    truncated,   //!< starts in state 0; no tail, the frame ends in any state
    tail_biting, //!< starts in the state its last K-1 bits leave it in; no tail
    streaming    //!< a continuous stream: frames are consecutive pieces of it
};

const char* to_string(termination t); //!< "terminated", "truncated", …
//! "terminated" | "truncated" | "tail-biting" | "streaming"; std::invalid_argument else.
termination parse_termination(std::string_view name);

//! A rate-1/n convolutional code.
struct code
{
    int constraint = 7;                //!< K = 3 … 9: memory K-1, 2^(K-1) states
    std::vector<unsigned> polynomials; //!< n = 2 … 4 generators, octal convention above
    std::vector<bool> inverted;        //!< per output: the coded bit is inverted

    int outputs() const { return int(polynomials.size()); }
    int states() const { return 1 << (constraint - 1); }

    //! Throws std::invalid_argument naming what is wrong: K out of range, n out of range,
    //! a polynomial wider than K bits or zero, inverted of another length than
    //! polynomials.
    void validate() const;

    //! The coded bits of one step (bit o: output o) for the register \p reg: the current
    //! input at bit K-1, the oldest at bit 0. The encoder and every decoder's trellis
    //! read the code through it.
    unsigned coded_bits(unsigned reg) const
    {
        unsigned bits = 0;
        for (int o = 0; o < outputs(); ++o)
            bits |= unsigned(__builtin_parity(reg & polynomials[o]) ^ inverted[o]) << o;
        return bits;
    }

    //! "K=7 171,-133": the constraint and the polynomials in octal, a minus marking an
    //! inverted output (the text parse_code() reads).
    std::string text() const;
};

//! A code from K and "171,-133" (octal, a leading minus inverts that output); validated.
code parse_code(int constraint, std::string_view polynomials);

/*!
 * \brief The named codes: "ccsds" (K=7 171,-133: CCSDS 131.0-B, G2 inverted), "802.11"
 * and "dvb" (K=7 133,171: IEEE 802.11 §17.3.5.6, ETSI EN 300 421), "lte" (K=7
 * 133,171,165, tail-biting in LTE: 36.212 §5.1.3.1), "gsm" (K=5 23,33: 3GPP TS 45.003),
 * "cdma-r2" (K=9 753,561) and "cdma-r3" (K=9 557,663,711: IS-95/cdma2000). Throws
 * std::invalid_argument with the names for another.
 */
code preset(std::string_view name);
std::vector<std::string> preset_names();

/*!
 * \brief Which coded bits are sent: keep[s][j] for output s at step j of a period.
 * Empty keep: no puncturing.
 */
struct puncturing
{
    std::vector<std::vector<std::uint8_t>> keep; //!< [outputs][period], each 0 or 1

    bool none() const { return keep.empty(); }
    int period() const { return none() ? 1 : int(keep[0].size()); }
    //! Coded bits sent per period (n when none).
    int kept_per_period(int outputs) const;
};

/*!
 * \brief A puncturing of code \p c: "" or "none"; a rate "2/3", "3/4", "5/6" or "7/8"
 * for the K=7 code of generators 171 and 133 (in either order, either inverted): the
 * patterns of DVB-S and DVB-T (ETSI EN 300 421 Table 2, EN 300 744), which 802.11
 * (rates 2/3, 3/4, 5/6) and CCSDS 131.0-B share, given for the 171 output (X) and the
 * 133 output (Y); or explicit patterns per output in the code's order, "110,101". Throws
 * std::invalid_argument for a rate of another code, a pattern with no ones, patterns of
 * unequal lengths, another count than the code's outputs, or a character other than 0
 * and 1.
 */
puncturing parse_puncturing(std::string_view text, const code& c);

/*!
 * \brief Whether two paths of the code, punctured by \p p, can leave different states
 * and send the same bits forever (a catastrophic code, such as K=5 23,33 punctured by
 * 110,101): a decoder that does not know the start state, as every segment after a
 * stream's first does, cannot tell them apart, and one error can be followed by
 * unboundedly many. Exact for codes with 2^(2(K-1)) times the period below 2^24 (every
 * K <= 9 code with a period up to 256); false beyond.
 */
bool catastrophic(const code& c, const puncturing& p);

//! Throws std::invalid_argument unless a frame of \p frame_bits information bits can be
//! encoded: at least one bit, and at least K-1 when tail-biting.
void check_frame_bits(const code& c, termination t, int frame_bits);

//! Trellis steps of a frame of \p frame_bits information bits: frame_bits, plus K-1
//! tail steps when terminated.
std::size_t steps(const code& c, termination t, int frame_bits);

//! Coded bits of a frame before puncturing: n * steps().
std::size_t coded_length(const code& c, termination t, int frame_bits);

//! Coded bits sent per frame after puncturing (the pattern restarts at each frame).
std::size_t
punctured_length(const code& c, const puncturing& p, termination t, int frame_bits);

/*!
 * \brief Encodes n_frames frames of \p frame_bits bits (unpacked, 0 or 1) into
 * coded_length() bits each. streaming encodes the frames as one stream (the state
 * carries from frame to frame, starting from 0) and \p state, when given, holds the
 * encoder state across calls.
 */
void encode(const code& c,
            termination t,
            int frame_bits,
            const std::uint8_t* bits,
            std::size_t n_frames,
            std::uint8_t* coded,
            unsigned* state = nullptr);

//! The coded_length() index of each of the punctured_length() bits a frame sends.
std::vector<std::uint32_t>
sent_positions(const code& c, const puncturing& p, termination t, int frame_bits);

//! Drops the punctured bits of each frame: coded_length() in, punctured_length() out.
void puncture(const code& c,
              const puncturing& p,
              termination t,
              int frame_bits,
              const std::uint8_t* coded,
              std::size_t n_frames,
              std::uint8_t* sent);

//! Puts erasures (0) where bits were punctured: punctured_length() LLRs in,
//! coded_length() out, per frame.
void depuncture(const code& c,
                const puncturing& p,
                termination t,
                int frame_bits,
                const float* received,
                std::size_t n_frames,
                float* llrs);

} // namespace gputurbo::conv

#endif
