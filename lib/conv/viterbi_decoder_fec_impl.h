/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_IMPL_H

#include "../common/fec_decoder.h"
#include "../engine/conv/cpu/single_decoder.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/viterbi_decoder_fec.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>

namespace gr {
namespace gputurbo {

class viterbi_decoder_fec_impl : public common::fec_decoder<viterbi_decoder_fec>
{
private:
    const ::gputurbo::conv::viterbi_config d_config;
    const int d_padding; // values after a terminated frame's code bits, ignored
    // On the CPU (backend cpu or auto), one of these decodes: framed modes, CC_STREAMING
    // aligned (its path metrics carried from frame to frame).
    std::unique_ptr<::gputurbo::conv::cpu::single_frame_decoder> d_single;
    std::unique_ptr<::gputurbo::conv::cpu::single_stream_decoder> d_single_stream;
    // Elsewhere: framed modes, and CC_STREAMING's frames (truncated runs over each frame
    // and the steps around it).
    std::unique_ptr<::gputurbo::core::batch_decoder> d_frames;
    std::unique_ptr<::gputurbo::conv::stream_decoder> d_stream; // CC_STREAMING delayed
    int d_delay = 0;
    std::deque<std::uint8_t> d_lagging; // a stream's decided bits not yet out
    std::vector<std::uint8_t> d_decided;

    // CC_STREAMING, aligned: steps read past a frame (get_history() / rate) and before
    // it (the stream's last values, kept from earlier frames).
    bool d_aligned = false;
    int d_ahead = 0;
    int d_behind = 0;
    std::vector<float> d_before; // the stream's last values, up to d_behind steps
    std::uint64_t d_stream_steps = 0;
    bool d_announced = false; // set_frame_size() was called: nothing past a frame
    std::vector<float> d_window;

    // The frame the last set_frame_size() announced, or 0 when it refused it
    // (generic_work() then writes nothing and counts the refusal once); and its sizes,
    // which gr-fec's wrappers read several times a frame: without the lock.
    int d_frame;
    std::atomic<int> d_input_size{ 1 }, d_output_size{ 0 };

    int input_size(int frame) const;
    void announce(int frame); // d_frame and its sizes
    void decode_aligned(const float* in, std::uint8_t* out);

public:
    viterbi_decoder_fec_impl(const ::gputurbo::conv::viterbi_config& config,
                             int frame_size,
                             int padding,
                             const std::string& backend,
                             bool delayed);
    void generic_work(void* inbuffer, void* outbuffer) override;

    double rate() override { return 1.0 / d_config.generator.outputs(); }
    int get_input_size() override;
    int get_output_size() override;
    bool set_frame_size(unsigned int frame_size) override;
    float get_iterations() override { return 0.0f; }
    int get_history() override { return d_ahead * d_config.generator.outputs(); }

    std::string code() const override { return d_config.generator.text(); }
    int delay() const override { return d_delay; }
    std::string backend() const override;
    std::string device() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_FEC_IMPL_H */
