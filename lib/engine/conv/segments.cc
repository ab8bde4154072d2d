/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "segments.h"

#include <algorithm>

namespace gputurbo::conv {

std::int64_t
frame_run(const segment_geometry& g, termination mode, int frame_bits, std::int64_t steps)
{
    if (mode == termination::tail_biting)
        return std::min<std::int64_t>(frame_bits, g.bits) + g.training + g.depth;
    return std::min(steps, full_run(g));
}

void cut_frame(const segment_geometry& g,
               termination mode,
               int frame_bits,
               std::int64_t steps,
               std::size_t window,
               std::vector<segment>& out)
{
    if (mode != termination::tail_biting) {
        cut_line(
            g, steps, 0, frame_bits, true, mode == termination::terminated, window, out);
        out.back().owned_end = steps; // the tail
        return;
    }
    // Round the frame: each segment's run ends depth steps past its bits, so the last,
    // shorter one trains longer.
    const std::int64_t run = frame_run(g, mode, frame_bits, steps);
    for (std::int64_t begin = 0; begin < frame_bits; begin += g.bits) {
        segment s;
        s.window = window;
        s.begin = begin;
        s.end = std::min<std::int64_t>(begin + g.bits, frame_bits);
        s.owned_end = s.end;
        s.first = s.end + g.depth - run;
        out.push_back(s);
    }
}

void cut_line(const segment_geometry& g,
              std::int64_t steps,
              std::int64_t begin,
              std::int64_t end,
              bool start_zero,
              bool end_zero,
              std::size_t window,
              std::vector<segment>& out)
{
    const std::int64_t run = std::min(steps, full_run(g));
    for (std::int64_t b = begin; b < end; b += g.bits) {
        segment s;
        s.window = window;
        s.begin = b;
        s.end = run == steps ? end : std::min<std::int64_t>(b + g.bits, end);
        s.owned_end = s.end;
        s.first = std::clamp<std::int64_t>(b - g.training, 0, steps - run);
        s.start_zero = start_zero && s.first == 0;
        s.end_zero = end_zero && s.first + run == steps;
        out.push_back(s);
        if (run == steps)
            break; // one run decides them all
    }
}

segment stream_segment(const segment_geometry& g, std::uint64_t i)
{
    segment s;
    s.begin = std::int64_t(i) * g.bits;
    s.end = s.begin + g.bits;
    s.owned_end = s.end;
    s.first = std::max<std::int64_t>(0, s.begin - g.training);
    s.start_zero = s.first == 0;
    return s;
}

} // namespace gputurbo::conv
