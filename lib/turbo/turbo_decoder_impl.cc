/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_impl.h"
#include "../common/block_config.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

// max_batch = 0 on CUDA: enough information bits per batch to fill the GPU, and no
// more: smaller batches overlap better with the blocks around the decoder.
constexpr int cuda_batch_bits = 1 << 22;
constexpr int cpu_batch = 64;

// make_decoder() validates the config and throws std::invalid_argument for a bad
// parameter, std::runtime_error for a backend this build or machine lacks.
std::unique_ptr<::gputurbo::turbo::decoder>
make_engine(const ::gputurbo::turbo::decoder_config& config,
            const std::string& backend,
            int max_batch,
            int batches_in_flight)
{
    ::gputurbo::turbo::qpp(config.K); // this block's K: K = 0 is refused
    check_max_batch(max_batch);
    check_batches_in_flight(batches_in_flight);
    return ::gputurbo::turbo::make_decoder(config, backend);
}

int batch_size(int max_batch, const ::gputurbo::turbo::decoder& decoder)
{
    if (max_batch > 0)
        return max_batch;
    if (decoder.backend() == "cuda")
        return std::clamp(cuda_batch_bits / decoder.config().K, 1, max_batch_limit);
    return cpu_batch;
}

} // namespace

turbo_decoder::sptr turbo_decoder::make(int K,
                                        const std::string& algorithm,
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
                                        const std::string& input_type,
                                        float int8_scale,
                                        int batches_in_flight,
                                        const std::string& arithmetic)
{
    auto config = decoder_parameters(algorithm,
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
    config.K = K;
    config.int8_scale = int8_scale;
    return gnuradio::make_block_sptr<turbo_decoder_impl>(
        config, backend, parse_input_type(input_type), max_batch, batches_in_flight);
}

turbo_decoder_impl::turbo_decoder_impl(const ::gputurbo::turbo::decoder_config& config,
                                       const std::string& backend,
                                       bool int8,
                                       int max_batch,
                                       int batches_in_flight)
    : gr::block("turbo_decoder",
                gr::io_signature::make(1, 1, int8 ? sizeof(std::int8_t) : sizeof(float)),
                gr::io_signature::make(1, 1, sizeof(std::uint8_t))),
      d_decoder(make_engine(config, backend, max_batch, batches_in_flight)),
      d_K(config.K),
      d_n(int(::gputurbo::turbo::codeword_length(config.K))),
      d_int8(int8),
      d_max_batch(batch_size(max_batch, *d_decoder)),
      d_batches_in_flight(batches_in_flight),
      d_status(d_max_batch),
      d_tag_key(pmt::intern("codeword")),
      d_index_key(pmt::intern("index")),
      d_iterations_key(pmt::intern("iterations")),
      d_passed_key(pmt::intern("passed")),
      d_status_dicts(2 * (::gputurbo::turbo::max_iterations + 1), pmt::PMT_NIL)
{
    if (backend == "auto")
        d_logger->info(
            "backend auto chose {:s}: {:s}", d_decoder->backend(), d_decoder->device());
    else
        d_logger->debug("backend {:s}: {:s}", d_decoder->backend(), d_decoder->device());

    // Output space for one whole batch per call. GNU Radio sizes the upstream buffer
    // from it: two batches of input (2 * max_batch * K items, over the relative rate).
    set_output_multiple(d_max_batch * d_K);
    set_relative_rate(uint64_t(d_K), uint64_t(d_n));
    // Tags move with their codeword, which may leave a later call than it came in.
    set_tag_propagation_policy(TPP_DONT);
}

void turbo_decoder_impl::set_iterations(int iterations)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_decoder->set_iterations(iterations);
}

int turbo_decoder_impl::iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->config().iterations;
}

void turbo_decoder_impl::set_stop_threshold(float threshold)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_decoder->set_stop_threshold(threshold);
}

float turbo_decoder_impl::stop_threshold() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->config().stop_threshold;
}

std::uint64_t turbo_decoder_impl::codewords() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_codewords;
}

std::uint64_t turbo_decoder_impl::partial_items() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_partial_items;
}

bool turbo_decoder_impl::start()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_partial_items = 0;
    }
    // GNU Radio sizes the input buffer for two batches unless the upstream block caps
    // it (max_output_buffer): say so rather than run with small batches unnoticed.
    if (detail() && detail()->ninputs() > 0) {
        const int fits = detail()->input(0)->max_possible_items_available() / d_n;
        if (fits < d_max_batch)
            d_logger->info("the input buffer holds {:d} codeword(s), fewer than "
                           "max_batch={:d}: let the upstream block's output buffer "
                           "grow to {:d} items or more for full batches",
                           fits,
                           d_max_batch,
                           2L * d_max_batch * d_n);

        // The GPU then reads batches straight from the input buffer, without a staging
        // copy through the CPU. The buffer is mapped twice in a row (a batch may run
        // into the second copy), so both copies are locked.
        if (d_decoder->backend() == "cuda") {
            const auto buffer = detail()->input(0)->buffer();
            void* base = const_cast<char*>(buffer->base());
            const std::size_t bytes =
                std::size_t(buffer->bufsize()) * buffer->get_sizeof_item() * 2;
            if (::gputurbo::core::register_host_memory(base, bytes)) {
                d_locked_input = base;
                d_logger->debug("input buffer page-locked ({:d} bytes)", bytes);
            } else
                d_logger->debug("could not page-lock the input buffer: batches go "
                                "through a staging copy");
        }
    }
    return block::start();
}

