/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "conv_encoder_impl.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/io_signature.h>

#include <algorithm>

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
    : gr::block("conv_encoder",
                gr::io_signature::make(1, 1, sizeof(std::uint8_t)),
                gr::io_signature::make(1, 1, sizeof(std::uint8_t))),
      d_code(code),
      d_punctured(punctured),
      d_mode(mode),
      d_in(is_stream(mode) ? punctured.period() : frame_bits),
      d_out(is_stream(mode)
                ? punctured.kept_per_period(code.outputs())
                : int(conv::punctured_length(code, punctured, mode, frame_bits)))
{
    // Whole units only: an exact ratio for the scheduler and the tag propagation.
    set_output_multiple(d_out);
    set_relative_rate(std::uint64_t(d_out), std::uint64_t(d_in));
    set_fixed_rate(true);
}

bool conv_encoder_impl::start()
{
    d_state = 0; // a restart starts a new stream
    d_partial_items = 0;
    return block::start();
}

bool conv_encoder_impl::stop()
{
    // What the scheduler left in the input buffer: at the end of a stream, less than a
    // unit.
    if (detail() && detail()->ninputs() > 0) {
        d_partial_items = detail()->input(0)->items_available();
        if (d_partial_items > 0)
            d_logger->warn("{:d} input bit(s) left unencoded when the block stopped: "
                           "less than a {:s} of {:d} bits",
                           d_partial_items,
                           is_stream(d_mode) ? "puncturing period" : "frame",
                           d_in);
    }
    return block::stop();
}

void conv_encoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    ninput_items_required[0] = fixed_rate_noutput_to_ninput(noutput_items);
}

int conv_encoder_impl::fixed_rate_ninput_to_noutput(int ninput)
{
    return ninput / d_in * d_out;
}

int conv_encoder_impl::fixed_rate_noutput_to_ninput(int noutput)
{
    return std::max(1, noutput / d_out) * d_in;
}

int conv_encoder_impl::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    const auto in = static_cast<const std::uint8_t*>(input_items[0]);
    auto out = static_cast<std::uint8_t*>(output_items[0]);
    const int units = std::min(ninput_items[0] / d_in, noutput_items / d_out);
    if (units == 0)
        return 0;
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
    consume_each(units * d_in);
    return units * d_out;
}

} // namespace gputurbo
} // namespace gr
