/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H

#include "../common/failure_log.h"
#include "../common/pdu_batcher.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

class turbo_decoder_pdu_impl : public turbo_decoder_pdu
{
private:
    // A PDU waiting for its batch: its metadata and LLRs, or why it cannot be decoded.
    struct pending
    {
        pmt::pmt_t meta;
        pmt::pmt_t llrs; // f32vector of 3K+12 values, kept alive for the job
        common::pdu_job job;
    };

    // The engine is not reentrant: the message handler and the setters take d_mutex.
    mutable std::mutex d_mutex;
    // One engine for every block size (its config has no K of its own).
    const std::unique_ptr<::gputurbo::turbo::decoder> d_engine;
    const int d_max_batch;
    std::vector<pending> d_pending;
    common::pdu_batcher d_batcher;
    std::uint64_t d_decoded = 0;
    common::failure_log d_failures{ "PDU not decoded" }; // counts failed_pdus()
    std::uint64_t d_batches = 0;

    const pmt::pmt_t d_port;
    const pmt::pmt_t d_K_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;
    const pmt::pmt_t d_error_key;

    void handle(const pmt::pmt_t& msg);
    pending parse(const pmt::pmt_t& msg) const;
    void decode_pending();
    void publish(const pending& p);

public:
    turbo_decoder_pdu_impl(const ::gputurbo::turbo::decoder_config& config,
                           const std::string& backend,
                           int max_batch);

    bool stop() override;

    void set_iterations(int iterations) override;
    int iterations() const override;
    std::string backend() const override { return d_engine->backend(); }
    std::string device() const override { return d_engine->device(); }
    int max_batch() const override { return d_max_batch; }
    std::uint64_t decoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
    std::uint64_t batches() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H */
