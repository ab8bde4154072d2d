/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_SINGLE_DECODER_H
#define INCLUDED_GPUTURBO_CONV_CPU_SINGLE_DECODER_H

// Viterbi decoding of one frame, or one stream a frame at a time, on the calling thread:
// the trellis's states side by side in SIMD lanes (state_kernel.h), no thread pool and
// no allocation once the buffers have grown to the largest frame. What gr-fec's decoder
// objects need, one frame a call; batches of frames decode faster on the batch decoders
// (conv/decoder.h), which put frames in the lanes.

#include "core/cpu/isa.h"
#include "state_kernel.h"
#include "viterbi_kernel.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gputurbo::conv::cpu {

//! The state kernel for \p i (generic for scalar).
const state_kernel& state_kernel_for(core::cpu::isa i);
//! The widest one this CPU runs (core::cpu::choose(): GPUTURBO_CPU_KERNEL may pick one).
const state_kernel& best_state_kernel();

/*!
 * \brief A code's trellis on a state kernel, the LLRs into metrics (on the batch
 * decoder's vector code, quantize.h) and the traceback: what both single decoders
 * share. Metrics are int16, each coded bit's -127 ... 127 (positive: more likely 0; 0:
 * erased); on integer metrics the decisions are exactly the reference decoder's (ties
 * to the lower predecessor, to the lower end state).
 */
class state_trellis_runner
{
public:
    state_trellis_runner(const code& c, const state_kernel& kernel);
    // d_trellis points into the object's own tables.
    state_trellis_runner(const state_trellis_runner&) = delete;
    state_trellis_runner& operator=(const state_trellis_runner&) = delete;

    int states() const { return d_trellis.states; }
    int outputs() const { return d_trellis.outputs; }
    //! uint64 decision words a step
    int words() const { return decision_words(d_trellis.states); }

    //! core::sanitize_llr() of \p count LLRs into \p out, their magnitudes added to
    //! \p sums.
    void sanitize(const float* in,
                  std::size_t count,
                  bool invert,
                  float* out,
                  magnitudes& sums) const;
    //! quantize() of \p count sanitised LLRs at \p scale.
    void
    quantize(const float* in, std::size_t count, float scale, std::int16_t* out) const
    {
        d_vectors.quantize(in, count, scale, out);
    }
    //! Path metrics to start from: state 0 (\p known) or every state alike.
    void start(bool known, std::int16_t* path) const;
    //! \p steps steps (state_kernel::forward).
    void forward(const std::int16_t* metrics,
                 std::size_t steps,
                 std::int16_t* path,
                 std::uint64_t* decisions) const
    {
        d_kernel.forward(d_trellis, metrics, steps, path, decisions);
    }
    //! The best state of \p path, the lower of equals.
    unsigned best(const std::int16_t* path) const;
    //! Steps back along survivors through decisions, with the trellis's constants at
    //! hand (a local copy: the bytes a traceback writes cannot alias them).
    struct walker
    {
        const std::uint64_t* decisions;
        std::size_t words;
        unsigned mask;
        int newest;

        //! The state before step \p t on the survivor that is in \p s after it.
        unsigned previous(std::size_t t, unsigned s) const
        {
            const std::uint64_t word =
                words == 1 ? decisions[t] : decisions[t * words + (s >> 6)];
            return ((s << 1) & mask) | unsigned(word >> (s & 63) & 1u);
        }
        //! The input bit of the step that ends in \p s.
        std::uint8_t input(unsigned s) const { return std::uint8_t(s >> newest); }
    };
    walker walk(const std::uint64_t* decisions) const
    {
        return walker{ decisions,
                       std::size_t(words()),
                       unsigned(states() - 1),
                       d_trellis.constraint - 2 };
    }
    /*!
     * \brief Follows the survivor that is in \p state after the last of \p steps steps
     * of \p decisions back, writing the input bits of steps [from, to) to bits[0, to -
     * from).
     */
    void trace(const std::uint64_t* decisions,
               std::size_t steps,
               unsigned state,
               std::size_t from,
               std::size_t to,
               std::uint8_t* bits) const;

    std::string device() const;

private:
    const state_kernel& d_kernel;
    const viterbi_kernel& d_vectors; // the batch decoder's, for its LLRs into metrics
    std::vector<std::int16_t> d_patterns, d_signs; // state_trellis's
    state_trellis d_trellis;
};

/*!
 * \brief Decodes one frame a call (termination terminated, truncated or tail-biting),
 * with the input and output of conv/decoder.h's frame decoders. Terminated and
 * truncated frames: exact Viterbi over the whole frame. Tail-biting: wrap-around
 * Viterbi, the frame extended by config.geometry's training steps before it and depth
 * steps after it (derived_geometry()), from every state alike, traced back from the best
 * state. Float LLRs are sanitised and quantised as the CPU batch decoder quantises a
 * segment (the mean magnitude of the run's LLRs that carry information to 32, values
 * clamped to +-127): where that decoder decodes a frame in one segment, the bits are
 * its bits.
 */
