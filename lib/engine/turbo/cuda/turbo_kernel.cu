/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/cuda/error.h"
#include "core/cuda/llr.cuh"
#include "core/cuda/s16x2.cuh"
#include "../fixed_point.h"
#include "../trellis_math.h"
#include "turbo_kernel.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

// The log-map arithmetic of packed int16 metrics. The trellis recursions
// (trellis_math.h) find max_star and merge by argument-dependent lookup, so they live in
// s16x2's namespace (no unnamed one, which that lookup does not enter).
namespace gputurbo::core::cuda {

// int16 metrics (turbo/fixed_point.h): log-map's max* is max(a, b, (a+b)/2 + C), a
// halved sum and one more DPX add-max than max-log; C in both lanes. Its arguments here,
// the extrinsic's, differ by less than 2^15 (fixed_point.h), so the halved sum is
// a + floor((b - a) / 2) (their sum may wrap): 1.10x the log-map kernel's rate against
// the carry-safe (a & b) + (a ^ b) / 2 (notes, experiment 28).
inline constexpr unsigned max_star_offset =
    unsigned(turbo::fixed_point::max_star_offset) * 0x10001u;

template <bool Exact>
__device__ __forceinline__ s16x2 max_star(const s16x2& a, const s16x2& b)
{
    static_assert(Exact, "max-log takes add_max");
    return { __viaddmax_s16x2(
        half_sum_near(a, b).v, max_star_offset, __vmaxs2(a.v, b.v)) };
}

// The offset form's metrics (trellis_math.h) for log-map: the two arguments of every
// merge of the pair x, y add up to x + y + 2A + 2B, whichever the parity, so the two
// states that merge the same pair share the halved sum floor((x + y) / 2) + A + B, and
// max* costs one DPX add-max more than max-log.
struct exact_offset_metrics : turbo::trellis::offset_metrics<s16x2>
{
    s16x2 pair_offset; // A + B + C
};

// The halved sum is that of the pair in the butterfly's fixed order, so that the
// compiler shares it between the butterfly's two states (each names its branches in
// its own order: halved in that order, the sum was computed twice and the carry-safe
// (x & y) + (x ^ y) / 2 was faster; notes, experiment 35). Two metrics of one stage add
// up without wrapping (fixed_point.h).
template <bool Exact>
__device__ __forceinline__ s16x2 butterfly_merge(const s16x2& x,
                                                 const s16x2& y,
                                                 const exact_offset_metrics& m,
                                                 int z,
                                                 const s16x2& first,
                                                 const s16x2& second)
{
    static_assert(Exact, "max-log takes the generic merge");
    const s16x2 best =
        z == 0 ? add_max(x, m.both, y) : add_max(x, m.systematic, y + m.parity);
    return { __viaddmax_s16x2(halve(first + second).v, m.pair_offset.v, best.v) };
}

} // namespace gputurbo::core::cuda

namespace gputurbo::turbo {
namespace {
namespace trellis {
template <>
struct metric_limits<core::cuda::s16x2>
{
    // Low enough to lose every comparison, high enough that sums of two never wrap.
    static __device__ core::cuda::s16x2 impossible()
    {
        return { unsigned(std::uint16_t(fixed_point::impossible_metric)) * 0x10001u };
    }
};
} // namespace trellis
} // namespace
} // namespace gputurbo::turbo

