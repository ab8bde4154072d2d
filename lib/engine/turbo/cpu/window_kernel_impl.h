/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The int16 fixed-point turbo decoder: the P sub-blocks (windows) of a codeword side by
// side in the int16 lanes of a SIMD register, as one GPU thread per sub-block does on
// the CUDA backend; where P is less than the lanes, lanes / P codewords share it.
// Included only by window_kernel_*.cc, each of which defines GPUTURBO_WINDOWS (lanes per
// register) and GPUTURBO_KERNEL_NAME and is compiled for one instruction set. Internal
// linkage throughout (group_kernel_impl.h says why).
//
// Data layout: stage j of sub-block p (position k = p w + j of its decoder's order, w =
// K / P) of the group's codeword n is lane n P + p of row j, so that one trellis step of
// every sub-block is one vector step. Unused lanes compute on zeros and are never read
// back.
//
// Units, limits and rounding are those of the CUDA int16 path (cuda/turbo_kernel.cu):
// inputs in steps of 1/16 LLR saturated to +-255, metrics in 32 units per nat, scaled
// extrinsic values rounded as there and saturated to +-640 (40 LLRs; log-map +-600),
// log-map's max* as max(a, b, floor((a + b) / 2) + 27), impossible states at -8192,
// state metrics normalised at least every 4th stage. Within those limits no sum wraps
// (the bound is proved beside the CUDA kernel), and every operation commutes with a
// common offset of its metrics, so a normalisation's schedule changes no output: for
// the same P, guard and g this kernel's decisions equal the CUDA int16 kernel's.

#include "../fixed_point.h"
#include "../trellis_math.h"
#include "group_kernel.h"
#include "stop_rules.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <cstring>
#include <immintrin.h>
#include <utility>

#ifndef GPUTURBO_WINDOWS
#error "define GPUTURBO_WINDOWS before including window_kernel_impl.h"
#endif

namespace gputurbo::turbo::cpu {
namespace {

constexpr int L = GPUTURBO_WINDOWS;
typedef short vs __attribute__((vector_size(2 * L)));
typedef std::uint16_t vu __attribute__((vector_size(2 * L)));

// The fixed-point contract shared with the CUDA int16 kernel.
using namespace fixed_point;

} // namespace
} // namespace gputurbo::turbo::cpu

namespace gputurbo::turbo {
namespace {
namespace trellis {
template <>
struct metric_limits<cpu::vs>
{
    // Low enough to lose every comparison, high enough that sums of two never wrap.
    static cpu::vs impossible()
    {
        return cpu::vs{} + short(fixed_point::impossible_metric);
    }
};

// floor((a + b) / 2), which never overflows.
inline cpu::vs half_sum(cpu::vs a, cpu::vs b) { return (a & b) + ((a ^ b) >> 1); }

template <>
inline cpu::vs max_star<true, cpu::vs>(cpu::vs a, cpu::vs b)
{
    return tmax(tmax(a, b), half_sum(a, b) + short(fixed_point::max_star_offset));
}

// max*(x + g, y - g): the halved sum (x + y) / 2 does not depend on g.
template <>
inline cpu::vs merge<true, cpu::vs>(const cpu::vs& x, const cpu::vs& y, const cpu::vs& g)
{
    return tmax(add_max(x, g, y - g),
                half_sum(x, y) + short(fixed_point::max_star_offset));
}
} // namespace trellis
} // namespace
} // namespace gputurbo::turbo

