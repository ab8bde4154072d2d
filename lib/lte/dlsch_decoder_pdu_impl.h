/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_IMPL_H

#include "../common/failure_log.h"
#include "transport_metadata.h"

#include <gnuradio/gputurbo/dlsch_decoder_pdu.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

class dlsch_decoder_pdu_impl : public dlsch_decoder_pdu
{
private:
    // A PDU waiting for its batch: its metadata and LLRs, or why it cannot be decoded.
    struct pending
    {
        pmt::pmt_t meta;
        pmt::pmt_t llrs; // the vector, kept alive until the batch is decoded
        ::gputurbo::lte::transport_block block;
        std::string error;
    };

    // The engine is not reentrant: the message handler and the getters take d_mutex.
    mutable std::mutex d_mutex;
    const std::unique_ptr<::gputurbo::lte::transport_decoder> d_engine;
    const transport_defaults d_defaults;
    const int d_max_batch;
    std::vector<pending> d_pending;
    std::set<int> d_pending_processes; // the HARQ processes of d_pending's good PDUs
    std::vector<::gputurbo::lte::transport_block> d_blocks;
    std::vector<::gputurbo::lte::transport_result> d_results;
    std::vector<std::uint8_t> d_bits;
    std::uint64_t d_decoded = 0;
    std::uint64_t d_batches = 0;
    common::failure_log d_failures{ "PDU not decoded" };
    common::failure_log d_dropped{ "HARQ soft buffer dropped" };

    void handle(const pmt::pmt_t& msg);
    pending parse(const pmt::pmt_t& msg) const;
    void decode_pending();
    void log_dropped();
    void publish_failure(pmt::pmt_t meta, const std::string& reason);

public:
    explicit dlsch_decoder_pdu_impl(const dlsch_options& options);

    bool stop() override;

    int iterations() const override { return d_engine->config().turbo.iterations; }
    void release(int harq_process) override;
    std::size_t harq_processes() const override;
    std::uint64_t dropped_harq_processes() const override;
    std::string backend() const override { return d_engine->backend(); }
    std::string device() const override { return d_engine->device(); }
    int max_batch() const override { return d_max_batch; }
    std::uint64_t decoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
    std::uint64_t batches() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_DLSCH_DECODER_PDU_IMPL_H */
