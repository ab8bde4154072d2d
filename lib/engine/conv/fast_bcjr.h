/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_FAST_BCJR_H
#define INCLUDED_GPUTURBO_CONV_FAST_BCJR_H

// The fast BCJR of the convolutional decoders: the max-log a-posteriori LLRs of the bits
// a segment decides (conv/segments.h) in int16 metrics, written once over a lane type so
// that every backend computes the same values bit for bit: a CUDA thread runs it on a
// pair of segments (the halves of core::cuda::s16x2), the CPU on a SIMD vector of
// segments.
//
// The metrics are the Viterbi decoders' (quantize.h): a branch's is the sum over its
// coded bits of +m (bit 0) or -m (bit 1), |m| <= max_metric, m the LLR times the
// segment's scale; so an output is twice the LLR times that scale. A run starts in state
// 0 (start_zero: the other states start penalty() lower, as in the Viterbi decoders) or
// in every state alike, and ends likewise. The forward metrics alpha_t (before step t)
// and backward metrics beta_t (after step t - 1) wrap as int16 adds do and are kept near
// 0 by subtracting their largest after every renorm_steps()-th step of the run, counted
// from its start; fits() says which codes stay within int16 that way. (The outputs,
// differences of sums of one step, do not depend on how often that is.) The output of
// step t is the largest alpha_{t+1}[s] + beta_{t+1}[s] over the states s < S/2, less the
// same over the others: a state's top bit is the input of the step into it, so each is
// the best path metric through that input at t (the largest alpha_t[p] + gamma +
// beta_{t+1}[ns] over its branches, less the same constant). With the same metrics and
// no tie, its sign is the Viterbi decision over the same run.
//
// Memory: the forward metrics are kept only at every Window-th step of the steps wanted
// (checkpoints); the backward pass recomputes those after each step of a window from its
// checkpoint into Window - 1 slots (the last stays where it was computed) and then runs
// back over them. So a run costs two forward passes over the steps wanted and one
// backward pass, and a segment needs the checkpoints and the slots of S metrics, which a
// GPU thread keeps in memory near it (the slots in shared memory).

#include "quantize.h" // max_metric, GPUTURBO_CONV_HD

namespace gputurbo::conv::fast_bcjr {
// Internal linkage: objects built for different instruction sets include this header.
namespace {

//! The head start of state 0 when a run starts (or ends) there: more than any path gains
//! in the K-1 steps that reach every state, so that no path from another state wins.
constexpr int penalty(int constraint, int outputs)
{
    return (constraint - 1) * 2 * outputs * max_metric + 1;
}

/*!
 * \brief The steps between renormalisations of a code's metrics: the most (a power of
 * two, up to 16) that keep them within int16; 0 where none does. After a
 * renormalisation alpha and beta lie within 2 penalty() below their largest (a state
 * reached only from another than state 0, in the first K-1 steps) and the growth of the
 * steps to the next one around it; an output adds two of them and subtracts two such
 * sums (the bound keeps room for a branch metric more as well, which an output once
 * added). Every code but those of K = 9 with four outputs has some.
 */
constexpr int renorm_steps(int constraint, int outputs)
{
    for (int r = 16; r >= 1; r /= 2) {
        const long growth = long(r - 1) * outputs * max_metric;
        const long below = 2L * penalty(constraint, outputs) + growth;
        if (2 * (below + growth) + 2L * outputs * max_metric <= 32767)
            return r;
    }
    return 0;
}

//! Whether the metrics of a code stay within int16 (renorm_steps()).
constexpr bool fits(int constraint, int outputs)
{
    return renorm_steps(constraint, outputs) > 0;
}

#ifdef __CUDACC__
// Every metric in a register up to K = 7 (larger codes keep theirs in memory).
#define GPUTURBO_FAST_BCJR_UNROLL _Pragma("unroll 64")
#else
#define GPUTURBO_FAST_BCJR_UNROLL
#endif

/*!
 * \brief The BCJR of a code over lanes. \p Ops: the lane type V and its int16 arithmetic
 * (static V splat(int); add, sub (wrapping); add_max(a, b, c) = max(a + b, c); max).
 * \p Tr: the code, static K and N, and pattern(ns, b): the coded bits (bit o: output o)
 * of the branch from p_b = ((ns << 1) & (S - 1)) | b to ns, uninverted.
 */
template <class Ops, class Tr>
struct kernel
{
    using V = typename Ops::V;
    static constexpr int K = Tr::K, N = Tr::N, S = 1 << (K - 1), patterns = 1 << N;
    static constexpr int renorm = renorm_steps(K, N);
    static_assert(renorm > 0, "the code's metrics do not fit in int16");