class single_frame_decoder
{
public:
    //! Throws std::invalid_argument for a bad config or termination streaming.
    explicit single_frame_decoder(const viterbi_config& config,
                                  const state_kernel& kernel = best_state_kernel());

    //! The frame's sent LLRs: punctured_length().
    std::size_t input_length(int frame_bits) const;
    /*!
     * \brief Decodes a frame of \p frame_bits bits (check_frame_bits()) from its
     * input_length() LLRs into \p bits; returns whether it passes (conv/decoder.h:
     * enough information, and a terminated frame's best end state 0).
     */
    bool decode(int frame_bits, const float* llrs, std::uint8_t* bits);
    /*!
     * \brief The same from the metrics of its coded_length() coded bits (punctured ones
     * 0); returns whether a terminated frame's best end state is 0.
     */
    bool decode_metrics(int frame_bits, const std::int16_t* metrics, std::uint8_t* bits);

    const viterbi_config& config() const { return d_config; }
    std::string device() const { return d_trellis.device(); }

private:
    //! Decodes d_metrics, the run's metrics.
    bool decode_run(int frame_bits, std::uint8_t* bits);
    //! The run's steps: the frame's, plus training and depth when tail-biting.
    std::size_t run_steps(int frame_bits) const;
    //! Coded bit \p i of the run (tail-biting: counted from the training's start) as
    //! the index of a coded bit of the frame.
    std::size_t frame_index(int frame_bits, std::size_t i) const;

    const viterbi_config d_config;
    const segment_geometry d_geometry;
    const state_trellis_runner d_trellis;
    int d_index_frame = 0;                  // the frame size d_sent_index is for
    std::vector<std::int32_t> d_sent_index; // each coded bit's sent LLR, -1: punctured
    std::vector<float> d_values;            // the run's LLRs, sanitised
    std::vector<std::int16_t> d_metrics;    // and quantised
    std::vector<std::int16_t> d_path;
    std::vector<std::uint64_t> d_decisions;
};

/*!
 * \brief Decodes one stream (termination streaming, from state 0, unpunctured: a step's
 * outputs() values in turn, erasures as 0) a frame a call, each frame's bits traced
 * back from the best state after the newest step the call brings. The path metrics and
 * the decisions carry over from call to call, so that every step goes through the
 * trellis once: a call that decides frame_bits bits with \p ahead steps after them runs
 * only the steps it brings beyond those already run. On the same metrics, a frame's
 * bits are the reference decoder's for the stream so far as one truncated frame. Float
 * LLRs are quantised at the scale that maps the mean magnitude of the stream's recent
 * LLRs that carry information (about the last scale_window, the call's own included) to
 * 32, values clamped to +-127.
 */
class single_stream_decoder
{
public:
    static constexpr std::int64_t scale_window = 4096;

    //! Throws std::invalid_argument for a bad config, another termination than
    //! streaming, or puncturing.
    explicit single_stream_decoder(const viterbi_config& config,
                                   const state_kernel& kernel = best_state_kernel());

    /*!
     * \brief Decides the stream's next \p frame_bits bits into \p bits, from \p llrs:
     * the values of those bits' steps and of the \p ahead steps after them
     * ((frame_bits + ahead) * outputs() values, of which those of steps an earlier call
     * brought are not read again).
     */
    void decode(int frame_bits, int ahead, const float* llrs, std::uint8_t* bits);
    //! The same from each coded bit's metric.
    void decode_metrics(int frame_bits,
                        int ahead,
                        const std::int16_t* metrics,
                        std::uint8_t* bits);
    //! Starts a new stream.
    void reset();

    //! Bits decided since the stream started.
    std::uint64_t decided() const { return d_decided; }
    std::string device() const { return d_trellis.device(); }

private:
    //! Runs the \p steps steps whose metrics d_metrics holds, then decides the bits.
    void run_and_decide(std::size_t steps, int frame_bits, std::uint8_t* bits);
    //! The frame's bits, traced back from the best state after the newest step.
    void trace(std::size_t frame, std::uint8_t* bits);
    //! The steps a call deciding \p frame_bits with \p ahead after them brings beyond
    //! those already run.
    std::size_t fresh_steps(int frame_bits, int ahead) const;

    const viterbi_config d_config;
    const state_trellis_runner d_trellis;
    std::uint64_t d_decided = 0;              // bits decided
    std::size_t d_held = 0;                   // steps run beyond them
    std::int64_t d_inside = 0, d_counted = 0; // recent magnitudes (quantize.h)
    std::vector<float> d_values;
    std::vector<std::int16_t> d_metrics;
    std::vector<std::int16_t> d_path;
    std::vector<std::uint64_t> d_decisions; // of the held steps, then the fresh ones
    // The states after the held steps on the survivor the last call traced (d_traced of
    // them): where a later trace meets it, the path before is the same.
    std::vector<std::uint8_t> d_on_path, d_next_on_path;
    std::size_t d_traced = 0;
};

} // namespace gputurbo::conv::cpu

#endif
