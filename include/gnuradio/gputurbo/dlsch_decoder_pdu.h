/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H
#define INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE DL-SCH transport-block decoder for PDUs, with HARQ soft combining: one
 * transmission of a transport block per message, any sizes, decoded many at a time.
 * \ingroup gputurbo
 *
 * Message input "pdus": a PDU (pair of a metadata dict and an f32vector, or an s8vector
 * read as q / int8_scale) holding the G LLRs received for the G bits dlsch_encoder_pdu
 * sends, with the sign of \p llr_sign (by default GNU Radio's: a positive LLR means bit
 * 1). The metadata gives the format, each an integer: "tbs" (required), "G" (else
 * "resource_elements" * Qm * layers, else the PDU's length; it must equal the length),
 * "Qm", "layers", "rv", "soft_buffer" (N_IR) and "c_init" (-1: no scrambling), each of
 * the last five taking the block's parameter of that name when absent; and the HARQ
 * process: "harq_process" (an integer >= 0; absent or -1: this transmission is decoded
 * alone) and "new_data" (a bool, default true: the process's soft buffer starts afresh;
 * false: the LLRs are added to what the process holds, whose tbs must be the PDU's).
 * The metadata that dlsch_encoder_pdu writes is all the decoder needs but the HARQ keys.
 *
 * Message output "pdus": for each input PDU, in arrival order, a PDU whose data is a
 * u8vector of the tbs decoded bits (one byte per bit, 0 or 1) and whose metadata is the
 * input's plus "crc_ok" (bool: the transport block's CRC-24A checked) and "iterations"
 * (an s32vector: the full iterations of each code block). A process's soft buffer is
 * kept whatever the CRC says, until new data start it again or release() forgets it;
 * at most \p max_harq_processes processes keep one: a PDU that starts one more drops
 * the buffer of the process used least recently (logged as a warning, counted by
 * dropped_harq_processes()), whose next transmission then starts afresh.
 *
 * PDUs that arrive close together are decoded together: the block collects messages
 * while more are queued behind them, up to max_batch, and decodes them with one engine
 * call (one turbo decoding per code-block size among them). A PDU for a HARQ process
 * already in the batch closes the batch first, so that transmissions combine in their
 * order, and so does one that would make the batch's processes more than
 * max_harq_processes. Each PDU is checked by the engine before it joins a batch, so that
 * a bad one fails alone. A PDU that cannot be decoded (not a pair, metadata not a dict,
 * data neither an f32vector nor an s8vector, no tbs, a length that is not G, a format
 * transport_format::validate() refuses, a soft_buffer that leaves a code block no bit to
 * send, a retransmission whose tbs is not that of its process's buffer, a code-block
 * size that an explicit \p subblocks does not divide, or a decoding error) is answered,
 * in its place, by a PDU with an empty u8vector and metadata "crc_ok" = false and
 * "error" = the reason. No PDU is dropped. Failures are logged as errors, the first ten
 * one by one, the later ones in a summary line at most once a second (and at stop());
 * failed_pdus() counts them all. When an engine call fails, the HARQ processes of its
 * PDUs are released, so that none keeps a half-combined buffer.
 */
class GPUTURBO_API dlsch_decoder_pdu : virtual public gr::block, public pdu_decoder_status
{
public:
    typedef std::shared_ptr<dlsch_decoder_pdu> sptr;

    /*!
     * \brief Makes a DL-SCH PDU decoder of \p options
     * (dlsch_options_from("dlsch_decoder_pdu", …)): the turbo decoder's arguments for
     * every code block (subblocks P for every code-block size: a PDU with a code block
     * whose K it does not divide fails), the transport channel's (engine/lte/
     * parameters.h: Qm, layers, rv, soft_buffer and c_init where the metadata has none;
     * early_stop, max_harq_processes), and max_batch, the most PDUs decoded together
     * (0: automatic, 1024 on CUDA, 64 on the CPU). Bad parameters raise ValueError; a
     * backend this build or machine lacks raises RuntimeError.
     */
    static sptr make(const dlsch_options& options);

    //! Full iterations per code block (the most, with early stopping).
    virtual int iterations() const = 0;

    /*!
     * \brief Forgets a HARQ process's soft buffer (nothing happens when it has none):
     * its next transmission starts afresh whatever its new_data says.
     * \param harq_process the process
     */
    virtual void release(int harq_process) = 0;

    //! HARQ processes holding a soft buffer.
    virtual std::size_t harq_processes() const = 0;

    //! Soft buffers dropped since the block was made, to keep max_harq_processes.
    virtual std::uint64_t dropped_harq_processes() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H */