bool turbo_decoder_impl::stop()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    // At the end of a stream every batch has been returned; batches still in flight
    // mean the flowgraph was stopped, or downstream finished, before taking them.
    std::uint64_t undelivered = 0;
    std::vector<std::uint8_t> discard(std::size_t(d_max_batch) * d_K);
    while (!d_in_flight.empty()) {
        const batch b = d_in_flight.front();
        d_in_flight.pop_front();
        undelivered += b.codewords;
        try {
            d_decoder->collect(b.ticket, discard.data(), nullptr);
        } catch (const std::exception& e) {
            d_logger->error("collecting a batch at stop: {:s}", e.what());
        }
    }
    if (d_locked_input) {
        ::gputurbo::core::unregister_host_memory(d_locked_input);
        d_locked_input = nullptr;
    }
    if (undelivered > 0)
        d_logger->warn("{:d} decoded codeword(s) not delivered: the flowgraph stopped, "
                       "or downstream finished, before taking them",
                       undelivered);

    // What the scheduler left in the input buffer: at the end of a stream, fewer than
    // 3K+12 LLRs, which do not make a codeword.
    if (detail() && detail()->ninputs() > 0) {
        const std::uint64_t left = detail()->input(0)->items_available();
        d_partial_items = left;
        if (left > 0)
            d_logger->warn("{:d} input LLR(s) left undecoded when the block stopped "
                           "({:d} whole codeword(s) of 3K+12={:d} values and {:d} "
                           "value(s) of a partial one)",
                           left,
                           left / d_n,
                           d_n,
                           left % d_n);
    }
    return block::stop();
}

void turbo_decoder_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // With batches in flight a call can always return one, so it needs no input: that
    // is also how the last batches leave once the upstream block has finished.
    ninput_items_required[0] = d_in_flight.empty() ? d_n : 0;
}

void turbo_decoder_impl::submit(const void* llrs, int codewords, std::uint64_t first)
{
    batch b{ 0, codewords, d_submitted, {} };
    get_tags_in_range(b.tags, 0, first, first + std::uint64_t(codewords) * d_n);
    for (auto& t : b.tags)
        t.offset -= first;
    b.ticket = d_int8 ? d_decoder->submit(static_cast<const std::int8_t*>(llrs),
                                          std::size_t(codewords))
                      : d_decoder->submit(static_cast<const float*>(llrs),
                                          std::size_t(codewords));
    d_in_flight.push_back(std::move(b));
    d_submitted += codewords;
}

pmt::pmt_t
turbo_decoder_impl::status_dict(const ::gputurbo::core::codeword_status& status)
{
    pmt::pmt_t& dict = d_status_dicts[std::size_t(status.iterations) * 2 + status.passed];
    if (!pmt::is_pair(dict)) {
        dict =
            pmt::dict_add(pmt::make_dict(), d_passed_key, pmt::from_bool(status.passed));
        dict = pmt::dict_add(dict, d_iterations_key, pmt::from_long(status.iterations));
    }
    return dict;
}

int turbo_decoder_impl::return_oldest(std::uint8_t* out)
{
    const batch b = std::move(d_in_flight.front());
    d_in_flight.pop_front(); // the engine frees its slot whatever collect() meets
    d_decoder->collect(b.ticket, out, d_status.data());
    d_codewords += b.codewords;

    const std::uint64_t first_bit = nitems_written(0);
    const pmt::pmt_t srcid = alias_pmt();
    for (int i = 0; i < b.codewords; ++i) {
        const pmt::pmt_t info = pmt::dict_add(
            status_dict(d_status[i]), d_index_key, pmt::from_uint64(b.first_index + i));
        add_item_tag(0, first_bit + std::uint64_t(i) * d_K, d_tag_key, info, srcid);
    }
    for (const auto& t : b.tags) {
        const std::uint64_t codeword = t.offset / d_n, item = t.offset % d_n;
        add_item_tag(
            0, first_bit + codeword * d_K + item * d_K / d_n, t.key, t.value, t.srcid);
    }
    return b.codewords * d_K;
}

int turbo_decoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    // Each call either submits a batch or returns one, never both: a call that submits
    // returns at once, so its input space goes back to the upstream block while the GPU
    // decodes and the next call hands out an earlier batch.
    const int waiting = ninput_items[0] / d_n; // whole codewords in the input
    if (waiting > 0 && int(d_in_flight.size()) < d_batches_in_flight) {
        const int n = std::min(waiting, d_max_batch);
        submit(input_items[0], n, nitems_read(0));
        consume_each(n * d_n);
        return 0;
    }
    // The pipeline is full, or no codeword waits: then holding a batch gains nothing,
    // and the stream may have ended. noutput_items always holds a batch (the output
    // multiple).
    if (!d_in_flight.empty() && noutput_items >= d_in_flight.front().codewords * d_K)
        return return_oldest(static_cast<std::uint8_t*>(output_items[0]));
    return 0;
}

} // namespace gputurbo
} // namespace gr