namespace gputurbo::turbo::cuda {
namespace {

using core::cuda::s16x2;
using namespace gputurbo::turbo::trellis;

// Tuning: turbo_kernel.cuh's turbo_policy.
using policy = turbo_policy;
constexpr int segment = policy::segment, half_segment = policy::half_segment;

// int16 arithmetic: units, limits and why sums never overflow in turbo/fixed_point.h.
using fixed_point::max_extrinsic;
using fixed_point::max_input;
// Stage j of a segment normalises when (j + 1) % 4 == 0 (int16) or always (float).
template <class L>
__device__ constexpr bool normalises(int j)
{
    return !L::lazy || (j & 3) == 3;
}

// What differs between the metric types: how a stage's inputs become branch metric
// halves, how the extrinsic output is scaled for the other decoder, and how the
// a-posteriori LLR of each lane is read.
template <class M>
struct lanes;

// One codeword per thread, float, bit-identical to the CPU backends (but for log-map's
// correction term).
template <>
struct lanes<float>
{
    static constexpr int count = 1;
    static constexpr bool lazy = false; // normalise every stage, as the CPU does
    using stage_t = float2;             // {systematic, parity}
    using staged_t = float;             // a sanitised input LLR in the preparation kernel
    __device__ static staged_t staged(const float* x, const kernel_config& c)
    {
        return core::cuda::sanitize(x[0] * c.input_scale, c.invert);
    }
    // A = (sys + apriori) / 2 and B = parity / 2: metrics in half LLRs.
    __device__ static void halves(stage_t in, float apriori, float& a, float& b)
    {
        a = (in.x + apriori) * 0.5f;
        b = in.y * 0.5f;
    }
    template <bool Exact>
    __device__ static branch_metrics<float> metrics(float a, float b)
    {
        return metrics_from_halves(a, b);
    }
    template <bool Exact>
    __device__ static float feedback(float e, const kernel_config& c)
    {
        return e * c.scale;
    }
    __device__ static float app(float a, float e) { return 2.0f * a + e; }
    __device__ static float lane_app(float app, int) { return app; }
};

// Two codewords per thread in int16 fixed point: inputs in units of 1/16 LLR (int8 ones
// rescaled to it), so that metrics hold 32 units per nat; the recursions take the offset
// form (trellis_math.h), so the trellis inputs and a-priori values are kept doubled.
template <>
struct lanes<s16x2>
{
    static constexpr int count = 2;
    static constexpr bool lazy = true; // normalise every 4th stage of the segment loops
    using stage_t = uint2;             // {systematic, parity} of both lanes, doubled
    using staged_t = unsigned;         // both lanes' quantised input LLRs, when prepared
    // Each lane's 2 rint(x scale), clamped to +-max_input units: sanitize()'s clamp to
    // +-llr_limit lies beyond that, and the conversion takes NaN to 0 as sanitize() does
    // (and saturates), so the sign of the scale alone stands for c.invert.
    __device__ static staged_t staged(const float* x, const kernel_config& c)
    {
        const float scale = c.invert ? -c.input_scale : c.input_scale;
        auto units = [&](float y) {
            return 2 * min(max(__float2int_rn(y * scale), -max_input), max_input);
        };
        return __byte_perm(unsigned(units(x[0])), unsigned(units(x[1])), 0x5410);
    }
    // 2A = 2 (sys + apriori) and 2B = 2 parity, with A and B the float metrics times 2
    // units per LLR.
    __device__ static void halves(stage_t in, s16x2 apriori, s16x2& a, s16x2& b)
    {
        a = s16x2{ in.x } + apriori;
        b = s16x2{ in.y };
    }
    template <bool Exact>
    __device__ static auto metrics(s16x2 a2, s16x2 b2)
    {
        if constexpr (Exact) {
            const offset_metrics<s16x2> m = offset_metrics_from_doubled(a2, b2);
            // A + B + C: both / 2 (exact: both is even) plus C.
            return core::cuda::exact_offset_metrics{
                m, core::cuda::halve(m.both) + s16x2{ core::cuda::max_star_offset }
            };
        } else
            return offset_metrics_from_doubled(a2, b2);
    }
    // e is in 2 units per LLR; the a-priori input wants units: e * scale / 2 per lane,
    // as the high word of (lane << 16 | 0xffff) * scale * 2^15 (the low ones round),
    // saturated, then doubled.
    template <bool Exact>
    __device__ static s16x2 feedback(s16x2 e, const kernel_config& c)
    {
        const int lo = __mulhi(int(__funnelshift_l(0xffffffffu, e.v, 16)), c.scale_q15);
        const int hi = __mulhi(int(e.v | 0xffffu), c.scale_q15);
        const unsigned r = __byte_perm(unsigned(lo), unsigned(hi), 0x5410);
        constexpr unsigned top = unsigned(max_extrinsic<Exact>) * 0x10001u;
        constexpr unsigned bottom = unsigned(0x10000 - max_extrinsic<Exact>) * 0x10001u;
        const s16x2 saturated{ __vmins2(__vmaxs2(r, bottom), top) };
        return saturated + saturated;
    }
    __device__ static s16x2 app(s16x2 a2, s16x2 e) { return a2 + e; }
    __device__ static float lane_app(s16x2 app, int lane)
    {
        return float(short(app.v >> (16 * lane)));
    }
};

__host__ __device__ constexpr int segments(int w) { return (w + segment - 1) / segment; }

// Where stage j of sub-block q lies in a decoder's trellis values (8 bytes a stage) and
// its entry in the table of interleaved stages (4 bytes): in rows of P 16-byte vectors,
// two stages of one sub-block a vector, [j / 2][q][j % 2], and four entries,
// [j / 4][q][j % 4]. A recursion fetches a segment's stages in a few vector loads at
// addresses one stride apart, and the P threads' loads of a row lie together.
struct stage_layout
{
    int P;
    // The vector (pair of stages, quad of entries) that holds stage j of sub-block q.
    __host__ __device__ constexpr int pair(int j, int q) const
    {
        return (j >> 1) * P + q;
    }
    __host__ __device__ constexpr int quad(int j, int q) const
    {
        return (j >> 2) * P + q;
    }
    __host__ __device__ constexpr int entry(int j, int q) const
    {
        return quad(j, q) * 4 + (j & 3);
    }
    // Where stage j = from + d r (d = ±1) lies among the trellis values (V = 2:
    // pair(j, q) * 2 + j % 2) or its entry (V = 4: entry(j, q)), as
    // j P + V q + (j mod V)(1 - P), written so that the unrolled steps r of a run share
    // all of it but d r P and the V values of j mod V: a training window then finds each
    // stage by one multiply-add, as it did when the stages lay at j P + q.
    template <int V>
    __host__ __device__ constexpr int along(int from, int r, int d, int q) const
    {
        return from * P + V * q + ((from + d * (r % V)) & (V - 1)) * (1 - P) + d * r * P;
    }
    // Stages in rows (w rounded up to an even number): the 3 tail stages follow.
    __host__ __device__ int tail(int w) const { return (w + 1) / 2 * 2 * P; }
    // One decoder's stages: the rows and the tail, to a whole 16 bytes.
    __host__ __device__ int stride(int w) const { return tail(w) + 4; }
    __host__ __device__ int entries(int w) const { return (w + 3) / 4 * 4 * P; }
};
// along() is pair() and entry() rewritten: checked equal for every stage a training
// window may take (both directions, every offset of a run) at a few P.
constexpr bool along_matches_the_layout()
{
    for (const int P : { 1, 3, 160, 192 }) {
        const stage_layout layout{ P };
        for (int j = 0; j < 64; ++j)
            for (int r = 0; r < 8; ++r)
                for (const int d : { 1, -1 }) {
                    const int from = j - d * r, q = P - 1;
                    if (from < 0 || from >= 64)
                        continue;
                    if (layout.along<2>(from, r, d, q) !=
                            layout.pair(j, q) * 2 + (j & 1) ||
                        layout.along<4>(from, r, d, q) != layout.entry(j, q))
                        return false;
                }
    }
    return true;
}
static_assert(along_matches_the_layout(),
              "stage_layout::along() must find pair()/entry()");
// The table locates an extrinsic value by its byte offset in shared memory, where the
// decoding kernel keeps them 4 bytes each (float, or two int16 lanes).
constexpr int slot_bytes = 4;
// Two stages of one sub-block, as one 16-byte load (or store, when prepared).
template <class Stage>
struct alignas(16) stage_pair
{
    Stage first, second;
};

// A metric as the 32 bits it occupies in shared memory, and back.
__device__ __forceinline__ unsigned to_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned to_bits(s16x2 x) { return x.v; }
template <class M>
__device__ __forceinline__ M from_bits(unsigned u)
{
    if constexpr (std::is_same_v<M, float>)
        return __uint_as_float(u);
    else
        return { u };
}

// Shared memory of one group of codewords (one per lane), in 4-byte words.
struct shared_plan
{
    int ext, checkpoints, tail_betas, hard, previous_hard, sums, mins, crcs, total;
    __host__ __device__ explicit shared_plan(int K, int P, int lanes)
    {
        // Extrinsic values at slot(k) = k + k / w: one pad word per sub-block, so that
        // the P threads reading "their" stage j hit P different banks.
        const int slots = K + P;
        const int words = words_per_codeword(K);
        auto vector_aligned = [](int at) { return (at + 3) / 4 * 4; }; // 16 bytes
        ext = 0;
        checkpoints = vector_aligned(ext + slots);
        tail_betas = checkpoints + 2 * segments(K / P) * S * P; // [D][S]
        hard = tail_betas + 2 * S;
        previous_hard = hard + lanes * words;
        sums = previous_hard + lanes * words;
        mins = sums + lanes * P;
        crcs = mins + lanes * P;
        total = vector_aligned(crcs + lanes * P);
    }
};

__device__ __forceinline__ int div_w(int k, const kernel_config& c)
{
    return c.w == 1 ? k : int(__umulhi(unsigned(k), c.w_magic));
}
// Shared entries per stream in the preparation kernel: slot(k) for k < K + 4.
__host__ __device__ constexpr int prepare_slots(int K, int w)
{
    return K + 4 + (K + 3) / w;
}

// The preparation kernel reads its codewords in units of policy::unit_stages = 4
// stages: 12 values, three 4-value vector loads (in the streams layout one of each
// stream, so a unit is as many stages as a vector holds values; K + 4 stages: a whole
// number of units, K being a multiple of 8).
constexpr int unit_stages = policy::unit_stages;
static_assert(unit_stages == 4, "a unit is one 4-value vector load a stream");

// Threads per block of the preparation kernel: about one unit of each of its codewords
// per thread, so that small blocks do not leave most threads idle.
int prepare_threads(int K)
{
    const int units = (K + 4) / unit_stages;
    return std::clamp((units + 31) / 32 * 32, 64, policy::prepare_max_threads);
}

// Four consecutive input values, as one vector load where the address allows (float4,
// or four int8 in one word), else one by one.
template <class In>
__device__ __forceinline__ void load4(const In* at, float* v)
{
    using vec = std::conditional_t<std::is_same_v<In, float>, float4, char4>;
    if (reinterpret_cast<std::uintptr_t>(at) % sizeof(vec) == 0) {
        const vec x = *reinterpret_cast<const vec*>(at);
        v[0] = float(x.x), v[1] = float(x.y), v[2] = float(x.z), v[3] = float(x.w);
    } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
            v[e] = float(at[e]);
    }
}

// A unit's 12 values of one codeword as v[3 j + stream] (stage j of the unit), from
// either input layout: three vector loads whose values' stages and streams are known at
// compile time, in flight together.
template <class In>
__device__ __forceinline__ void
load_unit(const In* raw, int u, const kernel_config& c, float* v)
{
    if (c.streams) {
#pragma unroll
        for (int stream = 0; stream < 3; ++stream) {
            float x[unit_stages];
            load4(raw + stream * (c.K + 4) + unit_stages * u, x);
#pragma unroll
            for (int j = 0; j < unit_stages; ++j)
                v[3 * j + stream] = x[j];
        }
    } else {
#pragma unroll
        for (int q = 0; q < 3; ++q)
            load4(raw + 3 * unit_stages * u + 4 * q, &v[4 * q]);
    }
}

// One block per group of codewords (one per lane). Each thread reads a unit of 4 stages
// of every lane's codeword at a time (all their loads in flight together), sanitised
// and quantised, into shared memory by stream and stage, one word holding every lane's
// value: word [stream][slot(k)], where slot(k) = k + k / w pads each sub-block by one
// word, so that the 32 consecutive threads of the second phase, which read stage j of
// 32 sub-blocks, hit different banks. Then each thread writes a pair of stages at a
// time in the decoder's order, one coalesced 16-byte store a decoder, the second
// decoder's systematic values through the table of interleaved stages. A missing last
// codeword of a group (odd n) is decoded as all zeros.
template <class In, class M>
__global__ void
__launch_bounds__(policy::prepare_max_threads,
                  policy::prepare_min_blocks(std::is_same_v<In, std::int8_t>))
    prepare_kernel(kernel_config c, device_buffers b, int n)
{
    using L = lanes<M>;
    using stage_t = typename L::stage_t;
    using staged_t = typename L::staged_t;
    static_assert(sizeof(staged_t) == slot_bytes,
                  "the table's offsets address the words");
    extern __shared__ float prepare_shared[];
    staged_t* staged = reinterpret_cast<staged_t*>(prepare_shared);
    const int K = c.K, P = c.P, w = c.w;
    const int len = 3 * K + 12;
    const int units = (K + 4) / unit_stages;
    const int slots = prepare_slots(K, w);
    const int groups = (n + L::count - 1) / L::count;
    const unsigned p_magic = unsigned(((1ull << 32) + P - 1) / P);
    auto word = [&](int stream, int slot) -> staged_t& {
        return staged[stream * slots + slot];
    };
    for (int group = blockIdx.x; group < groups; group += gridDim.x) {
        for (int u = threadIdx.x; u < units; u += blockDim.x) {
            float v[L::count][3 * unit_stages] = {};
#pragma unroll
            for (int lane = 0; lane < L::count; ++lane) {
                const int cw = group * L::count + lane;
                if (cw < n)
                    load_unit(static_cast<const In*>(b.raw) + (std::size_t)cw * len,
                              u,
                              c,
                              v[lane]);
            }
#pragma unroll
            for (int j = 0; j < unit_stages; ++j) {
                const int k = unit_stages * u + j;
                const int slot = k + div_w(k, c);
#pragma unroll
                for (int stream = 0; stream < 3; ++stream) {
                    float x[L::count];
#pragma unroll
                    for (int lane = 0; lane < L::count; ++lane)
                        x[lane] = v[lane][3 * j + stream];
                    word(stream, slot) = L::staged(x, c);
                }
            }
        }
        __syncthreads();
        // The second decoder's systematic value of a stage: at the table entry's byte
        // offset.
        auto interleaved = [&](std::uint32_t entry) {
            return *reinterpret_cast<const staged_t*>(
                reinterpret_cast<const char*>(staged) + (entry & 0xffffu));
        };
        const stage_layout layout{ P };
        using pair_t = stage_pair<stage_t>;
        pair_t* first = reinterpret_cast<pair_t*>(
            static_cast<stage_t*>(b.trellis) + (std::size_t)group * 2 * layout.stride(w));
        pair_t* second = first + layout.stride(w) / 2;
        // Pair p, in the layout's order: stages j = 2 row and j + 1 of sub-block q, whose
        // shared slots are own = k + q and own + 1 (k = q w + j), and whose table entries
        // lie in one 8-byte word. The stage past w of an odd w's last row: zeros (its
        // entry, the table's padding, reads slot 0).
        for (int p = threadIdx.x; p < layout.tail(w) / 2; p += blockDim.x) {
            const int row = P == 1 ? p : int(__umulhi(unsigned(p), p_magic));
            const int q = p - row * P, j = 2 * row;
            const int own = q * (w + 1) + j;
            const uint2 entries = __ldg(reinterpret_cast<const uint2*>(b.interleaved) +
                                        layout.entry(j, q) / 2);
            pair_t one{ stage_t{ word(0, own), word(1, own) },
                        stage_t{ word(0, own + 1), word(1, own + 1) } };
            pair_t two{ stage_t{ interleaved(entries.x), word(2, own) },
                        stage_t{ interleaved(entries.y), word(2, own + 1) } };
            if (j + 1 == w)
                one.second = two.second = stage_t{};
            first[p] = one;
            second[p] = two;
        }
        if (threadIdx.x < 3) {
            const int j = threadIdx.x;
            auto tail = [&](int encoder) {
                const tail_place x = tail_position(encoder, j, false);
                const tail_place z = tail_position(encoder, j, true);
                const int xk = K + x.offset, zk = K + z.offset;
                return stage_t{ word(x.stream, xk + div_w(xk, c)),
                                word(z.stream, zk + div_w(zk, c)) };
            };
            reinterpret_cast<stage_t*>(first)[layout.tail(w) + j] = tail(0);
            reinterpret_cast<stage_t*>(second)[layout.tail(w) + j] = tail(1);
        }
        __syncthreads(); // before the next group overwrites the staged values
    }
}

// Calls step(i, r, normalise) for the steps i + r = 0 ... n - 1 (i: the first step of a
// run, r: a compile-time offset in it) in unrolled runs of Longest steps, then
// of Longest / 2, / 4, ... 1 for the rest: each run issues the loads of its steps
// together and waits for them once, where a loop of single steps waits at every step
// (with runs of 8, a training window of g = 8 waits once, g = 10 or 12 twice). int16
// metrics need normalising only every 4th step and at the end of a run: then no metric
// is used more than 3 steps after a normalisation (fixed_point.h), whatever n.
template <int Run, class Step>
__device__ __forceinline__ void run(int i, Step& step)
{
#pragma unroll
    for (int r = 0; r < Run; ++r)
        step(i, r, r % 4 == 3 || r == Run - 1);
}
template <int Run, class Step>
__device__ __forceinline__ void in_shorter_runs(int& i, int n, Step& step)
{
    if (i + Run <= n) {
        run<Run>(i, step);
        i += Run;
    }
    if constexpr (Run > 1)
        in_shorter_runs<Run / 2>(i, n, step);
}
template <int Longest, class Step>
__device__ __forceinline__ void in_runs(int n, Step step)
{
    int i = 0;
#pragma unroll 1
    for (; i + Longest <= n; i += Longest)
        run<Longest>(i, step);
    if constexpr (Longest > 1)
        in_shorter_runs<Longest / 2>(i, n, step);
}

// A thread's 8 state metrics, which lie together, as two 16-byte accesses (the second
// first if swap).
template <class M>
__device__ __forceinline__ void store_states(M* to, const M* v, int swap = 0)
{
    uint4* at = reinterpret_cast<uint4*>(to);
#pragma unroll
    for (int q = 0; q < 2; ++q)
        at[q ^ swap] = make_uint4(to_bits(v[4 * q]),
                                  to_bits(v[4 * q + 1]),
                                  to_bits(v[4 * q + 2]),
                                  to_bits(v[4 * q + 3]));
}
template <class M>
__device__ __forceinline__ void load_states(const M* from, M* v, int swap = 0)
{
    const uint4* at = reinterpret_cast<const uint4*>(from);
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        const uint4 u = at[q ^ swap];
        v[4 * q] = from_bits<M>(u.x);
        v[4 * q + 1] = from_bits<M>(u.y);
        v[4 * q + 2] = from_bits<M>(u.z);
        v[4 * q + 3] = from_bits<M>(u.w);
    }
}

