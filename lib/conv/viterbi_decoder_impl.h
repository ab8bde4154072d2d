/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_IMPL_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_IMPL_H

#include "../common/locked_input.h"
#include "../common/stream_batcher.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/viterbi_decoder.h>

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace gr {
namespace gputurbo {

class viterbi_decoder_impl : public viterbi_decoder
{
private:
    // The engine decoders are not reentrant: work(), start(), stop() and the getters,
    // which run on different threads, take d_mutex.
    mutable std::mutex d_mutex;
    const ::gputurbo::conv::viterbi_config d_config;
    const int d_frame_bits;
    const bool d_int8;
    // Frames: the batch decoder behind the stream batcher.
    std::unique_ptr<::gputurbo::core::batch_decoder> d_frames;
    std::unique_ptr<common::stream_batcher> d_batcher;
    // A stream.
    std::unique_ptr<::gputurbo::conv::stream_decoder> d_stream;
    std::vector<std::uint8_t> d_decided; // decided bits [d_next, d_end) not yet out
    std::vector<float> d_soft;           // and their LLRs, with soft output
    std::size_t d_next = 0, d_end = 0;
    bool d_int8_output = false;      // the LLRs go out as int8 (int8_scale)
    std::uint64_t d_stream_bits = 0; // bits out
    std::uint64_t d_partial_items = 0;
    common::locked_input d_locked_input; // on CUDA
    // What a work call had best bring (stream_decoder::preferred_llrs()), the output
    // multiple that sizes the upstream buffer for two of them, and since when the LLRs
    // in the buffer have waited for that many.
    std::size_t d_batch_llrs = 0;
    int d_output_multiple = 1;
    std::optional<std::chrono::steady_clock::time_point> d_waiting_since;
    // Node synchronisation: its changes not yet tagged, their bits counted from the
    // stream's start, of which d_stream_out have been written.
    std::deque<::gputurbo::conv::sync_change> d_sync;
    std::uint64_t d_stream_out = 0;
    const pmt::pmt_t d_node_sync_key = pmt::intern("node_sync");
    const pmt::pmt_t d_offset_key = pmt::intern("offset");
    const pmt::pmt_t d_inverted_key = pmt::intern("inverted");
    // Restarts of a stream: input items discarded at the stop, and the "restart" tag's
    // value while it waits for the first output bit.
    bool d_started = false;
    std::uint64_t d_held_at_stop = 0;
    std::optional<std::uint64_t> d_pending_restart;

    bool streaming() const { return d_stream != nullptr; }
    std::size_t waiting() const { return d_end - d_next; }
    //! \p out: bits, or with soft output their LLRs (float or int8).
    int stream_work(int noutput_items, int ninput_items, const void* in, void* out);
    //! Whether the stream has ended with the \p ninput_items items of this work call.
    bool ended(int ninput_items) const;
    //! The stream has ended: its last bits to d_decided, a partial step reported.
    void end_stream();
    //! Room in d_decided for \p bits more after the waiting ones (d_end moves on by
    //! those written).
    std::uint8_t* decided_room(std::size_t bits);
    //! The room for the LLRs beside decided_room()'s bits, or nullptr without soft
    //! output.
    float* soft_room();
    //! Forgets the stream, reporting what it held when \p why is not empty.
    void drop_stream(const char* why);
    //! Logs the stream decoder's node synchronisation changes and keeps them to tag.
    void note_sync_changes();

public:
    explicit viterbi_decoder_impl(const viterbi_options& options);

    std::string code() const override { return d_config.generator.text(); }
    std::string termination() const override
    {
        return ::gputurbo::conv::to_string(d_config.mode);
    }
    int frame_bits() const override { return d_frame_bits; }
    int frame_length() const override;
    std::string backend() const override;
    std::string device() const override;
    std::uint64_t bits() const override;
    std::uint64_t partial_items() const override;
    std::uint64_t misaligned_length_tags() const override;
    std::uint64_t failed_frames() const override;

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

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_IMPL_H */
