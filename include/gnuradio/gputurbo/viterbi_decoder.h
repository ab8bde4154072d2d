/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief Viterbi decoder of convolutional codes: a continuous stream, or frames.
 * \ingroup gputurbo
 *
 * Input: one LLR per sent code bit (the punctured ones left out), float, or int8
 * (\p input_type "int8": the value q means q / int8_scale). Sign (\p llr_sign): by
 * default GNU Radio's, a positive value means bit 1, as
 * digital.constellation_soft_decoder_cf and gr-fec produce (for BPSK 0 -> -1, 1 -> +1
 * over AWGN, L = 2y / sigma^2); "positive-zero" takes L = ln P(0)/P(1). NaN is an
 * erasure (0). Output: unpacked hard bits (one byte per bit, 0 or 1).
 *
 * Soft output (\p output; "bits" by default): with "llr" the output is float32, each
 * information bit's a-posteriori LLR in place of the bit (frame_bits values a frame), by
 * the max-log BCJR algorithm, in the sign of \p llr_sign: its sign is the bit "bits"
 * gives but where it is 0 (a tie); a stream's too, node_sync or not
 * (engine/conv/decoder.h: stream_decoder::set_soft_output()). With "code-extrinsic"
 * (frames), one float per input LLR (the output runs at the input's rate): each sent
 * code bit's a-posteriori LLR less its input LLR, what an iterative receiver (turbo
 * equalisation, iterative demapping) gives back to its equaliser or demapper. With \p
 * output_type "int8" the values are int8 items instead, a byte a value instead of 4, in
 * the units of int8 input: round(L * int8_scale), saturated to +-127. Tags and frame tags
 * sit on the same frames' items as with bits. "llr" comes from the fast BCJR on the cpu
 * and cuda backends, log-MAP and "code-extrinsic" from the reference (cpu and reference
 * backends); what a backend does not give, make() refuses (ValueError) naming why.
 * "extrinsic" is not offered: an information bit of a convolutional code has no input
 * LLR of its own to take away.
 *
 * termination "streaming": one endless stream from encoder state 0, the puncturing
 * pattern running on across work calls (the output of gr-fec's cc_encoder in streaming
 * mode, or of a continuous transmitter). Each work call takes the LLRs that have come and
 * writes the bits decided: a bit leaves once the stream is decision_depth + segment_bits
 * steps past it (the CPU and CUDA backends decode overlapping segments of segment_bits
 * bits, each after training_depth steps and traced back over decision_depth steps,
 * within 0.05 dB of the exact decoder), so the output lags the input by up to that many
 * bits (and by the batches in flight on CUDA, below). Nothing is lost or repeated at
 * work-call boundaries: the output does not depend on how the input is cut into calls.
 * When the stream ends (the upstream block is done and its items are taken) the last bits
 * are traced back from the best state and written, every one of them; a step whose LLRs
 * came only in part is dropped. Tags move by the code rate (input item i to output bit
 * floor(i * R), R the punctured rate), their values unchanged. On CUDA a work call's
 * segments go to the GPU as one batch, read straight from the page-locked input buffer,
 * and up to batches_in_flight batches decode while the block goes on (their bits leave
 * with later calls; small calls that come meanwhile join the next batch): a launch takes
 * about a millisecond whatever its size, so the rate grows with the input buffer, up to
 * several Gbit/s from an upstream output buffer of 2^22 items (GRC: Advanced, Min Output
 * Buffer) and 4 batches in flight (the automatic choice).
 *
 * termination "terminated" (K-1 zero tail bits after each frame), "truncated" (no tail)
 * or "tail-biting": frames of \p frame_bits bits, each its own punctured_length LLRs
 * (the pattern starting again at each frame), decoded in batches of up to max_batch
 * frames as the turbo_decoder block decodes codewords: batches_in_flight batches in the
 * GPU, input tags moving to their frame's bits (item i of a frame to its bit
 * floor(i * frame_bits / frame LLRs)), length tags of whole frames rescaled, a tag
 * "codeword" = {"index", "iterations" (0), "passed"} on the first bit of frames as
 * codeword_tags says (passed: the frame's mean |L| carries information, and a terminated
 * frame's best end state is its tail's, 0; the frames that fail are counted,
 * failed_frames()), the items of a partial frame at the end of the stream logged and
 * counted (partial_items()).
 *
 * Node synchronisation (\p node_sync, streams): a receiver that joins a stream, or
 * whose symbol clock slips, does not know which LLRs make a trellis step (rate 1/n: n
 * phases; punctured: the LLRs of a period), nor, after a 180 degree phase error, their
 * sign. The decoder weighs every phase (and inversion) by the growth of a Viterbi's
 * best path metric over a window of 1024 steps, decodes with the best, and checks
 * again every 2^16 steps, taking another one that does clearly better: the bits
 * before it end as at the end of a stream, a few LLRs are dropped and a new stream from
 * any state starts at the new phase. Its first output bit, and that of the stream's
 * first phase, carry a tag "node_sync" = {"offset": the phase (long), "inverted":
 * bool}. The first window waits until its 1024 steps have come: no bit is decoded
 * before the phase is known. A code whose generators all have odd weight (CCSDS,
 * 802.11, DVB, LTE, CDMA) is transparent: an inverted stream is a code sequence too,
 * decoded to the inverted bits, which no decoder can tell; its frame synchroniser
 * (the sync marker in both polarities) or NRZ-M resolves that, as CCSDS intends.
 * The metrics run on the CPU, the stream on the backend.
 *
 * Stop and restart: a stream's undecided bits are discarded at stop() (logged with their
 * number), and after a restart a new stream starts from state 0 at the first item, its
 * first output bit tagged "restart" (uint64: the input items held at the stop, which
 * GNU Radio discarded). That is right where the upstream starts a new stream too (a
 * conv_encoder does); a source that resumes mid-stream gives wrong bits, which nothing
 * in the LLRs tells. Frames behave as in turbo_decoder: a terminated frame that starts
 * elsewhere than it was sent fails (but for a chance of 2^-(K-1)).
 */
class GPUTURBO_API viterbi_decoder : virtual public gr::block,
                                     public stream_decoder_status,
                                     public conv_code
{
public:
    typedef std::shared_ptr<viterbi_decoder> sptr;

    /*!
     * \brief Makes a Viterbi decoder of \p options
     * (viterbi_options_from("viterbi_decoder", …)). Its arguments, their defaults and
     * ranges are rows of the convolutional parameter table (engine/conv/parameters.h;
     * docs/usage.md lists them), which Python's keywords and GRC's parameters read; a
     * stream block's termination is "streaming" by default. Bad parameters raise
     * ValueError with the reason; a backend this build or machine lacks raises
     * RuntimeError.
     */
    static sptr make(const viterbi_options& options);

    //! The termination: "streaming", "terminated", "truncated" or "tail-biting".
    virtual std::string termination() const = 0;

    //! Information bits per frame (frame modes).
    virtual int frame_bits() const = 0;

    //! Input LLRs per frame (frame modes): the sent code bits of a frame.
    virtual int frame_length() const = 0;

    //! Bits written since the block was made.
    virtual std::uint64_t bits() const = 0;

    //! Frames decoded with passed false since the block was made (frame modes): no
    //! information, or a terminated frame that does not end in state 0.
    virtual std::uint64_t failed_frames() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_H */
