/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi kernels, generic in the number of lanes (frames side by side): LLRs into
// metrics, the add-compare-select and the traceback. Included only by
// viterbi_kernel_*.cc, each of which defines GPUTURBO_LANES and GPUTURBO_KERNEL_NAME and
// is compiled for one instruction set. Internal linkage only, and no standard-library
// function template (std::integer_sequence is a type): objects for different
// instruction sets must share no inline function.
//
// Path metrics are int16, kept relative to the metric state 0 had a step before: each
// step's branch metrics carry minus that metric, so that the new metrics come out
// relative to it. The metrics of a step lie within (K-1) * 2 * n * max_metric of each
// other (any state is K-1 steps from the best one, and a step changes a metric by at
// most 2 * n * max_metric: 8128 for K = 9, n = 4), plus the head start of state 0 in a
// terminated start (as much again), and state 0's own metric moves by at most
// n * max_metric a step: every metric, and every sum of one and a branch metric that is
// compared, stays within 16257 + 508 of 0. So plain int16 max and compare decide exactly
// as on the unbounded metrics (ties keep p_0), as the CUDA decoder does.

#include "core/cpu/lane_mask.h"
#include "../fast_bcjr.h"
#include "viterbi_kernel.h"

#include <gnuradio/gputurbo/engine/conv/code.h>

#include <cstring>
#include <utility>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef GPUTURBO_LANES
#error "define GPUTURBO_LANES before including viterbi_kernel_impl.h"
#endif

