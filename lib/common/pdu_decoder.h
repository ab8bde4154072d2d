/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_PDU_DECODER_H
#define INCLUDED_GPUTURBO_COMMON_PDU_DECODER_H

#include "block_parameters.h"
#include "pdu_messages.h"
#include "pdu_queue.h"

#include <gnuradio/gputurbo/block_options.h>
#include <pmt/pmt.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief What the PDU decoders of one codeword a message (turbo_decoder_pdu,
 * viterbi_decoder_pdu) share: the engine, the pdu_queue that batches the "pdus"
 * messages into it, and the getters of both. Block is the block's interface; Engine
 * its family's decoder (a core::batch_decoder).
 */
template <class Block, class Engine>
class pdu_decoder : public Block
{
protected:
    // The engine is not reentrant: the message handler and the getters take d_mutex.
    mutable std::mutex d_mutex;
    // One engine for every block size.
    const std::unique_ptr<Engine> d_engine;
    pdu_queue d_queue;

    //! Batches of at most options.max_batch PDUs (0: the engine's choice), answered
    //! with options.output as options.output_type says (int8 in units of
    //! \p int8_scale, the engine config's); size_key, has_iterations and parse_block
    //! as pdu_queue takes them.
    pdu_decoder(const block_options& options,
                float int8_scale,
                std::unique_ptr<Engine> engine,
                const std::string& size_key,
                bool has_iterations,
                pdu_queue::block_of parse_block)
        : d_engine(std::move(engine)),
          d_queue(*this,
                  this->d_logger,
                  *d_engine,
                  pdu_batch_for(options.max_batch, d_engine->kind()),
                  size_key,
                  has_iterations,
                  std::move(parse_block),
                  { options.output, options.int8_output, int8_scale })
    {
        if (options.backend == "auto")
            this->d_logger->info(
                "backend auto chose {:s}: {:s}", d_engine->backend(), d_engine->device());
        serve_pdus(
            *this, d_mutex, [this](const pmt::pmt_t& msg) { d_queue.handle(msg); });
    }

public:
    bool stop() override
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_queue.stop();
        }
        return gr::block::stop();
    }

    std::string backend() const override { return d_engine->backend(); }
    std::string device() const override { return d_engine->device(); }
    int max_batch() const override { return d_queue.max_batch(); }

    std::uint64_t decoded_pdus() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_queue.decoded_pdus();
    }

    std::uint64_t failed_pdus() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_queue.failed_pdus();
    }

    std::uint64_t batches() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_queue.batches();
    }
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