// What decoder 2 learns about the a-posteriori LLRs of one lane over its thread's stages.
struct app_stats
{
    float sum = 0.0f;
    float least = 3.4e38f;
    unsigned crc = 0;
};

// Where a group's decisions go: the hard bits of each lane, and its statistics; with
// soft output wanted, each open lane's a-posteriori LLRs.
struct decisions
{
    bool wanted;    // this half-iteration's output is looked at (else skip the work)
    unsigned* hard; // [lanes][words]
    int words;
    const unsigned* __restrict__ crc_contribution;
    float* soft;   // [lanes][K]: the group's codewords' soft output, or nullptr
    int K;         // of soft's rows
    unsigned open; // bit lane: the lane's codeword is not yet taken
};

// One constituent decoder's pass over the thread's sub-block (a half-iteration), in
// four steps: where alpha starts, the forward recursion, where beta starts, and the
// backward recursion with the extrinsic output. The group's one extrinsic array holds the
// other decoder's output: D = 0 (natural order) reads it at k, D = 1 (interleaved order)
// through pi, and both overwrite what they read with their own scaled extrinsic; D = 1
// also sets the hard decisions when they are wanted. Full: w is a multiple of the
// segment, so that the unrolled stage loops have no partial segment to test for (a
// kernel of its own: the registers of the partial segments' path do not weigh on it).
template <class M, bool Exact, int D, bool Full>
struct constituent_pass
{
    using L = lanes<M>;
    using stage_t = typename L::stage_t;

