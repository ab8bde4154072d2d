/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_ENCODER_H
#define INCLUDED_GPUTURBO_CONV_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief Convolutional encoder, with puncturing: a continuous stream, or frames.
 * \ingroup gputurbo
 *
 * Input: unpacked bits (one byte per bit, 0 or 1; only bit 0 is read). Output: the code
 * bits sent, unpacked: for each trellis step the n outputs in the order of the
 * polynomials (gr-fec's cc_encoder order), an inverted output's bit inverted, the
 * punctured ones left out; what viterbi_decoder takes (as LLRs) with the same
 * parameters.
 *
 * termination "streaming": one stream from state 0, the state and the puncturing
 * pattern running on across work calls, a puncturing period of input bits at a time;
 * bits of a partial period at the end of the stream are not encoded (counted by
 * partial_items() and logged). "terminated" (K-1 zero tail bits after each frame),
 * "truncated" or "tail-biting": frames of \p frame_bits bits, each encoded on its own
 * (the pattern starting again at each frame); a partial frame at the end is not
 * encoded. Tags move by the rate (input item i to output item floor(i * out / in), in
 * and out the bits of a period or of a frame).
 */
class GPUTURBO_API conv_encoder : virtual public gr::block, public conv_code
{
public:
    typedef std::shared_ptr<conv_encoder> sptr;

    /*!
     * \brief Makes a convolutional encoder; ValueError names a bad parameter. The
     * parameters are viterbi_decoder's.
     *
     * \param frame_bits information bits per frame, 1 ... 2^20 (not used when streaming)
     * \param preset a named code, or "none" for the code of \p constraint and \p polys
     * \param constraint constraint length K, 3 ... 9
     * \param polys generator polynomials in octal ("133,171"; "-" inverts an output)
     * \param puncture "" (none), "2/3" … "7/8" (the K = 7 code of 171 and 133), or
     *        patterns per output ("110,101")
     * \param termination "streaming" (the default, as viterbi_decoder's),
     *        "terminated", "truncated" or "tail-biting"
     */
    static sptr make(int frame_bits = 1024,
                     const std::string& preset = "none",
                     int constraint = 7,
                     const std::string& polys = "133,171",
                     const std::string& puncture = "",
                     const std::string& termination = "streaming");

    //! Input bits of a unit of work: a puncturing period (streaming) or a frame.
    virtual int input_unit() const = 0;

    //! Output bits of a unit of work.
    virtual int output_unit() const = 0;

    //! Input items left unencoded when the block stopped (a partial period or frame).
    virtual std::uint64_t partial_items() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_CONV_ENCODER_H */
