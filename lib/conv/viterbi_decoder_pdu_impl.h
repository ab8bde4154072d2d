/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H

#include "../common/pdu_queue.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/viterbi_decoder_pdu.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <string>

namespace gr {
namespace gputurbo {

class viterbi_decoder_pdu_impl : public viterbi_decoder_pdu
{
private:
    // The engine is not reentrant: the message handler and the getters take d_mutex.
    mutable std::mutex d_mutex;
    const ::gputurbo::conv::viterbi_config d_config;
    // One engine for every frame size.
    const std::unique_ptr<::gputurbo::core::batch_decoder> d_engine;
    common::pdu_queue d_queue;

    //! A PDU's frame size: the metadata's, else the one whose sent length it has.
    int
    frame_bits_of(const pmt::pmt_t& meta, std::size_t length, std::string& error) const;

public:
    explicit viterbi_decoder_pdu_impl(const viterbi_options& options);

    bool stop() override;

    std::string code() const override { return d_config.generator.text(); }
    std::string backend() const override;
    std::string device() const override { return d_engine->device(); }
    int max_batch() const override { return d_queue.max_batch(); }
    std::uint64_t decoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
    std::uint64_t batches() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H */
