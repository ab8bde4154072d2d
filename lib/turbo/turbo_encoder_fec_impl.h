/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_IMPL_H

#include <gnuradio/gputurbo/turbo_encoder_fec.h>

namespace gr {
namespace gputurbo {

class turbo_encoder_fec_impl : public turbo_encoder_fec
{
private:
    int d_K;

public:
    explicit turbo_encoder_fec_impl(int K);

    void generic_work(void* in_buffer, void* out_buffer) override;

    double rate() override;
    int get_input_size() override { return d_K; }
    int get_output_size() override;
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }
    bool set_frame_size(unsigned int frame_size) override;

    int block_size() const override { return d_K; }
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_ENCODER_FEC_IMPL_H */
