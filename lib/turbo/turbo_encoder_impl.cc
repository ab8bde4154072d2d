/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_encoder_impl.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gputurbo {

namespace {
// Checks K before the base constructors use it (throws std::invalid_argument).
int checked_block_size(int K)
{
    ::gputurbo::turbo::qpp(K);
    return K;
}
} // namespace

turbo_encoder::sptr turbo_encoder::make(int K, const std::string& layout)
{
    return gnuradio::make_block_sptr<turbo_encoder_impl>(K, layout);
}

turbo_encoder_impl::turbo_encoder_impl(int K, const std::string& layout)
    : gr::block("turbo_encoder",
                gr::io_signature::make(1, 1, sizeof(std::uint8_t)),
                gr::io_signature::make(1, 1, sizeof(std::uint8_t))),
      d_K(checked_block_size(K)),
      d_layout(::gputurbo::turbo::parse_layout(layout)),
      d_n(int(::gputurbo::turbo::codeword_length(K)))
{
    // Whole codewords only: K bits in, 3K+12 bits out, an exact ratio for the scheduler
    // and for the tag propagation.
    set_output_multiple(d_n);
    set_relative_rate(uint64_t(d_n), uint64_t(d_K));
    set_fixed_rate(true);
}

bool turbo_encoder_impl::start()
{
    d_partial_items = 0;
    return block::start();
}

bool turbo_encoder_impl::stop()
{
    // What the scheduler left in the input buffer: at the end of a stream, fewer than K
    // bits, which do not make a codeword.
    if (detail() && detail()->ninputs() > 0) {
        d_partial_items = detail()->input(0)->items_available();
        if (d_partial_items > 0)
            d_logger->warn("{:d} input bit(s) left unencoded when the block stopped "
                           "({:d} whole codeword(s) of K={:d} bits and {:d} bit(s) of a "
                           "partial one)",
                           d_partial_items,
                           d_partial_items / d_K,
                           d_K,
                           d_partial_items % d_K);
    }
    return block::stop();
}

void turbo_encoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    ninput_items_required[0] = fixed_rate_noutput_to_ninput(noutput_items);
}

int turbo_encoder_impl::fixed_rate_ninput_to_noutput(int ninput)
{
    return ninput / d_K * d_n;
}

int turbo_encoder_impl::fixed_rate_noutput_to_ninput(int noutput)
{
    return std::max(1, noutput / d_n) * d_K;
}

int turbo_encoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const auto in = static_cast<const std::uint8_t*>(input_items[0]);
    auto out = static_cast<std::uint8_t*>(output_items[0]);
    const int n = std::min(ninput_items[0] / d_K, noutput_items / d_n);

    ::gputurbo::turbo::encode(d_K, in, std::size_t(n), out, d_layout);

    consume_each(n * d_K);
    return n * d_n;
}

} // namespace gputurbo
} // namespace gr
