/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_PDU_QUEUE_H
#define INCLUDED_GPUTURBO_COMMON_PDU_QUEUE_H

#include "failure_log.h"
#include "pdu_batcher.h"
#include "pdu_messages.h"

#include <gnuradio/block.h>
#include <gnuradio/logger.h>
#include <pmt/pmt.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief The message side of any family's PDU decoder block, whose message port "pdus"
 * (serve_pdus()) hands it every input PDU and takes its answers; a PDU is a pair of a
 * metadata dict and an f32vector of float LLRs.
 *
 * PDUs that arrive close together are decoded together: while more messages wait behind
 * one, it joins the batch, up to max_batch; then pdu_batcher decodes the batch with one
 * engine call per block size. Each input PDU is answered in arrival order: its metadata
 * plus the block size (under \p size_key), "iterations" (where the family has them) and
 * "passed", and a u8vector of its decoded bits, or, with soft output (\p soft's kind
 * not none), an f32vector of its soft values (the engine's soft_length(): one per
 * information bit, or per input LLR for code_extrinsic), an s8vector where they are
 * int8; or, where it cannot be
 * decoded, empty data of that type and "passed" = false, "error" = the reason, logged
 * through a failure_log. None is dropped.
 *
 * Not thread-safe: the block serialises handle(), stop() and its getters.
 */
class pdu_queue
{
public:
    //! A family's reading of a PDU: its block size from the metadata and the number of
    //! LLRs, or 0 and the reason in \p error.
    using block_of = std::function<int(
        const pmt::pmt_t& meta, std::size_t length, std::string& error)>;

    pdu_queue(gr::block& block,
              gr::logger_ptr logger,
              ::gputurbo::core::batch_decoder& engine,
              int max_batch,
              const std::string& size_key,
              bool has_iterations,
              block_of parse_block,
              const soft_format& soft);

    //! The message handler.
    void handle(const pmt::pmt_t& msg);
    //! Logs the failures not reported yet.
    void stop();

    int max_batch() const { return d_max_batch; }
    std::uint64_t decoded_pdus() const { return d_decoded; }
    std::uint64_t failed_pdus() const { return d_failures.total(); }
    std::uint64_t batches() const { return d_batches; }

private:
    // A PDU waiting for its batch: its metadata and LLRs, or why it cannot be decoded.
    struct pending
    {
        pmt::pmt_t meta;
        pmt::pmt_t llrs; // the f32vector, kept alive for the job
        pdu_job job;
    };

    bool soft() const { return d_soft.kind != ::gputurbo::core::soft_output::none; }
    //! A PDU's data: \p n of its soft values, or of its bits.
    pmt::pmt_t data_of(std::size_t n, const pdu_job& job) const;
    pending parse(const pmt::pmt_t& msg) const;
    void decode_pending();
    void publish(const pending& p);

    gr::block& d_block;
    gr::logger_ptr d_logger;
    ::gputurbo::core::batch_decoder& d_engine;
    const int d_max_batch;
    const bool d_has_iterations;
    const block_of d_block_of;
    const soft_format d_soft;
    std::vector<pending> d_pending;
    pdu_batcher d_batcher;
    std::uint64_t d_decoded = 0;
    failure_log d_failures{ "PDU not decoded" };
    std::uint64_t d_batches = 0;

    const pmt::pmt_t d_port;
    const pmt::pmt_t d_size_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