namespace gputurbo::conv::cpu {
namespace {

// The bound above on the largest code (K = 9, n = 4): the spread of a step's metrics,
// the head start as much again, and state 0's move of a step.
constexpr int most_spread = (max_constraint - 1) * 2 * max_outputs * max_metric;
static_assert(most_spread == 8128);
static_assert(2 * most_spread + 1 + max_outputs * max_metric == 16257 + 508 &&
                  16257 + 508 < 1 << 15,
              "int16 path metrics must not wrap");

constexpr int W = GPUTURBO_LANES;
// Sums wrap (unsigned) where a branch metric's parts pass the int16 range on the way;
// the path metrics themselves never do (above).
typedef std::uint16_t vu __attribute__((vector_size(2 * W)));
typedef std::int16_t vs __attribute__((vector_size(2 * W)));
typedef std::uint32_t vw __attribute__((vector_size(4 * W))); // a traceback's states

// The elements of a's and b's first halves (lo) or second halves (hi) in turn: a round of
// a transposition.
template <int... I>
inline vu interleave_lo(vu a, vu b, std::integer_sequence<int, I...>)
{
    return __builtin_shufflevector(a, b, (I % 2 ? W + I / 2 : I / 2)...);
}
template <int... I>
inline vu interleave_hi(vu a, vu b, std::integer_sequence<int, I...>)
{
    return __builtin_shufflevector(a, b, (I % 2 ? W + W / 2 + I / 2 : W / 2 + I / 2)...);
}

// Columns [0, W) of W rows of int16 (row l at rows + l * row), as W vectors: out[j]
// lane l is row l's element j.
inline void transpose(const std::int16_t* rows, std::size_t row, vu* out)
{
    constexpr auto lanes = std::make_integer_sequence<int, W>{};
    vu a[W], b[W];
    for (int l = 0; l < W; ++l)
        std::memcpy(&a[l], rows + std::size_t(l) * row, sizeof(vu));
    // log2(W) rounds, each pairing vectors i and i + W/2: after them a[j] holds column j.
    for (int width = 1; width < W; width *= 2) {
        for (int i = 0; i < W / 2; ++i) {
            b[2 * i] = interleave_lo(a[i], a[i + W / 2], lanes);
            b[2 * i + 1] = interleave_hi(a[i], a[i + W / 2], lanes);
        }
        std::memcpy(a, b, sizeof a);
    }
    std::memcpy(out, a, sizeof a);
}

constexpr int most_states = 256;      // K = 9
constexpr int most_combinations = 16; // n = 4 coded bits per step

// The new metric of a state from its predecessors' sums m0 (from p_0) and m1, and its
// decisions (ties keep p_0).
inline void select(vu m0, vu m1, vu& next, std::uint32_t& decided)
{
    next = (vu)((vs)m1 > (vs)m0 ? (vs)m1 : (vs)m0);
    decided = core::cpu::greater_mask<W>((vs)m1, (vs)m0);
}

// Every step of job. Symmetric: the branches into the two states of a butterfly carry
// the coded bits c, ~c (from p_0, p_1) and ~c, c, as in every code whose generators all
// tap the newest and the oldest bit (every preset's): two branch metrics a butterfly
// instead of four.
template <bool symmetric>
void steps(const trellis& t,
           const viterbi_job& job,
           const int* index,
           vu metric[2][most_states])
{
    const int S = t.states, n = t.outputs, all = (1 << n) - 1;
    vu branch[most_combinations];
    // The metrics transposed a block of W coded bits at a time into a ring of two
    // blocks: coded bit c of the run in ring[c % (2 W)], the blocks up to ready.
    vu ring[2 * W];
    std::size_t ready = 0;
    for (int k = 0; k < job.steps; ++k) {
        const std::size_t c = std::size_t(k) * n;
        if (c + n > ready) {
            transpose(job.metrics + ready, job.row, ring + ready % (2 * W));
            ready += W;
        }
        const vu* now = metric[k & 1];
        vu* next = metric[(k & 1) ^ 1];
        // The metric of every combination of coded bits, +q where a bit is 0, -q where
        // 1, less state 0's path metric.
        vu sum = -now[0];
        for (int o = 0; o < n; ++o)
            sum += ring[(c + o) % (2 * W)];
        branch[0] = sum;
        for (int b = 1; b <= all; ++b) {
            const vu q = ring[(c + __builtin_ctz(b)) % (2 * W)];
            branch[b] = branch[b & (b - 1)] - q - q;
        }
        std::uint32_t* decided = job.decisions + std::size_t(k) * S;
        // Butterflies: states ns and ns + S/2 have the same predecessors p_0, p_1.
        for (int ns = 0; ns < S / 2; ++ns) {
            const vu a = now[2 * ns], b = now[2 * ns + 1];
            const int hi = ns + S / 2;
            if constexpr (symmetric) {
                const vu x = branch[index[2 * ns]], y = branch[index[2 * ns] ^ all];
                select(a + x, b + y, next[ns], decided[ns]);
                select(a + y, b + x, next[hi], decided[hi]);
            } else {
                select(a + branch[index[2 * ns]],
                       b + branch[index[2 * ns + 1]],
                       next[ns],
                       decided[ns]);
                select(a + branch[index[2 * hi]],
                       b + branch[index[2 * hi + 1]],
                       next[hi],
                       decided[hi]);
            }
        }
    }
}

void run(const trellis& t, const viterbi_job& job)
{
    const int S = t.states, n = t.outputs, all = (1 << n) - 1;
    vu metric[2][most_states];
    int index[2 * most_states]; // t.branch_outputs, as ints
    for (int i = 0; i < 2 * S; ++i)
        index[i] = t.branch_outputs[i];
    bool symmetric = true;
    for (int ns = 0; ns < S / 2; ++ns) {
        const int c = index[2 * ns], hi = ns + S / 2;
        symmetric &= index[2 * ns + 1] == (c ^ all) && index[2 * hi] == (c ^ all) &&
                     index[2 * hi + 1] == c;
    }
    // Paths not from state 0 start this far behind: more than any path gains in the
    // K-1 steps that reach every state.
    const std::uint16_t behind =
        std::uint16_t((t.constraint - 1) * 2 * n * max_metric + 1);
    for (int s = 0; s < S; ++s)
        for (int l = 0; l < W; ++l)
            metric[0][s][l] =
                s && (job.start_in_zero >> l & 1u) ? std::uint16_t(-behind) : 0;
    if (symmetric)
        steps<true>(t, job, index, metric);
    else
        steps<false>(t, job, index, metric);
    std::memcpy(job.final_metrics, metric[job.steps & 1], sizeof(vu) * S);
}

// Lane l of i: the word of row at lane l of i (by reference: a vector of this size
// is wider than the instruction set's registers).
inline void gather(const std::uint32_t* row, vw& i)
{
#if defined(__AVX512F__) && GPUTURBO_LANES == 32
    __m512i x[2];
    std::memcpy(x, &i, sizeof x);
    for (__m512i& v : x)
        v = _mm512_mask_i32gather_epi32(v, 0xffff, v, row, 4); // (all lanes)
    std::memcpy(&i, x, sizeof x);
#elif defined(__AVX2__) && GPUTURBO_LANES == 16
    __m256i x[2];
    std::memcpy(x, &i, sizeof x);
    for (__m256i& v : x)
        v = _mm256_i32gather_epi32(reinterpret_cast<const int*>(row), v, 4);
    std::memcpy(&i, x, sizeof x);
#else
    for (int l = 0; l < W; ++l)
        i[l] = row[i[l]];
#endif
}

// Bit l of the result: the sign bit of lane l.
inline std::uint32_t sign_mask(const vw& v)
{
#if defined(__AVX512DQ__) && GPUTURBO_LANES == 32
    __m512i x[2];
    std::memcpy(x, &v, sizeof x);
    return std::uint32_t(_mm512_movepi32_mask(x[0])) |
           std::uint32_t(_mm512_movepi32_mask(x[1])) << 16;
#elif defined(__AVX2__) && GPUTURBO_LANES == 16
    __m256 x[2];
    std::memcpy(x, &v, sizeof x);
    return std::uint32_t(_mm256_movemask_ps(x[0])) |
           std::uint32_t(_mm256_movemask_ps(x[1])) << 8;
#elif defined(__SSE2__) && GPUTURBO_LANES == 8
    __m128 x[2];
    std::memcpy(x, &v, sizeof x);
    return std::uint32_t(_mm_movemask_ps(x[0])) | std::uint32_t(_mm_movemask_ps(x[1]))
                                                      << 4;
#else
    std::uint32_t bits = 0;
    for (int l = 0; l < W; ++l)
        bits |= (v[l] >> 31) << l;
    return bits;
#endif
}

void trace(const trellis& t, const traceback_job& job)
{
    const int S = t.states, memory = t.constraint - 1;
    vw state, lane;
    for (int l = 0; l < W; ++l) {
        state[l] = std::uint32_t(job.end_states[l]);
        lane[l] = std::uint32_t(l);
    }
    for (int e = job.steps - 1; e >= 0; --e) {
        // The newest input bit of a state, moved to the sign bit.
        job.bits[e] = sign_mask(state << (32 - memory));
        vw words = state;
        gather(job.decisions + std::size_t(e) * S, words);
        state = ((state << 1) & std::uint32_t(S - 1)) | ((words >> lane) & 1);
    }
}

// --- The LLRs into metrics, in vectors of F values -------------------------------------

constexpr int F = W / 2; // floats in a vector as wide as W int16
typedef float vf __attribute__((vector_size(4 * F)));
typedef std::int32_t vi __attribute__((vector_size(4 * F)));
typedef std::int16_t vh __attribute__((vector_size(2 * F)));
typedef std::int8_t vb __attribute__((vector_size(F)));

// n < F values from p, then zeros: what sanitising, measuring and quantising read as
// nothing.
template <class V, class T>
inline V load_part(const T* p, std::size_t n)
{
    V v = {};
    std::memcpy(&v, p, n * sizeof(T));
    return v;
}

// Magnitude sums in int32 lanes, for at most block vectors: fixed magnitudes are below
// 2^26 (magnitude_unit times core::llr_limit, or times 128 int8 units).
struct lane_sums
{
    static constexpr std::size_t block = 32;
    vi total = {}, inside = {}, counted = {};

