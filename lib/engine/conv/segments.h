/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_SEGMENTS_H
#define INCLUDED_GPUTURBO_CONV_SEGMENTS_H

// Cutting frames and streams into the overlapping segments of segment_geometry
// (conv/decoder.h), for every backend: a segment is one independent run of the trellis,
// which a backend gives a SIMD lane or a GPU thread group.

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstddef>
#include <cstdint>
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

} // namespace gputurbo::conv

#endif
