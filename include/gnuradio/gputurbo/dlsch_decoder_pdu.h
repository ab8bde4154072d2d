/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H
#define INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>

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
class GPUTURBO_API dlsch_decoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<dlsch_decoder_pdu> sptr;

    /*!
     * \brief Makes a DL-SCH PDU decoder. Bad parameters raise ValueError; a backend this
     * build or machine lacks raises RuntimeError.
     *
     * \param algorithm "log-map", "max-log" or "scaled-max-log"
     * \param iterations full turbo iterations of a code block, 1 ... 32 (the most, with
     *        early_stop)
     * \param scaling extrinsic scaling factor for "scaled-max-log", 0 < scaling <= 1
     * \param subblocks P for every code-block size (a PDU with a code block whose K it
     *        does not divide fails), or 0 = automatic for each K
     * \param guard "none", "pivi", "dstw" or "pividstw" (sub-block edges when P > 1)
     * \param guard_window g for "dstw"/"pividstw", 1 ... K/P
     * \param early_stop a code block stops iterating once its CRC checks (CRC-24B, or
     *        the CRC-24A of a transport block of one code block)
     * \param llr_sign "positive-one" (the default: a positive LLR means bit 1, GNU
     *        Radio's convention) or "positive-zero" (L = ln P(0)/P(1))
     * \param int8_scale the soft buffers' unit: an LLR L is held as round(L *
     *        int8_scale), saturated to +-127 (so float LLRs beyond 127 / int8_scale
     *        saturate); an s8vector's value q is the LLR q / int8_scale
     * \param Qm bits per modulation symbol where the metadata has no "Qm": 2, 4, 6 or 8
     * \param layers transmission layers where the metadata has no "layers": 1 ... 4
     * \param rv redundancy version where the metadata has no "rv": 0 ... 3
     * \param soft_buffer N_IR in bits where the metadata has no "soft_buffer"; 0 = no
     *        limit
     * \param c_init scrambling where the metadata has no "c_init": 0 ... 2^31 - 1, or
     *        -1 = none
     * \param backend "auto" (CUDA when available, else the CPU; logged), "cpu", "cuda"
     *        or "reference"
     * \param max_batch most PDUs decoded together, 1 ... 131072; 0 = automatic (1024 on
     *        CUDA, 64 on the CPU)
     * \param threads CPU worker threads, 1 ... 4096; 0 = all cores
     * \param arithmetic metric arithmetic: "auto" (int16 where it runs, else float32),
     *        "int16" or "float32" (see turbo_decoder)
     * \param devices CUDA devices: a GPU index ("0", the default), a list such as "0,1"
     *        or "all"; ignored by the CPU backend
     * \param max_harq_processes most HARQ processes with a soft buffer, 1 ...
     *        2147483647 (a buffer takes 3 bytes a bit of its transport block, 1.2 MB at
     *        most; on CUDA in GPU memory)
     */
    static sptr make(const std::string& algorithm = "scaled-max-log",
                     int iterations = 6,
                     float scaling = 0.75f,
                     int subblocks = 0,
                     const std::string& guard = "pividstw",
                     int guard_window = 8,
                     bool early_stop = true,
                     const std::string& llr_sign = "positive-one",
                     float int8_scale = 8.0f,
                     int Qm = 2,
                     int layers = 1,
                     int rv = 0,
                     long soft_buffer = 0,
                     long c_init = -1,
                     const std::string& backend = "auto",
                     int max_batch = 0,
                     int threads = 0,
                     const std::string& arithmetic = "auto",
                     const std::string& devices = "0",
                     int max_harq_processes = 4096);

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

    //! The engine backend in use: "cpu", "reference" or "cuda".
    virtual std::string backend() const = 0;

    //! A description of the device the backend runs on.
    virtual std::string device() const = 0;

    //! Most PDUs decoded together (the choice when made with max_batch = 0).
    virtual int max_batch() const = 0;

    //! PDUs decoded since the block was made (whatever their CRC said).
    virtual std::uint64_t decoded_pdus() const = 0;

    //! PDUs answered as failed since the block was made.
    virtual std::uint64_t failed_pdus() const = 0;

    //! Engine calls since the block was made.
    virtual std::uint64_t batches() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_H */