    void add(vi fixed, vi counts) // counts: -1 where the value counts, else 0
    {
        total += fixed;
        inside += fixed & counts;
        counted -= counts;
    }

    void flush(magnitude_sums& sums)
    {
        for (int i = 0; i < F; ++i) {
            sums.total += total[i];
            sums.inside += inside[i];
            sums.counted += counted[i];
        }
        *this = lane_sums{};
    }
};

// Runs f(i, n) over [0, count) in vectors (n = F, then the rest), flushing sums every
// block vectors.
template <class Step>
inline void in_vectors(std::size_t count, magnitude_sums* sums, lane_sums& s, Step f)
{
    std::size_t i = 0, vectors = 0;
    for (; i + F <= count; i += F) {
        f(i, std::size_t(F));
        if (sums && ++vectors % lane_sums::block == 0)
            s.flush(*sums);
    }
    if (i < count)
        f(i, count - i);
    if (sums)
        s.flush(*sums);
}

// core::sanitize_llr() and magnitudes::add() of F values: a NaN is 0 (which the sign
// may make -0: it quantises and measures as 0 all the same), values clamped.
inline vf sanitized(vf x, float sign, lane_sums& s)
{
    const vf most = vf{} + core::llr_limit;
    x = x == x ? x : vf{};
    x = x > most ? most : (x < -most ? -most : x);
    x *= sign;
    const vf a = (vf)((vi)x & 0x7fffffff);
    s.add(__builtin_convertvector(a * magnitude_unit, vi),
          (vi)(a > vf{}) & (vi)(a < most));
    return x;
}

void sanitize(
    const float* in, std::size_t count, bool invert, float* out, magnitude_sums& sums)
{
    const float sign = invert ? -1.0f : 1.0f;
    lane_sums s;
    in_vectors(count, &sums, s, [&](std::size_t i, std::size_t n) {
        const vf v = sanitized(load_part<vf>(in + i, n), sign, s);
        std::memcpy(out + i, &v, n * sizeof(float));
    });
}

// quantize() of F values: clamped, then rounded half away from zero.
void quantize(const float* in, std::size_t count, float scale, std::int16_t* out)
{
    const vf most = vf{} + float(max_metric), half = vf{} + 0.5f;
    lane_sums unused;
    in_vectors(count, nullptr, unused, [&](std::size_t i, std::size_t n) {
        const vf y = load_part<vf>(in + i, n) * scale;
        const vf clamped = y < -most ? -most : (y > most ? most : y);
        const vf away = (vf)(((vi)y & std::int32_t(0x80000000u)) | (vi)half);
        const vh q =
            __builtin_convertvector(__builtin_convertvector(clamped + away, vi), vh);
        std::memcpy(out + i, &q, n * sizeof(std::int16_t));
    });
}

typedef std::int8_t vc __attribute__((vector_size(W)));

// int8_metric() of W values at a time. Their fixed magnitudes are |q| unit, counted where
// q is not 0 (and 0 where it is): both sums are unit times the sum of |q|, summed in
// int16 lanes for up to 128 vectors (|q| <= 128).
void int8_metrics(const std::int8_t* in,
                  std::size_t count,
                  bool invert,
                  std::int32_t unit,
                  std::int16_t* out,
                  magnitude_sums& sums)
{
    const std::int16_t sign = invert ? -1 : 1;
    const vs most = vs{} + std::int16_t(max_metric);
    vs block = {}, counted = {};
    std::int64_t magnitude = 0;
    auto flush = [&] {
        for (int l = 0; l < W; ++l) {
            magnitude += block[l];
            sums.counted += counted[l];
        }
        block = counted = vs{};
    };
    auto metrics = [&](std::size_t i, std::size_t n) {
        const vs q = __builtin_convertvector(load_part<vc>(in + i, n), vs);
        const vs m = (q < -most ? -most : q) * sign;
        std::memcpy(out + i, &m, n * sizeof(std::int16_t));
        block += q < 0 ? -q : q;
        counted -= q != 0;
    };
    std::size_t i = 0, vectors = 0;
    for (; i + W <= count; i += W) {
        metrics(i, W);
        if (++vectors % 128 == 0)
            flush();
    }
    if (i < count)
        metrics(i, count - i);
    flush();
    sums.total += magnitude * unit;
    sums.inside += magnitude * unit;
}

// The lanes as fast_bcjr.h's: wrapping adds, signed max.
struct lane_ops
{
    using V = vs;
    static V splat(int x) { return vs{} + std::int16_t(x); }
    static V add(V a, V b) { return (vs)((vu)a + (vu)b); }
    static V sub(V a, V b) { return (vs)((vu)a - (vu)b); }
    static V max(V a, V b) { return a > b ? a : b; }
    static V add_max(V a, V b, V c) { return max(add(a, b), c); }
};

// A code of K and N known when compiling, its branches read from the trellis.
template <int K_, int N_>
struct table_code
{
    static constexpr int K = K_, N = N_;
    const std::uint8_t* branch_outputs;
    unsigned pattern(int ns, int b) const { return branch_outputs[2 * ns + b]; }
};

// The lanes' run as fast_bcjr.h reads and writes it, everything in job.scratch: the
// metrics transposed ([coded bit] a vector), then the checkpoints and the window's slots
// ([checkpoint or slot][state] a vector).
template <int S, int N>
struct lanes_io
{
    const bcjr_job& job;
    std::int16_t* coded;
    std::int16_t* checkpoints;
    std::int16_t* slots;
    vs start_behind, end_behind; // the other states' start (end) metrics

