/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H

#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/turbo_encoder.h>

namespace gr {
namespace gputurbo {

class turbo_encoder_impl : public turbo_encoder
{
private:
    const int d_K;
    const ::gputurbo::turbo::layout d_layout;
    const int d_n; // output bits per codeword, 3K+12
    std::uint64_t d_partial_items = 0;

public:
    turbo_encoder_impl(int K, const std::string& layout);

    int block_size() const override { return d_K; }
    int codeword_length() const override { return d_n; }
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

#endif /* INCLUDED_GPUTURBO_TURBO_ENCODER_IMPL_H */
