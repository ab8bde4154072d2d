/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BLOCK_INTERFACES_H
#define INCLUDED_GPUTURBO_BLOCK_INTERFACES_H

#include <gnuradio/gputurbo/api.h>

#include <cstdint>
#include <string>

// What several blocks declare alike, declared once: each block's interface derives from
// those it offers.

namespace gr {
namespace gputurbo {

/*!
 * \brief What every decoder, block or gr-fec object, says of the engine it runs on.
 * \ingroup gputurbo
 */
class GPUTURBO_API engine_status
{
public:
    virtual ~engine_status() = default;

    //! The engine backend in use: "cpu" or "cuda" (dlsch_decoder_pdu,
    //! pdcch_decoder_pdu: also "reference").
    virtual std::string backend() const = 0;

    //! A description of the device the backend runs on.
    virtual std::string device() const = 0;
};

/*!
 * \brief What the stream decoder blocks (turbo_decoder, viterbi_decoder) count of the
 * input they could not decode.
 * \ingroup gputurbo
 */
class GPUTURBO_API stream_decoder_status : public engine_status
{
public:
    //! Input items left undecoded when the stream ended: a partial codeword or frame, or
    //! the LLRs of a partial step of a Viterbi stream; else 0.
    virtual std::uint64_t partial_items() const = 0;

    //! Length tags dropped since the block was made: not on a codeword's (a frame's)
    //! boundary, or not a whole number of them (a Viterbi stream drops none).
    virtual std::uint64_t misaligned_length_tags() const = 0;
};

/*!
 * \brief What the PDU decoder blocks (turbo_decoder_pdu, viterbi_decoder_pdu,
 * dlsch_decoder_pdu, pdcch_decoder_pdu) count of the PDUs they answer.
 * \ingroup gputurbo
 */
class GPUTURBO_API pdu_decoder_status : public engine_status
{
public:
    //! Most PDUs decoded together (the choice when made with max_batch = 0).
    virtual int max_batch() const = 0;

    //! PDUs decoded since the block was made (whether they passed or not).
    virtual std::uint64_t decoded_pdus() const = 0;

    //! PDUs answered as failed (with an "error") since the block was made.
    virtual std::uint64_t failed_pdus() const = 0;

    //! Batches since the block was made: PDUs decoded together, each batch one engine
    //! call (turbo_decoder_pdu, viterbi_decoder_pdu: one per block size among them;
    //! pdcch_decoder_pdu: one search, a decoder call per DCI size).
    virtual std::uint64_t batches() const = 0;
};

/*!
 * \brief What the gr-fec decoder objects (turbo_decoder_fec, viterbi_decoder_fec)
 * count of the frames gr-fec hands them.
 * \ingroup gputurbo
 */
class GPUTURBO_API fec_decoder_status : public engine_status
{
public:
    //! Frames decoded since the object was made (turbo_decoder_fec: codewords).
    virtual std::uint64_t frames() const = 0;

    //! Frames refused since the object was made (see set_frame_size()), each counted
    //! once when gr-fec passes it to generic_work().
    virtual std::uint64_t refused_frames() const = 0;
};

/*!
 * \brief The iterations of the turbo decoder blocks (turbo_decoder, turbo_decoder_pdu),
 * settable while they run.
 * \ingroup gputurbo
 */
class GPUTURBO_API turbo_iterations
{
public:
    virtual ~turbo_iterations() = default;

    /*!
     * \brief Sets the number of full iterations (the maximum with early stopping),
     * 1 ... 32; ValueError otherwise. Applies from the next batch.
     * \param iterations full turbo iterations
     */
    virtual void set_iterations(int iterations) = 0;

    //! Full iterations per codeword (the maximum with early stopping).
    virtual int iterations() const = 0;
};

/*!
 * \brief The code of the convolutional blocks and objects (conv_encoder,
 * conv_encoder_fec, viterbi_decoder, viterbi_decoder_pdu, viterbi_decoder_fec).
 * \ingroup gputurbo
 */
class GPUTURBO_API conv_code
{
public:
    virtual ~conv_code() = default;

    //! The code: K and the polynomials in octal, "-" where an output is inverted
    //! ("K=7 133,171").
    virtual std::string code() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_BLOCK_INTERFACES_H */
