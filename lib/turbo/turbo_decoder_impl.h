/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H

#include "../common/stream_batcher.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder.h>

#include <memory>
#include <mutex>

namespace gr {
namespace gputurbo {

class turbo_decoder_impl : public turbo_decoder
{
private:
    // The engine decoder is not reentrant: work(), start(), stop() and the runtime
    // setters, which run on different threads, take d_mutex.
    mutable std::mutex d_mutex;
    const std::unique_ptr<::gputurbo::turbo::decoder> d_decoder;
    const int d_K;
    common::stream_batcher d_batcher;

public:
    explicit turbo_decoder_impl(const turbo_options& options);

    void set_iterations(int iterations) override;
    int iterations() const override;
    void set_stop_threshold(float threshold) override;
    float stop_threshold() const override;
    int block_size() const override { return d_K; }
    int codeword_length() const override { return d_batcher.input_length(); }
    std::string backend() const override { return d_decoder->backend(); }
    std::string device() const override { return d_decoder->device(); }
    std::uint64_t codewords() const override;
    std::uint64_t partial_items() const override;
    std::uint64_t misaligned_length_tags() const override;
    int subblocks() const override { return d_decoder->subblocks(d_K); }
    int max_batch() const override { return d_batcher.max_batch(); }

    bool start() override;
    bool stop() override;

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H */