    static vs get(const std::int16_t* p)
    {
        vs v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static void put(std::int16_t* p, vs v) { std::memcpy(p, &v, sizeof v); }

    int steps() const { return job.steps; }
    int wanted_begin() const { return job.wanted_begin; }
    int wanted_end() const { return job.wanted_end; }
    void metrics(int t, vs (&m)[N]) const
    {
        for (int o = 0; o < N; ++o)
            m[o] = get(coded + (std::size_t(t) * N + o) * W);
    }
    vs start(int s) const { return s ? start_behind : vs{}; }
    vs end(int s) const { return s ? end_behind : vs{}; }
    void save(int c, int s, vs v) const
    {
        put(checkpoints + (std::size_t(c) * S + s) * W, v);
    }
    vs load(int c, int s) const
    {
        return get(checkpoints + (std::size_t(c) * S + s) * W);
    }
    void ahead(int) const {}
    void keep(int i, int s, vs v) const { put(slots + (std::size_t(i) * S + s) * W, v); }
    vs kept(int i, int s) const { return get(slots + (std::size_t(i) * S + s) * W); }
    void write(int t, vs v) const { put(job.outputs + std::size_t(t) * W, v); }
};

// Per lane, -behind where its bit of zero is set, else 0.
vs behind_where(std::uint32_t zero, int behind)
{
    vs v{};
    for (int l = 0; l < W; ++l)
        v[l] = zero >> l & 1u ? std::int16_t(-behind) : 0;
    return v;
}

template <int K, int N>
void bcjr_of(const trellis& t, const bcjr_job& job)
{
    constexpr int S = 1 << (K - 1);
    const std::size_t coded_bits = std::size_t(job.steps) * N;
    const std::size_t checkpoints =
        std::size_t((job.steps + bcjr_window - 1) / bcjr_window);
    lanes_io<S, N> io{ job,
                       job.scratch,
                       job.scratch + coded_bits * W,
                       job.scratch + (coded_bits + checkpoints * S) * W,
                       behind_where(job.start_in_zero, fast_bcjr::penalty(K, N)),
                       behind_where(job.end_in_zero, fast_bcjr::penalty(K, N)) };
    // The metrics, W coded bits of every lane at a time (the last block's lanes read
    // the row's padding: run fills whole rows).
    for (std::size_t c = 0; c < coded_bits; c += W) {
        vu block[W];
        transpose(job.metrics + c, job.row, block);
        const std::size_t take = coded_bits - c < std::size_t(W) ? coded_bits - c : W;
        std::memcpy(io.coded + c * W, block, take * sizeof(vu));
    }
    fast_bcjr::kernel<lane_ops, table_code<K, N>>::template run<bcjr_window>(
        table_code<K, N>{ t.branch_outputs }, io);
}

// (The decoders call it for codes that fit only.)
template <int K>
void bcjr_outputs(const trellis& t, const bcjr_job& job)
{
    switch (t.outputs) {
    case 2:
        return bcjr_of<K, 2>(t, job);
    case 3:
        return bcjr_of<K, 3>(t, job);
    case 4:
        if constexpr (fast_bcjr::fits(K, 4))
            return bcjr_of<K, 4>(t, job);
    }
}

void bcjr(const trellis& t, const bcjr_job& job)
{
    switch (t.constraint) {
    case 3:
        return bcjr_outputs<3>(t, job);
    case 4:
        return bcjr_outputs<4>(t, job);
    case 5:
        return bcjr_outputs<5>(t, job);
    case 6:
        return bcjr_outputs<6>(t, job);
    case 7:
        return bcjr_outputs<7>(t, job);
    case 8:
        return bcjr_outputs<8>(t, job);
    case 9:
        return bcjr_outputs<9>(t, job);
    }
}

} // namespace

extern const viterbi_kernel GPUTURBO_KERNEL_NAME = {
    GPUTURBO_KERNEL_ISA, W, &run, &trace, &bcjr, &sanitize, &quantize, &int8_metrics
};

} // namespace gputurbo::conv::cpu