    const kernel_config& c;
    const stage_t* __restrict__ trellis;
    const unsigned* __restrict__ interleaved; // D = 1: pi(k) << 16 | 4 slot(pi(k))
    M* extrinsic_llrs;
    M* checkpoints;
    const M* prev_edges; // [2][P][S]: alpha, beta
    M* next_edges;
    const M* tail_beta; // beta at stage K, from the tail: the last sub-block's start
    const int p;
    const bool stores, trains;
    const bool first_iteration;
    const int edge_offset; // of the stored edge metric from the sub-block edge
    static constexpr int training_run = policy::training_run(Exact);
    static constexpr int segment_stages = policy::segment_stages(Exact);
    static constexpr bool edge_copy = policy::edge_copy(Exact);

    __device__ constituent_pass(const kernel_config& c,
                                const stage_t* __restrict__ trellis,
                                const unsigned* __restrict__ interleaved,
                                M* extrinsic_llrs,
                                M* checkpoints,
                                const M* prev_edges,
                                M* next_edges,
                                const M* tail_beta,
                                int p,
                                bool first_iteration)
        : c(c),
          trellis(trellis),
          interleaved(interleaved),
          extrinsic_llrs(extrinsic_llrs),
          checkpoints(checkpoints),
          prev_edges(prev_edges),
          next_edges(next_edges),
          tail_beta(tail_beta),
          p(p),
          stores(c.guarding == int(guard::pivi) || c.guarding == int(guard::pividstw)),
          trains(c.guarding == int(guard::dstw) || c.guarding == int(guard::pividstw)),
          first_iteration(first_iteration),
          edge_offset(c.guarding == int(guard::pividstw) ? c.g : 0)
    {
    }

    // What stage j of sub-block q (stage k = q w + j) reads from global memory: its
    // trellis values and, for D = 1, its entry in the table of interleaved stages (at
    // their places in stage_layout). The recursions fetch these for a whole segment
    // while the segment before runs, so that their latency is hidden behind it.
    struct fetched
    {
        stage_t in;
        unsigned at; // D = 1: pi(k) << 16 | 4 slot(pi(k))
    };
    // The stages [first, first + segment_stages) of the thread's sub-block that exist.
    __device__ __forceinline__ int stages_from(int first) const
    {
        return Full ? segment_stages : min(segment_stages, c.w - first);
    }
    // A segment (first: a multiple of 4) in vector loads: pairs of stages, quads of
    // entries (the rows' padding where the sub-block ends within one).
    __device__ __forceinline__ void fetch_segment(int first, fetched* f) const
    {
        const int count = stages_from(first);
        const stage_layout layout{ c.P };
        const auto* pairs = reinterpret_cast<const stage_pair<stage_t>*>(trellis);
#pragma unroll
        for (int j = 0; j < segment_stages; j += 2) {
            if (j < count) {
                const stage_pair<stage_t> two = pairs[layout.pair(first + j, p)];
                f[j].in = two.first;
                f[j + 1].in = two.second;
            }
        }
        if constexpr (D == 1) {
            const uint4* quads = reinterpret_cast<const uint4*>(interleaved);
#pragma unroll
            for (int j = 0; j < segment_stages; j += 4) {
                if (j < count) {
                    const uint4 four = quads[layout.quad(first + j, p)];
                    f[j].at = four.x;
                    f[j + 1].at = four.y;
                    f[j + 2].at = four.z;
                    f[j + 3].at = four.w;
                }
            }
        }
    }

    // Where stage j of sub-block q finds its extrinsic value: its shared-memory slot,
    // as a byte offset (the table holds it so, for no shift before the access), and the
    // natural position it decides (D = 0: k, at slot k + q; D = 1: pi(k) and its slot,
    // from the table). No division: the recursions know the sub-block of every stage
    // they take (their own, or a training window's neighbour).
    struct place
    {
        unsigned offset;
        int position;
    };
    __device__ __forceinline__ place place_of(const fetched& f, int j, int q) const
    {
        if constexpr (D == 0) {
            const int k = q * c.w + j;
            return { unsigned(k + q) * unsigned(slot_bytes), k };
        }
        return { f.at & 0xffffu, int(f.at >> 16) };
    }
    __device__ __forceinline__ M& extrinsic_at(const place& at) const
    {
        static_assert(sizeof(M) == slot_bytes, "the table's offsets count slot_bytes");
        return *reinterpret_cast<M*>(reinterpret_cast<char*>(extrinsic_llrs) + at.offset);
    }
    // Branch metric halves of a fetched stage at its place.
    __device__ __forceinline__ void
    stage_halves(const fetched& f, const place& at, M& a, M& b) const
    {
        L::halves(f.in, extrinsic_at(at), a, b);
    }
    // ... of stage from + d r of sub-block q, fetched now (step r of a training
    // window's run from stage from).
    __device__ __forceinline__ void
    window_stage(int from, int r, int d, int q, M& a, M& b) const
    {
        const stage_layout layout{ c.P };
        const fetched f{ trellis[layout.along<2>(from, r, d, q)],
                         D == 1 ? interleaved[layout.along<4>(from, r, d, q)] : 0u };
        stage_halves(f, place_of(f, from + d * r, q), a, b);
    }

    // The checkpoint of alpha at the start of half segment h of the sub-block, in the
    // order that alternates every 4 threads, so that the 8 threads a quarter warp serves
    // at once hit 8 different groups of 4 banks.
    __device__ __forceinline__ void store_checkpoint(int h, const M* alpha) const
    {
        store_states(checkpoints + (h * c.P + p) * S, alpha, (p >> 2) & 1);
    }
    __device__ __forceinline__ void load_checkpoint(int h, M* alpha) const
    {
        load_states(checkpoints + (h * c.P + p) * S, alpha, (p >> 2) & 1);
    }

