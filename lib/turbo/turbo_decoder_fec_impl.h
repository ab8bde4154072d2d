/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H

#include "../common/fec_decoder.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_fec.h>

#include <memory>
#include <mutex>
#include <vector>

namespace gr {
namespace gputurbo {

class turbo_decoder_fec_impl : public common::fec_decoder<turbo_decoder_fec>
{
private:
    const ::gputurbo::turbo::decoder_config d_config;
    const std::unique_ptr<::gputurbo::turbo::decoder> d_decoder;
    const std::string d_backend; // as asked for, "auto" resolved
    const double d_rate;

    // The frame the last set_frame_size() announced: this many codewords of K, or 0
    // when it refused it (generic_work() then decodes and writes nothing, and counts
    // the refusal once).
    int d_codewords = 1;

    std::vector<::gputurbo::core::codeword_status> d_status; // of the last frame

public:
    turbo_decoder_fec_impl(const ::gputurbo::turbo::decoder_config& config,
                           const std::string& backend);
    void generic_work(void* inbuffer, void* outbuffer) override;

    double rate() override { return d_rate; }
    int get_input_size() override;
    int get_output_size() override;
    bool set_frame_size(unsigned int frame_size) override;
    float get_iterations() override { return float(d_config.iterations); }

    int block_size() const override { return d_config.K; }
    int subblocks() const override;
    std::string backend() const override { return d_backend; }
    std::string device() const override;
    int last_iterations() const override;
    bool last_passed() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H */
