/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_STREAM_BATCHER_H
#define INCLUDED_GPUTURBO_COMMON_STREAM_BATCHER_H

#include <gnuradio/block.h>
#include <gnuradio/logger.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/tags.h>
#include <pmt/pmt.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {
namespace common {

//! Which decoded codewords get a "codeword" stream tag.
enum class codeword_tags {
    failed, //!< those whose check did not hold (passed false): the ones to look at
    all,    //!< every codeword
    none,
};

//! "failed" | "all" | "none"; throws std::invalid_argument naming the options.
codeword_tags parse_codeword_tags(const std::string& name);

/*!
 * \brief The stream side of any family's batched decoder block: LLRs in, hard bits out,
 * codeword by codeword, through a core::batch_decoder.
 *
 * Each work call either submits a batch of up to max_batch whole codewords or returns the
 * oldest batch in flight, never both, so the input space goes back to the upstream block
 * at once while the GPU decodes. A batch is returned as soon as no further codeword
 * waits; with batches in flight forecast asks for no input, which is how every batch
 * leaves at the end of the stream. On CUDA the input buffer is page-locked at start, so
 * the GPU reads batches from it without a staging copy.
 *
 * Tags: input tags move with their codeword (item i of a codeword goes to its output
 * bit floor(i * block / input_length)). Codewords get a tag "codeword" = {"index",
 * "iterations", "passed"} as \p tags says; the dicts of equal statuses share their tail,
 * and with the default ("failed") a healthy stream costs no tag at all.
 *
 * Not thread-safe: the block serialises work(), start(), stop() and its setters.
 */
class stream_batcher
{
public:
    stream_batcher(gr::block& block,
                   gr::logger_ptr logger,
                   ::gputurbo::core::batch_decoder& engine,
                   int block_size,
                   bool int8,
                   int max_batch,
                   int batches_in_flight,
                   codeword_tags tags);

    int max_batch() const { return d_max_batch; }
    int input_length() const { return d_n; }
    std::uint64_t codewords() const { return d_codewords; }
    std::uint64_t partial_items() const { return d_partial_items; }

    //! max_batch = 0: about 4 Mbit of information bits on CUDA, 64 codewords on the CPU.
    static int automatic_batch(const ::gputurbo::core::batch_decoder& engine,
                               int block_size);

    //! What the block calls in its own start(), stop(), forecast() and general_work().
    void start();
    void stop();
    void forecast(gr_vector_int& ninput_items_required) const;
    int work(int noutput_items,
             const gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items);

private:
    //! max_batch, checked, or the automatic choice for 0.
    static int checked_batch(int max_batch,
                             const ::gputurbo::core::batch_decoder& engine,
                             int block_size);

    // A batch submitted to the engine and not yet returned.
    struct batch
    {
        ::gputurbo::core::batch_decoder::ticket ticket;
        int codewords;
        std::uint64_t first_index;   // codeword number of its first codeword
        std::vector<gr::tag_t> tags; // input tags, offsets relative to the batch start
    };

    void submit(const void* llrs, int codewords);
    int return_oldest(std::uint8_t* out);
    pmt::pmt_t status_dict(const ::gputurbo::core::codeword_status& status);

    gr::block& d_block;
    gr::logger_ptr d_logger;
    ::gputurbo::core::batch_decoder& d_engine;
    const int d_K;
    const int d_n; // LLRs per codeword
    const bool d_int8;
    const int d_max_batch;
    const int d_batches_in_flight;
    const codeword_tags d_tags;
    std::deque<batch> d_in_flight; // oldest first
    std::vector<::gputurbo::core::codeword_status> d_status;
    std::uint64_t d_submitted = 0; // the index of the next codeword submitted
    std::uint64_t d_codewords = 0; // codewords returned
    std::uint64_t d_partial_items = 0;
    void* d_locked_input = nullptr; // the input buffer, page-locked for the GPU's DMA

    const pmt::pmt_t d_tag_key;
    const pmt::pmt_t d_index_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;
    // {"iterations", "passed"} by status, made once: the codeword tags share them as the
    // tail of their dicts (pmt dicts are immutable lists).
    std::vector<pmt::pmt_t> d_status_dicts;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
