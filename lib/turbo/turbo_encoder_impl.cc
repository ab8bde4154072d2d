/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_encoder_impl.h"

#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gputurbo {

turbo_encoder::sptr turbo_encoder::make(int K, const std::string& layout)
{
    return gnuradio::make_block_sptr<turbo_encoder_impl>(K, layout);
}

turbo_encoder_impl::turbo_encoder_impl(int K, const std::string& layout)
    : gr::block("turbo_encoder",
                gr::io_signature::make(1, 1, sizeof(std::uint8_t)),
                gr::io_signature::make(1, 1, sizeof(std::uint8_t))),
      // qpp() refuses a K of no LTE block size
      unit_encoder(::gputurbo::turbo::qpp(K).K,
                   int(::gputurbo::turbo::codeword_length(K))),
      d_layout(::gputurbo::turbo::parse_layout(layout))
{
}

std::string turbo_encoder_impl::partial_unit_text(std::uint64_t partial) const
{
    return " (" + std::to_string(partial / d_in) +
           " whole codeword(s) of K=" + std::to_string(d_in) + " bits and " +
           std::to_string(partial % d_in) + " bit(s) of a partial one)";
}

int turbo_encoder_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const auto in = static_cast<const std::uint8_t*>(input_items[0]);
    auto out = static_cast<std::uint8_t*>(output_items[0]);
    const int n = std::min(ninput_items[0] / d_in, noutput_items / d_out);

    ::gputurbo::turbo::encode(d_in, in, std::size_t(n), out, d_layout);

    consume_each(n * d_in);
    return n * d_out;
}

} // namespace gputurbo
} // namespace gr
