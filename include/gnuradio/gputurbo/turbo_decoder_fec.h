/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_FEC_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_FEC_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE turbo decoder (3GPP TS 36.212 §5.1.3.2) as a gr-fec (FECAPI) decoder object,
 * for fec.extended_decoder, fec.decoder, fec.async_decoder and the BER-curve tools.
 * \ingroup gputurbo
 *
 * A codeword is 3K+12 float soft values in (the interleaved output order of
 * turbo_encoder and turbo_encoder_fec: triples d0_k d1_k d2_k) and K unpacked hard bits
 * out (one byte per bit, 0 or 1). No input or output conversion, no shift, no history.
 * Hard bits only, gr-fec's decoder contract: soft output comes from turbo_decoder and
 * turbo_decoder_pdu (output "llr" or "extrinsic").
 * A frame is one codeword, or m whole codewords where gr-fec announces mK bits; K never
 * changes.
 *
 * Frame sizes. gr-fec's PDU and tagged-stream wrappers derive a frame's size from its
 * length n and rate() and announce it with set_frame_size(): fec.async_decoder as
 * int(n * rate()) (less the difference rate() * get_input_size() - get_output_size(),
 * 0 here), fec.tagged_decoder as round(n * rate()). rate() is K / (3K+12) rounded up, so
 * that m whole codewords give exactly mK. The object accepts exactly the multiples of K:
 * - mK (m >= 1): the next generic_work() decodes m codewords (get_input_size()
 *   m(3K+12), get_output_size() mK);
 * - anything else (a length that is no multiple of 3K+12, a codeword of another K): the
 *   frame is refused. get_input_size() is 1 and get_output_size() 0 until the next
 *   set_frame_size(), and generic_work() decodes and writes nothing; the refusal is
 *   logged as an error (the first ten, then a summary at most once a second) and
 *   counted (refused_frames()).
 * set_frame_size() returns true for both: fec.async_decoder takes false for a
 * fixed-size decoder and then copies the whole PDU into its buffer of mtu * 8 / rate()
 * values without checking its length, which a longer PDU overruns; on true it checks
 * the PDU against that buffer first.
 *
 * What gr-fec 3.10 then does:
 * - fec.async_decoder, packed=False: a PDU of m whole codewords comes out as one PDU of
 *   mK bits. A refused PDU comes out as a PDU of int(n * rate()) zero bits with the
 *   input's metadata (3 values or fewer: an empty one), and the block goes on. A PDU
 *   longer than the buffer (n > mtu * 8 / rate(), the mtu in bytes of output), refused
 *   or not, makes gr-fec throw "Received frame larger than max frame size": that PDU
 *   gives nothing and the block stops.
 * - fec.async_decoder, packed=True: gr-fec checks every PDU against its buffer (a
 *   longer one stops the block, as above), ignores the answer of set_frame_size() and
 *   always sends int(n * rate()) / 8 bytes packed from its own bit buffer; for a refused
 *   PDU the object writes nothing, so those bytes are left over from the previous PDU.
 *   Only the log and refused_frames() show the refusal: prefer packed=False.
 * - fec.tagged_decoder: a packet of m whole codewords gives mK items; a refused packet is
 *   consumed and gives none (no tag either), and the next packet is decoded as usual.
 * Lengths within rounding of m(3K+12) cannot be told from it through gr-fec's interface
 * and are taken as m codewords: for async_decoder m(3K+12) + 1 ... + 3 values (the extra
 * values are ignored), for tagged_decoder m(3K+12) - 1 (gr-fec then hands over one value
 * from beyond the packet) and m(3K+12) + 1 (the last value is ignored).
 * fec.extended_decoder and fec.decoder never call set_frame_size(): one codeword per
 * frame. For PDUs, turbo_decoder_pdu is the better path: a codeword of any K a PDU, no
 * mtu, and a bad PDU answered by an empty one whose metadata says why.
 *
 * Soft-value sign (\p llr_sign): by default ("positive-one") a positive value means
 * bit 1, GNU Radio's convention: gr-fec's own chains map code bits with
 * digital.map_bb([-1, 1]) (0 -> -1, 1 -> +1) and add noise, and
 * digital.constellation_soft_decoder_cf gives the same sign. "positive-zero" takes
 * L = ln P(0)/P(1) (positive means 0), the engine's own. max-log and scaled-max-log
 * decisions do not depend on the scale of the input, so channel values y = +-1 + noise
 * serve as they are; log-map wants true LLRs (2y / sigma^2 for BPSK over AWGN). NaN is
 * an erasure (0) and values are clamped to +-1000.
 *
 * Each generic_work() call decodes one frame with one engine call: with one codeword
 * per frame, no batching. The CUDA backend then makes one launch per codeword, and the
 * CPU backend decodes on one thread, with the engine's single-lane kernel (the same bits
 * as its SIMD kernels, which work on groups of codewords and gain nothing on one). The
 * turbo_decoder block, which decodes many codewords per engine call, is much faster.
 *
 * Like every FECAPI object, one object serves one decoder block: objects are not shared
 * between threads (gr-fec's parallel wrappers take a list of objects).
 */
class GPUTURBO_API turbo_decoder_fec : virtual public gr::fec::generic_decoder,
                                       public fec_decoder_status
{
public:
    /*!
     * \brief Makes an LTE turbo decoder object of \p options
     * (turbo_options_from("turbo_decoder_fec", …)): turbo_decoder's arguments that a
     * frame at a time needs, frame_size (K, required) first; on the CPU a frame is
     * decoded on one thread. Bad parameters raise ValueError with the reason; a backend
     * this build or machine lacks raises RuntimeError.
     */
    static gr::fec::generic_decoder::sptr make(const turbo_options& options);

    /*!
     * \brief Announces the next frame, in decoded bits: mK (m >= 1) is m codewords;
     * anything else refuses the frame. Returns true either way, which keeps
     * fec.async_decoder's length check on (see above). K stays as made.
     * \param frame_size the frame's decoded bits
     */
    bool set_frame_size(unsigned int frame_size) override = 0;

    //! Code rate K / (3K+12), rounded up to the next double where needed.
    double rate() override = 0;

    //! Full iterations per codeword as configured (the maximum with early stopping).
    float get_iterations() override = 0;

    //! Information bits per frame (K).
    virtual int block_size() const = 0;

    //! Sub-blocks P per codeword in use (the automatic choice resolved).
    virtual int subblocks() const = 0;

    //! Full iterations run on the last decoded frame, the most among its codewords (0
    //! before the first).
    virtual int last_iterations() const = 0;

    //! Whether every codeword of the last decoded frame passed: its early-stop rule held
    //! at the end and it carried information (erased or near-zero input never passes;
    //! with early_stop "off" only that fails; false before the first frame).
    virtual bool last_passed() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_FEC_H */
