/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "conv_encoder_impl.h"
#include "../common/io_signatures.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

namespace {

bool is_stream(conv::termination t) { return t == conv::termination::streaming; }

} // namespace

conv_encoder::sptr conv_encoder::make(int frame_bits,
                                      const std::string& preset,
                                      int constraint,
                                      const std::string& polys,
                                      const std::string& puncture,
                                      const std::string& termination)
{
    // The decoder's table checks the values (ranges, presets, patterns).
    if (preset == "none")
        ::gputurbo::core::check(conv::parameter("constraint"), constraint);
    else
        ::gputurbo::core::choice_index(conv::parameter("preset"), preset);
    const conv::code c =
        preset == "none" ? conv::parse_code(constraint, polys) : conv::preset(preset);
    const conv::termination mode = conv::parse_termination(termination);
    if (!is_stream(mode)) {
        ::gputurbo::core::check(conv::parameter("frame_bits"), frame_bits);
        conv::check_frame_bits(c, mode, frame_bits);
    }
    return gnuradio::make_block_sptr<conv_encoder_impl>(
        c, conv::parse_puncturing(puncture, c), mode, frame_bits);
}

conv_encoder_impl::conv_encoder_impl(const conv::code& code,
                                     const conv::puncturing& punctured,
                                     conv::termination mode,
                                     int frame_bits)
    : gr::block("conv_encoder", common::bit_stream(), common::bit_stream()),
      unit_encoder(is_stream(mode) ? punctured.period() : frame_bits,
                   is_stream(mode)
                       ? punctured.kept_per_period(code.outputs())
                       : int(conv::punctured_length(code, punctured, mode, frame_bits))),
      d_code(code),
      d_punctured(punctured),
      d_mode(mode)
{
}

bool conv_encoder_impl::start()
{
    d_state = 0; // a restart starts a new stream
    return unit_encoder::start();
}

std::string conv_encoder_impl::partial_unit_text(std::uint64_t) const
{
    return std::string(": less than a ") +
           (is_stream(d_mode) ? "puncturing period" : "frame") + " of " +
           std::to_string(d_in) + " bits";
}

void conv_encoder_impl::encode_units(const std::uint8_t* in, int units, std::uint8_t* out)
{
    // A stream's units are puncturing periods: encoded as one piece of the stream, then
    // punctured period by period (the pattern restarts at each, as it runs on).
    const int frame_bits = is_stream(d_mode) ? units * d_in : d_in;
    const int frames = is_stream(d_mode) ? 1 : units;
    d_coded.resize(conv::coded_length(d_code, d_mode, frame_bits) * std::size_t(frames));
    conv::encode(d_code,
                 d_mode,
                 frame_bits,
                 in,
                 std::size_t(frames),
                 d_coded.data(),
                 is_stream(d_mode) ? &d_state : nullptr);
    conv::puncture(d_code, d_punctured, d_mode, d_in, d_coded.data(), units, out);
}

} // namespace gputurbo
} // namespace gr
