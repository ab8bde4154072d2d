/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_TRELLIS_MATH_H
#define INCLUDED_GPUTURBO_TURBO_TRELLIS_MATH_H

// The arithmetic of one trellis stage of the LTE constituent code, shared by the CPU
// kernels (T = float or a GCC vector of floats, one codeword per lane) and the CUDA
// kernel (T = float, or two int16 lanes with their own tmax/add_max overloads). Because
// the float instances run these same operations in the same order (and none contracts
// a*b+c into a fused multiply-add), they compute the same numbers; the one exception is
// log-map's correction term on the GPU (see max_star).
//
// Everything here has internal linkage (an unnamed namespace): the CPU kernels are
// compiled once per instruction set, and the linker must never merge an inline function
// built for one instruction set into an object built for another.

#include <gnuradio/gputurbo/engine/turbo/code.h>

#ifdef __CUDACC__
#define GPUTURBO_HD __host__ __device__ __forceinline__
#define GPUTURBO_UNROLL _Pragma("unroll")
#else
#define GPUTURBO_HD inline
// The 8-state loops must unroll for their state indices to become constants.
#ifdef __clang__
#define GPUTURBO_UNROLL _Pragma("unroll")
#else
#define GPUTURBO_UNROLL _Pragma("GCC unroll 16")
#endif
#endif