    // Alpha at the sub-block's start and beta at its end: exact for the first (alpha)
    // and last (beta, tail_beta) sub-block, else the metrics of the previous
    // iteration or equiprobable, then trained, alpha over the g stages before the
    // sub-block, beta over the g after it. The two windows run step by step together:
    // two independent chains whose loads are issued together. The first and last
    // sub-blocks train too, on their own stages, so that their warps do not diverge,
    // and then take their exact start.
    __device__ __forceinline__ void start(M* alpha, M* beta) const
    {
        const int P = c.P, w = c.w, g = c.g;
        // Stored edges exist from the second iteration on, and none for the first
        // sub-block's alpha or the last one's beta (exact starts, below).
        set_equiprobable(alpha);
        set_equiprobable(beta);
        if (stores && !first_iteration) {
            if (p > 0)
                load_states(prev_edges + p * S, alpha);
            if (p + 1 < P)
                load_states(prev_edges + (P + p) * S, beta);
            if (L::lazy) {
                normalise(alpha);
                normalise(beta);
            }
        }
        if (trains && P > 1) {
            const int before = max(p - 1, 0), after = min(p + 1, P - 1);
            in_runs<training_run>(g, [&](int i, int r, bool normalise) {
                M a, b;
                window_stage(w - g + i, r, 1, before, a, b); // the last g of p-1
                M t[S];
                forward_step<Exact>(
                    alpha, t, L::template metrics<Exact>(a, b), normalise || !L::lazy);
#pragma unroll
                for (int q = 0; q < S; ++q)
                    alpha[q] = t[q];
                window_stage(g - 1 - i, r, -1, after, a, b); // the first g of p+1
                backward_step<Exact>(
                    beta, L::template metrics<Exact>(a, b), normalise || !L::lazy);
            });
        }
        if (p == 0)
            set_known_start(alpha);
        if (p == P - 1)
            load_states(tail_beta, beta);
    }

    // The forward recursion over the sub-block, by segments, whose stages' global data
    // come fetched (ahead: the first segment's on entry) and are fetched a segment ahead
    // (on return, ahead holds the last segment's, the backward pass's first). Alpha is
    // kept every half segment (checkpoints), and the alpha the next sub-block starts
    // from is stored for the next iteration.
    __device__ __forceinline__ void forward(M* alpha, fetched* ahead) const
    {
        const int P = c.P, w = c.w;
        const int edge_stage = w - edge_offset; // alpha that sub-block p+1 starts from
        const bool successor = p + 1 < P;
        for (int first = 0; first < w; first += segment_stages) {
            const int count = stages_from(first);
            M seg_a[segment_stages], seg_b[segment_stages];
#pragma unroll
            for (int j = 0; j < segment_stages; ++j) {
                if (j < count)
                    stage_halves(
                        ahead[j], place_of(ahead[j], first + j, p), seg_a[j], seg_b[j]);
            }
            if (first + segment_stages < w)
                fetch_segment(first + segment_stages, ahead);
            // has_edge: true, false (a copy each) or a run-time value.
            auto run_segment = [&](auto has_edge) {
#pragma unroll
                for (int j = 0; j < segment_stages; ++j) {
                    if (j < count) {
                        if (j % half_segment == 0)
                            store_checkpoint((first + j) / half_segment, alpha);
                        if (bool(has_edge) && first + j == edge_stage &&
                            (!edge_copy || successor))
                            store_states(next_edges + (p + 1) * S, alpha);
                        M t[S];
                        forward_step<Exact>(
                            alpha,
                            t,
                            L::template metrics<Exact>(seg_a[j], seg_b[j]),
                            normalises<L>(j));
#pragma unroll
                        for (int q = 0; q < S; ++q)
                            alpha[q] = t[q];
                    }
                }
            };
            // Which copy runs is the same for every thread (the last sub-block, which has
            // no successor, only skips the store): a warp that diverged here would run
            // both copies.
            const bool edge_here = stores && edge_offset > 0 && edge_stage >= first &&
                                   edge_stage < first + count;
            if constexpr (!edge_copy)
                run_segment(edge_here && successor);
            else if (edge_here)
                run_segment(std::true_type{});
            else
                run_segment(std::false_type{});
        }
        if (stores && p + 1 < P && edge_offset == 0)
            store_states(next_edges + (p + 1) * S, alpha);
    }

    // The backward recursion with the extrinsic output, one segment at a time (ahead:
    // the last segment's global data on entry, each segment's fetched while the one after
    // it runs), each half segment recomputing its 4 alphas from its checkpoint; D = 1
    // also decides the bits. The beta that sub-block p-1 starts from is stored for the
    // next iteration.
    __device__ __forceinline__ void backward(
        M* alpha, M* beta, fetched* ahead, const decisions& out, app_stats* stats) const
    {
        const int P = c.P, w = c.w;
        // beta at stage edge_offset of the sub-block is where sub-block p-1 starts from
        M* beta_out = next_edges + S * P;
        if (stores && p > 0 && edge_offset == w)
            store_states(beta_out + (p - 1) * S, beta);
        const bool decide = D == 1 && out.wanted;
        constexpr int halves = segment_stages / half_segment;
        for (int m = (w + segment_stages - 1) / segment_stages - 1; m >= 0; --m) {
            const int first = m * segment_stages;
            const int count = stages_from(first);
            M half_a[segment_stages], half_b[segment_stages];
            place places[segment_stages]; // kept for the extrinsic stores and decisions
#pragma unroll
            for (int j = segment_stages - 1; j >= 0; --j) {
                if (j < count) {
                    places[j] = place_of(ahead[j], first + j, p);
                    stage_halves(ahead[j], places[j], half_a[j], half_b[j]);
                }
            }
            if (m > 0)
                fetch_segment(first - segment_stages, ahead);
                // Halves of 4 stages, the upper one first; each recomputes its alphas
                // from its checkpoint.
#pragma unroll
            for (int upper = halves - 1; upper >= 0; --upper) {
                const int lo = upper * half_segment;
                const int n = Full ? half_segment : min(half_segment, count - lo);
                if (n <= 0)
                    continue;
                load_checkpoint(halves * m + upper, alpha);
                M seg_alpha[half_segment][S];
#pragma unroll
                for (int j = 0; j < half_segment; ++j) {
                    if (j < n) {
#pragma unroll
                        for (int s = 0; s < S; ++s)
                            seg_alpha[j][s] = alpha[s];
                        if (j + 1 == n)
                            break; // the last stored alpha needs no successor
                        M t[S];
                        forward_step<Exact>(
                            alpha,
                            t,
                            L::template metrics<Exact>(half_a[lo + j], half_b[lo + j]),
                            normalises<L>(lo + j));
#pragma unroll
                        for (int s = 0; s < S; ++s)
                            alpha[s] = t[s];
                    }
                }
                // has_edge: true, false (a copy each) or a run-time value.
                auto run_half = [&](auto has_edge) {
#pragma unroll
                    for (int j = half_segment - 1; j >= 0; --j) {
                        if (j < n) {
                            const place& at = places[lo + j];
                            const auto bm = L::template metrics<Exact>(half_a[lo + j],
                                                                       half_b[lo + j]);
                            const M e = extrinsic<Exact>(seg_alpha[j], beta, bm);
                            extrinsic_at(at) = L::template feedback<Exact>(e, c);
                            if (decide)
                                record_decision(
                                    L::app(half_a[lo + j], e), at.position, out, stats);
                            backward_step<Exact>(beta, bm, normalises<L>(j));
                            if (bool(has_edge) && first + lo + j == edge_offset &&
                                (!edge_copy || p > 0))
                                store_states(beta_out + (p - 1) * S, beta);
                        }
                    }
                };
                // The same for every thread (see forward).
                const bool edge_here =
                    stores && edge_offset >= first + lo && edge_offset < first + lo + n;
                if constexpr (!edge_copy)
                    run_half(edge_here && p > 0);
                else if (edge_here)
                    run_half(std::true_type{});
                else
                    run_half(std::false_type{});
            }
        }
    }

