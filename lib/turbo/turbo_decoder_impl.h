/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_IMPL_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder.h>
#include <gnuradio/tags.h>
#include <pmt/pmt.h>

#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace gr {
namespace gputurbo {

class turbo_decoder_impl : public turbo_decoder
{
private:
    // A batch submitted to the engine and not yet returned.
    struct batch
    {
        ::gputurbo::turbo::decoder::ticket ticket;
        int codewords;
        std::uint64_t first_index;   // codeword number of its first codeword
        std::vector<gr::tag_t> tags; // input tags, offsets relative to the batch start
    };

    // The engine decoder is not reentrant: work(), stop() and the runtime setters, which
    // run on different threads, take d_mutex.
    mutable std::mutex d_mutex;
    const std::unique_ptr<::gputurbo::turbo::decoder> d_decoder;
    const int d_K;
    const int d_n; // input LLRs per codeword, 3K+12
    const bool d_int8;
    const int d_max_batch;
    const int d_batches_in_flight;
    std::deque<batch> d_in_flight; // oldest first
    std::vector<::gputurbo::core::codeword_status> d_status;
    std::uint64_t d_submitted = 0; // codewords submitted: the index of the next one
    std::uint64_t d_codewords = 0; // codewords returned
    std::uint64_t d_partial_items = 0;
    void* d_locked_input = nullptr; // the input buffer, page-locked for the GPU's DMA

    const pmt::pmt_t d_tag_key;
    const pmt::pmt_t d_index_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;
    // {"iterations", "passed"} for each status, made once: the codeword tags share them
    // as the tail of their dicts (pmt dicts are immutable lists), which saves most of
    // the allocations of a tag, the block's largest cost per codeword.
    std::vector<pmt::pmt_t> d_status_dicts;

    pmt::pmt_t status_dict(const ::gputurbo::core::codeword_status& status);

    // Submits the codewords whose first LLR is input item `first`.
    void submit(const void* llrs, int codewords, std::uint64_t first);
    int return_oldest(std::uint8_t* out);

public:
    turbo_decoder_impl(const ::gputurbo::turbo::decoder_config& config,
                       const std::string& backend,
                       bool int8,
                       int max_batch,
                       int batches_in_flight);

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
    int subblocks() const override { return d_decoder->subblocks(); }
    int max_batch() const override { return d_max_batch; }

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
