/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief Viterbi decoder for PDUs: one frame per message, of any length, decoded many at
 * a time.
 * \ingroup gputurbo
 *
 * Message input "pdus": a PDU (pair of a metadata dict and an f32vector) holding the
 * float LLRs of one frame's sent code bits (the punctured ones left out, the pattern
 * starting at the frame's first step), with the sign of \p llr_sign (by default GNU
 * Radio's: a positive LLR means bit 1). The frame's information bits are the metadata's
 * "frame_bits" (an integer) if present, else those whose sent length is the PDU's.
 *
 * Message output "pdus": for each input PDU, in arrival order, a PDU whose data is a
 * u8vector of the decoded bits (one byte per bit, 0 or 1) and whose metadata is the
 * input's plus "frame_bits" (int) and "passed" (the frame's mean |L| carries
 * information: erased or near-zero input does not pass; and a terminated frame's best
 * end state is its tail's, 0). With \p output "llr" the data is an f32vector of
 * frame_bits floats instead, with "code-extrinsic" one of the input's length, as
 * viterbi_decoder's soft output has them (with \p output_type "int8" an s8vector of
 * round(L * int8_scale) saturated to +-127); the metadata is the same.
 *
 * PDUs that arrive close together are decoded together: the block collects messages
 * while more are queued behind them, up to max_batch, and then makes one engine call per
 * frame size among them. A PDU that cannot be decoded (not a pair, metadata not a dict,
 * data not an f32vector, a length that no frame size sends, a metadata frame_bits that
 * does not fit its length, or a decoding error) is answered, in its place, by a PDU with
 * empty data (a u8vector; with soft output an f32vector or an s8vector) and metadata
 * "passed" = false and "error" = the reason. No PDU is dropped. Failures are logged as
 * errors, the first ten one by one, the later ones in a summary line at most once a
 * second (and at stop()); failed_pdus() counts them all.
 */
class GPUTURBO_API viterbi_decoder_pdu : virtual public gr::block,
                                         public pdu_decoder_status,
                                         public conv_code
{
public:
    typedef std::shared_ptr<viterbi_decoder_pdu> sptr;

    /*!
     * \brief Makes a PDU Viterbi decoder of \p options
     * (viterbi_options_from("viterbi_decoder_pdu", …)): the arguments of
     * viterbi_decoder, less frame_bits (each PDU brings its own), the input type and
     * the stream's; the termination is a frame's: "terminated", "truncated" or
     * "tail-biting". max_batch counts PDUs decoded together (0: automatic, 1024 on CUDA,
     * 64 on the CPU). Bad parameters raise ValueError; a backend this build or machine
     * lacks raises RuntimeError.
     */
    static sptr make(const viterbi_options& options);
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_H */