    // The hard decision and statistics of each lane's a-posteriori LLR at position.
    __device__ __forceinline__ static void
    record_decision(const M& app, int position, const decisions& out, app_stats* stats)
    {
#pragma unroll
        for (int lane = 0; lane < L::count; ++lane) {
            const float v = L::lane_app(app, lane);
            if (out.soft && (out.open >> lane & 1))
                out.soft[lane * out.K + position] = v;
            stats[lane].sum += fabsf(v);
            stats[lane].least = fminf(stats[lane].least, fabsf(v));
            if (v < 0.0f) {
                atomicOr(&out.hard[lane * out.words + (position >> 5)],
                         1u << (position & 31));
                if (out.crc_contribution)
                    stats[lane].crc ^= out.crc_contribution[position];
            }
        }
    }
};

// One half-iteration, called by every thread of the block: inactive ones only meet the
// barrier between the recursions.
template <class M, bool Exact, int D, bool Full>
__device__ void half_iteration(bool active,
                               const kernel_config& c,
                               const typename lanes<M>::stage_t* __restrict__ trellis,
                               const unsigned* __restrict__ interleaved,
                               M* extrinsic_llrs,
                               M* checkpoints,
                               const M* prev_edges, // [2][P][S]: alpha, beta
                               M* next_edges,
                               const M* tail_beta,
                               int p,
                               bool first_iteration,
                               const decisions& out,
                               app_stats* stats)
{
    const constituent_pass<M, Exact, D, Full> pass(c,
                                                   trellis,
                                                   interleaved,
                                                   extrinsic_llrs,
                                                   checkpoints,
                                                   prev_edges,
                                                   next_edges,
                                                   tail_beta,
                                                   p,
                                                   first_iteration);
    M alpha[S], beta[S];
    typename constituent_pass<M, Exact, D, Full>::fetched ahead[pass.segment_stages];
    if (active) {
        pass.fetch_segment(0, ahead); // in flight during the training windows
        pass.start(alpha, beta);
        pass.forward(alpha, ahead);
    }
    // Every read of another sub-block's stages is done: from here on each position is
    // read and written by its own thread alone, so the output may replace the input.
    __syncthreads();
    if (!active)
        return;
    pass.backward(alpha, beta, ahead, out, stats);
}

// One group's work in the decoding kernel, in named steps: its L::count codewords (one
// a lane) decoded by P threads, one per sub-block (p), the group `local` of the block.
template <class M, bool Exact, bool Full>
struct group_decoder
{
    using L = lanes<M>;
    using stage_t = typename L::stage_t;

    const kernel_config& c;
    const device_buffers& b;
    const int n;
    const int P, K;
    const int local, p;
    const int group, groups;
    const bool real; // a group of the batch: else the thread only meets the barriers
    const shared_plan plan;
    // The group's shared memory (shared_plan).
    float* const mine;
    M* const ext;
    M* const checkpoints;
    M* const tail_betas; // [D][S]
    unsigned* const hard;
    unsigned* const previous_hard;
    float* const sums; // [lanes][P]
    float* const mins;
    unsigned* const crcs;
    const int words;
    const stage_layout layout;
    const int stride; // of one decoder's trellis values
    const stage_t* const trellis;
    M* const edges;
    const unsigned* const crc; // the CRC stop rule's contributions, or none

    __device__ __forceinline__
    group_decoder(const kernel_config& c, const device_buffers& b, int n, float* shared)
        : c(c),
          b(b),
          n(n),
          P(c.P),
          K(c.K),
          local(threadIdx.x / P),
          p(threadIdx.x % P),
          group(blockIdx.x * c.per_block + local),
          groups((n + L::count - 1) / L::count),
          real(local < c.per_block && group < groups),
          plan(K, P, L::count),
          mine(shared + (real ? local : 0) * plan.total),
          ext(reinterpret_cast<M*>(mine + plan.ext)),
          checkpoints(reinterpret_cast<M*>(mine + plan.checkpoints)),
          tail_betas(reinterpret_cast<M*>(mine + plan.tail_betas)),
          hard(reinterpret_cast<unsigned*>(mine + plan.hard)),
          previous_hard(reinterpret_cast<unsigned*>(mine + plan.previous_hard)),
          sums(mine + plan.sums),
          mins(mine + plan.mins),
          crcs(reinterpret_cast<unsigned*>(mine + plan.crcs)),
          words(words_per_codeword(K)),
          layout{ P },
          stride(layout.stride(c.w)),
          trellis(static_cast<const stage_t*>(b.trellis) +
                  (std::size_t)(real ? group : 0) * 2 * stride),
          edges(reinterpret_cast<M*>(b.edges) +
                (std::size_t)(real ? group : 0) * 2 * 2 * 2 * S * P),
          crc((c.stop == int(stop_rule::crc24a) || c.stop == int(stop_rule::crc24b))
                  ? b.crc_contribution
                  : nullptr)
    {
    }

    // The first a-priori input (zeros), no previous decisions, and beta at stage K of
    // each decoder's trellis, from its known end through the three tail stages (no
    // a-priori input): the same in every iteration.
    __device__ __forceinline__ void start() const
    {
        if (!real)
            return;
        for (int k = p; k < K + P; k += P)
            ext[k] = M{};
        for (int i = p; i < L::count * words; i += P)
            previous_hard[i] = 0;
        if (p == P - 1)
            for (int d = 0; d < 2; ++d) {
                const stage_t* tail = trellis + d * stride + layout.tail(c.w);
                M beta[S];
                set_known_start(beta);
                for (int j = 2; j >= 0; --j) {
                    M a, b;
                    L::halves(tail[j], M{}, a, b);
                    backward_step<Exact>(beta, L::template metrics<Exact>(a, b));
                }
                store_states(tail_betas + d * S, beta);
            }
    }

    // Whether each lane has nothing to decide (a lane past n, odd n), and all of them.
    __device__ __forceinline__ bool idle_lanes(bool (&lane_done)[L::count]) const
    {
        bool done = true;
        for (int lane = 0; lane < L::count; ++lane) {
            lane_done[lane] = !real || group * L::count + lane >= n;
            done = done && lane_done[lane];
        }
        return done;
    }

    // Where iteration it's decisions go: looked at when a stop rule runs, or in the last;
    // the soft output of the lanes not yet taken.
    __device__ __forceinline__ decisions
    decisions_of(bool last, const bool (&lane_done)[L::count]) const
    {
        unsigned open = 0;
        for (int lane = 0; lane < L::count; ++lane)
            open |= unsigned(!lane_done[lane]) << lane;
        float* soft =
            b.soft && real ? b.soft + std::size_t(group) * L::count * K : nullptr;
        return { c.stop != int(stop_rule::off) || last, hard, words, crc, soft, K, open };
    }

    // No bit decided yet in this iteration.
    __device__ __forceinline__ void clear_decisions(const decisions& out) const
    {
        if (out.wanted)
            for (int i = p; i < L::count * words; i += P)
                hard[i] = 0;
    }

    // Decoder D's half-iteration of iteration it: its edge metrics from the previous
    // iteration's buffer to the next's.
    template <int D>
    __device__ __forceinline__ void
    decoder_pass(bool active, int it, const decisions& out, app_stats* stats) const
    {
        const int prev = it & 1, next = (it + 1) & 1;
        auto edge = [&](int buffer) { return edges + ((D * 2 + buffer) * 2) * S * P; };
        half_iteration<M, Exact, D, Full>(active,
                                          c,
                                          trellis + D * stride,
                                          b.interleaved,
                                          ext,
                                          checkpoints,
                                          edge(prev),
                                          edge(next),
                                          tail_betas + D * S,
                                          p,
                                          it == 1,
                                          out,
                                          stats);
    }

    // The thread's statistics of each lane to shared memory, for the vote.
    __device__ __forceinline__ void store_statistics(const decisions& out,
                                                     const app_stats* stats) const
    {
        if (out.wanted)
            for (int lane = 0; lane < L::count; ++lane) {
                sums[lane * P + p] = stats[lane].sum;
                mins[lane * P + p] = stats[lane].least;
                crcs[lane * P + p] = stats[lane].crc;
            }
    }

