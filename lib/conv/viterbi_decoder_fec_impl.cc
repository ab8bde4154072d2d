/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "viterbi_decoder_fec_impl.h"
#include "../common/engine_log.h"
#include "fec_parameters.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

gr::fec::generic_decoder::sptr viterbi_decoder_fec::make(int frame_size,
                                                         int k,
                                                         int rate,
                                                         std::vector<int> polys,
                                                         int start_state,
                                                         int end_state,
                                                         cc_mode_t mode,
                                                         bool padded,
                                                         const std::string& llr_sign,
                                                         const std::string& backend,
                                                         int threads,
                                                         const std::string& devices,
                                                         bool delayed)
{
    check_start_state(start_state);
    if (end_state != -1 && end_state != 0)
        throw std::invalid_argument("end_state=" + std::to_string(end_state) +
                                    ": use -1 (the decoder's choice) or 0");
    conv::viterbi_config config;
    config.generator = gr_fec_code(k, rate, polys);
    config.mode = gr_fec_termination(mode);
    // The engine reads L = ln P(0)/P(1): positive-one input is negated on the way in.
    config.invert_llr = ::gputurbo::core::positive_means_one(llr_sign);
    config.threads = threads;
    config.devices = devices;
    config.validate();
    ::gputurbo::core::check(conv::parameter("frame_bits"), frame_size);
    conv::check_frame_bits(config.generator, config.mode, frame_size);
    return std::make_shared<viterbi_decoder_fec_impl>(
        config,
        frame_size,
        gr_fec_padding(config.generator, config.mode, padded),
        backend,
        delayed);
}

viterbi_decoder_fec_impl::viterbi_decoder_fec_impl(const conv::viterbi_config& config,
                                                   int frame_size,
                                                   int padding,
                                                   const std::string& backend,
                                                   bool delayed)
    : generic_decoder("viterbi_decoder_fec"),
      d_config(config),
      d_padding(padding),
      d_frame(frame_size)
{
    route_engine_log();
    announce(frame_size);
    const conv::segment_geometry g = conv::derived_geometry(config);
    // One frame a call: the CPU's single decoders, even where a GPU is (whose batches
    // belong to viterbi_decoder_pdu and the batch API).
    const bool single = backend == "auto" || backend == "cpu";
    if (config.mode == conv::termination::streaming && delayed) {
        d_stream = conv::make_stream_decoder(config, backend);
        // Every bit more than depth + bits steps behind the newest is out when a call
        // returns (conv::stream_decoder): that lag makes each call's frame whole.
        d_delay = g.depth + g.bits;
        d_lagging.assign(std::size_t(d_delay), 0);
    } else if (config.mode == conv::termination::streaming) {
        // A frame is decided with the decision depth past it.
        d_aligned = true;
        d_ahead = g.depth;
        d_behind = g.training;
        if (single) {
            d_single_stream = std::make_unique<conv::cpu::single_stream_decoder>(config);
        } else {
            // A frame is the part [behind, behind + frame) of a truncated run.
            conv::viterbi_config runs = config;
            runs.mode = conv::termination::truncated;
            d_frames = conv::make_viterbi_decoder(runs, backend);
        }
    } else if (single) {
        d_single = std::make_unique<conv::cpu::single_frame_decoder>(config);
    } else {
        d_frames = conv::make_viterbi_decoder(config, backend);
    }
    if (backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}",
                       viterbi_decoder_fec_impl::backend(),
                       viterbi_decoder_fec_impl::device());
}

int viterbi_decoder_fec_impl::input_size(int frame) const
{
    const conv::code& c = d_config.generator;
    return int(conv::coded_length(c, d_config.mode, frame)) + d_padding;
}

void viterbi_decoder_fec_impl::generic_work(void* inbuffer, void* outbuffer)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    auto out = static_cast<std::uint8_t*>(outbuffer);
    if (d_frame == 0) {
        count_refusal([this](unsigned int refused) {
            return "gr-fec announced a frame of " + std::to_string(refused) +
                   " bits: the object decodes 1 ... " +
                   std::to_string(conv::max_frame_bits) +
                   (d_config.mode == conv::termination::tail_biting
                        ? " bits, at least K-1 when tail-biting"
                        : " bits") +
                   "; nothing decoded or written";
        });
        return;
    }
    const auto in = static_cast<const float*>(inbuffer);
    if (d_single_stream) {
        d_single_stream->decode(d_frame, d_announced ? 0 : d_ahead, in, out);
    } else if (d_single) {
        d_single->decode(d_frame, in, out);
    } else if (d_aligned) {
        decode_aligned(in, out);
    } else if (d_stream) {
        const std::size_t values = std::size_t(d_frame) * d_config.generator.outputs();
        d_decided.resize(d_stream->output_bound(values));
        d_decided.resize(d_stream->decode(in, values, d_decided.data()));
        d_lagging.insert(d_lagging.end(), d_decided.begin(), d_decided.end());
        std::copy_n(d_lagging.begin(), d_frame, out);
        d_lagging.erase(d_lagging.begin(), d_lagging.begin() + d_frame);
    } else {
        ::gputurbo::core::codeword_status status;
        d_frames->decode(d_frame, in, 1, out, &status);
    }
    ++d_decoded_frames;
}

