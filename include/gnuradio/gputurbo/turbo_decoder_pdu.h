/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_PDU_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE turbo decoder for PDUs: one codeword per message, any of the 188 LTE block
 * sizes, decoded many at a time.
 * \ingroup gputurbo
 *
 * Message input "pdus": a PDU (pair of a metadata dict and an f32vector) holding the
 * 3K+12 float LLRs of one codeword, in the order of \p layout, with the sign of
 * \p llr_sign (by default GNU Radio's: a positive LLR means bit 1). K is the metadata's
 * "K" (an integer) if present, else (length - 12) / 3.
 *
 * Message output "pdus": for each input PDU, in arrival order, a PDU whose data is a
 * u8vector of the K decoded bits (one byte per bit, 0 or 1) and whose metadata is the
 * input's plus "K" (int), "iterations" (full iterations run, int) and "passed" (the
 * early-stop rule held and the codeword carries information: erased or near-zero input
 * never passes; with early_stop "off" only that fails). With \p output "llr" or
 * "extrinsic" the data is an f32vector of K floats instead, as turbo_decoder's soft
 * output stream has them, or with \p output_type "int8" an s8vector of K values
 * round(L * int8_scale) saturated to +-127; the metadata is the same.
 *
 * PDUs that arrive close together are decoded together: the block collects messages
 * while more are queued behind them, up to max_batch, and then makes one engine call per
 * block size among them (on CUDA, concurrent launches). One engine decodes every block
 * size. A PDU that cannot be decoded (not a pair, metadata not a dict, data not an
 * f32vector, a length that is not 3K+12 of a valid K, or a decoding error) is answered,
 * in its place, by a PDU with empty data (a u8vector; with soft output an f32vector or
 * an s8vector) and metadata "passed" = false and "error" = the reason. No PDU is
 * dropped. Failures are logged as errors, the first ten one by one, the later ones in a
 * summary line at most once a second (and at stop()) with their number and the last
 * reason; failed_pdus() counts them all.
 */
class GPUTURBO_API turbo_decoder_pdu : virtual public gr::block,
                                       public pdu_decoder_status,
                                       public turbo_iterations
{
public:
    typedef std::shared_ptr<turbo_decoder_pdu> sptr;

    /*!
     * \brief Makes a PDU turbo decoder of \p options
     * (turbo_options_from("turbo_decoder_pdu", …)): the arguments of turbo_decoder, less
     * K (each PDU brings its own), the input type and the stream's options. Subblocks
     * P applies to every K: a PDU whose K it does not divide fails, and a P that
     * divides no LTE size, or a guard window above K/P for every K that P divides, is
     * refused. max_batch counts PDUs decoded together (0: automatic, 1024 on CUDA, 64 on
     * the CPU). Bad parameters raise ValueError; a backend this build or machine lacks
     * raises RuntimeError.
     */
    static sptr make(const turbo_options& options);
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_PDU_H */