    // Whether lane's codeword meets the stop rule after iteration it (the hard rule
    // keeps this iteration's bits for the next).
    __device__ __forceinline__ bool stop_rule_holds(int lane, int it) const
    {
        const unsigned* lane_hard = hard + lane * words;
        unsigned* lane_previous = previous_hard + lane * words;
        bool ok = true;
        if (c.stop == int(stop_rule::mean_llr)) {
            double total = 0.0;
            for (int q = 0; q < P; ++q)
                total += sums[lane * P + q];
            ok = total / K >= c.threshold;
        } else if (c.stop == int(stop_rule::min_llr)) {
            float least = mins[lane * P];
            for (int q = 1; q < P; ++q)
                least = fminf(least, mins[lane * P + q]);
            ok = least >= c.threshold;
        } else if (crc) {
            unsigned r = 0;
            for (int q = 0; q < P; ++q)
                r ^= crcs[lane * P + q];
            ok = r == 0;
        } else if (c.stop == int(stop_rule::hard)) {
            bool same = it > 1;
            for (int i = 0; i < words; ++i) {
                same = same && lane_hard[i] == lane_previous[i];
                lane_previous[i] = lane_hard[i];
            }
            ok = same;
        }
        return ok;
    }

    // Whether lane's codeword carries information: no information (erased or near-zero
    // input) is never passed. Four partial sums keep the one thread's adds from waiting
    // on each other.
    __device__ __forceinline__ bool informed(int lane) const
    {
        float part[4] = {};
        for (int q = 0; q < P; ++q)
            part[q & 3] += sums[lane * P + q];
        return (part[0] + part[1]) + (part[2] + part[3]) >= c.information_floor * K;
    }

    // The vote of thread p = 0 after iteration it: each undecided lane's codeword is
    // taken once its stop rule holds (and it is informed), or in the last iteration;
    // its iterations and status go out.
    __device__ __forceinline__ void early_stop_vote(int it,
                                                    bool last,
                                                    const bool (&lane_done)[L::count],
                                                    unsigned char (&taken)[2]) const
    {
        for (int lane = 0; lane < L::count; ++lane) {
            bool take = false;
            if (!lane_done[lane]) {
                // A codeword that failed its rule needs no sum.
                const bool ok = stop_rule_holds(lane, it) && informed(lane);
                take = ok || last;
                if (take) {
                    const int cw = group * L::count + lane;
                    b.iterations[cw] = it;
                    b.passed[cw] = ok;
                }
            }
            taken[lane] = take;
        }
    }

    // The hard decisions of lane's codeword to the output, P threads along it.
    __device__ __forceinline__ void write_bits(int lane) const
    {
        const unsigned* lane_hard = hard + lane * words;
        const std::size_t cw = group * L::count + lane;
        // Bits 8j ... 8j + 7 (K is a multiple of 8) in the low byte, the first the
        // lowest: hard holds bit i at bit i % 32 of word i / 32.
        auto byte_of = [&](int j) { return lane_hard[j >> 2] >> (8 * (j & 3)); };
        if (b.packed_bits) {
            // Byte j, the first bit in the highest.
            std::uint8_t* bytes = b.bits + cw * (K / 8);
            for (int j = p; j < K / 8; j += P)
                bytes[j] = std::uint8_t(__brev(byte_of(j) & 0xffu) >> 24);
        } else {
            // Eight bits a store, one byte each (the buffer is 8-byte aligned and K a
            // multiple of 8, so every codeword's bytes are too): the 4 bits of a nibble x
            // land at bits 0, 8, 16, 24 of x * 0x00204081.
            uint2* bytes8 = reinterpret_cast<uint2*>(b.bits + cw * K);
            auto spread = [](unsigned x) { return x * 0x00204081u & 0x01010101u; };
#pragma unroll 1
            for (int j = p; j < K / 8; j += P) {
                const unsigned byte = byte_of(j);
                bytes8[j] = make_uint2(spread(byte & 0xfu), spread(byte >> 4 & 0xfu));
            }
        }
    }

    // The taken lanes' bits out, each lane then done: whether all are.
    __device__ __forceinline__ bool write_taken(bool (&lane_done)[L::count],
                                                const unsigned char (&taken)[2]) const
    {
        bool done = true;
        for (int lane = 0; lane < L::count; ++lane) {
            if (taken[lane]) {
                write_bits(lane);
                lane_done[lane] = true;
            }
            done = done && lane_done[lane];
        }
        return done;
    }
};

// Decodes groups of L::count codewords, each group by P threads (one per sub-block),
// per_block groups side by side in a block (group_decoder). A group runs until each of
// its codewords has been decided (its stop rule held, or the last iteration): a decided
// codeword's output is taken at once and its lane then only keeps its neighbour company.
template <class M, bool Exact, bool Full>
__global__ void __launch_bounds__(policy::max_threads, policy::min_blocks)
    decode_kernel(kernel_config c, device_buffers b, int n)
{
    using L = lanes<M>;
    extern __shared__ __align__(16) float shared[];
    const group_decoder<M, Exact, Full> group(c, b, n, shared);
    group.start();
    // Each thread cleared entries that its neighbours read: all of it must be done first.
    __syncthreads();
    // Per group and lane: 1 once the codeword's output is taken.
    __shared__ unsigned char taken[policy::max_threads][2];
    bool lane_done[L::count];
    bool done = group.idle_lanes(lane_done);
    for (int it = 1; it <= c.iterations; ++it) {
        const bool last = it == c.iterations;
        const decisions out = group.decisions_of(last, lane_done);
        app_stats stats[L::count];
        if (!done)
            group.clear_decisions(out);
        group.template decoder_pass<0>(!done, it, out, stats);
        __syncthreads();
        group.template decoder_pass<1>(!done, it, out, stats);
        if (!done)
            group.store_statistics(out, stats);
        __syncthreads();
        if (!out.wanted)
            continue; // nothing decided this iteration: no stop test, no output
        if (!done && group.p == 0)
            group.early_stop_vote(it, last, lane_done, taken[group.local]);
        __syncthreads();
        if (!done)
            done = group.write_taken(lane_done, taken[group.local]);
        if (__syncthreads_and(done))
            break;
    }
}

// The kernels of one configuration: metric type and algorithm, and for decoding
// whether the sub-blocks are whole segments (each decoding kernel gets the registers
// of its own path).
struct kernels
{
    const void* prepare_float;
    const void* prepare_int8;
    const void* decode_full;
    const void* decode_partial;
    const void* decode(const kernel_config& c) const
    {
        return c.w % segment == 0 ? decode_full : decode_partial;
    }
};

template <class M, bool Exact>
kernels kernels_of()
{
    return { (const void*)prepare_kernel<float, M>,
             (const void*)prepare_kernel<std::int8_t, M>,
             (const void*)decode_kernel<M, Exact, true>,
             (const void*)decode_kernel<M, Exact, false> };
}

kernels select(const kernel_config& c)
{
    if (c.lanes == 2)
        return c.exact ? kernels_of<s16x2, true>() : kernels_of<s16x2, false>();
    return c.exact ? kernels_of<float, true>() : kernels_of<float, false>();
}

std::size_t prepare_shared_bytes(const kernel_config& c)
{
    // A word a stream and stage: the float, or both lanes' int16.
    return std::size_t(3) * prepare_slots(c.K, c.w) * slot_bytes;
}

} // namespace

int lanes_for(arithmetic a) { return a == arithmetic::float32 ? 1 : 2; }

