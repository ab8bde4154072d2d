/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_SEGMENTS_H
#define INCLUDED_GPUTURBO_CONV_SEGMENTS_H

// Cutting frames and streams into the overlapping segments of segment_geometry
// (conv/decoder.h), for every backend: a segment is one independent run of the trellis,
// which a backend gives a SIMD lane or a GPU thread; and the stream decoder every
// segmented backend shares.

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputurbo::conv {

//! One run of the trellis over a window of LLRs (a frame, or the part of a stream held).
//! Steps are counted from the window's start; a tail-biting window's steps go round it
//! (step -1 is its last).
struct segment
{
    std::size_t window = 0; //!< which window
    std::int64_t first = 0; //!< the run's first step
    std::int64_t begin = 0; //!< the bits it decides: [begin, end)
    std::int64_t end = 0;
    //! the window's steps whose LLRs this segment alone reads for the window's total
    //! (frame status): [begin, end), and the tail too for the last segment of a frame
    std::int64_t owned_end = 0;
    bool start_zero = false; //!< the run starts in state 0, else in every state alike
    bool end_zero = false;   //!< the traceback starts in state 0, else in the best state
};

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
    //! int8 LLRs instead of values (then nullptr): each q is its own metric (-128 read as
    //! -127; no scale), and q * unit its LLR for the magnitudes
    const std::int8_t* codes = nullptr;
    float unit = 1.0f;
};

//! A backend's Viterbi over segments: runs of the trellis decoded side by side.
class segment_engine
{
public:
    virtual ~segment_engine() = default;
    /*!
     * \brief Decodes \p segments, each of \p run steps, writing their bits to their
     * windows' out. \p owned: per segment, the sum of |LLR| over its owned steps
     * (segment::owned_end), or nullptr.
     */
    virtual void decode(const std::vector<window>& windows,
                        std::int64_t run,
                        const std::vector<segment>& segments,
                        double* owned) = 0;
    virtual core::backend kind() const = 0;
    virtual std::string device() const = 0;
};

/*!
 * \brief A frame's window index (window::sent_index): for each of its steps * outputs
 * coded bits, the index of its LLR among the sent ones, -1 where punctured; empty when
 * \p config has no puncturing.
 */
std::vector<std::int32_t> sent_index(const viterbi_config& config, int frame_bits);

/*!
 * \brief The trellis as the fast decoders read it: [ns * 2 + b], the coded bits (bit o:
 * output o) of the branch from p_b = ((ns << 1) & (S - 1)) | b to ns. State s holds the
 * K-1 most recent inputs, the newest at bit K-2.
 */
std::vector<std::uint8_t> branch_outputs(const code& c);

//! Steps of a full run: bits + training + depth.
inline std::int64_t full_run(const segment_geometry& g)
{
    return std::int64_t(g.bits) + g.training + g.depth;
}

/*!
 * \brief The run length of the segments of a frame of \p frame_bits bits and \p steps
 * trellis steps: the whole frame when it fits in a full run (one segment: exact Viterbi
 * over the frame), frame plus overlaps when tail-biting and short, else full_run().
 */
std::int64_t frame_run(const segment_geometry& g,
                       termination mode,
                       int frame_bits,
                       std::int64_t steps);

//! Appends the segments of one frame (window \p window), all of frame_run() steps.
void cut_frame(const segment_geometry& g,
               termination mode,
               int frame_bits,
               std::int64_t steps,
               std::size_t window,
               std::vector<segment>& out);

/*!
 * \brief Appends the segments that decide bits [begin, end) of a window of \p steps
 * steps that nothing follows (the rest of a stream at its end, a non-circular frame):
 * one run of the whole window when it fits in a full run, else full runs placed on the
 * grid begin + i * bits. \p start_zero, \p end_zero: the window starts, ends in state 0.
 */
void cut_line(const segment_geometry& g,
              std::int64_t steps,
              std::int64_t begin,
              std::int64_t end,
              bool start_zero,
              bool end_zero,
              std::size_t window,
              std::vector<segment>& out);

/*!
 * \brief Segment \p i of a stream: it decides stream bits [i bits, (i+1) bits) from the
 * full run that starts at max(0, i bits - training) (in state 0 at the stream's start),
 * so that its decisions depend on the stream alone, not on how it came in. Steps are
 * the stream's; the caller shifts \p first to its window.
 */
segment stream_segment(const segment_geometry& g, std::uint64_t i);

/*!
 * \brief The stream decoder of a segment engine: the stream is decided segment by
 * segment on the grid of stream_segment(), as soon as a segment's run has arrived, all
 * segments ready in one call side by side; the LLRs from the first undecided segment's
 * run on are held.
 */
class segmented_stream_decoder final : public stream_decoder
{
public:
    segmented_stream_decoder(const viterbi_config& config,
                             std::unique_ptr<segment_engine> engine);

    core::backend kind() const override { return d_engine->kind(); }
    std::string device() const override { return d_engine->device(); }

private:
    std::size_t
    advance(const float* llrs, std::size_t steps, std::uint8_t* bits) override;
    std::size_t finish(std::uint8_t* bits) override;
    void restart() override;

    //! Drops the held steps no undecided segment reads.
    void drop_decided();

    const segment_geometry d_geometry;
    std::unique_ptr<segment_engine> d_engine;
    std::vector<float> d_held;  // depunctured LLRs of steps d_origin, d_origin + 1, …
    std::uint64_t d_origin = 0; // stream step of d_held's first
    std::uint64_t d_next = 0;   // the first undecided segment
    std::vector<segment> d_cut;
};

} // namespace gputurbo::conv

#endif
