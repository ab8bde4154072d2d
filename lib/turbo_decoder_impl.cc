/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_impl.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

// Keeps max_batch * (3K+12) items well inside the scheduler's int item counts.
constexpr int max_batch_limit = 16384;

// make_decoder() validates the config and throws std::invalid_argument for a bad
// parameter, std::runtime_error for a backend this build or machine lacks.
std::unique_ptr<::gputurbo::decoder> make_engine(const ::gputurbo::decoder_config& config,
                                                 const std::string& backend,
                                                 int max_batch)
{
    if (max_batch < 1 || max_batch > max_batch_limit)
        throw std::invalid_argument(
            "max_batch=" + std::to_string(max_batch) + " is out of range: use 1 ... " +
            std::to_string(max_batch_limit) + " codewords per call");
    return ::gputurbo::make_decoder(config, backend);
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
                                        int threads)
{
    ::gputurbo::decoder_config config;
    config.K = K;
    config.algo = ::gputurbo::parse_algorithm(algorithm);
    config.scaling = scaling;
    config.iterations = iterations;
    config.subblocks = subblocks;
    config.guarding = ::gputurbo::parse_guard(guard);
    config.guard_window = guard_window;
    config.early_stop = ::gputurbo::parse_stop_rule(early_stop);
    config.stop_threshold = stop_threshold;
    config.input_layout = ::gputurbo::parse_layout(layout);
    config.invert_llr = invert_llr;
    config.threads = threads;
    return gnuradio::make_block_sptr<turbo_decoder_impl>(config, backend, max_batch);
}

turbo_decoder_impl::turbo_decoder_impl(const ::gputurbo::decoder_config& config,
                                       const std::string& backend,
                                       int max_batch)
    : gr::block("turbo_decoder",
                gr::io_signature::make(1, 1, sizeof(float)),
                gr::io_signature::make(1, 1, sizeof(std::uint8_t))),
      d_decoder(make_engine(config, backend, max_batch)),
      d_K(config.K),
      d_n(int(::gputurbo::lte::codeword_length(config.K))),
      d_max_batch(max_batch),
      d_status(max_batch),
      d_tag_key(pmt::intern("codeword")),
      d_index_key(pmt::intern("index")),
      d_iterations_key(pmt::intern("iterations")),
      d_passed_key(pmt::intern("passed"))
{
    if (backend == "auto")
        d_logger->info(
            "backend auto chose {:s}: {:s}", d_decoder->backend(), d_decoder->device());
    else
        d_logger->debug("backend {:s}: {:s}", d_decoder->backend(), d_decoder->device());

    // Whole codewords only: 3K+12 LLRs in, K bits out.
    set_output_multiple(d_K);
    set_relative_rate(uint64_t(d_K), uint64_t(d_n));
    set_fixed_rate(true);
    // Room for two full batches, so one can be written while the next is decoded.
    set_min_output_buffer(0, 2L * d_max_batch * d_K);
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
    // The upstream block's output buffer bounds the batch; say so rather than run
    // with small batches unnoticed.
    if (detail() && detail()->ninputs() > 0) {
        const int fits = detail()->input(0)->max_possible_items_available() / d_n;
        if (fits < d_max_batch)
            d_logger->info("the input buffer holds {:d} codeword(s), fewer than "
                           "max_batch={:d}: set the upstream block's min_output_buffer "
                           "to {:d} or more for full batches",
                           fits,
                           d_max_batch,
                           2L * d_max_batch * d_n);
    }
    return block::start();
}

bool turbo_decoder_impl::stop()
{
    // What the scheduler left in the input buffer: at the end of a stream, fewer than
    // 3K+12 LLRs, which do not make a codeword.
    if (detail() && detail()->ninputs() > 0) {
        const std::uint64_t left = detail()->input(0)->items_available();
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_partial_items = left;
        }
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

void turbo_decoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    // No more than one batch: the scheduler then does not wait for input it won't use.
    const int codewords = std::max(1, std::min(noutput_items / d_K, d_max_batch));
    ninput_items_required[0] = codewords * d_n;
}

int turbo_decoder_impl::fixed_rate_ninput_to_noutput(int ninput)
{
    return ninput / d_n * d_K;
}

int turbo_decoder_impl::fixed_rate_noutput_to_ninput(int noutput)
{
    return std::max(1, noutput / d_K) * d_n;
}

int turbo_decoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const auto in = static_cast<const float*>(input_items[0]);
    auto out = static_cast<std::uint8_t*>(output_items[0]);
    const int n = std::min({ ninput_items[0] / d_n, noutput_items / d_K, d_max_batch });
    if (n == 0)
        return 0;

    std::uint64_t first_index;
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_decoder->decode(in, std::size_t(n), out, d_status.data());
        first_index = d_codewords;
        d_codewords += n;
    }

    const std::uint64_t first_bit = nitems_written(0);
    for (int i = 0; i < n; ++i) {
        pmt::pmt_t info = pmt::make_dict();
        info = pmt::dict_add(info, d_index_key, pmt::from_uint64(first_index + i));
        info =
            pmt::dict_add(info, d_iterations_key, pmt::from_long(d_status[i].iterations));
        info = pmt::dict_add(info, d_passed_key, pmt::from_bool(d_status[i].passed));
        add_item_tag(0, first_bit + std::uint64_t(i) * d_K, d_tag_key, info, alias_pmt());
    }

    consume_each(n * d_n);
    return n * d_K;
}

} // namespace gputurbo
} // namespace gr
