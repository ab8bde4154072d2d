/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "conv_encoder_fec_impl.h"
#include "fec_parameters.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <algorithm>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

gr::fec::generic_encoder::sptr conv_encoder_fec::make(int frame_size,
                                                      int k,
                                                      int rate,
                                                      std::vector<int> polys,
                                                      int start_state,
                                                      cc_mode_t mode,
                                                      bool padded)
{
    check_start_state(start_state);
    const conv::code c = gr_fec_code(k, rate, polys);
    const conv::termination t = gr_fec_termination(mode);
    ::gputurbo::core::check(conv::parameter("frame_bits"), frame_size);
    conv::check_frame_bits(c, t, frame_size);
    return std::make_shared<conv_encoder_fec_impl>(
        c, t, frame_size, gr_fec_padding(c, t, padded));
}

conv_encoder_fec_impl::conv_encoder_fec_impl(const conv::code& code,
                                             conv::termination mode,
                                             int frame_size,
                                             int padding)
    : generic_encoder("conv_encoder_fec"),
      d_code(code),
      d_mode(mode),
      d_max_frame(frame_size),
      d_padding(padding),
      d_frame(frame_size)
{
}

int conv_encoder_fec_impl::get_output_size()
{
    return int(conv::coded_length(d_code, d_mode, d_frame)) + d_padding;
}

void conv_encoder_fec_impl::generic_work(void* in_buffer, void* out_buffer)
{
    auto out = static_cast<std::uint8_t*>(out_buffer);
    const bool stream = d_mode == conv::termination::streaming;
    conv::encode(d_code,
                 d_mode,
                 d_frame,
                 static_cast<const std::uint8_t*>(in_buffer),
                 1,
                 out,
                 stream ? &d_state : nullptr);
    std::fill_n(out + conv::coded_length(d_code, d_mode, d_frame), d_padding, 0);
}

bool conv_encoder_fec_impl::set_frame_size(unsigned int frame_size)
{
    const unsigned shortest =
        d_mode == conv::termination::tail_biting ? unsigned(d_code.constraint - 1) : 1u;
    if (frame_size < shortest || frame_size > unsigned(d_max_frame))
        return false;
    d_frame = int(frame_size);
    return true;
}

} // namespace gputurbo
} // namespace gr
