/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H
#define INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H

#include "../common/unit_encoder.h"

#include <gnuradio/gputurbo/conv_encoder.h>
#include <gnuradio/gputurbo/engine/conv/code.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

// Units of a frame, or of a puncturing period of a stream.
class conv_encoder_impl : public common::unit_encoder<conv_encoder>
{
private:
    const ::gputurbo::conv::code d_code;
    const ::gputurbo::conv::puncturing d_punctured;
    const ::gputurbo::conv::termination d_mode;
    unsigned d_state = 0; // streaming: the encoder state
    std::vector<std::uint8_t> d_coded;

    std::string partial_unit_text(std::uint64_t partial) const override;
    void encode_units(const std::uint8_t* in, int units, std::uint8_t* out) override;

public:
    conv_encoder_impl(const ::gputurbo::conv::code& code,
                      const ::gputurbo::conv::puncturing& punctured,
                      ::gputurbo::conv::termination mode,
                      int frame_bits);

    std::string code() const override { return d_code.text(); }
    int input_unit() const override { return d_in; }
    int output_unit() const override { return d_out; }

    bool start() override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_CONV_ENCODER_IMPL_H */
