/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_IMPL_H

#include "../common/failure_log.h"
#include "pdcch_metadata.h"

#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/pdcch_decoder_pdu.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

class pdcch_decoder_pdu_impl : public pdcch_decoder_pdu
{
private:
    // A PDU waiting for its batch: its metadata and subframe, or why it cannot be
    // searched.
    struct pending
    {
        pmt::pmt_t meta;
        pmt::pmt_t llrs;                // the f32vector, kept alive until the search
        std::vector<float> descrambled; // the LLRs descrambled, where they came scrambled
        pdcch_request request;
        std::string error;
    };

    // The searcher is not reentrant: the message handler and the getters take d_mutex.
    mutable std::mutex d_mutex;
    const std::unique_ptr<::gputurbo::lte::pdcch_searcher> d_searcher;
    ::gputurbo::lte::pdcch_search_options d_search;
    const pdcch_defaults d_defaults;
    const int d_max_batch;
    std::vector<pending> d_pending;
    std::vector<::gputurbo::lte::pdcch_subframe> d_subframes;
    std::uint64_t d_searched = 0;
    std::uint64_t d_batches = 0;
    std::uint64_t d_found = 0;
    std::uint64_t d_candidates = 0;
    common::failure_log d_failures{ "PDU not searched" };

    void handle(const pmt::pmt_t& msg);
    pending parse(const pmt::pmt_t& msg) const;
    void read_llrs(pending& p, const pmt::pmt_t& data) const;
    void search_pending();
    void publish(const pending& p,
                 const ::gputurbo::lte::pdcch_detection* first,
                 const ::gputurbo::lte::pdcch_detection* last);
    void publish_failure(const pmt::pmt_t& meta, const std::string& reason);

public:
    explicit pdcch_decoder_pdu_impl(const pdcch_options& options);

    bool stop() override;

    void set_min_correlation(double min_correlation) override;
    double min_correlation() const override;
    void set_max_false_alarm(double max_false_alarm) override;
    double max_false_alarm() const override;
    std::string mode() const override;
    std::uint64_t found_dcis() const override;
    std::uint64_t decoded_candidates() const override;
    std::string backend() const override { return d_searcher->decoder().backend(); }
    std::string device() const override { return d_searcher->decoder().device(); }
    int max_batch() const override { return d_max_batch; }
    std::uint64_t decoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
    std::uint64_t batches() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_IMPL_H */
