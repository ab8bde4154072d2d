/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_pdu_impl.h"
#include "../common/block_config.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

constexpr int cuda_batch = 1024;
constexpr int cpu_batch = 64;

// The engine for the largest block size, made once to check the parameters and to
// settle the backend before any PDU arrives.
std::unique_ptr<::gputurbo::turbo::decoder> probe_engine(
    ::gputurbo::turbo::decoder_config config, const std::string& backend, int max_batch)
{
    check_max_batch(max_batch);
    config.K = ::gputurbo::turbo::max_block_size;
    config.subblocks = 0; // an explicit P is checked against each PDU's K
    return ::gputurbo::turbo::make_decoder(config, backend);
}

// A host buffer of at least `count` elements, grown by half again to keep the slow
// allocations of page-locked memory rare.
template <class T>
void reserve(::gputurbo::core::host_buffer<T>& buffer, std::size_t count)
{
    if (buffer.size() < count)
        buffer = ::gputurbo::core::host_buffer<T>(std::max(count, buffer.size() * 3 / 2));
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
                                                bool invert_llr,
                                                const std::string& backend,
                                                int max_batch,
                                                int threads,
                                                const std::string& arithmetic)
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
                                           invert_llr,
                                           threads,
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
      d_config(config),
      d_port(pmt::mp("pdus")),
      d_K_key(pmt::mp("K")),
      d_iterations_key(pmt::mp("iterations")),
      d_passed_key(pmt::mp("passed")),
      d_error_key(pmt::mp("error"))
{
    const auto probe = probe_engine(config, backend, max_batch);
    d_backend = probe->backend();
    d_device = probe->device();
    d_max_batch = max_batch > 0         ? max_batch
                  : d_backend == "cuda" ? cuda_batch
                                        : cpu_batch;
    if (backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}", d_backend, d_device);

    message_port_register_in(d_port);
    message_port_register_out(d_port);
    set_msg_handler(d_port, [this](const pmt::pmt_t& msg) { handle(msg); });
}

void turbo_decoder_pdu_impl::set_iterations(int iterations)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    ::gputurbo::turbo::decoder_config checked = d_config;
    checked.iterations = iterations;
    checked.validate(); // throws for a bad count, changing nothing
    d_config.iterations = iterations;
    for (auto& [K, e] : d_engines)
        e->set_iterations(iterations);
}

int turbo_decoder_pdu_impl::iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_config.iterations;
}

std::uint64_t turbo_decoder_pdu_impl::decoded_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoded;
}

std::uint64_t turbo_decoder_pdu_impl::failed_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failed;
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
    p.meta = pmt::make_dict();
    if (!pmt::is_pair(msg)) {
        p.error = "not a PDU: expected a pair of a metadata dict and an f32vector";
        return p;
    }
    if (!pmt::is_dict(pmt::car(msg))) {
        p.error = "the PDU's metadata is not a dict";
        return p;
    }
    p.meta = pmt::car(msg);
    const pmt::pmt_t data = pmt::cdr(msg);
    if (!pmt::is_f32vector(data)) {
        p.error = "the PDU's data is not an f32vector of float LLRs";
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
            p.error = "metadata K=" + pmt::write_string(value) +
                      " is not one of the 188 LTE block sizes";
            return p;
        }
        K = int(k);
        if (length != ::gputurbo::turbo::codeword_length(K)) {
            p.error = "K=" + std::to_string(K) + " needs 3K+12=" +
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
            p.error = std::to_string(length) +
                      " LLRs are not 3K+12 for any LTE block size K (or put K in the "
                      "metadata)";
            return p;
        }
    }
    p.K = K;
    p.llrs = data;
    return p;
}

::gputurbo::turbo::decoder& turbo_decoder_pdu_impl::engine(int K)
{
    auto& e = d_engines[K];
    if (!e) {
        ::gputurbo::turbo::decoder_config config = d_config;
        config.K = K;
        e = ::gputurbo::turbo::make_decoder(config, d_backend);
    }
    return *e;
}

void turbo_decoder_pdu_impl::decode_pending()
{
    // One engine call per block size; on CUDA all of them run before any is collected.
    std::map<int, std::vector<pending*>> by_size;
    std::size_t total_bits = 0;
    for (auto& p : d_pending)
        if (p.error.empty()) {
            by_size[p.K].push_back(&p);
            total_bits += std::size_t(p.K);
        }
    reserve(d_bits, total_bits);

    struct call
    {
        ::gputurbo::turbo::decoder* engine;
        ::gputurbo::turbo::decoder::ticket ticket;
        std::vector<pending*>* pdus;
        std::size_t first_bit;
    };
    std::vector<call> calls;
    std::size_t next_bit = 0;
    for (auto& [K, pdus] : by_size) {
        const std::size_t n = ::gputurbo::turbo::codeword_length(K);
        try {
            auto& e = engine(K);
            reserve(d_llrs, pdus.size() * n);
            for (std::size_t i = 0; i < pdus.size(); ++i) {
                std::size_t length = 0;
                const float* llrs = pmt::f32vector_elements(pdus[i]->llrs, length);
                std::memcpy(d_llrs.data() + i * n, llrs, n * sizeof(float));
            }
            // submit() has read the LLRs when it returns: d_llrs is free again.
            calls.push_back(
                { &e, e.submit(d_llrs.data(), pdus.size()), &pdus, next_bit });
            next_bit += pdus.size() * std::size_t(K);
        } catch (const std::exception& e) {
            for (auto* p : pdus)
                p->error = std::string("decoding failed: ") + e.what();
        }
    }

    std::vector<::gputurbo::core::codeword_status> status;
    for (const auto& c : calls) {
        status.resize(c.pdus->size());
        try {
            c.engine->collect(c.ticket, d_bits.data() + c.first_bit, status.data());
            for (std::size_t i = 0; i < c.pdus->size(); ++i) {
                pending& p = *(*c.pdus)[i];
                p.bits = c.first_bit + i * std::size_t(p.K);
                p.status = status[i];
            }
        } catch (const std::exception& e) {
            for (auto* p : *c.pdus)
                p->error = std::string("decoding failed: ") + e.what();
        }
    }
    ++d_batches;
    for (const auto& p : d_pending)
        publish(p);
    d_pending.clear();
}

void turbo_decoder_pdu_impl::publish(const pending& p)
{
    pmt::pmt_t meta = p.meta;
    if (p.K > 0)
        meta = pmt::dict_add(meta, d_K_key, pmt::from_long(p.K));
    pmt::pmt_t data;
    if (p.error.empty()) {
        meta = pmt::dict_add(meta, d_iterations_key, pmt::from_long(p.status.iterations));
        meta = pmt::dict_add(meta, d_passed_key, pmt::from_bool(p.status.passed));
        data = pmt::init_u8vector(std::size_t(p.K), d_bits.data() + p.bits);
        ++d_decoded;
    } else {
        d_logger->error("PDU not decoded: {:s}", p.error);
        meta = pmt::dict_add(meta, d_passed_key, pmt::PMT_F);
        meta = pmt::dict_add(meta, d_error_key, pmt::string_to_symbol(p.error));
        data = pmt::make_u8vector(0, 0);
        ++d_failed;
    }
    message_port_pub(d_port, pmt::cons(meta, data));
}

} // namespace gputurbo
} // namespace gr
