/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_encoder_fec_impl.h"

#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace gr {
namespace gputurbo {

gr::fec::generic_encoder::sptr turbo_encoder_fec::make(int frame_size)
{
    return std::make_shared<turbo_encoder_fec_impl>(frame_size);
}

turbo_encoder_fec_impl::turbo_encoder_fec_impl(int K)
    : generic_encoder("turbo_encoder_fec"),
      d_K(::gputurbo::turbo::qpp(K).K) // qpp() refuses a K of no LTE block size
{
}

void turbo_encoder_fec_impl::generic_work(void* in_buffer, void* out_buffer)
{
    ::gputurbo::turbo::encode(d_K,
                              static_cast<const std::uint8_t*>(in_buffer),
                              1,
                              static_cast<std::uint8_t*>(out_buffer),
                              ::gputurbo::turbo::layout::interleaved);
}

double turbo_encoder_fec_impl::rate()
{
    // (3K+12) / K, raised by one step where needed so that K * rate is not below 3K+12:
    // gr-fec's async_encoder sizes its packed output buffer with that product, truncated.
    const double n = double(::gputurbo::turbo::codeword_length(d_K));
    double r = n / d_K;
    while (d_K * r < n)
        r = std::nextafter(r, 2.0 * r);
    return r;
}

int turbo_encoder_fec_impl::get_output_size()
{
    return int(::gputurbo::turbo::codeword_length(d_K));
}

bool turbo_encoder_fec_impl::set_frame_size(unsigned int frame_size)
{
    const int K = int(std::min<unsigned int>(frame_size, INT_MAX));
    try {
        ::gputurbo::turbo::qpp(K);
    } catch (const std::invalid_argument& e) {
        d_logger->warn("set_frame_size({:d}) refused, K stays {:d}: {:s}",
                       frame_size,
                       d_K,
                       e.what());
        return false;
    }
    d_K = K;
    return true;
}

} // namespace gputurbo
} // namespace gr
