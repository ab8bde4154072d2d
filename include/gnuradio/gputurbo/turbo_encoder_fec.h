/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_H
#define INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_H

#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gputurbo/api.h>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE turbo encoder (3GPP TS 36.212 §5.1.3.2) as a gr-fec (FECAPI) encoder object,
 * for fec.extended_encoder, fec.encoder, fec.async_encoder and the BER-curve tools.
 * \ingroup gputurbo
 *
 * One frame: K unpacked bits in (one byte per bit; only bit 0 is read), 3K+12 unpacked
 * code bits out in the interleaved order of turbo_encoder (triples d0_k d1_k d2_k for
 * k = 0 ... K+3, the last four holding the 12 termination bits), the input order of
 * turbo_decoder_fec and of turbo_decoder's default layout.
 */
class GPUTURBO_API turbo_encoder_fec : virtual public gr::fec::generic_encoder
{
public:
    /*!
     * \brief Makes an LTE turbo encoder object.
     *
     * \param frame_size K, information bits per frame: one of the 188 LTE block sizes,
     *        40 ... 6144 (ValueError naming the nearest valid sizes otherwise)
     */
    static gr::fec::generic_encoder::sptr make(int frame_size);

    /*!
     * \brief Sets K for the following frames. Returns false, logs the reason and keeps
     * the old K when \p frame_size is not an LTE block size.
     * \param frame_size the new K
     */
    bool set_frame_size(unsigned int frame_size) override = 0;

    //! Inverse code rate (3K+12) / K, output bits per input bit (gr-fec's encoders
    //! report 1/R).
    double rate() override = 0;

    //! Information bits per frame (K).
    virtual int block_size() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_H */
