/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_SOFT_IN_BITS_OUT_H
#define INCLUDED_GPUTURBO_COMMON_SOFT_IN_BITS_OUT_H

#include <gnuradio/fec/generic_decoder.h>

#include <cstdint>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief What every family's gr-fec decoder object tells gr-fec's wrappers alike: float
 * soft values in as they are (no conversion, no shift, no history unless an object reads
 * past its frame), unpacked bits out.
 */
class soft_in_bits_out : public virtual gr::fec::generic_decoder
{
public:
    int get_history() override { return 0; }
    float get_shift() override { return 0.0f; }
    int get_input_item_size() override { return sizeof(float); }
    int get_output_item_size() override { return sizeof(std::uint8_t); }
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
