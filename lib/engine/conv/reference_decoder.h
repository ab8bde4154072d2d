/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_REFERENCE_DECODER_H
#define INCLUDED_GPUTURBO_CONV_REFERENCE_DECODER_H

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gputurbo::conv {

/*!
 * \brief The trellis both reference decoders step through, in float. The state holds the
 * last K-1 input bits, the most recent in bit K-2; a step with input u goes from state p
 * to (u << (K-2)) | (p >> 1). Branch metric: the correlation sum over the step's outputs
 * of (coded bit ? -L : +L); path metrics are maximised, a tie goes to the lower
 * predecessor.
 */
class float_trellis
{
public:
    explicit float_trellis(const code& c);

    int states() const { return d_states; }

    /*!
     * \brief One step: from \p metric through the branches of the step's depunctured
     * LLRs (outputs() of them) into \p next, with \p decision[s] = 1 where s's survivor
     * came from its odd predecessor; next is shifted so that its best is 0. Returns
     * what was taken off.
     */
    float step(const float* llrs,
               const float* metric,
               float* next,
               std::uint8_t* decision) const;

    //! The state before \p s on its survivor, given s's decision.
    int previous(int s, int decision) const
    {
        return ((s << 1) & (d_states - 1)) | decision;
    }
    //! The input bit of the step that ended in \p s.
    int input(int s) const { return s >> (d_constraint - 2); }

private:
    int d_constraint, d_outputs, d_states;
    //! The output pattern (bit j: coded bit j) of input u from state p, at
    //! (u << (K-1)) | p.
    std::vector<std::uint8_t> d_pattern;
};

//! The soft output the frame decoders give (conv/decoder.h): app and code_extrinsic; an
//! information bit of a convolutional code has no input LLR of its own (extrinsic).
inline bool gives_soft_output(core::soft_output kind)
{
    return kind == core::soft_output::app || kind == core::soft_output::code_extrinsic;
}

/*!
 * \brief The soft output of a batch of frames (conv/decoder.h): each frame's sent LLRs
 * (float: int8 ones as q / int8_scale) read as the decoders read them (invert_llr,
 * core::sanitize_llr), depunctured, through bcjr() with config.soft_algorithm; into
 * \p soft.values, in the sign of the input: app, the information bits' a-posteriori
 * LLRs (frame_bits a frame); code_extrinsic, each sent code bit's a-posteriori LLR less
 * its input (the frame's sent LLRs, punctured_length() a frame). The information bits'
 * signs go into \p bits (1 where the engine's LLR is negative). Frames are shared out
 * over \p threads threads of the shared pool.
 */
void write_soft(const viterbi_config& config,
                int frame_bits,
                const float* llrs,
                std::size_t frames,
                core::soft_values soft,
                std::uint8_t* bits,
                int threads);

/*!
 * \brief The exact Viterbi decoder, the oracle of every faster one: survivors over the
 * whole frame (no traceback window), float metrics, frames shared out over the threads
 * of the shared pool.
 *
 * The trellis is float_trellis. Ties are broken the same way everywhere: the lower
 * predecessor state, the lower end state (truncated), the lower start state
 * (tail-biting). So an erased frame decodes to zeros.
 *
 * Modes: terminated starts and ends in state 0; truncated starts in 0 and ends in the
 * best state; tail-biting runs once per start state s with start = end = s and keeps
 * the best path (exact maximum likelihood, 2^(K-1) passes).
 */
class reference_decoder final : public core::batch_decoder
{
public:
    //! \p kind: what backend() says. Throws std::invalid_argument for a bad config;
    //! make_viterbi_decoder() refuses streaming before it gets here.
    reference_decoder(const viterbi_config& config, core::backend kind);

    //! frame_bits >= 1, and >= K-1 for tail-biting.
    void check_block(int frame_bits) const override;
    std::size_t input_length(int frame_bits) const override;

    core::backend kind() const override;
    std::string device() const override;
    //! Soft output: write_soft().
    bool gives_soft(core::soft_output kind) const override
    {
        return gives_soft_output(kind);
    }

private:
    //! One thread's buffers, sized for the largest frame decoded so far.
    struct workspace
    {
        std::vector<float> received;         // the frame's sent LLRs, sanitised
        std::vector<float> llrs;             // depunctured: coded_length()
        std::vector<float> metric, next;     // [state]
        std::vector<std::uint8_t> decisions; // [step][state]: 1 when p|1 won
    };

    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override;

    //! Decodes one frame; returns whether it passes (conv/decoder.h).
    bool decode_frame(int frame_bits,
                      const float* sent,
                      std::uint8_t* bits,
                      workspace& ws) const;
    //! From the path metrics in ws.metric through \p steps steps of ws.llrs, storing
    //! the decisions; returns what was taken off the metrics to keep them near 0.
    double forward(std::size_t steps, workspace& ws) const;
    //! The input bits of the first frame_bits steps of the survivor ending in \p end.
    void trace_back(std::size_t steps,
                    int end,
                    int frame_bits,
                    const workspace& ws,
                    std::uint8_t* bits) const;

    const viterbi_config d_config;
    const core::backend d_kind;
    const int d_threads;
    const float_trellis d_trellis;
    std::vector<workspace> d_workspaces; // one per thread
};

/*!
 * \brief The exact Viterbi decoder of a stream: path metrics and the survivors' decisions
 * are carried from call to call, and a bit is released as soon as every survivor passes
 * through the same state after it, so the output is what the reference decoder gives
 * for the whole stream as one truncated frame, bit for bit, however it comes in. Should
 * the survivors not merge within most_unmerged steps (they do within a few times K on
 * any channel), the oldest bits are released from the best state's survivor.
 */
class reference_stream_decoder final : public stream_decoder
{
public:
    static constexpr std::size_t most_unmerged = std::size_t(1) << 16;

    explicit reference_stream_decoder(const viterbi_config& config);

    core::backend kind() const override { return core::backend::reference; }
    std::string device() const override;

private:
    std::size_t advance(const sent_llrs& in, decided out) override;
    std::size_t finish(decided out) override;
    void restart() override;

    //! Runs the trellis over \p steps whole steps of depunctured, sanitised LLRs and
    //! releases what the survivors agree on.
    std::size_t run(const float* llrs, std::size_t steps, std::uint8_t* bits);
    //! The input bits of the first \p steps held steps, traced back from \p state after
    //! them, written to bits; those steps are no longer held.
    void release(std::size_t steps, int state, std::uint8_t* bits);
    //! The best state now (the lower of equals).
    int best_state() const;

    const float_trellis d_trellis;
    std::vector<float> d_ready; // depunctured LLRs of the coded bits not yet run
    std::uint64_t d_coded = 0;  // coded bits (sent or punctured) received: the phase
    std::vector<float> d_metric, d_next;         // [state]
    std::vector<std::uint8_t> d_decisions;       // [held step][state]
    std::vector<std::uint8_t> d_alive, d_before; // [state]: on a survivor, in the merge
};

} // namespace gputurbo::conv

#endif
