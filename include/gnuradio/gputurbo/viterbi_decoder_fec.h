/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_H

#include <gnuradio/fec/cc_common.h>
#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

/*!
 * \brief Viterbi decoder of convolutional codes as a gr-fec (FECAPI) decoder object that
 * takes gr-fec's cc_decoder arguments, for fec.extended_decoder, fec.decoder,
 * fec.async_decoder and the BER-curve tools: fec.cc_decoder.make(...) becomes
 * gputurbo.viterbi_decoder_fec.make(...) with the same arguments.
 * \ingroup gputurbo
 *
 * Input: a float soft value per code bit (extended_decoder depunctures by its puncpat
 * first), positive for 1 by default (\p llr_sign): gr-fec's chains map code bits 0 ->
 * -1, 1 -> +1, and digital.constellation_soft_decoder_cf gives the same sign; channel
 * values y serve as they are (the decisions do not depend on the scale). No input
 * conversion, no shift. Output: unpacked bits, frame_size a frame.
 *
 * Modes (gr-fec's cc_mode_t):
 * - CC_TERMINATED: frames of frame_size bits and K-1 tail bits back to state 0, (frame
 *   + K-1) * rate values each (plus, with \p padded, the values that fill the frame's
 * code bits to a whole byte, ignored);
 * - CC_TRUNCATED (no tail) and CC_TAILBITING: frame * rate values a frame;
 * - CC_STREAMING: one stream from state 0, frame * rate values a call. As cc_decoder
 *   does, each call's output is that frame's bits (no delay), its last bits decided
 *   with the symbols after it, which the object reads past the frame: get_history()
 *   values, D * rate for the decision depth D (70 steps for K=7 rate 1/2; cc_decoder
 *   reads K-1 steps), which fec.decoder (and so extended_decoder, fec_test and
 *   bercurve_generator) holds beyond each frame. A frame is traced back from the best
 *   state D steps past it: every bit with D steps after it, as viterbi_decoder's
 *   stream. On the CPU the path metrics and decisions carry over from frame to frame
 *   (each step through the trellis once, from state 0 at the stream's start); with
 *   backend cuda a frame is a run from D steps before it, in every state alike, to D
 *   steps past it. A stream's last frame waits for symbols after it (as
 *   cc_decoder's). As for cc_decoder, fec.async_decoder refuses an object with history
 *   and extended_decoder refuses a list of them; fec.tagged_decoder holds nothing past
 *   a packet, so once set_frame_size() has announced a frame the object reads nothing
 *   past it and decides its last bits at its end. With \p delayed, the stream is
 *   decoded by viterbi_decoder's stream decoder instead, reading nothing past a frame
 *   (no history): the output lags the input by delay() bits (D + 32 D, 2310 for K=7
 *   rate 1/2), the first delay() bits out being 0, then the stream's bits in order,
 *   frame_size a call. gr-fec has no notion of such a delay: its BER tools compare
 *   the output with the input as they come, and read a BER of 0.5.
 * Frame sizes: gr-fec's async and tagged wrappers announce each frame with
 * set_frame_size(), which decodes 1 ... 2^20 bits (at least K-1 when tail-biting) and
 * refuses the rest: get_input_size() is 1 and get_output_size() 0 until the next one,
 * generic_work() writes nothing, and the refusal is logged (the first ten, then a
 * summary at most once a second) and counted (refused_frames()).
 * fec.async_decoder announces a PDU of L values as L * rate() less int(rate() * input -
 * output): exactly the frame's bits, a terminated frame's tail included in that
 * difference. set_frame_size() returns false only for a refused PDU of fewer than 8
 * bits' worth of values (8 * \p rate: too short for any frame, or for a terminated
 * frame's tail), which gr-fec answers with an empty PDU; otherwise it returns true,
 * because on false async_decoder copies the whole PDU into its buffer of
 * mtu * 8 / rate() values without checking its length, which a longer PDU overruns. On
 * true it checks the PDU against that buffer first: a longer PDU makes it throw
 * "Received frame larger than max frame size" (that PDU gives nothing and the block
 * stops); a shorter refused one (0 bits, more than 2^20) comes out as the zero bits
 * gr-fec allocates. After a refusal the difference is 0 (input 1, output 0), so
 * async_decoder gives the next terminated PDU K-1 (and half the padding) zero bits
 * beyond its frame's bits, which the object decodes right: only those extra bits are
 * not decoded ones. With packed=True, async_decoder checks every PDU against its buffer
 * but announces int(L * rate()), a terminated frame with its tail, as tagged_decoder
 * does: the object then takes the tail for frame bits and reads (K-1) * \p rate values
 * beyond the PDU, so terminated frames need packed=False.
 * fec.tagged_decoder announces round(L * rate()), which for terminated frames is the
 * frame and its tail (as for cc_decoder): decode terminated packets with async_decoder
 * or the viterbi_decoder block instead. For PDUs, viterbi_decoder_pdu is the better
 * path: frames of any size with no mtu, many a call, and a bad PDU answered by an empty
 * one whose metadata says why. fec.extended_decoder decodes frames of
 * \p frame_size bits.
 *
 * \p start_state must be 0 (every mode starts the encoder at 0, as cc_encoder does by
 * default); \p end_state -1 or 0. gr-fec hands the object one frame a call. Backends
 * auto and cpu decode it on the calling thread with the engine's single decoders: the
 * trellis's states in SIMD lanes, int16 metrics quantised as the batch decoders
 * quantise them, exact Viterbi over a terminated or truncated frame (the batch CPU
 * decoder's bits where it decodes the frame in one segment), wrap-around Viterbi over a
 * tail-biting one; no thread pool, no allocation once the buffers have grown. auto takes
 * them even where a GPU is: batches of frames belong to viterbi_decoder_pdu, the
 * viterbi_decoder block and the numpy API. Backend cuda makes one launch a frame.
 * One object serves one decoder block.
 */
