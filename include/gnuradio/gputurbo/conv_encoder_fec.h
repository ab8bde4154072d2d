/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_ENCODER_FEC_H
#define INCLUDED_GPUTURBO_CONV_ENCODER_FEC_H

#include <gnuradio/fec/cc_common.h>
#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>

#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

/*!
 * \brief Convolutional encoder as a gr-fec (FECAPI) encoder object that takes gr-fec's
 * cc_encoder arguments (fec.cc_encoder_make(...) becomes
 * gputurbo.conv_encoder_fec.make(...)) and makes the same bits.
 * \ingroup gputurbo
 *
 * A frame: frame_size unpacked bits in (one byte per bit; only bit 0 is read), the code
 * bits out, unpacked, the outputs of each step in the order of the polys: CC_TERMINATED
 * (frame + K-1) * rate bits with the tail back to state 0 (plus, with \p padded, zeros
 * to a whole byte), CC_TRUNCATED and CC_TAILBITING frame * rate bits, CC_STREAMING
 * frame * rate bits of one stream whose state carries from frame to frame.
 * set_frame_size() accepts 1 ... frame_size bits (at least K-1 when tail-biting).
 */
class GPUTURBO_API conv_encoder_fec : virtual public gr::fec::generic_encoder,
                                      public conv_code
{
public:
    /*!
     * \brief Makes a convolutional encoder object; ValueError names a bad parameter.
     *
     * \param frame_size information bits per frame (the most set_frame_size() accepts),
     *        1 ... 2^20
     * \param k constraint length K, 3 ... 9
     * \param rate code bits per information bit n: the number of polys
     * \param polys generators in gr-fec's form (bit i taps the bit i steps old; negative:
     *        the output inverted)
     * \param start_state 0
     * \param mode CC_STREAMING, CC_TERMINATED, CC_TRUNCATED or CC_TAILBITING
     * \param padded CC_TERMINATED: pad each frame's code bits with zeros to a whole byte
     */
    static gr::fec::generic_encoder::sptr make(int frame_size,
                                               int k,
                                               int rate,
                                               std::vector<int> polys,
                                               int start_state = 0,
                                               cc_mode_t mode = CC_STREAMING,
                                               bool padded = false);

    /*!
     * \brief Sets the frame's information bits for the following frames; false (and the
     * frame kept) for more than frame_size or, tail-biting, fewer than K-1.
     * \param frame_size the new frame size
     */
    bool set_frame_size(unsigned int frame_size) override = 0;

    //! Code bits per information bit n, as cc_encoder (gr-fec's encoders report 1/R).
    double rate() override = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_CONV_ENCODER_FEC_H */
