/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_ENCODER_H
#define INCLUDED_GPUTURBO_TURBO_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE turbo encoder (3GPP TS 36.212 §5.1.3.2), rate 1/3 with trellis termination.
 * \ingroup gputurbo
 *
 * Input: unpacked bits (one byte per bit, 0 or 1; only bit 0 is read), K per codeword.
 * Output: unpacked bits, 3K+12 per codeword: the streams d0 (systematic), d1 (parity of
 * the first encoder) and d2 (parity of the second encoder), K+4 bits each including the
 * 12 termination bits, in the order chosen by \p layout.
 *
 * The block works on whole codewords: each K input bits give exactly 3K+12 output bits.
 * Input bits that do not fill a codeword when the stream ends are not encoded; their
 * number is logged as a warning and returned by partial_items().
 */
class GPUTURBO_API turbo_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<turbo_encoder> sptr;

    /*!
     * \brief Makes an LTE turbo encoder.
     *
     * \param K information bits per codeword: one of the 188 LTE block sizes, 40 ... 6144
     *        (ValueError naming the nearest valid sizes otherwise)
     * \param layout order of the 3K+12 output bits: "interleaved" (triples d0_k d1_k d2_k
     *        for k = 0 ... K+3, as 36.212 and srsRAN) or "streams" (d0 | d1 | d2)
     */
    static sptr make(int K, const std::string& layout = "interleaved");

    //! Information bits per codeword (K).
    virtual int block_size() const = 0;

    //! Output bits per codeword (3K+12).
    virtual int codeword_length() const = 0;

    //! Input items left unencoded when the block stopped (a partial codeword), else 0.
    virtual std::uint64_t partial_items() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_ENCODER_H */
