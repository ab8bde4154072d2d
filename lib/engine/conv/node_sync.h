/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_NODE_SYNC_H
#define INCLUDED_GPUTURBO_CONV_NODE_SYNC_H

// Node synchronisation of a stream (sync_change in conv/decoder.h): the hypotheses'
// metrics on the CPU, the stream through a decoder of any backend.

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputurbo::conv {

/*!
 * \brief Whether the negated coded bits of a code sequence are another code sequence
 * (every generator of odd weight): then no decoder can tell an inverted stream.
 */
bool transparent(const code& c);

//! A hypothesis of node synchronisation: the phase of the steps in the LLRs, and
//! whether they are negated.
struct sync_hypothesis
{
    int offset = 0;
    bool inverted = false;
};

/*!
 * \brief The growth of the best path metric of a Viterbi over \p steps steps of each
 * hypothesis, over the sum of the magnitudes of the LLRs it reads: 1 where the best
 * path agrees with every LLR, less where it cannot. \p llrs: sanitised LLRs of the
 * engine's sign, from a period's start, steps + 1 periods of them (every offset reads
 * steps steps); \p period_index: conv::stream_decoder's (empty when unpunctured).
 */
std::vector<double> sync_metrics(const viterbi_config& config,
                                 const std::vector<std::int32_t>& period_index,
                                 const float* llrs,
                                 std::int64_t steps,
                                 const std::vector<sync_hypothesis>& hypotheses);

/*!
 * \brief The stream decoder of config.node_sync: the LLRs go through node
 * synchronisation (conv/decoder.h, sync_change) to a stream decoder of \p backend whose
 * streams start in any state, a new one at each change of hypothesis. The LLRs of a
 * check's window wait until it has come (node_sync_window steps); the rest go on at
 * once, from the caller's memory. Checks lie on a grid of the stream's LLRs, so the
 * output does not depend on how the stream comes in.
 */
class node_sync_decoder final : public stream_decoder
{
public:
    node_sync_decoder(const viterbi_config& config, const std::string& backend);

    core::backend kind() const override { return d_inner->kind(); }
    std::string device() const override { return d_inner->device(); }
    std::size_t batches_pending() const override { return d_inner->batches_pending(); }
    bool batch_ready() const override { return d_inner->batch_ready(); }
    std::uint64_t pending_bits() const override;
    std::uint64_t partial_llrs() const override;
    std::vector<sync_change> take_sync_changes() override;
    //! The inner decoder's.
    bool gives_soft() const override { return d_inner->gives_soft(); }

    //! The hypotheses it weighs: every offset, and inverted unless transparent().
    const std::vector<sync_hypothesis>& hypotheses() const { return d_hypotheses; }

private:
    std::size_t advance(const sent_llrs& in, decided out) override;
    std::size_t wait_oldest(decided out) override;
    std::size_t finish(decided out) override;
    void restart() override;
    std::uint64_t preferred_steps() const override;

    //! The LLRs [from, to) of the stream, held ones and then the call's fresh ones.
    struct span
    {
        const std::uint8_t* held;
        const std::uint8_t* fresh;
        std::uint64_t fresh_from; // the stream index of fresh[0]
    };
    //! Passes LLRs [d_fed, to) to the inner decoder; returns the bits it writes.
    std::size_t feed(const span& s, std::uint64_t to, decided out);
    //! "No change", from weigh().
    static constexpr std::size_t keep = std::size_t(-1);
    //! Weighs the hypotheses over \p steps steps from LLR d_check: the one to take, or
    //! keep.
    std::size_t weigh(const span& s, std::int64_t steps) const;
    //! The hypothesis of a stream that ends before its first window has come.
    std::size_t weigh_short() const;
    //! Ends the inner stream (its LLRs given up to d_check) and starts another of
    //! hypothesis \p to at d_check; returns the bits written.
    std::size_t change(std::size_t to, decided out);
    //! \p out for the inner decoder, whose soft output follows this one's.
    decided inner_out(decided out);
    //! \p n, the first n of \p soft (or nullptr) from the inner decoder's sign into
    //! this one's.
    std::size_t in_outer_sign(std::size_t n, float* soft) const;
    //! Keeps the LLRs from d_fed on, of the held ones and then the fresh ones.
    void hold(const span& s, std::uint64_t total);
    //! A decoder of streams from any state, of LLRs negated when \p inverted.
    void make_inner(bool inverted);
    //! Forgets the stream but its changes not yet taken.
    void forget();

    const std::string d_backend;
    const int d_period;       // steps of a puncturing period
    const std::size_t d_kept; // its LLRs
    std::vector<sync_hypothesis> d_hypotheses;
    std::unique_ptr<stream_decoder> d_inner; // of the current hypothesis's inversion
    bool d_inverted = false;                 // which it is
    bool d_acquired = false;
    std::size_t d_current = 0;        // the hypothesis in use
    std::uint64_t d_fed = 0;          // LLRs passed on (or dropped) so far
    std::uint64_t d_start = 0;        // the first LLR of the inner stream
    std::uint64_t d_check = 0;        // where the next check's window starts
    std::uint64_t d_first_bit = 0;    // the stream's bits written before a check
    std::uint64_t d_start_bit = 0;    // the inner stream's first bit in the stream
    std::vector<std::uint8_t> d_held; // the LLRs from d_held_start on, as they came
    std::uint64_t d_held_start = 0;
    mutable std::vector<float> d_window; // a check's LLRs, sanitised
    std::vector<sync_change> d_changes;
};

} // namespace gputurbo::conv

#endif