class GPUTURBO_API viterbi_decoder_fec : virtual public gr::fec::generic_decoder,
                                         public fec_decoder_status,
                                         public conv_code
{
public:
    /*!
     * \brief Makes a Viterbi decoder object. Bad parameters raise ValueError with the
     * reason; a backend this build or machine lacks raises RuntimeError.
     *
     * \param frame_size information bits per frame until set_frame_size() says otherwise,
     *        1 ... 2^20
     * \param k constraint length K, 3 ... 9
     * \param rate code bits per information bit n, 2 ... 4: the number of polys
     * \param polys generators in gr-fec's form: bit i taps the bit i steps old (the
     *        reverse of the octal convention), negative where the output is inverted
     *        (CCSDS: [79, -109]; 802.11: [109, 79])
     * \param start_state 0
     * \param end_state -1 (chosen by the decoder) or 0
     * \param mode CC_STREAMING, CC_TERMINATED, CC_TRUNCATED or CC_TAILBITING
     * \param padded CC_TERMINATED: each frame's code bits are padded to a whole byte
     * \param llr_sign "positive-one" (a positive value means 1) or "positive-zero"
     * \param backend "auto" or "cpu" (the CPU's single decoders), or "cuda"
     * \param threads CPU worker threads of the delayed stream decoder, 0 = all cores
     *        (the single decoders run on the calling thread)
     * \param devices CUDA device: "0"
     * \param delayed CC_STREAMING: decode with viterbi_decoder's stream decoder, the
     *        output delayed by delay() bits and nothing read past a frame (ignored in
     *        the other modes)
     */
    static gr::fec::generic_decoder::sptr
    make(int frame_size,
         int k,
         int rate,
         std::vector<int> polys,
         int start_state = 0,
         int end_state = -1,
         cc_mode_t mode = CC_STREAMING,
         bool padded = false,
         const std::string& llr_sign = "positive-one",
         const std::string& backend = "auto",
         int threads = 0,
         const std::string& devices = "0",
         bool delayed = false);

    /*!
     * \brief Announces the next frame, in information bits: 1 ... 2^20 decode, the rest
     * is refused; false only for a refused PDU shorter than 8 bits' worth of values (see
     * above).
     * \param frame_size the frame's bits
     */
    bool set_frame_size(unsigned int frame_size) override = 0;

    //! 1 / rate: information bits per code bit, as cc_decoder.
    double rate() override = 0;

    //! CC_STREAMING with \p delayed: bits the output lags the input (0 otherwise).
    virtual int delay() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_H */
