/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The turbo decoder body, generic in the number of lanes (codewords decoded side by side,
// one per SIMD lane). Included only by group_kernel_*.cc, each of which defines
// GPUTURBO_LANES and GPUTURBO_KERNEL_NAME and is compiled for one instruction set.
//
// Everything here has internal linkage (an unnamed namespace), and nothing here
// instantiates a standard-library template: an inline function emitted by two objects
// compiled for different instruction sets must never be merged by the linker.
//
// Every lane runs the same float operations in the same order as the 1-lane build
// (-ffp-contract=off), so all kernels give bit-identical results.

#include "../trellis_math.h"
#include "group_kernel.h"
#include "stop_rules.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <cstring>

#ifndef GPUTURBO_LANES
#error "define GPUTURBO_LANES before including group_kernel_impl.h"
#endif

namespace gputurbo::turbo::cpu {
namespace {

constexpr int W = GPUTURBO_LANES;
constexpr int S = trellis::S;

template <int N>
struct vec_of
{
    typedef float type __attribute__((vector_size(4 * N)));
};
template <>
struct vec_of<1>
{
    typedef float type;
};
using vf = typename vec_of<W>::type;

// Templates only so that the untaken branch is not compiled for the other vf.
template <class V>
inline float lane(const V& v, int l)
{
    if constexpr (W == 1) {
        (void)l;
        return v;
    } else {
        return v[l];
    }
}

template <class V>
inline void set_lane(V& v, int l, float x)
{
    if constexpr (W == 1) {
        (void)l;
        v = x;
    } else {
        v[l] = x;
    }
}

inline vf splat(float x)
{
    vf v;
    for (int l = 0; l < W; ++l)
        set_lane(v, l, x);
    return v;
}

using trellis::backward_step;
using trellis::extrinsic;
using trellis::forward_step;
using trellis::set_equiprobable;
using trellis::set_known_start;
using branch_metrics = trellis::branch_metrics<vf>;

inline branch_metrics metrics(vf sys, vf apriori, vf par)
{
    return trellis::metrics(sys, apriori, par);
}

inline void copy_metrics(vf* dst, const vf* src)
{
    for (int s = 0; s < S; ++s)
        dst[s] = src[s];
}

// Edge metrics kept from one iteration to the next (pivi, pividstw): for each sub-block
// the alpha that starts it (or its training window) and the beta that ends it.
struct edge_store
{
    vf* alpha; // [P][S]
    vf* beta;  // [P][S]
};

// One constituent decoder (a half-iteration) over the K stages of its trellis.
// Stage k reads its a-priori input from apriori[index[k]] and writes its scaled extrinsic
// output to out[index[k]] (index null: k itself). When app is given, app[index[k]]
// receives the a-posteriori LLR.
struct half_iteration
{
    int K, P, g;
    guard guarding;
    const vf* sys; // [K+3], the last 3 are the tail
    const vf* par; // [K+3]
    const vf* apriori;
    const std::uint32_t* index;
    vf* out;
    vf* app;
    float scale;
    vf* alpha;       // [(K/P + 1) S] scratch
    edge_store prev; // read: metrics of the previous iteration
    edge_store next; // written: metrics for the next iteration

    int at(int k) const { return index ? int(index[k]) : k; }
    vf la(int k) const { return apriori[at(k)]; }
    branch_metrics bm(int k) const { return metrics(sys[k], la(k), par[k]); }

    template <bool Exact>
    void run() const
    {
        const int w = K / P;
        const bool stores = guarding == guard::pivi || guarding == guard::pividstw;
        const bool trains = guarding == guard::dstw || guarding == guard::pividstw;
        // Offset of the stored edge metric from the sub-block edge.
        const int edge_offset = guarding == guard::pividstw ? g : 0;

        vf tail_beta[S]; // beta at stage K: the tail drives the encoder to state 0
        set_known_start(tail_beta);
        for (int k = K + 2; k >= K; --k)
            backward_step<Exact>(tail_beta, metrics(sys[k], splat(0.0f), par[k]));

        for (int p = 0; p < P; ++p) {
            const int k0 = p * w, k1 = k0 + w;

            // Forward recursion, alpha[j] = alpha at stage k0 + j.
            if (p == 0)
                set_known_start(alpha);
            else if (stores)
                copy_metrics(alpha, prev.alpha + p * S);
            else
                set_equiprobable(alpha);
            if (p > 0 && trains) {
                vf a[S];
                copy_metrics(a, alpha);
                for (int k = k0 - g; k < k0; ++k) {
                    vf t[S];
                    forward_step<Exact>(a, t, bm(k));
                    copy_metrics(a, t);
                }
                copy_metrics(alpha, a);
            }
            for (int k = k0; k < k1; ++k)
                forward_step<Exact>(
                    alpha + (k - k0) * S, alpha + (k - k0 + 1) * S, bm(k));
            if (stores && p + 1 < P)
                copy_metrics(next.alpha + (p + 1) * S, alpha + (w - edge_offset) * S);

            // Backward recursion with the extrinsic output.
            vf beta[S];
            if (p == P - 1)
                copy_metrics(beta, tail_beta);
            else if (stores)
                copy_metrics(beta, prev.beta + p * S);
            else
                set_equiprobable(beta);
            if (p < P - 1 && trains)
                for (int k = k1 + g - 1; k >= k1; --k)
                    backward_step<Exact>(beta, bm(k));
            const int save_at =
                k0 + edge_offset; // stage whose beta the sub-block p-1 uses
            if (stores && p > 0 && save_at == k1)
                copy_metrics(next.beta + (p - 1) * S, beta);
            for (int k = k1 - 1; k >= k0; --k) {
                const branch_metrics m = bm(k);
                const vf e = extrinsic<Exact>(alpha + (k - k0) * S, beta, m);
                const int o = at(k);
                out[o] = e * scale;
                if (app)
                    app[o] = sys[k] + la(k) + e;
                backward_step<Exact>(beta, m);
                if (stores && p > 0 && k == save_at)
                    copy_metrics(next.beta + (p - 1) * S, beta);
            }
        }
    }
};

// Scratch layout of one group, in units of vf.
struct layout_plan
{
    std::size_t sys[2], par[2], ext1, apriori1, app, alpha, edges, total_vf;
    std::size_t
        hard_bytes; // after the vf part: [W][K] previous hard decisions + [K] scratch

    explicit layout_plan(const kernel_shape& shape)
    {
        const std::size_t K = shape.K, P = shape.P, T = K + 3;
        std::size_t at = 0;
        auto take = [&](std::size_t n) {
            const std::size_t here = at;
            at += n;
            return here;
        };
        sys[0] = take(T);
        par[0] = take(T);
        sys[1] = take(T);
        par[1] = take(T);
        ext1 = take(K);
        apriori1 = take(K);
        app = take(K);
        alpha = take((K / P + 1) * S);
        edges = take(2 * 2 * 2 * P * S); // [decoder][buffer][alpha|beta][P][S]
        total_vf = at;
        hard_bytes = (W + 1) * K;
    }
    std::size_t bytes() const { return total_vf * sizeof(vf) + hard_bytes; }
};

std::size_t workspace_bytes(const kernel_shape& shape)
{
    return layout_plan(shape).bytes();
}

// Fills the four trellis inputs from the codewords of the group (zeros in unused lanes).
void load_inputs(const decoder_config& c,
                 int K,
                 const std::uint32_t* pi,
                 const group_job& job,
                 vf* sys0,
                 vf* par0,
                 vf* sys1,
                 vf* par1)
{
    const std::size_t n = codeword_length(K);
    const bool interleaved = c.input_layout == layout::interleaved;
    for (int k = 0; k < K + 3; ++k)
        sys0[k] = par0[k] = sys1[k] = par1[k] = splat(0.0f);
    for (int l = 0; l < job.count; ++l) {
        const float* cw = job.llrs + l * n;
        auto at = [&](int stream, int k) {
            const std::size_t i = interleaved ? 3 * std::size_t(k) + stream
                                              : std::size_t(stream) * (K + 4) + k;
            return core::sanitize_llr(cw[i], c.invert_llr);
        };
        for (int k = 0; k < K; ++k) {
            set_lane(sys0[k], l, at(0, k));
            set_lane(par0[k], l, at(1, k));
            set_lane(par1[k], l, at(2, k));
        }
        auto tail = [&](int encoder, int j, bool parity) {
            const tail_place p = tail_position(encoder, j, parity);
            return at(p.stream, K + p.offset);
        };
        for (int j = 0; j < 3; ++j) {
            set_lane(sys0[K + j], l, tail(0, j, false));
            set_lane(par0[K + j], l, tail(0, j, true));
            set_lane(sys1[K + j], l, tail(1, j, false));
            set_lane(par1[K + j], l, tail(1, j, true));
        }
    }
    for (int k = 0; k < K; ++k)
        sys1[k] = sys0[pi[k]];
}

void decode_group(const decoder_config& c,
                  const kernel_shape& shape,
                  const std::uint32_t* pi,
                  const group_job& job,
                  void* workspace)
{
    const int K = shape.K;
    const layout_plan plan(shape);
    vf* ws = static_cast<vf*>(workspace);
    std::uint8_t* previous_hard =
        reinterpret_cast<std::uint8_t*>(ws + plan.total_vf); // [W][K]
    std::uint8_t* hard = previous_hard + std::size_t(W) * K;

    vf* sys0 = ws + plan.sys[0];
    vf* par0 = ws + plan.par[0];
    vf* sys1 = ws + plan.sys[1];
    vf* par1 = ws + plan.par[1];
    vf* ext1 = ws + plan.ext1;
    vf* apriori1 = ws + plan.apriori1;
    vf* app = ws + plan.app;
    vf* edges = ws + plan.edges;
    load_inputs(c, K, pi, job, sys0, par0, sys1, par1);
    for (int k = 0; k < K; ++k)
        apriori1[k] = splat(0.0f);
    for (std::size_t i = 0; i < plan.total_vf - plan.edges; ++i)
        edges[i] = splat(0.0f); // first iteration: equiprobable edges

    const std::size_t PS = std::size_t(shape.P) * S;
    auto store = [&](int dec, int buf) {
        vf* base = edges + (std::size_t(dec) * 2 + buf) * 2 * PS;
        return edge_store{ base, base + PS };
    };
    const float scale = c.algo == algorithm::scaled_max_log ? c.scaling : 1.0f;
    // Decoder 1 works in natural order. Decoder 2 works in interleaved order: it reads
    // decoder 1's extrinsic through pi and writes its own, and the a-posteriori LLRs,
    // back through pi into natural order.
    auto half = [&](const vf* sys,
                    const vf* par,
                    const vf* apriori,
                    vf* out,
                    const std::uint32_t* index,
                    vf* app_out) {
        half_iteration h;
        h.K = K;
        h.P = shape.P;
        h.g = c.guard_window;
        h.guarding = c.guarding;
        h.sys = sys;
        h.par = par;
        h.apriori = apriori;
        h.index = index;
        h.out = out;
        h.app = app_out;
        h.scale = scale;
        h.alpha = ws + plan.alpha;
        return h;
    };
    half_iteration h[2] = { half(sys0, par0, apriori1, ext1, nullptr, nullptr),
                            half(sys1, par1, ext1, apriori1, pi, app) };

    bool done[W];
    int remaining = job.count;
    for (int l = 0; l < W; ++l)
        done[l] = l >= job.count;
    const bool exact = c.algo == algorithm::log_map;
    for (int it = 1; it <= c.iterations && remaining > 0; ++it) {
        for (int d = 0; d < 2; ++d) {
            h[d].prev = store(d, it & 1);
            h[d].next = store(d, (it + 1) & 1);
            if (exact)
                h[d].run<true>();
            else
                h[d].run<false>();
        }
        const bool last = it == c.iterations;
        if (c.early_stop == stop_rule::off && !last)
            continue;
        for (int l = 0; l < job.count; ++l) {
            if (done[l])
                continue;
            auto app_of = [&](int k) { return lane(app[k], l); };
            const bool ok =
                passes(c, K, app_of, it, hard, previous_hard + std::size_t(l) * K);
            if (!ok && !last)
                continue;
            std::memcpy(job.bits + std::size_t(l) * K, hard, K);
            write_soft(
                c, job.soft, K, l, app_of, [&](int k) { return lane(sys0[k], l); });
            if (job.status)
                job.status[l] = codeword_status{ it, ok };
            done[l] = true;
            --remaining;
        }
    }
}

} // namespace

extern const group_kernel GPUTURBO_KERNEL_NAME = {
    GPUTURBO_KERNEL_ISA, W, &workspace_bytes, &decode_group, 0
};

} // namespace gputurbo::turbo::cpu
