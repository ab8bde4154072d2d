/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H
#define INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H

#include "../segments.h"
#include "viterbi_kernel.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstdint>
#include <vector>

namespace gputurbo::conv::cpu {

//! The widest kernel this CPU runs (core::cpu::choose(): GPUTURBO_CPU_KERNEL may pick
//! one by name).
const viterbi_kernel& best_kernel();

//! The LLRs segments read: a frame's sent LLRs, or the part of a stream held.
struct window
{
    const float* values;
    //! [steps * outputs]: the index in values of each coded bit, -1 where punctured;
    //! nullptr: values are depunctured already (one per coded bit)
    const std::int32_t* sent_index;
    std::int64_t steps;
    bool circular;     //!< tail-biting: step -1 is the last
    bool invert;       //!< values have the other sign convention
    std::uint8_t* out; //!< bit k of the window goes to out[k - out_origin]
    std::int64_t out_origin;
};

/*!
 * \brief The SIMD Viterbi over segments (conv/segments.h), the work both CPU decoders
 * share: groups of kernel.lanes segments, one per lane, on the shared thread pool. Each
 * segment's LLRs are quantised to -127 … 127 at the scale that maps the mean magnitude of
 * its nonzero LLRs below the clamp (core::llr_limit) to 32: Viterbi decisions do not
 * depend on a common scale, values beyond four times that mean are clipped, and
 * saturated ones (+-Inf) cost the others no precision.
 */
class segment_decoder
{
public:
    segment_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    /*!
     * \brief Decodes \p segments, each of \p run steps, writing their bits to their
     * windows' out. \p owned: per segment, the sum of |LLR| over its owned steps
     * (segment::owned_end), or nullptr.
     */
    void decode(const std::vector<window>& windows,
                std::int64_t run,
                const std::vector<segment>& segments,
                double* owned);

    int threads() const { return d_threads; }
    const viterbi_kernel& kernel() const { return d_kernel; }

private:
    //! One worker's buffers, kept from call to call: allocating them anew for every
    //! call costs page faults.
    struct workspace
    {
        std::vector<float> values;            // one lane's LLRs, sanitised
        std::vector<std::int16_t> metrics;    // the kernel's input
        std::vector<std::uint32_t> decisions; // its output
        std::vector<std::int16_t> final_metrics;
    };

    const viterbi_config d_config;
    const viterbi_kernel& d_kernel;
    const int d_threads;
    std::vector<std::uint8_t> d_branch_outputs; // the trellis's, see viterbi_kernel.h
    std::vector<workspace> d_workspaces;        // one per worker
};

/*!
 * \brief The fast CPU Viterbi decoder of frames. A frame is one segment when it fits in
 * a full run of config.geometry (exact Viterbi over the frame; tail-biting: wrap-around
 * Viterbi over the frame extended by training steps before and depth steps after),
 * else it is cut into segments, and all of a batch's segments share the lanes.
 */
class cpu_decoder final : public core::batch_decoder
{
public:
    cpu_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    void check_block(int frame_bits) const override;
    std::size_t input_length(int frame_bits) const override;
    core::backend kind() const override { return core::backend::cpu; }
    std::string device() const override;

private:
    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override;

    const viterbi_config d_config;
    const segment_geometry d_geometry;
    segment_decoder d_segments;
    int d_index_block = 0;                  // the frame size d_sent_index is for
    std::vector<std::int32_t> d_sent_index; // see window; empty when unpunctured
    std::vector<window> d_windows;
    std::vector<segment> d_cut;
    std::vector<double> d_owned;
};

/*!
 * \brief The fast CPU stream decoder: the stream is decided segment by segment on the
 * grid of stream_segment(), as soon as a segment's run has arrived, all segments ready
 * in one call side by side; the LLRs from the first undecided segment's run on are held.
 */
class cpu_stream_decoder final : public stream_decoder
{
public:
    cpu_stream_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    core::backend kind() const override { return core::backend::cpu; }
    std::string device() const override;

private:
    std::size_t
    advance(const float* llrs, std::size_t steps, std::uint8_t* bits) override;
    std::size_t finish(std::uint8_t* bits) override;
    void restart() override;

    //! Drops the held steps no undecided segment reads.
    void drop_decided();

    const segment_geometry d_geometry;
    segment_decoder d_segments;
    std::vector<float> d_held;  // depunctured LLRs of steps d_origin, d_origin + 1, …
    std::uint64_t d_origin = 0; // stream step of d_held's first
    std::uint64_t d_next = 0;   // the first undecided segment
    std::vector<segment> d_cut;
};

} // namespace gputurbo::conv::cpu

#endif
