/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_fec_impl.h"
#include "../common/engine_log.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace gr {
namespace gputurbo {

namespace {

int input_size(int K) { return int(::gputurbo::turbo::codeword_length(K)); }

// The smallest double r with r * (3K+12) >= K exactly (K / (3K+12) rounded up): gr-fec's
// wrappers find a frame's size in bits as the length times rate(), truncated
// (async_decoder) or rounded (tagged_decoder), and so get exactly mK for m whole
// codewords; the nearest double gives mK - 1 for some sizes.
double code_rate(int K)
{
    const double n = input_size(K);
    double r = K / n;
    while (std::fma(r, n, -double(K)) < 0.0)
        r = std::nextafter(r, 1.0);
    return r;
}

// The engine decoder for one frame per call. On the CPU in float32 that is the
// single-lane kernel: the float SIMD kernels decode groups of 8 or 16 codewords at the
// cost of a full group however few it holds, and give the same bits as the single-lane
// kernel (the engine's tests hold every kernel equal to it), which decodes a lone
// codeword about 1.7 times faster than an AVX2 group does. The int16 kernels decode a
// lone codeword's sub-blocks side by side, and are kept.
std::unique_ptr<::gputurbo::turbo::decoder>
make_engine(const ::gputurbo::turbo::decoder_config& config, const std::string& backend)
{
    ::gputurbo::turbo::qpp(config.K); // a frame size is needed here: K = 0 is refused
    route_engine_log();
    auto engine = ::gputurbo::turbo::make_decoder(config, backend);
    if (engine->backend() == "cpu" &&
        engine->metric_arithmetic() == ::gputurbo::turbo::arithmetic::float32)
        engine = ::gputurbo::turbo::make_decoder(config, "reference");
    return engine;
}

} // namespace

gr::fec::generic_decoder::sptr turbo_decoder_fec::make(const turbo_options& options)
{
    return std::make_shared<turbo_decoder_fec_impl>(options.decoder,
                                                    options.block.backend);
}

turbo_decoder_fec_impl::turbo_decoder_fec_impl(
    const ::gputurbo::turbo::decoder_config& config, const std::string& backend)
    : generic_decoder("turbo_decoder_fec"),
      d_config(config),
      d_decoder(make_engine(config, backend)),
      d_backend(backend != "auto"                ? backend
                : d_decoder->backend() == "cuda" ? "cuda"
                                                 : "cpu"),
      d_rate(code_rate(config.K))
{
    if (backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}", d_backend, d_decoder->device());
}

void turbo_decoder_fec_impl::generic_work(void* inbuffer, void* outbuffer)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (d_codewords == 0) {
        count_refusal([this](unsigned int refused) {
            return "gr-fec announced " + std::to_string(refused) +
                   " bits (the frame's length times the rate), not a whole number of K=" +
                   std::to_string(d_config.K) +
                   " codewords (3K+12=" + std::to_string(input_size(d_config.K)) +
                   " values each); nothing decoded or written";
        });
        return;
    }
    d_status.resize(std::size_t(d_codewords));
    d_decoder->decode(d_config.K,
                      static_cast<const float*>(inbuffer),
                      std::size_t(d_codewords),
                      static_cast<std::uint8_t*>(outbuffer),
                      d_status.data());
    d_decoded_frames += std::uint64_t(d_codewords);
}

// A refused frame: one input item (never 0, which gr-fec would divide by) and no output:
// tagged_decoder consumes the packet and produces nothing.
int turbo_decoder_fec_impl::get_input_size()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_codewords > 0 ? d_codewords * input_size(d_config.K) : 1;
}

int turbo_decoder_fec_impl::get_output_size()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_codewords * d_config.K;
}

// True for every size, the refused ones too: async_decoder takes False for a fixed-size
// decoder and then copies the whole PDU into its buffer of mtu * 8 / rate() values
// unchecked, which a longer PDU overruns; on True it checks the PDU against that buffer
// first (and stops with an error when it is longer), and a refused frame's output stays
// as gr-fec allocates it, int(length * rate()) zero bits.
bool turbo_decoder_fec_impl::set_frame_size(unsigned int frame_size)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    const unsigned int K = unsigned(d_config.K);
    const unsigned int codewords = frame_size / K;
    const unsigned int most = unsigned(INT_MAX / input_size(d_config.K));
    if (frame_size % K == 0 && codewords >= 1 && codewords <= most) {
        d_codewords = int(codewords);
    } else {
        d_codewords = 0;
        refuse(frame_size);
    }
    return true;
}

int turbo_decoder_fec_impl::subblocks() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->subblocks(d_config.K);
}

std::string turbo_decoder_fec_impl::device() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_decoder->device();
}

int turbo_decoder_fec_impl::last_iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    int most = 0;
    for (const auto& s : d_status)
        most = std::max(most, s.iterations);
    return most;
}

bool turbo_decoder_fec_impl::last_passed() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return !d_status.empty() && std::all_of(d_status.begin(),
                                            d_status.end(),
                                            [](const auto& s) { return s.passed; });
}

} // namespace gputurbo
} // namespace gr
