/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "dlsch_decoder_pdu_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"
#include "../common/pdu_messages.h"

#include <gnuradio/gputurbo/engine/lte/parameters.h>

#include <climits>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace lte = ::gputurbo::lte;

namespace {

std::unique_ptr<lte::transport_decoder> make_engine(const lte::transport_config& config,
                                                    const std::string& backend,
                                                    int max_batch)
{
    check_max_batch(max_batch);
    route_engine_log();
    return lte::make_transport_decoder(config, backend);
}

} // namespace

dlsch_decoder_pdu::sptr dlsch_decoder_pdu::make(const dlsch_options& options)
{
    return gnuradio::make_block_sptr<dlsch_decoder_pdu_impl>(options);
}

dlsch_decoder_pdu_impl::dlsch_decoder_pdu_impl(const dlsch_options& options)
    : gr::block("dlsch_decoder_pdu", common::no_streams(), common::no_streams()),
      d_engine(
          make_engine(options.decoder, options.block.backend, options.block.max_batch)),
      d_defaults(options.defaults),
      d_max_batch(pdu_batch_for(options.block.max_batch, d_engine->kind()))
{
    if (options.block.backend == "auto")
        d_logger->info(
            "backend auto chose {:s}: {:s}", d_engine->backend(), d_engine->device());
    common::serve_pdus(*this, d_mutex, [this](const pmt::pmt_t& msg) { handle(msg); });
}

bool dlsch_decoder_pdu_impl::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (auto line = d_failures.flush())
            d_logger->error(*line);
        if (auto line = d_dropped.flush())
            d_logger->warn(*line);
    }
    return gr::block::stop();
}

void dlsch_decoder_pdu_impl::handle(const pmt::pmt_t& msg)
{
    pending p = parse(msg);
    const int process = p.block.harq_process;
    // One transmission of a process per engine call (a second one waits for the first
    // to be combined), and no more processes in a call than the engine keeps.
    if (p.error.empty() && process != lte::no_harq &&
        (d_pending_processes.count(process) ||
         d_pending_processes.size() >=
             std::size_t(d_engine->config().max_harq_processes)))
        decode_pending();
    if (p.error.empty()) {
        // Against the soft buffers as its batch will find them: a bad PDU fails alone.
        try {
            d_engine->check(p.block);
        } catch (const std::exception& e) {
            p.error = e.what();
        }
    }
    if (p.error.empty() && process != lte::no_harq)
        d_pending_processes.insert(process);
    d_pending.push_back(std::move(p));
    // PDUs queued behind this one join its batch; the last of a burst decodes it.
    if (common::batch_complete(*this, d_pending.size(), d_max_batch))
        decode_pending();
}

dlsch_decoder_pdu_impl::pending dlsch_decoder_pdu_impl::parse(const pmt::pmt_t& msg) const
{
    static const pmt::pmt_t harq_process_key = pmt::mp("harq_process");
    static const pmt::pmt_t new_data_key = pmt::mp("new_data");
    pending p;
    std::string& error = p.error;
    pmt::pmt_t data;
    if (!common::split_pdu(msg, "an f32vector or an s8vector", p.meta, data, error))
        return p;
    std::size_t length = 0;
    if (pmt::is_f32vector(data))
        p.block.f32 = pmt::f32vector_elements(data, length);
    else if (pmt::is_s8vector(data))
        p.block.i8 = pmt::s8vector_elements(data, length);
    else {
        error = "the PDU's data is neither an f32vector nor an s8vector of LLRs";
        return p;
    }
    p.llrs = data;
    if (length == 0) {
        error = "the PDU has no LLRs";
        return p;
    }
    lte::transport_format& f = p.block.format;
    if (!read_transport_format(p.meta, d_defaults, 0, long(length), f, error))
        return p;
    if (std::size_t(f.G) != length) {
        error = "G=" + std::to_string(f.G) + " LLRs expected; the PDU has " +
                std::to_string(length);
        return p;
    }
    if (!valid_transport_format(f, error))
        return p;
    const auto process = common::metadata_integer(p.meta, harq_process_key, error);
    if (!error.empty())
        return p;
    if (process && (*process < lte::no_harq || *process > INT_MAX)) {
        error = "metadata harq_process=" + std::to_string(*process) +
                " is out of range: use 0 or more, or -1 (none)";
        return p;
    }
    p.block.harq_process = int(process.value_or(lte::no_harq));
    p.block.new_data = common::metadata_flag(p.meta, new_data_key, error).value_or(true);
    return p;
}