namespace gputurbo::turbo::cpu {
namespace {

constexpr int S = trellis::S;
using branch_metrics = trellis::branch_metrics<vs>;

template <int... I>
inline vs shift_up(vs x, std::integer_sequence<int, I...>)
{
    return __builtin_shufflevector(x, x, (I > 0 ? I - 1 : 0)...);
}
template <int... I>
inline vs shift_down(vs x, std::integer_sequence<int, I...>)
{
    return __builtin_shufflevector(x, x, (I + 1 < L ? I + 1 : I)...);
}
//! Lane p takes lane p - 1's value: what sub-block p sees of the one before it.
inline vs from_previous_window(vs x)
{
    return shift_up(x, std::make_integer_sequence<int, L>{});
}
//! Lane p takes lane p + 1's value.
inline vs from_next_window(vs x)
{
    return shift_down(x, std::make_integer_sequence<int, L>{});
}

//! -1 in the lanes of sub-block p of every codeword of the register.
inline vs lanes_of_subblock(int p, int P)
{
    short lanes[L];
    for (int l = 0; l < L; ++l)
        lanes[l] = l % P == p ? -1 : 0;
    vs v;
    std::memcpy(&v, lanes, sizeof v);
    return v;
}

// n input LLRs in input units, saturated, as core::sanitize_llr() and the CUDA kernel
// read them (NaN: 0); branch-free so that it vectorises.
inline void quantise(const float* llrs, std::size_t n, bool invert, short* out)
{
    const float units = invert ? -input_units : input_units;
    for (std::size_t i = 0; i < n; ++i) {
        const float x = llrs[i];
        float q = x * units;
        q = q < -max_input ? -max_input : q;
        q = q > max_input ? max_input : q;
        q = x == x ? q : 0.0f;
        out[i] = short(__builtin_rintf(q));
    }
}

inline vs multiply_high(vs a, vs b)
{
#if GPUTURBO_WINDOWS == 32
    return vs(_mm512_mulhi_epi16(__m512i(a), __m512i(b)));
#else
    return vs(_mm256_mulhi_epi16(__m256i(a), __m256i(b)));
#endif
}

// The a-priori input of the other decoder: e * scale / 2 (e in metric units, 2 per
// a-priori unit), rounded as the CUDA kernel's high word of (e << 16 | 0xffff) times
// scale_q15, which is floor(((e + 1) scale_q15 - 1) / 2^16): the high half of the
// product, less one where its low half is 0. scale_q15 = 2^15 (no scaling) gives e >> 1.
// Then saturated to +-max_extrinsic<Exact>.
template <bool Exact>
inline vs feedback(vs e, short scale_q15, bool halve)
{
    vs r;
    if (halve) {
        r = e >> 1;
    } else {
        const vs e1 = e + 1;
        const vu low = vu(e1) * std::uint16_t(scale_q15); // wraps: unsigned
        r = multiply_high(e1, vs{} + scale_q15) + vs(low == 0);
    }
    r = r < max_extrinsic<Exact> ? r : max_extrinsic<Exact>;
    return r > -max_extrinsic<Exact> ? r : -max_extrinsic<Exact>;
}

// The QPP interleaver maps the stages of a row to one row: pi(j + p w) = pi(j) mod w for
// every sub-block p (w divides K), so that the interleaved row j is row pi(j) mod w in
// natural order with its lanes permuted, and the exchange between the two decoders is
// one lane permutation per row.
#if GPUTURBO_WINDOWS == 32
struct lane_permutation
{
    vs index; // lane p of the result is lane index[p] of the input (vpermw)
};
inline vs permute(vs x, const lane_permutation& m)
{
    return vs(_mm512_permutexvar_epi16(__m512i(m.index), __m512i(x)));
}
inline lane_permutation make_permutation(const short* from)
{
    lane_permutation m;
    std::memcpy(&m.index, from, sizeof m.index);
    return m;
}
#else
// AVX2 has no 16-bit lane permutation across its two 128-bit halves: each half of the
// result shuffles the bytes of both input halves (vpshufb) and picks one per lane.
struct lane_permutation
{
    vs bytes;     // the byte pair (2 i, 2 i + 1) of lane i within its half
    vs from_high; // -1 where the lane comes from the high half
};
inline vs permute(vs x, const lane_permutation& m)
{
    const __m256i v = __m256i(x);
    const __m256i low = _mm256_permute2x128_si256(v, v, 0x00);
    const __m256i high = _mm256_permute2x128_si256(v, v, 0x11);
    const __m256i bytes = __m256i(m.bytes);
    return vs(_mm256_blendv_epi8(_mm256_shuffle_epi8(low, bytes),
                                 _mm256_shuffle_epi8(high, bytes),
                                 __m256i(m.from_high)));
}
inline lane_permutation make_permutation(const short* from)
{
    short bytes[L], from_high[L];
    for (int p = 0; p < L; ++p) {
        const int i = from[p] & 7;
        bytes[p] = short(2 * i | (2 * i + 1) << 8);
        from_high[p] = from[p] >= 8 ? -1 : 0;
    }
    lane_permutation m;
    std::memcpy(&m.bytes, bytes, sizeof m.bytes);
    std::memcpy(&m.from_high, from_high, sizeof m.from_high);
    return m;
}
#endif

// Edge metrics kept from one iteration to the next (pivi, pividstw), lane p for
// sub-block p: the alpha that starts it (or its training window), the beta that ends it.
struct edge_store
{
    vs* alpha; // [S]
    vs* beta;  // [S]
};

// One constituent decoder (a half-iteration) over all sub-blocks at once, rows in its
// own order: reads apriori, writes the scaled extrinsic output to out and, when app is
// given, the a-posteriori LLRs.
struct window_pass
{
    int w, P, g;
    guard guarding;
    const vs* sys; // [w]
    const vs* par; // [w]
    const vs* apriori;
    vs* out;
    vs* app;
    short scale_q15;     // the extrinsic scaling times 2^15 …
    bool halve;          // … or 1 (2^15 does not fit)
    const vs* tail_beta; // [S]: beta at stage K of each lane's codeword
    edge_store edges;
    vs* alpha; // [(w + 1) S] scratch

