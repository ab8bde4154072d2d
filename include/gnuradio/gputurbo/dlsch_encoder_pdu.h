/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_H
#define INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>

#include <cstdint>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE DL-SCH transport-block encoder for PDUs (3GPP TS 36.212 §5.3.2): one
 * transport block per message in, its G rate-matched bits out.
 * \ingroup gputurbo
 *
 * Message input "pdus": a PDU (pair of a metadata dict and a u8vector) holding the
 * transport block's tbs data bits: unpacked, one byte per bit (only bit 0 is read), or
 * with \p packed, 8 bits a byte, the first bit in the most significant bit (the last
 * byte's unused low bits are ignored). The metadata gives the format, each an integer:
 * "tbs" (else the PDU's bits: its length, or 8 times it when packed), "G" (the bits
 * sent; else "resource_elements" gives G = resource_elements * Qm * layers; one of them
 * is required), "Qm", "layers", "rv", "soft_buffer" (N_IR) and "c_init" (-1: no
 * scrambling), each of the last five taking the block's parameter of that name when
 * absent.
 *
 * Message output "pdus": for each input PDU, in arrival order, a PDU of the G bits sent
 * (u8vector, one byte per bit): CRC-24A, code-block segmentation and CRC-24B, turbo
 * encoding, rate matching from rv, concatenation and, when c_init is not -1,
 * scrambling. Its metadata is the input's plus the format used ("tbs", "G", "Qm",
 * "layers", "rv", "soft_buffer", "c_init"), which dlsch_decoder_pdu reads. A PDU that
 * cannot be encoded (not a pair, metadata not a dict, data not a u8vector, no tbs or G,
 * a length that does not hold tbs bits, a format transport_format::validate() refuses)
 * is answered, in its place, by a PDU with an empty u8vector and metadata "error" = the
 * reason; it is logged as the decoders log theirs (the first ten one by one, then a
 * summary at most once a second) and counted by failed_pdus(). No PDU is dropped.
 */
class GPUTURBO_API dlsch_encoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<dlsch_encoder_pdu> sptr;

    /*!
     * \brief Makes a DL-SCH PDU encoder. Bad parameters raise ValueError.
     *
     * \param packed the input data are packed bytes (MSB first), not one bit a byte
     * \param Qm bits per modulation symbol where the metadata has no "Qm": 2, 4, 6 or 8
     * \param layers transmission layers where the metadata has no "layers": 1 ... 4
     * \param rv redundancy version where the metadata has no "rv": 0 ... 3
     * \param soft_buffer N_IR in bits where the metadata has no "soft_buffer"; 0 = no
     *        limit
     * \param c_init scrambling where the metadata has no "c_init": 0 ... 2^31 - 1, or
     *        -1 = none
     */
    static sptr make(bool packed = false,
                     int Qm = 2,
                     int layers = 1,
                     int rv = 0,
                     long soft_buffer = 0,
                     long c_init = -1);

    //! PDUs encoded since the block was made.
    virtual std::uint64_t encoded_pdus() const = 0;

    //! PDUs answered as failed since the block was made.
    virtual std::uint64_t failed_pdus() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_H */
