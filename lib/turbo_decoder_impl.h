/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H

#include <gnuradio/gputurbo/engine/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder.h>
#include <pmt/pmt.h>

#include <memory>
#include <mutex>
#include <vector>

namespace gr {
namespace gputurbo {

class turbo_decoder_impl : public turbo_decoder
{
private:
    // The engine decoder is not reentrant: work() and the runtime setters, which run
    // on different threads, take d_mutex.
    mutable std::mutex d_mutex;
    const std::unique_ptr<::gputurbo::decoder> d_decoder;
    const int d_K;
    const int d_n; // input LLRs per codeword, 3K+12
    const int d_max_batch;
    std::vector<::gputurbo::codeword_status> d_status;
    std::uint64_t d_codewords = 0; // decoded so far: the index of the next tag
    std::uint64_t d_partial_items = 0;

    const pmt::pmt_t d_tag_key;
    const pmt::pmt_t d_index_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;

public:
    turbo_decoder_impl(const ::gputurbo::decoder_config& config,
                       const std::string& backend,
                       int max_batch);

    void set_iterations(int iterations) override;
    int iterations() const override;
    void set_stop_threshold(float threshold) override;
    float stop_threshold() const override;
    int block_size() const override { return d_K; }
    int codeword_length() const override { return d_n; }
    std::string backend() const override { return d_decoder->backend(); }
    std::string device() const override { return d_decoder->device(); }
    std::uint64_t codewords() const override;
    std::uint64_t partial_items() const override;

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

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H */