    vs a_half(int j) const { return sys[j] + apriori[j]; }
    branch_metrics bm(int j) const
    {
        return trellis::metrics_from_halves(a_half(j), par[j]);
    }

    template <bool Exact>
    void run() const
    {
        using trellis::backward_step;
        using trellis::forward_step;
        // Only inner edges (P > 1) are guarded: one sub-block's g may exceed w = K.
        const bool stores =
            P > 1 && (guarding == guard::pivi || guarding == guard::pividstw);
        const bool trains =
            P > 1 && (guarding == guard::dstw || guarding == guard::pividstw);
        const int edge_offset = guarding == guard::pividstw ? g : 0;
        const vs first_window = lanes_of_subblock(0, P);
        const vs last_window = lanes_of_subblock(P - 1, P);

        // Alpha at each sub-block's start: stored or equiprobable, trained over the g
        // stages before it; sub-block 0 starts in state 0.
        for (int s = 0; s < S; ++s)
            alpha[s] = stores ? edges.alpha[s] - edges.alpha[0] : vs{};
        if (trains) {
            for (int j = w - g; j < w; ++j) {
                vs t[S];
                forward_step<Exact>(
                    alpha,
                    t,
                    trellis::metrics_from_halves(from_previous_window(a_half(j)),
                                                 from_previous_window(par[j])));
                for (int s = 0; s < S; ++s)
                    alpha[s] = t[s];
            }
        }
        for (int s = 0; s < S; ++s)
            alpha[s] = first_window ? (s == 0 ? vs{} : vs{} + short(impossible_metric))
                                    : alpha[s];

        // Normalising every 4th stage is enough to stay within int16 (see the top).
        for (int j = 0; j < w; ++j)
            forward_step<Exact>(alpha + j * S, alpha + (j + 1) * S, bm(j), (j & 3) == 3);
        if (stores)
            for (int s = 0; s < S; ++s)
                edges.alpha[s] = from_previous_window(alpha[(w - edge_offset) * S + s]);

        // Beta at each sub-block's end: stored or equiprobable, trained over the next
        // sub-block's first g stages; the last sub-block ends with the tail.
        vs beta[S];
        for (int s = 0; s < S; ++s)
            beta[s] = stores ? edges.beta[s] - edges.beta[0] : vs{};
        if (trains)
            for (int j = g - 1; j >= 0; --j)
                backward_step<Exact>(
                    beta,
                    trellis::metrics_from_halves(from_next_window(a_half(j)),
                                                 from_next_window(par[j])));
        for (int s = 0; s < S; ++s)
            beta[s] = last_window ? tail_beta[s] : beta[s];

        // The backward recursion with the extrinsic output; the beta at stage
        // edge_offset of sub-block p is where sub-block p - 1 starts next time.
        auto store_beta = [&] {
            for (int s = 0; s < S; ++s)
                edges.beta[s] = from_next_window(beta[s]);
        };
        if (stores && edge_offset == w)
            store_beta();
        for (int j = w - 1; j >= 0; --j) {
            const branch_metrics m = bm(j);
            const vs e = trellis::extrinsic<Exact>(alpha + j * S, beta, m);
            out[j] = feedback<Exact>(e, scale_q15, halve);
            if (app)
                app[j] = a_half(j) + a_half(j) + e;
            backward_step<Exact>(beta, m, (j & 3) == 0);
            if (stores && j == edge_offset)
                store_beta();
        }
    }
};

// The shape whose tables the workspace holds: the workspace outlives a call and starts
// zeroed (group_kernel), so the interleaver's tables are made once per K.
struct tables_of
{
    int K, P;
};
constexpr std::size_t tables_header = 64;

// Scratch layout of one codeword: a header, the rows (vs), then the tables and bytes.
struct window_plan
{
    std::size_t w, sys[2], par[2], apriori[2], ext, app, alpha, edges, tail_beta,
        to_interleaved, to_natural, total_vs;
    std::size_t source_row, lane_of, input, hard, previous_hard, bytes;

