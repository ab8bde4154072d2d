/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H

#include "../common/pdu_queue.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <string>

namespace gr {
namespace gputurbo {

class turbo_decoder_pdu_impl : public turbo_decoder_pdu
{
private:
    // The engine is not reentrant: the message handler and the setters take d_mutex.
    mutable std::mutex d_mutex;
    // One engine for every block size (its config has no K of its own).
    const std::unique_ptr<::gputurbo::turbo::decoder> d_engine;
    common::pdu_queue d_queue;

    //! A PDU's K: the metadata's, else from its length.
    static int block_of(const pmt::pmt_t& meta, std::size_t length, std::string& error);

public:
    explicit turbo_decoder_pdu_impl(const turbo_options& options);

    bool stop() override;

    void set_iterations(int iterations) override;
    int iterations() const override;
    std::string backend() const override { return d_engine->backend(); }
    std::string device() const override { return d_engine->device(); }
    int max_batch() const override { return d_queue.max_batch(); }
    std::uint64_t decoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
    std::uint64_t batches() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H */