    //! Each pattern's branch metric: the sum over the outputs of +m (bit 0) or -m.
    template <class Io>
    GPUTURBO_CONV_HD static void branch_metrics(Io& io, int t, V (&gamma)[patterns])
    {
        V m[N];
        io.metrics(t, m);
        const V zero = Ops::splat(0);
        GPUTURBO_FAST_BCJR_UNROLL
        for (int c = 0; c < patterns; ++c) {
            V g = c & 1 ? Ops::sub(zero, m[0]) : m[0];
            GPUTURBO_FAST_BCJR_UNROLL
            for (int o = 1; o < N; ++o)
                g = (c >> o) & 1 ? Ops::sub(g, m[o]) : Ops::add(g, m[o]);
            gamma[c] = g;
        }
    }

    GPUTURBO_CONV_HD static void
    forward(const Tr& tr, const V (&gamma)[patterns], const V (&alpha)[S], V (&next)[S])
    {
        GPUTURBO_FAST_BCJR_UNROLL
        for (int ns = 0; ns < S; ++ns) {
            const int p = (ns << 1) & (S - 1);
            next[ns] = Ops::add_max(alpha[p | 1],
                                    gamma[tr.pattern(ns, 1)],
                                    Ops::add(alpha[p], gamma[tr.pattern(ns, 0)]));
        }
    }

    GPUTURBO_CONV_HD static void
    backward(const Tr& tr, const V (&gamma)[patterns], const V (&beta)[S], V (&before)[S])
    {
        GPUTURBO_FAST_BCJR_UNROLL
        for (int p = 0; p < S; ++p) {
            const int ns = p >> 1, b = p & 1; // p's successors: ns and ns + S/2
            before[p] = Ops::add_max(beta[ns | S / 2],
                                     gamma[tr.pattern(ns | S / 2, b)],
                                     Ops::add(beta[ns], gamma[tr.pattern(ns, b)]));
        }
    }

    GPUTURBO_CONV_HD static void renormalize(V (&x)[S])
    {
        V most = x[0];
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = 1; s < S; ++s)
            most = Ops::max(most, x[s]);
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = 0; s < S; ++s)
            x[s] = Ops::sub(x[s], most);
    }

