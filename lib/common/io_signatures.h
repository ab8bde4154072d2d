/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_IO_SIGNATURES_H
#define INCLUDED_GPUTURBO_COMMON_IO_SIGNATURES_H

// The streams of the module's blocks, one definition each.

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/io_signature.h>

#include <cstdint>

namespace gr {
namespace gputurbo {
namespace common {

//! One stream of bits, one byte per bit: an encoder's input and output, a decoder's
//! output.
inline gr::io_signature::sptr bit_stream()
{
    return gr::io_signature::make(1, 1, sizeof(std::uint8_t));
}

//! A stream decoder's output: bits (bit_stream()), or for soft output (one value per
//! information bit, or per input LLR for code-extrinsic) floats, or int8 values
//! (\p int8: output_type "int8").
inline gr::io_signature::sptr decoded_stream(::gputurbo::core::soft_output output,
                                             bool int8)
{
    if (output == ::gputurbo::core::soft_output::none)
        return bit_stream();
    return gr::io_signature::make(1, 1, int8 ? sizeof(std::int8_t) : sizeof(float));
}

//! One stream of LLRs, a stream decoder's input: float, or int8 (input_type "int8").
inline gr::io_signature::sptr llr_stream(bool int8)
{
    return gr::io_signature::make(1, 1, int8 ? sizeof(std::int8_t) : sizeof(float));
}

//! No stream: a PDU block has message ports only.
inline gr::io_signature::sptr no_streams() { return gr::io_signature::make(0, 0, 0); }

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
