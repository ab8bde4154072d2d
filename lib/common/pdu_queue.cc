/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdu_queue.h"
#include "block_parameters.h"

#include <utility>

namespace gr {
namespace gputurbo {
namespace common {

pdu_queue::pdu_queue(gr::block& block,
                     gr::logger_ptr logger,
                     ::gputurbo::core::batch_decoder& engine,
                     int max_batch,
                     const std::string& size_key,
                     bool has_iterations,
                     block_of parse_block,
                     const soft_format& soft)
    : d_block(block),
      d_logger(std::move(logger)),
      d_engine(engine),
      d_max_batch(max_batch),
      d_has_iterations(has_iterations),
      d_block_of(std::move(parse_block)),
      d_soft(soft),
      d_port(pdus_port()),
      d_size_key(pmt::mp(size_key)),
      d_iterations_key(pmt::mp("iterations")),
      d_passed_key(pmt::mp("passed"))
{
    check_output(soft.kind, engine);
}

void pdu_queue::stop()
{
    if (auto line = d_failures.flush())
        d_logger->error(*line);
}

void pdu_queue::handle(const pmt::pmt_t& msg)
{
    d_pending.push_back(parse(msg));
    // PDUs queued behind this one join its batch; the last of a burst decodes it.
    if (batch_complete(d_block, d_pending.size(), d_max_batch))
        decode_pending();
}

pdu_queue::pending pdu_queue::parse(const pmt::pmt_t& msg) const
{
    pending p;
    std::string& error = p.job.error;
    pmt::pmt_t data;
    if (!split_pdu(msg, "an f32vector", p.meta, data, error))
        return p;
    if (!pmt::is_f32vector(data)) {
        error = "the PDU's data is not an f32vector of float LLRs";
        return p;
    }
    const int block = d_block_of(p.meta, pmt::length(data), error);
    if (block <= 0)
        return p;
    std::size_t n = 0;
    p.job.block = block;
    p.job.llrs = pmt::f32vector_elements(data, n);
    p.llrs = data;
    return p;
}

void pdu_queue::decode_pending()
{
    std::vector<pdu_job> jobs;
    jobs.reserve(d_pending.size());
    for (const auto& p : d_pending)
        jobs.push_back(p.job);
    d_batcher.decode(d_engine, jobs, d_soft);
    ++d_batches;
    for (std::size_t i = 0; i < d_pending.size(); ++i) {
        d_pending[i].job = jobs[i];
        publish(d_pending[i]);
    }
    d_pending.clear();
}

void pdu_queue::publish(const pending& p)
{
    const pdu_job& job = p.job;
    pmt::pmt_t meta = p.meta;
    if (job.block > 0)
        meta = pmt::dict_add(meta, d_size_key, pmt::from_long(job.block));
    if (!job.error.empty()) {
        if (auto line = d_failures.count(job.error))
            d_logger->error(*line);
        d_block.message_port_pub(
            d_port, failure_pdu(meta, d_passed_key, job.error, data_of(0, job)));
        return;
    }
    if (d_has_iterations)
        meta =
            pmt::dict_add(meta, d_iterations_key, pmt::from_long(job.status.iterations));
    meta = pmt::dict_add(meta, d_passed_key, pmt::from_bool(job.status.passed));
    const std::size_t n =
        soft() ? d_engine.soft_length(job.block, d_soft.kind) : std::size_t(job.block);
    ++d_decoded;
    d_block.message_port_pub(d_port, pmt::cons(meta, data_of(n, job)));
}

pmt::pmt_t pdu_queue::data_of(std::size_t n, const pdu_job& job) const
{
    if (!soft())
        return pmt::init_u8vector(n, job.bits);
    if (d_soft.int8)
        return pmt::init_s8vector(n, static_cast<const std::int8_t*>(job.soft));
    return pmt::init_f32vector(n, static_cast<const float*>(job.soft));
}

} // namespace common
} // namespace gputurbo
} // namespace gr