void dlsch_decoder_pdu_impl::decode_pending()
{
    static const pmt::pmt_t crc_ok_key = pmt::mp("crc_ok");
    static const pmt::pmt_t iterations_key = pmt::mp("iterations");
    d_blocks.clear();
    std::size_t total_bits = 0;
    for (const pending& p : d_pending)
        if (p.error.empty()) {
            d_blocks.push_back(p.block);
            total_bits += std::size_t(p.block.format.tbs);
        }
    d_bits.resize(total_bits);
    d_results.resize(d_blocks.size());
    std::string failure;
    if (!d_blocks.empty()) {
        try {
            d_engine->decode(
                d_blocks.data(), d_blocks.size(), d_bits.data(), d_results.data());
            log_dropped();
        } catch (const std::exception& e) {
            failure = std::string("decoding failed: ") + e.what();
            for (const auto& b : d_blocks)
                if (b.harq_process != lte::no_harq)
                    d_engine->release(b.harq_process);
        }
        ++d_batches;
    }
    std::size_t i = 0, bit = 0;
    for (const pending& p : d_pending) {
        if (!p.error.empty() || !failure.empty()) {
            publish_failure(p.meta, p.error.empty() ? failure : p.error);
            continue;
        }
        const lte::transport_result& r = d_results[i++];
        std::vector<std::int32_t> iterations;
        for (const auto& s : r.code_blocks)
            iterations.push_back(s.iterations);
        pmt::pmt_t meta = pmt::dict_add(p.meta, crc_ok_key, pmt::from_bool(r.crc_ok));
        meta = pmt::dict_add(
            meta, iterations_key, pmt::init_s32vector(iterations.size(), iterations));
        const std::size_t tbs = std::size_t(p.block.format.tbs);
        const pmt::pmt_t bits = pmt::init_u8vector(tbs, d_bits.data() + bit);
        bit += tbs;
        ++d_decoded;
        message_port_pub(common::pdus_port(), pmt::cons(meta, bits));
    }
    d_pending.clear();
    d_pending_processes.clear();
}

void dlsch_decoder_pdu_impl::log_dropped()
{
    for (const int process : d_engine->dropped_processes())
        if (auto line = d_dropped.count(
                "process " + std::to_string(process) + ", the least recently used of " +
                std::to_string(d_engine->config().max_harq_processes) +
                " (max_harq_processes)"))
            d_logger->warn(*line);
}

void dlsch_decoder_pdu_impl::publish_failure(pmt::pmt_t meta, const std::string& reason)
{
    static const pmt::pmt_t crc_ok_key = pmt::mp("crc_ok");
    if (auto line = d_failures.count(reason))
        d_logger->error(*line);
    message_port_pub(common::pdus_port(), common::failure_pdu(meta, crc_ok_key, reason));
}

void dlsch_decoder_pdu_impl::release(int harq_process)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_engine->release(harq_process);
}

std::size_t dlsch_decoder_pdu_impl::harq_processes() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_engine->harq_processes();
}

std::uint64_t dlsch_decoder_pdu_impl::dropped_harq_processes() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_engine->dropped_count();
}

std::uint64_t dlsch_decoder_pdu_impl::decoded_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoded;
}

std::uint64_t dlsch_decoder_pdu_impl::failed_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failures.total();
}

std::uint64_t dlsch_decoder_pdu_impl::batches() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batches;
}

} // namespace gputurbo
} // namespace gr
