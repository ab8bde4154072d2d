/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

// make_decoder() validates the config and throws std::invalid_argument for a bad
// parameter, std::runtime_error for a backend this build or machine lacks.
std::unique_ptr<::gputurbo::turbo::decoder>
make_engine(const ::gputurbo::turbo::decoder_config& config, const std::string& backend)
{
    ::gputurbo::turbo::qpp(config.K); // this block's K: K = 0 is refused
    route_engine_log();
    return ::gputurbo::turbo::make_decoder(config, backend);
}

} // namespace

turbo_decoder::sptr turbo_decoder::make(const turbo_options& options)
{
    return gnuradio::make_block_sptr<turbo_decoder_impl>(options);
}

turbo_decoder_impl::turbo_decoder_impl(const turbo_options& options)
    : gr::block("turbo_decoder",
                common::llr_stream(options.block.int8),
                common::decoded_stream(options.block.output, options.block.int8_output)),
      d_decoder(make_engine(options.decoder, options.block.backend)),
      d_K(options.decoder.K),
      d_batcher(*this,
                d_logger,
                *d_decoder,
                options.decoder.K,
                options.block,
                options.decoder.int8_scale)
{
    if (options.block.backend == "auto")
        d_logger->info(
            "backend auto chose {:s}: {:s}", d_decoder->backend(), d_decoder->device());
    else
        d_logger->debug("backend {:s}: {:s}", d_decoder->backend(), d_decoder->device());
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
    return d_batcher.codewords();
}

std::uint64_t turbo_decoder_impl::partial_items() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batcher.partial_items();
}

std::uint64_t turbo_decoder_impl::misaligned_length_tags() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batcher.misaligned_length_tags();
}

bool turbo_decoder_impl::start()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_batcher.start();
    }
    return block::start();
}

bool turbo_decoder_impl::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_batcher.stop();
    }
    return block::stop();
}

void turbo_decoder_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    d_batcher.forecast(ninput_items_required);
}

int turbo_decoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batcher.work(noutput_items, ninput_items, input_items, output_items);
}

} // namespace gputurbo
} // namespace gr
