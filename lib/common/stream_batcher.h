/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_STREAM_BATCHER_H
#define INCLUDED_GPUTURBO_COMMON_STREAM_BATCHER_H

#include "failure_log.h"
#include "locked_input.h"

#include <gnuradio/block.h>
#include <gnuradio/logger.h>
#include <gnuradio/gputurbo/block_options.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/tags.h>
#include <pmt/pmt.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {
namespace common {

using gr::gputurbo::block_options;
using gr::gputurbo::codeword_tags;

/*!
 * \brief The stream side of any family's batched decoder block: LLRs in, hard bits out
 * (one byte per bit), or, with soft output (block_options::output), the engine's
 * soft_length() values a codeword (one per information bit; one per input LLR for
 * code_extrinsic), floats or int8 (block_options::int8_output, in units of the
 * engine's int8_scale), codeword by codeword, through a core::batch_decoder.
 *
 * Each work call either submits a batch of up to max_batch whole codewords or returns the
 * oldest batch in flight, never both, so the input space goes back to the upstream block
 * at once while the GPU decodes. A batch is returned as soon as no further codeword
 * waits; with batches in flight forecast asks for no input, which is how every batch
 * leaves at the end of the stream. On CUDA the input buffer is page-locked at start, so
 * the GPU reads batches from it without a staging copy.
 *
 * Tags: input tags move with their codeword (item i of a codeword goes to its output
 * item floor(i * output_length / input_length), output_length its items out). Codewords
 * get a tag "codeword" = {"index", "iterations", "passed"} on their first output item as
 * \p tags says; the dicts of equal statuses share their tail, and with the default
 * ("failed") a healthy stream costs no tag at all.
 *
 * Length tags (key \p length_tag_key, "" for none) of a tagged stream: one on a codeword
 * boundary whose value counts whole codewords leaves with the value in output items
 * (L input items -> L / input_length * output_length), so tagged-stream blocks work
 * downstream; any other is dropped, counted (misaligned_length_tags()) and logged, the
 * first few one by one.
 *
 * Restart: stop() drains the batches in flight, and a restart (top_block::start() after
 * stop(), unlock() after lock()) gives every block empty buffers. The first item of the
 * new stream starts a codeword, and the first output bit after it carries a tag
 * "restart" = the input items the block held when it stopped (uint64), which GNU Radio
 * discarded.
 *
 * Not thread-safe: the block serialises work(), start(), stop() and its setters.
 */
class stream_batcher
{
public:
    //! \p int8_scale: the units of int8 soft output, the engine config's.
    stream_batcher(gr::block& block,
                   gr::logger_ptr logger,
                   ::gputurbo::core::batch_decoder& engine,
                   int block_size,
                   const block_options& options,
                   float int8_scale);

    int max_batch() const { return d_max_batch; }
    int input_length() const { return d_n; }
    std::uint64_t codewords() const { return d_codewords; }
    //! Codewords returned with passed false.
    std::uint64_t failed() const { return d_failed; }
    std::uint64_t partial_items() const { return d_partial_items; }
    std::uint64_t misaligned_length_tags() const { return d_dropped_length_tags.total(); }

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
    //! Writes the oldest batch's bits, or soft values, to \p out.
    int return_oldest(void* out);
    pmt::pmt_t status_dict(const ::gputurbo::core::codeword_status& status);
    //! A length tag's value in output items, or PMT_NIL (and a report) when the tag
    //! does not start whole codewords.
    pmt::pmt_t decoded_length(const gr::tag_t& tag, std::uint64_t codeword_index);

    gr::block& d_block;
    gr::logger_ptr d_logger;
    ::gputurbo::core::batch_decoder& d_engine;
    const int d_K;
    const int d_n; // LLRs per codeword
    // Output items per codeword: its bits, or the soft values of d_output.
    const int d_output_length;
    const bool d_int8;
    const int d_max_batch;
    const int d_batches_in_flight;
    const codeword_tags d_tags;
    const ::gputurbo::core::soft_output d_output;
    const bool d_int8_output;
    const float d_int8_scale;
    std::vector<std::uint8_t> d_bits; // the bits of a batch of soft output: not passed on
    std::deque<batch> d_in_flight;    // oldest first
    std::vector<::gputurbo::core::codeword_status> d_status;
    std::uint64_t d_submitted = 0; // the index of the next codeword submitted
    std::uint64_t d_codewords = 0; // codewords returned
    std::uint64_t d_failed = 0;    // of them, with passed false
    std::uint64_t d_partial_items = 0;
    failure_log d_dropped_length_tags{ "length tag" };
    locked_input d_locked_input; // on CUDA

    // Restarts: the "restart" tag's value while it waits for the first output bit.
    bool d_started = false;
    std::optional<std::uint64_t> d_pending_restart;

    const pmt::pmt_t d_tag_key;
    const pmt::pmt_t d_index_key;
    const pmt::pmt_t d_iterations_key;
    const pmt::pmt_t d_passed_key;
    const pmt::pmt_t d_length_key; // PMT_NIL: no length tags
    const pmt::pmt_t d_restart_key;
    // {"iterations", "passed"} by status, made once: the codeword tags share them as the
    // tail of their dicts (pmt dicts are immutable lists).
    std::vector<pmt::pmt_t> d_status_dicts;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
