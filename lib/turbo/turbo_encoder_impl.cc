/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_encoder_impl.h"
#include "../common/io_signatures.h"

namespace gr {
namespace gputurbo {

turbo_encoder::sptr turbo_encoder::make(int K, const std::string& layout)
{
    return gnuradio::make_block_sptr<turbo_encoder_impl>(K, layout);
}

turbo_encoder_impl::turbo_encoder_impl(int K, const std::string& layout)
    : gr::block("turbo_encoder", common::bit_stream(), common::bit_stream()),
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

void turbo_encoder_impl::encode_units(const std::uint8_t* in,
                                      int units,
                                      std::uint8_t* out)
{
    ::gputurbo::turbo::encode(d_in, in, std::size_t(units), out, d_layout);
}

} // namespace gputurbo
} // namespace gr
