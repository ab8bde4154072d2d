/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H
#define INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H

#include <gnuradio/gputurbo/conv_encoder.h>
#include <gnuradio/gputurbo/engine/conv/code.h>

#include <vector>

namespace gr {
namespace gputurbo {

class conv_encoder_impl : public conv_encoder
{
private:
    const ::gputurbo::conv::code d_code;
    const ::gputurbo::conv::puncturing d_punctured;
    const ::gputurbo::conv::termination d_mode;
    const int d_in;       // input bits a unit: a frame, or a puncturing period
    const int d_out;      // output bits a unit
    unsigned d_state = 0; // streaming: the encoder state
    std::vector<std::uint8_t> d_coded;
    std::uint64_t d_partial_items = 0;

public:
    conv_encoder_impl(const ::gputurbo::conv::code& code,
                      const ::gputurbo::conv::puncturing& punctured,
                      ::gputurbo::conv::termination mode,
                      int frame_bits);

    std::string code() const override { return d_code.text(); }
    int input_unit() const override { return d_in; }
    int output_unit() const override { return d_out; }
    std::uint64_t partial_items() const override { return d_partial_items; }

    bool start() override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int fixed_rate_ninput_to_noutput(int ninput) override;
    int fixed_rate_noutput_to_ninput(int noutput) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H */
