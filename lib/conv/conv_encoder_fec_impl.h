/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_ENCODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_CONV_ENCODER_FEC_IMPL_H

#include <gnuradio/gputurbo/conv_encoder_fec.h>
#include <gnuradio/gputurbo/engine/conv/code.h>

namespace gr {
namespace gputurbo {

class conv_encoder_fec_impl : public conv_encoder_fec
{
private:
    const ::gputurbo::conv::code d_code;
    const ::gputurbo::conv::termination d_mode;
    const int d_max_frame;
    const int d_padding; // zeros after a terminated frame's code bits
    int d_frame;
    unsigned d_state = 0; // CC_STREAMING: the encoder state between frames

public:
    conv_encoder_fec_impl(const ::gputurbo::conv::code& code,
                          ::gputurbo::conv::termination mode,
                          int frame_size,
                          int padding);

    void generic_work(void* in_buffer, void* out_buffer) override;
    double rate() override { return d_code.outputs(); }
    int get_input_size() override { return d_frame; }
    int get_output_size() override;
    bool set_frame_size(unsigned int frame_size) override;
    std::string code() const override { return d_code.text(); }
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_CONV_ENCODER_FEC_IMPL_H */
