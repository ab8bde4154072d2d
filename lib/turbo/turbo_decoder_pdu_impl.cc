/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_pdu_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "decoder_parameters.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

constexpr int cuda_batch = 1024;
constexpr int cpu_batch = 64;

// One engine for every block size: its config names none (K = 0), and an explicit P
// is checked against each PDU's K.
std::unique_ptr<::gputurbo::turbo::decoder> make_engine(
    ::gputurbo::turbo::decoder_config config, const std::string& backend, int max_batch)
{
    check_max_batch(max_batch);
    config.K = 0;
    route_engine_log();
    return ::gputurbo::turbo::make_decoder(config, backend);
}

} // namespace

turbo_decoder_pdu::sptr turbo_decoder_pdu::make(const std::string& algorithm,
                                                int iterations,
                                                float scaling,
                                                int subblocks,
                                                const std::string& guard,
                                                int guard_window,
                                                const std::string& early_stop,
                                                float stop_threshold,
                                                const std::string& layout,
                                                const std::string& llr_sign,
                                                const std::string& backend,
                                                int max_batch,
                                                int threads,
                                                const std::string& arithmetic,
                                                const std::string& devices)
{
    const auto config = decoder_parameters(algorithm,
                                           iterations,
                                           scaling,
                                           subblocks,
                                           guard,
                                           guard_window,
                                           early_stop,
                                           stop_threshold,
                                           layout,
                                           llr_sign,
                                           threads,
                                           devices,
                                           arithmetic);
    return gnuradio::make_block_sptr<turbo_decoder_pdu_impl>(config, backend, max_batch);
}

turbo_decoder_pdu_impl::turbo_decoder_pdu_impl(
    const ::gputurbo::turbo::decoder_config& config,
    const std::string& backend,
    int max_batch)
    : gr::block("turbo_decoder_pdu",
                gr::io_signature::make(0, 0, 0),
                gr::io_signature::make(0, 0, 0)),
      d_engine(make_engine(config, backend, max_batch)),
      d_max_batch(max_batch > 0                   ? max_batch
                  : d_engine->backend() == "cuda" ? cuda_batch
                                                  : cpu_batch),
      d_port(pmt::mp("pdus")),
      d_K_key(pmt::mp("K")),
      d_iterations_key(pmt::mp("iterations")),
      d_passed_key(pmt::mp("passed")),
      d_error_key(pmt::mp("error"))
{
    if (backend == "auto")
        d_logger->info(
            "backend auto chose {:s}: {:s}", d_engine->backend(), d_engine->device());

    message_port_register_in(d_port);
    message_port_register_out(d_port);
    set_msg_handler(d_port, [this](const pmt::pmt_t& msg) { handle(msg); });
}

bool turbo_decoder_pdu_impl::stop()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (auto line = d_failures.flush())
        d_logger->error(*line);
    return gr::block::stop();
}

void turbo_decoder_pdu_impl::set_iterations(int iterations)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_engine->set_iterations(iterations); // throws for a bad count, changing nothing
}

int turbo_decoder_pdu_impl::iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_engine->config().iterations;
}

std::uint64_t turbo_decoder_pdu_impl::decoded_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoded;
}

std::uint64_t turbo_decoder_pdu_impl::failed_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failures.total();
}

std::uint64_t turbo_decoder_pdu_impl::batches() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batches;
}

void turbo_decoder_pdu_impl::handle(const pmt::pmt_t& msg)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_pending.push_back(parse(msg));
    // PDUs queued behind this one join its batch; the last of a burst decodes it.
    if (int(d_pending.size()) >= d_max_batch || nmsgs(d_port) == 0)
        decode_pending();
}

turbo_decoder_pdu_impl::pending turbo_decoder_pdu_impl::parse(const pmt::pmt_t& msg) const
{
    pending p;
    std::string& error = p.job.error;
    p.meta = pmt::make_dict();
    if (!pmt::is_pair(msg)) {
        error = "not a PDU: expected a pair of a metadata dict and an f32vector";
        return p;
    }
    if (!pmt::is_dict(pmt::car(msg))) {
        error = "the PDU's metadata is not a dict";
        return p;
    }
    p.meta = pmt::car(msg);
    const pmt::pmt_t data = pmt::cdr(msg);
    if (!pmt::is_f32vector(data)) {
        error = "the PDU's data is not an f32vector of float LLRs";
        return p;
    }
    const std::size_t length = pmt::length(data);

    int K = 0;
    if (pmt::dict_has_key(p.meta, d_K_key)) {
        const pmt::pmt_t value = pmt::dict_ref(p.meta, d_K_key, pmt::PMT_NIL);
        const long k =
            pmt::is_integer(value) ? pmt::to_long(value)
            : pmt::is_uint64(value)
                ? long(std::min<std::uint64_t>(pmt::to_uint64(value), 1u << 20))
                : 0;
        if (k < 1 || k > ::gputurbo::turbo::max_block_size ||
            !::gputurbo::turbo::is_valid_block_size(int(k))) {
            error = "metadata K=" + pmt::write_string(value) +
                    " is not one of the 188 LTE block sizes";
            return p;
        }
        K = int(k);
        if (length != ::gputurbo::turbo::codeword_length(K)) {
            error = "K=" + std::to_string(K) + " needs 3K+12=" +
                    std::to_string(::gputurbo::turbo::codeword_length(K)) +
                    " LLRs; the PDU has " + std::to_string(length);
            return p;
        }
    } else {
        const bool fits = length >= 12 && (length - 12) % 3 == 0 &&
                          length <= ::gputurbo::turbo::codeword_length(
                                        ::gputurbo::turbo::max_block_size);
        K = fits ? int((length - 12) / 3) : 0;
        if (!fits || !::gputurbo::turbo::is_valid_block_size(K)) {
            error = std::to_string(length) +
                    " LLRs are not 3K+12 for any LTE block size K (or put K in the "
                    "metadata)";
            return p;
        }
    }
    std::size_t n = 0;
    p.job.block = K;
    p.job.llrs = pmt::f32vector_elements(data, n);
    p.llrs = data;
    return p;
}

void turbo_decoder_pdu_impl::decode_pending()
{
    std::vector<common::pdu_job> jobs;
    jobs.reserve(d_pending.size());
    for (const auto& p : d_pending)
        jobs.push_back(p.job);
    d_batcher.decode(*d_engine, jobs);
    ++d_batches;
    for (std::size_t i = 0; i < d_pending.size(); ++i) {
        d_pending[i].job = jobs[i];
        publish(d_pending[i]);
    }
    d_pending.clear();
}

void turbo_decoder_pdu_impl::publish(const pending& p)
{
    const common::pdu_job& job = p.job;
    pmt::pmt_t meta = p.meta;
    if (job.block > 0)
        meta = pmt::dict_add(meta, d_K_key, pmt::from_long(job.block));
    pmt::pmt_t data;
    if (job.error.empty()) {
        meta =
            pmt::dict_add(meta, d_iterations_key, pmt::from_long(job.status.iterations));
        meta = pmt::dict_add(meta, d_passed_key, pmt::from_bool(job.status.passed));
        data = pmt::init_u8vector(std::size_t(job.block), job.bits);
        ++d_decoded;
    } else {
        if (auto line = d_failures.count(job.error))
            d_logger->error(*line);
        meta = pmt::dict_add(meta, d_passed_key, pmt::PMT_F);
        meta = pmt::dict_add(meta, d_error_key, pmt::string_to_symbol(job.error));
        data = pmt::make_u8vector(0, 0);
    }
    message_port_pub(d_port, pmt::cons(meta, data));
}

} // namespace gputurbo
} // namespace gr
