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
#include <gnuradio/gputurbo/engine/core/host_memory.h>

#include <cstddef>
#include <cstdint>
#include <deque>
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
    //! nullptr, or where the max-log a-posteriori LLR of bit k (conv/fast_bcjr.h) goes
    //! too: soft[k - out_origin], in the sign of the window's values, within
    //! +-core::llr_limit (engines whose gives_soft() is true)
    float* soft = nullptr;
};

/*!
 * \brief A stream's window for segment_engine::submit(): its sent LLRs from a puncturing
 * period's start, those held from earlier calls and then a call's fresh ones (each
 * part may be empty), as they came (float or int8; the engine sanitises them as it
 * reads them, see window).
 */
struct stream_window
{
    const void* held;
    std::size_t held_count;
    const void* fresh;
    std::size_t fresh_count;
    bool int8;          //!< the LLRs are int8 (their metrics), else float
    float unit;         //!< int8: the LLR of q = 1
    bool invert;        //!< the LLRs have the other sign convention
    std::int64_t steps; //!< whole steps the LLRs hold
    //! [index_count >= steps * outputs]: each coded bit's index among the LLRs, -1
    //! where punctured (the same for every window of the stream: an engine may keep a
    //! copy, and needs a new one only when index_count grows); nullptr when unpunctured
    const std::int32_t* sent_index;
    std::size_t index_count;
    std::int64_t period;     //!< steps of the puncturing period (1 when unpunctured)
    std::size_t period_llrs; //!< the LLRs of a period
    bool soft = false;       //!< the bits' LLRs wanted too (gives_soft())
};

//! A backend's Viterbi over segments: runs of the trellis decoded side by side.
class segment_engine
{
public:
    //! segment_engine::decode()'s owned sum of a segment that ends in state 0 (the
    //! tail of a terminated frame) where another state is best: its frame fails.
    static constexpr double missed_end_state = -1.0;

    virtual ~segment_engine() = default;
    /*!
     * \brief Decodes \p segments, each of \p run steps, writing their bits to their
     * windows' out. \p owned: per segment, the sum of |LLR| over its owned steps
     * (segment::owned_end), or missed_end_state for a segment whose traceback starts in
     * state 0 (end_zero) while another state's metric is the best; or nullptr.
     */
    virtual void decode(const std::vector<window>& windows,
                        std::int64_t run,
                        const std::vector<segment>& segments,
                        double* owned) = 0;

    /*!
     * \brief Streams: starts decoding \p segments (consecutive, each of \p run steps)
     * of \p w, whose bits collect() writes, oldest batch first; \p w has been read when
     * it returns. Host engines decode the batch at once (this default).
     */
    virtual void submit(const stream_window& w,
                        std::int64_t run,
                        const std::vector<segment>& segments);
    //! Writes the bits of the oldest batch submitted (and their LLRs to \p soft, where
    //! it was submitted with soft) and returns how many, waiting for it when \p wait,
    //! else only when it is done (0 when not, or when none is left).
    virtual std::size_t collect(std::uint8_t* bits, float* soft, bool wait);
    //! Batches submitted and not yet collected.
    virtual std::size_t submitted() const { return d_done.size(); }
    //! Whether the oldest of them is decoded.
    virtual bool ready() const { return !d_done.empty(); }
    //! Forgets every batch submitted.
    virtual void discard() { d_done.clear(); }
    //! Segments a batch had best have to keep the engine busy; the default: no limit.
    virtual std::size_t preferred_segments() const { return std::size_t(-1); }
    //! Whether a window's soft output (window::soft, stream_window::soft) is given.
    virtual bool gives_soft() const { return false; }

    virtual core::backend kind() const = 0;
    virtual std::string device() const = 0;

private:
    std::vector<std::uint8_t> d_joined; // the default submit()'s joined LLRs
    std::vector<segment> d_segments;    // its segments, in their windows
    struct done_batch                   // and its batches' decisions
    {
        std::vector<std::uint8_t> bits;
        std::vector<float> soft; // empty without soft
    };
    std::deque<done_batch> d_done;
};

//! Whether the fast BCJR of the segment engines (fast_bcjr.h, window::soft) gives soft
//! output of \p kind under \p config: the a-posteriori LLRs of max-log, for codes whose
//! metrics fit in int16.
bool gives_fast_soft(const viterbi_config& config, core::soft_output kind);

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
 * segments ready in one batch side by side (submit()). The sent LLRs from the first
 * undecided segment's run on (from the start of its puncturing period) are held, as
 * they came; a call's fresh LLRs go to the engine from the caller's memory, and only
 * what the next batch reads again is copied.
 */
class segmented_stream_decoder final : public stream_decoder
{
public:
    segmented_stream_decoder(const viterbi_config& config,
                             std::unique_ptr<segment_engine> engine);

    core::backend kind() const override { return d_engine->kind(); }
    std::string device() const override { return d_engine->device(); }
    bool gives_soft() const override { return d_engine->gives_soft(); }
    std::size_t batches_pending() const override { return d_engine->submitted(); }
    bool batch_ready() const override { return d_engine->ready(); }

private:
    std::size_t advance(const sent_llrs& in, decided out) override;
    std::size_t wait_oldest(decided out) override;
    std::size_t finish(decided out) override;
    //! The oldest batch's decisions to \p out (waiting for it when \p wait).
    std::size_t collect(decided out, bool wait);
    void restart() override;
    std::uint64_t preferred_steps() const override;

    //! Submits \p segments (consecutive, in stream steps) in a window of the LLRs they
    //! read, of the held ones and then \p count fresh ones, \p sent in all so far.
    void submit(const void* fresh,
                std::size_t count,
                std::uint64_t sent,
                std::vector<segment>& segments,
                std::int64_t run);
    //! Submits the segments whose whole run has arrived, \p sent LLRs in all so far
    //! (the held ones, then \p count fresh ones), in batches of at most batch_steps,
    //! collecting the oldest batch first where \p in_flight are pending; returns the
    //! bits written.
    std::size_t submit_arrived(const void* fresh,
                               std::size_t count,
                               std::uint64_t sent,
                               std::size_t in_flight,
                               decided out);
    //! Keeps the sent LLRs from stream step \p from (a period's start) on, of the held
    //! ones and then \p count fresh ones.
    void hold_from(std::uint64_t from, const void* fresh, std::size_t count);
    //! The start of the puncturing period of stream step \p step.
    std::uint64_t period_start(std::int64_t step) const;
    //! d_held's room for \p count LLRs, its first d_held_count kept.
    void reserve_held(std::size_t count);
    //! The sent_index of a window of \p steps steps from a period's start.
    const std::int32_t* index_for(std::int64_t steps);

    const segment_geometry d_geometry;
    std::unique_ptr<segment_engine> d_engine;
    //! sent LLRs from step d_origin on, as they came (page-locked where a GPU is, so
    //! that a batch's copy of them is DMA)
    core::host_buffer<std::uint8_t> d_held;
    std::size_t d_held_count = 0; // how many
    std::uint64_t d_origin = 0;   // a puncturing period's start
    std::uint64_t d_next = 0;     // the first undecided segment
    std::vector<segment> d_cut;
    std::vector<std::int32_t> d_index; // sent_index of the longest window yet
};

} // namespace gputurbo::conv

#endif