    //! The output of a step from the alpha and beta after it (alpha(s) of each state s):
    //! one add-max a state, in chains side by side.
    template <class Alpha>
    GPUTURBO_CONV_HD static V output(const Alpha& alpha, const V (&beta)[S])
    {
        constexpr int chains = S / 2 < 4 ? S / 2 : 4;
        V zero[chains], one[chains];
        GPUTURBO_FAST_BCJR_UNROLL
        for (int j = 0; j < chains; ++j) {
            zero[j] = Ops::add(alpha(j), beta[j]);
            one[j] = Ops::add(alpha(j + S / 2), beta[j + S / 2]);
        }
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = chains; s < S / 2; ++s) {
            zero[s % chains] = Ops::add_max(alpha(s), beta[s], zero[s % chains]);
            one[s % chains] =
                Ops::add_max(alpha(s + S / 2), beta[s + S / 2], one[s % chains]);
        }
        GPUTURBO_FAST_BCJR_UNROLL
        for (int j = 1; j < chains; ++j) {
            zero[0] = Ops::max(zero[0], zero[j]);
            one[0] = Ops::max(one[0], one[j]);
        }
        return Ops::sub(zero[0], one[0]);
    }

    /*!
     * \brief The outputs of steps [io.wanted_begin(), io.wanted_end()) of a run of
     * io.steps() steps, each to io.write(t, value). \p io also gives: metrics(t, V
     * (&m)[N]) of step t; start(s) and end(s), the metrics alpha_0 and beta_steps;
     * save(c, s, v) and load(c, s) of checkpoint c, and ahead(c): checkpoint c is the
     * next to be loaded (a hint, that it may fetch it); keep(i, s, v) and kept(i, s) of
     * window slot i < Window - 1 (a window's last alpha stays where it was computed).
     */
    template <int Window, class Io>
    GPUTURBO_CONV_HD static void run(const Tr& tr, Io& io)
    {
        const int steps = io.steps(), lo = io.wanted_begin(), hi = io.wanted_end();
        if (lo >= hi)
            return;
        V alpha[S], beta[S], next[S], gamma[patterns];
        auto advance = [&](int t) { // step t's gamma there
            forward(tr, gamma, alpha, next);
            GPUTURBO_FAST_BCJR_UNROLL
            for (int s = 0; s < S; ++s)
                alpha[s] = next[s];
            if ((t + 1) % renorm == 0)
                renormalize(alpha);
        };
        auto step_forward = [&](int t) {
            branch_metrics(io, t, gamma);
            advance(t);
        };
        auto step_backward = [&](int t) {
            backward(tr, gamma, beta, next);
            GPUTURBO_FAST_BCJR_UNROLL
            for (int s = 0; s < S; ++s)
                beta[s] = next[s];
            if ((steps - t) % renorm == 0)
                renormalize(beta);
        };
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = 0; s < S; ++s)
            alpha[s] = io.start(s);
        for (int t = 0; t < hi; ++t) {
            // The metrics read before a checkpoint's stores, which a GPU would queue
            // them behind.
            branch_metrics(io, t, gamma);
            if (t >= lo && (t - lo) % Window == 0) {
                GPUTURBO_FAST_BCJR_UNROLL
                for (int s = 0; s < S; ++s)
                    io.save((t - lo) / Window, s, alpha[s]);
            }
            advance(t);
        }
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = 0; s < S; ++s)
            beta[s] = io.end(s);
        for (int t = steps - 1; t >= hi; --t) {
            branch_metrics(io, t, gamma);
            step_backward(t);
        }
        const int last = (hi - 1 - lo) / Window;
        GPUTURBO_FAST_BCJR_UNROLL
        for (int s = 0; s < S; ++s)
            alpha[s] = io.load(last, s);
        if (last > 0)
            io.ahead(last - 1);
        for (int c = last; c >= 0; --c) {
            const int from = lo + c * Window,
                      to = from + Window < hi ? from + Window : hi;
            // alpha_{t+1} of step t in slot t - from; the window's last stays in the
            // registers.
            step_forward(from);
            for (int t = from + 1; t < to; ++t) {
                GPUTURBO_FAST_BCJR_UNROLL
                for (int s = 0; s < S; ++s)
                    io.keep(t - 1 - from, s, alpha[s]);
                step_forward(t);
            }
            io.write(to - 1, output([&](int s) { return alpha[s]; }, beta));
            // alpha is free until the next window: its checkpoint loads now, to arrive
            // during this window's backward steps.
            if (c > 0) {
                GPUTURBO_FAST_BCJR_UNROLL
                for (int s = 0; s < S; ++s)
                    alpha[s] = io.load(c - 1, s);
                if (c > 1)
                    io.ahead(c - 2);
            }
            step_backward(to - 1); // gamma is step to - 1's, as the forward step left it
            for (int t = to - 2; t >= from; --t) {
                const int i = t - from;
                io.write(t, output([&](int s) { return io.kept(i, s); }, beta));
                branch_metrics(io, t, gamma);
                step_backward(t);
            }
        }
    }
};

} // namespace
} // namespace gputurbo::conv::fast_bcjr

#endif
