/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H

#include "../common/failure_log.h"
#include "../common/soft_in_bits_out.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_fec.h>

#include <memory>
#include <mutex>
#include <vector>

namespace gr {
namespace gputurbo {

class turbo_decoder_fec_impl : public turbo_decoder_fec, public common::soft_in_bits_out
{
private:
    // gr-fec calls set_frame_size() and generic_work() from the block's thread, the
    // accessors come from others: all take d_mutex.
    mutable std::mutex d_mutex;
    const ::gputurbo::turbo::decoder_config d_config;
    const std::unique_ptr<::gputurbo::turbo::decoder> d_decoder;
    const std::string d_backend; // as asked for, "auto" resolved
    const double d_rate;

    // The frame the last set_frame_size() announced: this many codewords of K, or 0
    // when it refused it (generic_work() then decodes and writes nothing, and counts
    // the refusal once).
    int d_codewords = 1;
    unsigned int d_refused_size = 0;
    bool d_refusal_counted = true;
    common::failure_log d_refusals{ "frame refused" };

    std::vector<::gputurbo::core::codeword_status> d_status; // of the last frame
    std::uint64_t d_frames = 0;

public:
    turbo_decoder_fec_impl(const ::gputurbo::turbo::decoder_config& config,
                           const std::string& backend);
    ~turbo_decoder_fec_impl() override;

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
    std::uint64_t frames() const override;
    std::uint64_t refused_frames() const override;
    int last_iterations() const override;
    bool last_passed() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H */