// The run of a stream's frame: from d_behind steps before it, in every state alike (K-1
// erased steps from state 0 lead to each state with the same metric), or from the
// stream's start in state 0, to d_ahead steps past it (read beyond the frame, which
// gr-fec's decoder block holds there: get_history()), traced back from the best state.
void viterbi_decoder_fec_impl::decode_aligned(const float* in, std::uint8_t* out)
{
    const std::size_t n = std::size_t(d_config.generator.outputs());
    const std::size_t behind = d_before.size() / n;
    const std::size_t erased =
        behind < d_stream_steps ? std::size_t(d_config.generator.constraint - 1) : 0;
    const std::size_t ahead = d_announced ? 0 : std::size_t(d_ahead);
    const std::size_t frame = std::size_t(d_frame);
    d_window.assign(erased * n, 0.0f);
    d_window.insert(d_window.end(), d_before.begin(), d_before.end());
    d_window.insert(d_window.end(), in, in + (frame + ahead) * n);
    const std::size_t steps = d_window.size() / n;
    d_decided.resize(steps);
    ::gputurbo::core::codeword_status status;
    d_frames->decode(int(steps), d_window.data(), 1, d_decided.data(), &status);
    std::copy_n(d_decided.begin() + std::ptrdiff_t(erased + behind), frame, out);

    d_before.insert(d_before.end(), in, in + frame * n);
    const std::size_t keep = std::size_t(d_behind) * n;
    if (d_before.size() > keep)
        d_before.erase(d_before.begin(), d_before.end() - std::ptrdiff_t(keep));
    d_stream_steps += frame;
}

// A frame not decoded: one input item (never 0, which gr-fec would divide by) and no
// output: tagged_decoder consumes the packet and produces nothing.
void viterbi_decoder_fec_impl::announce(int frame)
{
    d_frame = frame;
    d_input_size = frame > 0 ? input_size(frame) : 1;
    d_output_size = frame;
}

int viterbi_decoder_fec_impl::get_input_size() { return d_input_size; }

int viterbi_decoder_fec_impl::get_output_size() { return d_output_size; }

// async_decoder announces a PDU of L values as L * rate() less int(rate() * input -
// output): for a terminated frame its tail's bits, made negative (wrapped around) by a
// PDU shorter than that, but 0 after a frame not decoded (input 1, output 0), which
// leaves the tail in. The answer: False makes it take the object for a fixed-size
// decoder and copy the whole PDU into its buffer of mtu * 8 / rate() values unchecked,
// which a longer PDU overruns; True makes it check the PDU against that buffer first
// (and stop with an error when it is longer). So a frame not decoded is False only for
// a PDU of fewer than 8 bits' worth of values (8 / rate(): the buffer at mtu 1), which
// gr-fec answers with an empty PDU, and True otherwise (0 bits, more than
// max_frame_bits): its output is then the zero bits gr-fec allocates.
bool viterbi_decoder_fec_impl::set_frame_size(unsigned int frame_size)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_announced = true;
    const unsigned tail = unsigned(input_size(0) / d_config.generator.outputs());
    const unsigned bits = frame_size + (d_frame > 0 ? tail : 0); // L * rate(), truncated
    const unsigned frame = bits > tail ? bits - tail : 0;
    const unsigned shortest = d_config.mode == conv::termination::tail_biting
                                  ? unsigned(d_config.generator.constraint - 1)
                                  : 1;
    if (frame >= shortest && frame <= unsigned(conv::max_frame_bits)) {
        announce(int(frame));
        return true;
    }
    announce(0);
    refuse(frame);
    return bits >= 8;
}

std::string viterbi_decoder_fec_impl::backend() const
{
    if (d_single || d_single_stream)
        return "cpu";
    return d_stream ? d_stream->backend() : ::gputurbo::core::to_string(d_frames->kind());
}

std::string viterbi_decoder_fec_impl::device() const
{
    if (d_single)
        return d_single->device();
    if (d_single_stream)
        return d_single_stream->device();
    return d_stream ? d_stream->device() : d_frames->device();
}

} // namespace gputurbo
} // namespace gr
