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
 * \brief The exact Viterbi decoder, the oracle of every faster one: survivors over the
 * whole frame (no traceback window), float metrics, frames shared out over the threads
 * of the shared pool.
 *
 * The trellis state holds the last K-1 input bits, the most recent in bit K-2; a step
 * with input u goes from state p to (u << (K-2)) | (p >> 1). Branch metric: the
 * correlation sum over the step's outputs of (coded bit ? -L : +L); path metrics are
 * maximised. Ties are broken the same way everywhere: the lower predecessor state, the
 * lower end state (truncated), the lower start state (tail-biting). So an erased frame
 * decodes to zeros.
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

private:
    //! One thread's buffers, sized for the largest frame decoded so far.
    struct workspace
    {
        std::vector<float> received;         // the frame's sent LLRs, sanitised
        std::vector<float> llrs;             // depunctured: coded_length()
        std::vector<float> branch;           // [step][output pattern]
        std::vector<float> metric, next;     // [state]
        std::vector<std::uint8_t> decisions; // [step][state]: 1 when p|1 won
    };

    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override;

    //! Decodes one frame; returns whether it carries information.
    bool decode_frame(int frame_bits,
                      const float* sent,
                      std::uint8_t* bits,
                      workspace& ws) const;
    //! From the path metrics in ws.metric through \p steps steps of ws.branch, storing
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
    //! The output pattern (bit j: coded bit j) of input u from state p, at
    //! (u << (K-1)) | p.
    std::vector<std::uint8_t> d_outputs;
    std::vector<workspace> d_workspaces; // one per thread
};

} // namespace gputurbo::conv

#endif
