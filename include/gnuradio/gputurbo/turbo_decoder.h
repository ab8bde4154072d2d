/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief Batched LTE turbo decoder (3GPP TS 36.212 §5.1.3.2).
 * \ingroup gputurbo
 *
 * Input: LLRs, 3K+12 per codeword, in the order of \p layout (the output order of
 * turbo_encoder): float, or int8 (\p input_type "int8": the value q means q /
 * int8_scale). Sign (\p llr_sign): by default GNU Radio's, a positive value means bit
 * 1, as digital.constellation_soft_decoder_cf and gr-fec produce (L = ln P(1)/P(0); for
 * BPSK 0 -> -1, 1 -> +1 over AWGN, L = 2y / sigma^2); "positive-zero" takes
 * L = ln P(0)/P(1). NaN is treated as an erasure (0)
 * and every value is clamped to +-1000, so +-Inf acts as +-1000. To feed int8 from float
 * LLRs in a flowgraph, put blocks.float_to_char(1, int8_scale) in front: it rounds and
 * saturates to -128 ... 127 (-128 reads as -128 / int8_scale, a firm 1).
 * Output (\p output): K unpacked hard bits per codeword (one byte per bit, 0 or 1;
 * "bits", the default); or K floats per codeword in the sign of \p llr_sign (by default
 * positive means 1): the a-posteriori LLR of each information bit ("llr"), whose sign is
 * its hard decision, or the extrinsic LLR ("extrinsic": the a-posteriori less the bit's
 * own systematic input LLR as the decoder read it). With \p output_type "int8" the soft
 * values are int8 items instead of floats, a byte a value instead of 4, in the units
 * of int8 input: round(L * int8_scale), saturated to +-127. Tags sit on the same items
 * either way.
 *
 * Batches of up to max_batch codewords go to the engine. On the CUDA backend the block
 * keeps up to \p batches_in_flight batches in the GPU. A work call either submits a new
 * batch (when whole codewords wait and the pipeline has room) or returns the oldest
 * batch's bits, never both: a call that submits returns at once, so the input space goes
 * back upstream while the GPU decodes. A batch is returned as soon as no further codeword
 * waits, and at the end of the stream every batch in flight is returned before the block
 * finishes. The CPU backend decodes inside the call that submits a batch;
 * batches_in_flight only delays its output there.
 *
 * The block asks for output space of one whole batch (max_batch * K items) per call, and
 * GNU Radio then gives the upstream block an output buffer of about two batches of
 * input: no min_output_buffer setting is needed for full batches.
 *
 * Codeword tags (\p codeword_tags): on the first output bit of each failed codeword (the
 * default), of every codeword ("all") or of none; key "codeword", value a dict {"index":
 * codeword number from 0 (uint64), "iterations": full iterations run (int), "passed":
 * whether the early-stop rule held at the end and the codeword carries information
 * (bool; erased or near-zero input, mean |a-posteriori LLR| below 0.01, never passes:
 * its all-zero decisions would pass a CRC; with early_stop "off" only those fail)}. A tag
 * per codeword costs GNU Radio a few microseconds, which dominates at small K; the
 * default costs nothing on a healthy stream. Input tags move to the codeword they arrived
 * in: a tag on input item i of a codeword goes to its output bit floor(i * K / (3K+12)).
 *
 * Tagged streams: a length tag (key \p length_tag_key, "packet_len" by default) on the
 * first item of a codeword whose value L counts whole codewords, L = m * (3K+12), leaves
 * on that codeword's first output bit with the value m * K, so that tagged-stream blocks
 * downstream (pdu.tagged_stream_to_pdu) get whole decoded packets. A length tag that is
 * not on a codeword boundary, or whose value is not a positive whole number of
 * codewords, is dropped rather than passed on with a wrong length: it is logged as a
 * warning (the first ten one by one, then a summary at most once a second and when the
 * block stops) and counted by
 * misaligned_length_tags(). A tagged-stream block downstream then sees no tag for that
 * packet (GNU Radio's own fail with "Missing a required length tag" and stop). With
 * length_tag_key "" no tag is treated as a length tag: a "packet_len" tag then moves
 * like any other, its value unchanged.
 *
 * Input values that do not fill a codeword when the stream ends are not decoded; their
 * number is logged as a warning and returned by partial_items(). A flowgraph that ends
 * with whole codewords, every one delivered, logs no warning.
 *
 * Stop and restart: stop() waits for the batches in flight and discards their bits
 * (logged as a warning with their number). A restart, top_block::start() after stop()
 * and wait() or unlock() after lock(), gives every block empty buffers (GNU Radio
 * 3.10): the items they held are gone, in this block's input (logged at stop, as above)
 * and upstream alike, so where the new stream's codewords begin is up to the upstream
 * blocks. The block takes the first item after a restart as the start of a codeword,
 * and puts a tag "restart" (uint64: the input items it held at the stop, which were
 * discarded) on the first output bit after the restart. If the upstream resumes
 * mid-codeword, the codewords that follow are misaligned: a CRC early stop ("crc24a",
 * "crc24b") reports each of them not passed; without a check nothing can tell.
 */
class GPUTURBO_API turbo_decoder : virtual public gr::block,
                                   public stream_decoder_status,
                                   public turbo_iterations
{
public:
    typedef std::shared_ptr<turbo_decoder> sptr;

    /*!
     * \brief Makes a turbo decoder of \p options (turbo_options_from("turbo_decoder",
     * …)). Its arguments, their defaults and ranges are rows of the turbo parameter
     * table (engine/turbo/parameters.h; docs/usage.md lists them), which Python's
     * keywords and GRC's parameters read: K, one of the 188 LTE block sizes, is
     * required. Bad parameters raise ValueError with the reason; a backend this build
     * or machine lacks raises RuntimeError.
     */
    static sptr make(const turbo_options& options);

    /*!
     * \brief Sets the threshold of the "mean-llr" and "min-llr" stop rules, finite and
     * >= 0; ValueError otherwise. Applies from the next batch.
     * \param threshold the new threshold T
     */
    virtual void set_stop_threshold(float threshold) = 0;

    //! Threshold of the "mean-llr" and "min-llr" stop rules.
    virtual float stop_threshold() const = 0;

    //! Information bits per codeword (K).
    virtual int block_size() const = 0;

    //! Input LLRs per codeword (3K+12).
    virtual int codeword_length() const = 0;

    //! Codewords decoded since the block was made.
    virtual std::uint64_t codewords() const = 0;

    //! Sub-blocks per codeword in use (the choice when made with subblocks = 0).
    virtual int subblocks() const = 0;

    //! Most codewords per engine call (the choice when made with max_batch = 0).
    virtual int max_batch() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_H */
