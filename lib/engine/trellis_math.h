/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TRELLIS_MATH_H
#define INCLUDED_GPUTURBO_TRELLIS_MATH_H

// The arithmetic of one trellis stage of the LTE constituent code, shared by the CPU
// kernels (T = float or a GCC vector of floats, one codeword per lane) and the CUDA
// kernel (T = float). Because both run these same operations in the same order (and
// neither contracts a*b+c into a fused multiply-add), they compute the same numbers;
// the one exception is log-map's correction term on the GPU (see max_star).
//
// Everything here has internal linkage (an unnamed namespace): the CPU kernels are
// compiled once per instruction set, and the linker must never merge an inline function
// built for one instruction set into an object built for another.

#include <gnuradio/gputurbo/engine/lte.h>

#ifdef __CUDACC__
#define GPUTURBO_HD __host__ __device__ __forceinline__
#else
#define GPUTURBO_HD inline
#endif

namespace gputurbo {
namespace {
namespace trellis {

constexpr int S = lte::rsc::num_states;
constexpr float impossible = -1e30f; // metric of a state that cannot occur

// Trellis connections, all constant-folded once the 8-state loops are unrolled.
GPUTURBO_HD constexpr int next_state(int s, int u) { return lte::rsc::next_state(s, u); }
GPUTURBO_HD constexpr int parity(int s, int u) { return lte::rsc::parity(s, u); }
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

// A branch metric is g[2u + z] = { A+B, A-B, -A+B, -A-B } with A = (systematic +
// a-priori)/2 and B = parity/2: half LLRs make log-map's metrics exact log-probabilities
// up to a constant per stage.
template <class T>
struct branch_metrics
{
    T g[4];
    T half_parity;
};

//! From the halves A and B themselves.
template <class T>
GPUTURBO_HD branch_metrics<T> metrics_from_halves(T a, T b)
{
    return { { a + b, a - b, b - a, -a - b }, b };
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
        metric[s] = T{} + impossible;
}

template <class T>
GPUTURBO_HD void set_equiprobable(T* metric)
{
    for (int s = 0; s < S; ++s)
        metric[s] = T{};
}

// alpha_k+1 from alpha_k, normalised by state 0 (always reachable) to stay bounded.
template <bool Exact, class T>
GPUTURBO_HD void forward_step(const T* in, T* out, const branch_metrics<T>& m)
{
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int s = 0; s < S; ++s)
        out[s] = max_star<Exact>(
            in[pred_state(s, 0)] +
                m.g[2 * pred_input(s, 0) + parity(pred_state(s, 0), pred_input(s, 0))],
            in[pred_state(s, 1)] +
                m.g[2 * pred_input(s, 1) + parity(pred_state(s, 1), pred_input(s, 1))]);
    const T norm = out[0];
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int s = 0; s < S; ++s)
        out[s] = out[s] - norm;
}

// beta_k from beta_k+1 (in place), normalised by state 0.
template <bool Exact, class T>
GPUTURBO_HD void backward_step(T* beta, const branch_metrics<T>& m)
{
    T out[S];
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int s = 0; s < S; ++s)
        out[s] = max_star<Exact>(beta[next_state(s, 0)] + m.g[parity(s, 0)],
                                 beta[next_state(s, 1)] + m.g[2 + parity(s, 1)]);
    const T norm = out[0];
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int s = 0; s < S; ++s)
        beta[s] = out[s] - norm;
}

// Extrinsic LLR of stage k from alpha_k and beta_k+1: the a-posteriori LLR less the
// systematic and a-priori parts (A cancels inside each max* group). Terms are grouped
// by parity so that +-B is added once per group.
template <bool Exact, class T>
GPUTURBO_HD T extrinsic(const T* alpha, const T* beta, const branch_metrics<T>& m)
{
    T l[2];
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int u = 0; u < 2; ++u) {
        T by_z[2][4];
        int count[2] = { 0, 0 };
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int s = 0; s < S; ++s) {
            const int z = parity(s, u);
            by_z[z][count[z]++] = alpha[s] + beta[next_state(s, u)];
        }
        T best[2];
#ifdef __CUDACC__
#pragma unroll
#endif
        for (int z = 0; z < 2; ++z)
            best[z] = max_star<Exact>(max_star<Exact>(by_z[z][0], by_z[z][1]),
                                      max_star<Exact>(by_z[z][2], by_z[z][3]));
        l[u] = max_star<Exact>(best[0] + m.half_parity, best[1] - m.half_parity);
    }
    return l[0] - l[1];
}

} // namespace trellis
} // namespace
} // namespace gputurbo

#endif