    explicit window_plan(const kernel_shape& shape)
    {
        const std::size_t K = shape.K;
        w = K / shape.P;
        std::size_t at = 0;
        auto take = [&](std::size_t n) {
            const std::size_t here = at;
            at += n;
            return here;
        };
        for (int d = 0; d < 2; ++d) {
            sys[d] = take(w);
            par[d] = take(w);
            apriori[d] = take(w);
        }
        ext = take(w);
        app = take(w);
        alpha = take((w + 1) * S);
        edges = take(2 * 2 * S); // [decoder][alpha|beta][S]
        tail_beta = take(2 * S); // [decoder][S]
        constexpr std::size_t per_row = sizeof(lane_permutation) / sizeof(vs);
        to_interleaved = take(w * per_row);
        to_natural = take(w * per_row);
        total_vs = at;
        std::size_t b = tables_header + at * sizeof(vs);
        auto take_bytes = [&](std::size_t n) {
            const std::size_t here = b;
            b += (n + 63) / 64 * 64;
            return here;
        };
        source_row = take_bytes(w * sizeof(int));
        lane_of = take_bytes(K * sizeof(short));
        input = take_bytes(codeword_length(K) * sizeof(short));
        hard = take_bytes(K);
        previous_hard = take_bytes(std::size_t(L) * K); // [codeword][K]
        bytes = b;
    }
};

std::size_t workspace_bytes(const kernel_shape& shape)
{
    return window_plan(shape).bytes;
}

void decode_group(const decoder_config& c,
                  const kernel_shape& shape,
                  const std::uint32_t* pi,
                  const group_job& job,
                  void* workspace)
{
    const int K = shape.K, P = shape.P;
    const window_plan plan(shape);
    const int w = int(plan.w);
    char* bytes = static_cast<char*>(workspace);
    vs* rows = reinterpret_cast<vs*>(bytes + tables_header);
    auto* tables = static_cast<tables_of*>(workspace);
    auto* to_interleaved =
        reinterpret_cast<lane_permutation*>(rows + plan.to_interleaved);
    auto* to_natural = reinterpret_cast<lane_permutation*>(rows + plan.to_natural);
    auto* source_row = reinterpret_cast<int*>(bytes + plan.source_row);
    auto* lane_of = reinterpret_cast<short*>(bytes + plan.lane_of);
    auto* input = reinterpret_cast<short*>(bytes + plan.input);
    auto* hard = reinterpret_cast<std::uint8_t*>(bytes + plan.hard);
    auto* previous_hard = reinterpret_cast<std::uint8_t*>(bytes + plan.previous_hard);
    auto scalars = [&](std::size_t row) { return reinterpret_cast<short*>(rows + row); };

    // Interleaved row j is natural row source_row[j] through to_interleaved[j], within
    // each codeword's block of P lanes; lanes beyond the last block map to themselves.
    const bool made = tables->K == K && tables->P == P;
    for (int p = 0; p < P && !made; ++p)
        for (int j = 0; j < w; ++j)
            lane_of[p * w + j] = short(p);
    for (int j = 0; j < w && !made; ++j) {
        source_row[j] = int(pi[j]) - w * lane_of[pi[j]];
        short to_i[L], to_n[L];
        for (int p = 0; p < L; ++p)
            to_i[p] = to_n[p] = short(p);
        for (int b = 0; b + P <= L; b += P)
            for (int p = 0; p < P; ++p) {
                const int q = lane_of[pi[j + p * w]];
                to_i[b + p] = short(b + q);
                to_n[b + q] = short(b + p);
            }
        to_interleaved[j] = make_permutation(to_i);
        to_natural[j] = make_permutation(to_n);
    }
    *tables = { K, P };

    // Inputs, quantised; codeword n in lanes n P … n P + P - 1. Unused lanes, the
    // a-priori rows and the edge metrics (first iteration: equiprobable) start at zero.
    for (std::size_t i = 0; i < plan.tail_beta; ++i)
        rows[i] = vs{};
    const bool interleaved = c.input_layout == layout::interleaved;
    auto at = [&](int stream, int k) {
        return input[interleaved ? 3 * std::size_t(k) + stream
                                 : std::size_t(stream) * (K + 4) + k];
    };
    short* sys0 = scalars(plan.sys[0]);
    short* par0 = scalars(plan.par[0]);
    short* par1 = scalars(plan.par[1]);
    short tail[2][2][3][L] = {}; // [decoder][systematic|parity][stage][lane]
    for (int n = 0; n < job.count; ++n) {
        quantise(
            job.llrs + n * codeword_length(K), codeword_length(K), c.invert_llr, input);
        for (int p = 0; p < P; ++p)
            for (int j = 0; j < w; ++j) {
                const int k = p * w + j, lane = n * P + p;
                sys0[j * L + lane] = at(0, k);
                par0[j * L + lane] = at(1, k);
                par1[j * L + lane] =
                    at(2, k); // the second parity is in interleaved order
            }
        for (int d = 0; d < 2; ++d)
            for (int j = 0; j < 3; ++j)
                for (int parity = 0; parity < 2; ++parity) {
                    const tail_place t = tail_position(d, j, parity == 1);
                    for (int p = 0; p < P; ++p)
                        tail[d][parity][j][n * P + p] = at(t.stream, K + t.offset);
                }
    }
    for (int j = 0; j < w; ++j)
        rows[plan.sys[1] + j] =
            permute(rows[plan.sys[0] + source_row[j]], to_interleaved[j]);
    const bool exact = c.algo == algorithm::log_map;
    for (int d = 0; d < 2; ++d) {
        vs* beta = rows + plan.tail_beta + d * S;
        trellis::set_known_start(beta);
        for (int j = 2; j >= 0; --j) {
            vs sys, par;
            std::memcpy(&sys, tail[d][0][j], sizeof sys);
            std::memcpy(&par, tail[d][1][j], sizeof par);
            const branch_metrics m = trellis::metrics_from_halves(sys, par);
            if (exact)
                trellis::backward_step<true>(beta, m);
            else
                trellis::backward_step<false>(beta, m);
        }
    }

    const float scale = c.algo == algorithm::scaled_max_log ? c.scaling : 1.0f;
    auto pass = [&](int d, vs* app) {
        window_pass h;
        h.w = w;
        h.P = P;
        h.g = c.guard_window;
        h.guarding = c.guarding;
        h.sys = rows + plan.sys[d];
        h.par = rows + plan.par[d];
        h.apriori = rows + plan.apriori[d];
        h.out = rows + plan.ext;
        h.app = app;
        const int scale_q15 = int(scale * 32768.0f + 0.5f);
        h.halve = scale_q15 == 32768;
        h.scale_q15 = short(h.halve ? 0 : scale_q15);
        h.tail_beta = rows + plan.tail_beta + d * S;
        h.edges = { rows + plan.edges + (2 * d) * S,
                    rows + plan.edges + (2 * d + 1) * S };
        h.alpha = rows + plan.alpha;
        return h;
    };
    const window_pass first = pass(0, nullptr);
    vs* ext = rows + plan.ext;
    vs* app = rows + plan.app;
    vs* apriori0 = rows + plan.apriori[0];
    vs* apriori1 = rows + plan.apriori[1];

    auto run = [&](const window_pass& h) {
        if (exact)
            h.run<true>();
        else
            h.run<false>();
    };
    bool done[L];
    int remaining = job.count;
    for (int n = 0; n < L; ++n)
        done[n] = n >= job.count;
    for (int it = 1; it <= c.iterations && remaining > 0; ++it) {
        const bool last = it == c.iterations;
        const bool decide = last || c.early_stop != stop_rule::off;
        run(first);
        for (int j = 0; j < w; ++j)
            apriori1[j] = permute(ext[source_row[j]], to_interleaved[j]);
        run(pass(1, decide ? app : nullptr));
        for (int j = 0; j < w; ++j)
            apriori0[source_row[j]] = permute(ext[j], to_natural[j]);
        if (!decide)
            continue;
        for (int j = 0; j < w; ++j) // ext is free until the next pass
            ext[source_row[j]] = permute(app[j], to_natural[j]);
        const short* app_rows = scalars(plan.ext);
        for (int n = 0; n < job.count; ++n) {
            if (done[n])
                continue;
            // Decisions in natural order, k = p w + j, and the mean |LLR| (exact in
            // integers).
            const short* lanes = app_rows + n * P;
            long sum = 0;
            for (int p = 0; p < P; ++p)
                for (int j = 0; j < w; ++j) {
                    const int a = lanes[j * L + p];
                    hard[p * w + j] = std::uint8_t(a < 0);
                    sum += a < 0 ? -a : a;
                }
            auto app_of = [&](int k) {
                return float(lanes[k % w * L + k / w]) * (1.0f / app_units);
            };
            const double mean = double(sum) / app_units / K;
            const bool ok = passes_given(
                c, K, app_of, it, mean, hard, previous_hard + std::size_t(n) * K);
            if (!ok && !last)
                continue;
            std::memcpy(job.bits + std::size_t(n) * K, hard, K);
            // The systematic input in natural order, in LLR units.
            auto sys_of = [&](int k) {
                return float(sys0[k % w * L + n * P + k / w]) * (1.0f / input_units);
            };
            write_soft(c, job.soft, K, n, app_of, sys_of);
            if (job.status)
                job.status[n] = codeword_status{ it, ok };
            done[n] = true;
            --remaining;
        }
    }
}

} // namespace

extern const group_kernel GPUTURBO_KERNEL_NAME = {
    GPUTURBO_KERNEL_ISA, 1, &workspace_bytes, &decode_group, L
};

} // namespace gputurbo::turbo::cpu
