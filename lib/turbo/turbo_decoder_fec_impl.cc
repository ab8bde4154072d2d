/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_fec_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "decoder_parameters.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

int input_size(int K) { return int(::gputurbo::turbo::codeword_length(K)); }

// K / (3K+12), raised by one step where needed so that (3K+12) * rate is not below K:
// gr-fec's async_decoder passes that product, truncated, to set_frame_size(), and for 13
// of the 188 sizes the nearest double gives K - 1.
double code_rate(int K)
{
    const double n = input_size(K);
    double r = K / n;
    while (n * r < K)
        r = std::nextafter(r, 1.0);
    return r;
}

// The engine decoder for one codeword per call. On the CPU that is the single-lane
// kernel: the SIMD kernels decode groups of 8 or 16 codewords at the cost of a full group
// however few it holds, and give the same bits as the single-lane kernel (the engine's
// tests hold every kernel equal to it), which decodes a lone codeword about 1.7 times
// faster than an AVX2 group does.
std::unique_ptr<::gputurbo::turbo::decoder>
make_engine(const ::gputurbo::turbo::decoder_config& config, const std::string& backend)
{
    ::gputurbo::turbo::qpp(config.K); // a frame size is needed here: K = 0 is refused
    route_engine_log();
    auto engine = ::gputurbo::turbo::make_decoder(config, backend);
    if (engine->backend() == "cpu")
        engine = ::gputurbo::turbo::make_decoder(config, "reference");
    return engine;
}

} // namespace

gr::fec::generic_decoder::sptr turbo_decoder_fec::make(int frame_size,
                                                       const std::string& algorithm,
                                                       int iterations,
                                                       float scaling,
                                                       int subblocks,
                                                       const std::string& guard,
                                                       int guard_window,
                                                       const std::string& early_stop,
                                                       float stop_threshold,
                                                       const std::string& llr_sign,
                                                       const std::string& backend,
                                                       int threads,
                                                       const std::string& devices)
{
    auto config = decoder_parameters(algorithm,
                                     iterations,
                                     scaling,
                                     subblocks,
                                     guard,
                                     guard_window,
                                     early_stop,
                                     stop_threshold,
                                     "interleaved",
                                     llr_sign,
                                     threads,
                                     devices,
                                     "auto");
    config.K = frame_size;
    return std::make_shared<turbo_decoder_fec_impl>(config, backend);
}

turbo_decoder_fec_impl::turbo_decoder_fec_impl(
    const ::gputurbo::turbo::decoder_config& config, const std::string& backend)
    : generic_decoder("turbo_decoder_fec"),
      d_config(config),
      d_backend(backend),
      d_decoder(make_engine(config, backend))
{
    // Later engines (set_frame_size) use the backend chosen now.
    if (d_backend == "auto")
        d_backend = d_decoder->backend() == "cuda" ? "cuda" : "cpu";
    if (backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}", d_backend, d_decoder->device());
}

void turbo_decoder_fec_impl::generic_work(void* inbuffer, void* outbuffer)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_decoder->decode(d_config.K,
                      static_cast<const float*>(inbuffer),
                      1,
                      static_cast<std::uint8_t*>(outbuffer),
                      &d_status);
    ++d_frames;
}

double turbo_decoder_fec_impl::rate()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return code_rate(d_config.K);
}

int turbo_decoder_fec_impl::get_input_size()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return input_size(d_config.K);
}

int turbo_decoder_fec_impl::get_output_size()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_config.K;
}

bool turbo_decoder_fec_impl::set_frame_size(unsigned int frame_size)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (frame_size == unsigned(d_config.K))
        return true;
    const int K = int(std::min<unsigned int>(frame_size, INT_MAX));
    try {
        d_decoder->check_block(K); // the engine decodes any K it accepts
    } catch (const std::exception& e) {
        d_logger->warn("set_frame_size({:d}) refused, K stays {:d}: {:s}",
                       frame_size,
                       d_config.K,
                       e.what());
        return false;
    }
    d_config.K = K;
    return true;
}

float turbo_decoder_fec_impl::get_iterations()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return float(d_config.iterations);
}

int turbo_decoder_fec_impl::block_size() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_config.K;
}

int turbo_decoder_fec_impl::subblocks() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->subblocks(d_config.K);
}

std::string turbo_decoder_fec_impl::backend() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_backend;
}

std::string turbo_decoder_fec_impl::device() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->device();
}

std::uint64_t turbo_decoder_fec_impl::frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_frames;
}

int turbo_decoder_fec_impl::last_iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_status.iterations;
}

bool turbo_decoder_fec_impl::last_passed() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_status.passed;
}

} // namespace gputurbo
} // namespace gr
