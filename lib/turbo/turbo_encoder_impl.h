/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H

#include "../common/unit_encoder.h"

#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/turbo_encoder.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

// Units of K bits in, codewords of 3K+12 bits out.
class turbo_encoder_impl : public common::unit_encoder<turbo_encoder>
{
private:
    const ::gputurbo::turbo::layout d_layout;

    std::string partial_unit_text(std::uint64_t partial) const override;
    void encode_units(const std::uint8_t* in, int units, std::uint8_t* out) override;

public:
    turbo_encoder_impl(int K, const std::string& layout);

    int block_size() const override { return d_in; }
    int codeword_length() const override { return d_out; }
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H */