kernel_config make_kernel_config(
    const decoder_config& d, int K, int P, int lanes, int per_block, bool int8)
{
    const float units = lanes == 2 ? fixed_point::input_units : 1.0f;
    kernel_config k{};
    k.K = K;
    k.P = P;
    k.w = K / P;
    k.g = d.guard_window;
    k.guarding = int(d.guarding);
    k.iterations = d.iterations;
    k.stop = int(d.early_stop);
    k.scale = d.algo == algorithm::scaled_max_log ? d.scaling : 1.0f;
    k.exact = d.algo == algorithm::log_map;
    k.invert = d.invert_llr;
    k.streams = d.input_layout == layout::streams;
    k.int8 = int8;
    k.lanes = lanes;
    // The int8 value q means q / int8_scale.
    k.input_scale = int8 ? units / d.int8_scale : units;
    k.scale_q15 = int(k.scale * 32768.0f + 0.5f);
    k.threshold = d.stop_threshold * (lanes == 2 ? fixed_point::app_units : 1.0f);
    k.information_floor =
        core::information_floor * (lanes == 2 ? fixed_point::app_units : 1.0f);
    k.w_magic = unsigned(((std::uint64_t(1) << 32) + k.w - 1) / k.w);
    k.per_block = per_block;
    k.shared_bytes = per_block * shared_bytes_per_group(K, P, lanes);
    return k;
}

namespace {
// The workspace: the trellis inputs, then the edge metrics.
std::size_t trellis_bytes(const kernel_config& c, std::size_t n)
{
    const std::size_t groups = (n + c.lanes - 1) / c.lanes;
    return groups * 2 * stage_layout{ c.P }.stride(c.w) * 8;
}
} // namespace

std::size_t workspace_bytes(const kernel_config& c, std::size_t n)
{
    const std::size_t groups = (n + c.lanes - 1) / c.lanes;
    return trellis_bytes(c, n) + groups * 8 * S * c.P * sizeof(float);
}

device_buffers buffers_of(const kernel_config& c,
                          std::size_t n,
                          const core::cuda::batch_buffers& b,
                          const std::uint32_t* crc_contribution,
                          const std::uint32_t* interleaved)
{
    device_buffers d{};
    d.raw = b.llrs;
    d.trellis = b.workspace;
    d.edges = reinterpret_cast<float*>(b.workspace + trellis_bytes(c, n));
    d.bits = b.bits;
    d.packed_bits = b.packed_bits;
    d.soft = b.soft;
    d.soft_kind = b.soft_kind;
    d.iterations = b.iterations;
    d.passed = b.passed;
    d.crc_contribution = crc_contribution;
    d.interleaved = interleaved;
    return d;
}

std::vector<std::uint32_t> interleaved_stages(int K, int P)
{
    const std::vector<std::uint32_t>& pi = cached_interleaver(K);
    const int w = K / P;
    const stage_layout layout{ P };
    std::vector<std::uint32_t> table(layout.entries(w)); // the rows' padding: zeros
    // Stage k = q w + j: pi(k) and the byte offset of its slot, pi(k) + pi(k) / w, among
    // the kernel's 4-byte extrinsic values (below 2^16: K + P < 2^14).
    for (int q = 0; q < P; ++q)
        for (int j = 0; j < w; ++j) {
            const std::uint32_t at = pi[q * w + j];
            table[layout.entry(j, q)] = at << 16 | (at + at / w) * slot_bytes;
        }
    return table;
}

std::size_t shared_bytes_per_group(int K, int P, int lanes)
{
    return std::size_t(shared_plan(K, P, lanes).total) * sizeof(float);
}

std::size_t static_shared_bytes()
{
    std::size_t most = 0;
    for (const kernels& k : { kernels_of<float, true>(),
                              kernels_of<float, false>(),
                              kernels_of<s16x2, true>(),
                              kernels_of<s16x2, false>() })
        for (const void* f : { k.decode_full, k.decode_partial }) {
            cudaFuncAttributes a{};
            GPUTURBO_CUDA_TRY(cudaFuncGetAttributes(&a, f));
            most = std::max(most, a.sharedSizeBytes);
        }
    return most;
}

void launch_prepare(const kernel_config& c,
                    const device_buffers& b,
                    int n,
                    cudaStream_t s)
{
    if (n <= 0)
        return;
    const kernels k = select(c);
    const int groups = (n + c.lanes - 1) / c.lanes;
    void* args[] = { const_cast<kernel_config*>(&c),
                     const_cast<device_buffers*>(&b),
                     &n };
    GPUTURBO_CUDA_TRY(cudaLaunchKernel(c.int8 ? k.prepare_int8 : k.prepare_float,
                                       dim3(std::min(groups, 65535)),
                                       dim3(prepare_threads(c.K)),
                                       args,
                                       prepare_shared_bytes(c),
                                       s));
}

void configure_kernels(int lanes, bool exact, std::size_t bytes)
{
    kernel_config c{};
    c.lanes = lanes;
    c.exact = exact;
    const kernels k = select(c);
    for (const void* f :
         { k.prepare_float, k.prepare_int8, k.decode_full, k.decode_partial })
        GPUTURBO_CUDA_TRY(cudaFuncSetAttribute(
            f, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

int resident_blocks_per_sm(const kernel_config& c)
{
    int blocks = 0;
    GPUTURBO_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, select(c).decode(c), c.per_block * c.P, c.shared_bytes));
    return blocks;
}

namespace {
// The soft output from the a-posteriori LLRs the decode kernel left in b.soft, in its
// units: in LLRs, less the systematic input as the prepare kernel read it (extrinsic),
// in the sign of the input. A thread a value.
constexpr unsigned finish_soft_threads = 256;
template <class M>
__global__ void __launch_bounds__(finish_soft_threads)
    finish_soft_kernel(kernel_config c, device_buffers b, std::size_t values)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= values)
        return;
    const std::size_t cw = i / c.K;
    const int k = int(i % c.K);
    float v = b.soft[i];
    if constexpr (!std::is_same_v<M, float>)
        v *= 1.0f / fixed_point::app_units;
    if (b.soft_kind == core::soft_output::extrinsic) {
        const std::size_t at = cw * (3 * std::size_t(c.K) + 12) +
                               (c.streams ? std::size_t(k) : 3 * std::size_t(k));
        const float x[2] = { c.int8 ? float(static_cast<const std::int8_t*>(b.raw)[at])
                                    : static_cast<const float*>(b.raw)[at],
                             0.0f };
        const auto sys = lanes<M>::staged(x, c);
        if constexpr (std::is_same_v<M, float>)
            v = v - sys;
        else // the low lane's doubled units
            v = v - float(short(sys & 0xffffu) / 2) * (1.0f / fixed_point::input_units);
    }
    b.soft[i] = c.invert ? -v : v;
}
} // namespace

void launch_decode(const kernel_config& c, const device_buffers& b, int n, cudaStream_t s)
{
    if (n <= 0)
        return;
    const int groups = (n + c.lanes - 1) / c.lanes;
    const int blocks = (groups + c.per_block - 1) / c.per_block;
    void* args[] = { const_cast<kernel_config*>(&c),
                     const_cast<device_buffers*>(&b),
                     &n };
    GPUTURBO_CUDA_TRY(cudaLaunchKernel(select(c).decode(c),
                                       dim3(blocks),
                                       dim3(c.per_block * c.P),
                                       args,
                                       c.shared_bytes,
                                       s));
    if (!b.soft)
        return;
    constexpr unsigned threads = finish_soft_threads;
    const std::size_t values = std::size_t(n) * c.K;
    const unsigned soft_blocks = unsigned((values + threads - 1) / threads);
    if (c.lanes == 2)
        finish_soft_kernel<s16x2><<<soft_blocks, threads, 0, s>>>(c, b, values);
    else
        finish_soft_kernel<float><<<soft_blocks, threads, 0, s>>>(c, b, values);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

} // namespace gputurbo::turbo::cuda