namespace gputurbo::turbo {
namespace {
namespace trellis {

constexpr int S = rsc::num_states;
constexpr float impossible = -1e30f; // metric of a state that cannot occur

// Trellis connections, all constant-folded once the 8-state loops are unrolled.
GPUTURBO_HD constexpr int next_state(int s, int u) { return rsc::next_state(s, u); }
GPUTURBO_HD constexpr int parity(int s, int u) { return rsc::parity(s, u); }
// The two predecessors of s' differ in their oldest register bit.
GPUTURBO_HD constexpr int pred_state(int s, int j) { return ((s & 3) << 1) | j; }
GPUTURBO_HD constexpr int pred_input(int s, int j)
{
    const int p = pred_state(s, j);
    return (s >> 2) ^ ((p >> 1) & 1) ^ (p & 1); // u = a ^ s2 ^ s3 with a = new bit
}

template <class T>
GPUTURBO_HD T tmax(T a, T b)
{
#ifdef __CUDA_ARCH__
    return fmaxf(a, b); // one FMNMX; equals a > b ? a : b for the non-NaN metrics here
#else
    return a > b ? a : b; // maxps / vmaxps on x86
#endif
}

// ln(1 + e^-x) for x >= 0, as plain arithmetic (same result on every target and lane).
// Absolute error below 1e-6; beyond x = 20 the value (< 2.1e-9) is dropped.
template <class T>
GPUTURBO_HD T log1p_exp_neg(T x)
{
    const T zero{};
    const T t = (x < 20.0f ? x : zero + 20.0f) * (1.0f / 16.0f);
    // e^-t on [0, 1.25] by its Taylor series to degree 10 (Horner), then (e^-t)^16.
    T e = zero + 1.0f;
    for (int n = 10; n >= 1; --n)
        e = 1.0f - e * t * (1.0f / float(n));
    e = e * e;
    e = e * e;
    e = e * e;
    e = e * e;
    // ln(1 + e) = 2 atanh(y), y = e / (2 + e) in (0, 1/3].
    const T y = e / (2.0f + e);
    const T y2 = y * y;
    T sum = zero + 1.0f / 15.0f;
    for (int n = 13; n >= 1; n -= 2)
        sum = 1.0f / float(n) + y2 * sum;
    const T corr = 2.0f * y * sum;
    return x < 20.0f ? corr : zero;
}

// max(a + b, c): one instruction on Hopper for packed int16 (DPX), two elsewhere.
template <class T>
GPUTURBO_HD T add_max(T a, T b, T c)
{
    return tmax(a + b, c);
}

//! The metric of a state that cannot occur.
template <class T>
struct metric_limits
{
    static GPUTURBO_HD T impossible() { return T{} + trellis::impossible; }
};

template <bool Exact, class T>
GPUTURBO_HD T max_star(T a, T b)
{
    if constexpr (Exact) {
        const T d = a - b;
#ifdef __CUDA_ARCH__
        // One special-function instruction for e^-|d|, then ln(1 + e) by the degree-8
        // polynomial of Abramowitz & Stegun 4.1.44 (|error| <= 3e-8 on [0, 1]). It
        // differs from the CPU's correction by about 1e-6, so log-map hard decisions
        // agree with the CPU's on all but a negligible fraction of bits.
        const float e = __expf(-tmax(d, -d));
        float poly = -0.0064535442f;
        poly = fmaf(poly, e, 0.0360884937f);
        poly = fmaf(poly, e, -0.0953293897f);
        poly = fmaf(poly, e, 0.1676540711f);
        poly = fmaf(poly, e, -0.2407338084f);
        poly = fmaf(poly, e, 0.3317990258f);
        poly = fmaf(poly, e, -0.4998741238f);
        poly = fmaf(poly, e, 0.9999964239f);
        return tmax(a, b) + poly * e;
#else
        return tmax(a, b) + log1p_exp_neg(tmax(d, -d));
#endif
    } else {
        return tmax(a, b);
    }
}

// A branch metric is {A+B, A-B, -A+B, -A-B} for (u, z) = (0,0), (0,1), (1,0), (1,1), with
// A = (systematic + a-priori)/2 and B = parity/2: half LLRs make log-map's metrics exact
// log-probabilities up to a constant per stage. The two branches that leave a state, and
// the two that enter one, carry complementary bits (u and z both differ), so their
// metrics are +g and -g: only g[z] = A + B, A - B (u = 0) is kept.
template <class T>
struct branch_metrics
{
    T g[2];
    T half_parity;
};

//! From the halves A and B themselves.
template <class T>
GPUTURBO_HD branch_metrics<T> metrics_from_halves(T a, T b)
{
    return { { a + b, a - b }, b };
}

template <class T>
GPUTURBO_HD branch_metrics<T> metrics(T sys, T apriori, T par)
{
    return metrics_from_halves((sys + apriori) * 0.5f, par * 0.5f);
}

template <class T>
GPUTURBO_HD void set_known_start(T* metric)
{
    metric[0] = T{};
    for (int s = 1; s < S; ++s)
        metric[s] = metric_limits<T>::impossible();
}

//! Subtracts state 0's metric from all.
template <class T>
GPUTURBO_HD void normalise(T* metric)
{
    const T norm = metric[0];
    for (int s = 0; s < S; ++s)
        metric[s] = metric[s] - norm;
}

template <class T>
GPUTURBO_HD void set_equiprobable(T* metric)
{
    for (int s = 0; s < S; ++s)
        metric[s] = T{};
}

// The offset form of a stage, for integer metrics: every branch metric plus A + B. That
// shifts every state metric of the stage by the same amount, which changes no decision
// and no extrinsic value (differences only), and the branches (u, z) = (0,0), (0,1),
// (1,0), (1,1) then weigh 2A + 2B, 2A, 2B and 0: a state entered by (0,0) and (1,1)
// takes a single add-max, max(x + 2A + 2B, y), where the plain form takes two, and the
// extrinsic's parity merge one. Made from the doubled halves 2A and 2B (kept so).
template <class T>
struct offset_metrics
{
    T both;       // 2A + 2B: (u, z) = (0, 0)
    T systematic; // 2A: (0, 1)
    T parity;     // 2B: (1, 0)
};

template <class T>
GPUTURBO_HD offset_metrics<T> offset_metrics_from_doubled(T a2, T b2)
{
    return { a2 + b2, a2, b2 };
}

// max*(x + g, y - g): the two complementary branches into (or out of) a state.
template <bool Exact, class T>
GPUTURBO_HD T merge(const T& x, const T& y, const T& g)
{
    if constexpr (Exact)
        return max_star<true>(x + g, y - g);
    else
        return add_max(x, g, y - g);
}

// The merge of a state whose branch from x carries (u, z) = (0, z) and whose branch from
// y carries (1, 1 - z).
template <bool Exact, class T>
GPUTURBO_HD T merge(const T& x, const T& y, const branch_metrics<T>& m, int z)
{
    return merge<Exact>(x, y, m.g[z]);
}
template <bool Exact, class T>
GPUTURBO_HD T merge(const T& x, const T& y, const offset_metrics<T>& m, int z)
{
    if constexpr (Exact)
        return z == 0 ? max_star<true>(x + m.both, y)
                      : max_star<true>(x + m.systematic, y + m.parity);
    else
        return z == 0 ? add_max(x, m.both, y) : add_max(x, m.systematic, y + m.parity);
}

// The merge of a state of a butterfly (two states entered from the same two states),
// told that pair in a fixed order too, the same for both of its states: a metric type
// whose merges share a term per pair (the CUDA log-map's halved sum) computes it once
// for both. The others merge as above.
template <bool Exact, class T, class Metrics>
GPUTURBO_HD T
butterfly_merge(const T& x, const T& y, const Metrics& m, int z, const T&, const T&)
{
    return merge<Exact>(x, y, m, z);
}

// The extrinsic's last merge, of the best terms whose parity is 0 and 1:
// max*(best0 + B, best1 - B), or in the offset form max*(best0 + 2B, best1).
template <bool Exact, class T>
GPUTURBO_HD T parity_merge(const T& best0, const T& best1, const branch_metrics<T>& m)
{
    if constexpr (Exact)
        return max_star<true>(best0 + m.half_parity, best1 - m.half_parity);
    else
        return add_max(best0, m.half_parity, best1 - m.half_parity);
}
template <bool Exact, class T>
GPUTURBO_HD T parity_merge(const T& best0, const T& best1, const offset_metrics<T>& m)
{
    if constexpr (Exact)
        return max_star<true>(best0 + m.parity, best1);
    else
        return add_max(best0, m.parity, best1);
}

// alpha_k+1 from alpha_k, normalised by state 0 (always reachable) to stay bounded.
// Integer metrics may skip the normalisation on some stages (normalise = false): a
// common offset changes no decision, and the skipped subtractions are a third of the
// work.
template <bool Exact, class T, class Metrics>
GPUTURBO_HD void
forward_step(const T* in, T* out, const Metrics& m, bool normalise = true)
{
    GPUTURBO_UNROLL
    for (int s = 0; s < S; ++s) {
        // The predecessor reached by input 0 takes +g[z], the other one -g[z].
        const int u0 = pred_input(s, 0);
        const int zero_in = u0 == 0 ? pred_state(s, 0) : pred_state(s, 1);
        const int one_in = u0 == 0 ? pred_state(s, 1) : pred_state(s, 0);
        out[s] = butterfly_merge<Exact>(in[zero_in],
                                        in[one_in],
                                        m,
                                        parity(zero_in, 0),
                                        in[pred_state(s, 0)],
                                        in[pred_state(s, 1)]);
    }
    if (!normalise)
        return;
    const T norm = out[0];
    GPUTURBO_UNROLL
    for (int s = 0; s < S; ++s)
        out[s] = out[s] - norm;
}

// beta_k from beta_k+1 (in place), normalised by state 0 (see forward_step).
template <bool Exact, class T, class Metrics>
GPUTURBO_HD void backward_step(T* beta, const Metrics& m, bool normalise = true)
{
    T out[S];
    GPUTURBO_UNROLL
    for (int s = 0; s < S; ++s) {
        const int a = next_state(s, 0), b = next_state(s, 1);
        out[s] = butterfly_merge<Exact>(
            beta[a], beta[b], m, parity(s, 0), beta[a < b ? a : b], beta[a < b ? b : a]);
    }
    const T norm = out[0];
    GPUTURBO_UNROLL
    for (int s = 0; s < S; ++s)
        beta[s] = normalise ? out[s] - norm : out[s];
}

// Extrinsic LLR of stage k from alpha_k and beta_k+1: the a-posteriori LLR less the
// systematic and a-priori parts (A cancels inside each max* group). Terms are grouped
// by parity so that +-B is added once per group.
template <bool Exact, class T, class Metrics>
GPUTURBO_HD T extrinsic(const T* alpha, const T* beta, const Metrics& m)
{
    T l[2];
    GPUTURBO_UNROLL
    for (int u = 0; u < 2; ++u) {
        int state_of[2][4];
        int count[2] = { 0, 0 };
        GPUTURBO_UNROLL
        for (int s = 0; s < S; ++s) {
            const int z = parity(s, u);
            state_of[z][count[z]++] = s;
        }
        T best[2];
        GPUTURBO_UNROLL
        for (int z = 0; z < 2; ++z) {
            auto term = [&](int i) {
                return alpha[state_of[z][i]] + beta[next_state(state_of[z][i], u)];
            };
            if constexpr (Exact) {
                best[z] = max_star<true>(max_star<true>(term(0), term(1)),
                                         max_star<true>(term(2), term(3)));
            } else { // max is exact: any order gives the same number
                T b = term(0);
                GPUTURBO_UNROLL
                for (int i = 1; i < 4; ++i)
                    b = add_max(
                        alpha[state_of[z][i]], beta[next_state(state_of[z][i], u)], b);
                best[z] = b;
            }
        }
        l[u] = parity_merge<Exact>(best[0], best[1], m);
    }
    return l[0] - l[1];
}

} // namespace trellis
} // namespace
} // namespace gputurbo::turbo

#endif
