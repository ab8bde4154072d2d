/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_STATE_KERNEL_H
#define INCLUDED_GPUTURBO_CONV_CPU_STATE_KERNEL_H

// The add-compare-select of one frame or stream at a time: the trellis's states side by
// side in SIMD lanes (int16 path metrics), decisions as bit masks. Compiled once per
// instruction set (state_kernel_*.cc); this header is the plain interface between those
// objects and the portable rest (single_decoder.cc: metrics in, traceback, bits out).
// The batch decoder's kernel (viterbi_kernel.h) puts frames in the lanes instead, which
// pays when there are many frames and wastes all lanes but one when there is one.

#include <cstddef>
#include <cstdint>

namespace gputurbo::conv::cpu {

/*!
 * \brief The trellis as the state kernels read it. State s holds the K-1 most recent
 * inputs, the newest at bit K-2; the states ns and ns + S/2 (ns < S/2) are both reached
 * from p_0 = 2 ns and p_1 = 2 ns + 1.
 */
struct state_trellis
{
    int constraint;
    int outputs;
    int states;
    //! The branches into ns carry the coded bits c (from p_0) and ~c (from p_1), those
    //! into ns + S/2 ~c and c, as in every code whose generators all tap the newest and
    //! the oldest bit (every preset's): one branch metric a butterfly instead of four.
    bool symmetric;
    //! [4][S/2]: the coded bits of each branch (bit o: output o); the branches p_0 ->
    //! ns, p_1 -> ns, p_0 -> ns + S/2, p_1 -> ns + S/2 in that order (symmetric: only
    //! the first is read)
    const std::int16_t* patterns;
    //! [4][outputs][S/2]: the same as -1 where the coded bit of the output is 1, 0 where
    //! it is 0
    const std::int16_t* signs;
};

//! Steps of decisions a word of 64 bits holds at most: words per step.
inline int decision_words(int states) { return states > 64 ? states / 64 : 1; }

//! The head start of state 0 when a run starts there: more than any path gains in the
//! K-1 steps that reach every state, so that no path from another state survives.
constexpr std::int16_t start_penalty(int constraint, int outputs)
{
    return std::int16_t((constraint - 1) * 2 * outputs * 127 + 1);
}
inline std::int16_t start_penalty(const state_trellis& t)
{
    return start_penalty(t.constraint, t.outputs);
}

struct state_kernel
{
    const char* isa; //!< "generic", "avx2", "avx512"
    int lanes;       //!< int16 path metrics per vector
    /*!
     * \brief \p steps steps of the trellis from the path metrics \p path (S of them,
     * in state order; written back after the last step), through the metrics
     * \p metrics of each step's coded bits in turn (outputs a step, -127 ... 127,
     * positive where the bit is more likely 0). \p decisions ([steps][words], words =
     * decision_words(S)): bit s % 64 of word s / 64 set where state s took p_1 (ties
     * take p_0). Path metrics come and go relative to state 0's, within
     * +-2 start_penalty() of each other.
     */
    void (*forward)(const state_trellis& t,
                    const std::int16_t* metrics,
                    std::size_t steps,
                    std::int16_t* path,
                    std::uint64_t* decisions);
};

extern const state_kernel state_generic; //!< 8 lanes, baseline x86-64 or portable
#if defined(__x86_64__) || defined(__i386__)
extern const state_kernel state_avx2;   //!< 16 lanes
extern const state_kernel state_avx512; //!< 16 lanes, AVX-512 masks and permutations
#endif

} // namespace gputurbo::conv::cpu

#endif
