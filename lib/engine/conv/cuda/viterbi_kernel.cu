/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/cuda/error.h"
#include "core/cuda/llr.cuh"
#include "core/cuda/s16x2.cuh"
#include "../quantize.h"
#include "../segments.h"
#include "codes.cuh"
#include "viterbi_kernel.cuh"

#include <algorithm>
#include <cuda_pipeline.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gputurbo::conv::cuda {
namespace {

using core::cuda::s16x2;
using core::cuda::sign_extend_pair;

// The Viterbi kernels' tuning, in one place: the kernels and their launchers read it.
struct viterbi_policy
{
    //! Threads of a decoding block (and of the writing and status kernels).
    static constexpr int threads = 128;
    //! Blocks an SM holds at least of a symmetric code's decoding kernel (its branch
    //! metrics in registers); any code's: 1.
    static constexpr int symmetric_min_blocks = 4;
    //! Loops over states are unrolled up to K = 7, so that every metric lives in a
    //! register; K = 8 and 9 keep theirs in local memory.
    static constexpr int unrolled_states = 64;
    //! Trellis steps an iteration of the decoding loop: the first moves the metrics (the
    //! symmetric form's int16 bound), and the previous pair's rows, fetched
    //! unrolled_steps - 1 steps ahead, wait in as many slots.
    static constexpr int unrolled_steps = 4;
    //! Rows the last pair's traceback loads ahead of the one it traces: up to 32 words
    //! in registers.
    static constexpr int traceback_ahead(int words)
    {
        return words <= 4 ? 8 : 32 / words;
    }
    //! Segment pairs and threads of a preparing block.
    static constexpr int prepare_pairs = 32;
    static constexpr int prepare_threads = 256;
    //! Output bits a writing thread.
    static constexpr int bits_per_writer = 16;
};

constexpr int log2_of(int x) { return x > 1 ? 1 + log2_of(x / 2) : 0; }

// Decisions of one step (a row): the decision of target state s of segment h at bit
// 31 - p % 32 of word p / 32, p = decision_position<S>(h, s): each segment's S decisions
// in the order of the states (S >= 32), or for S <= 16 both segments in one word, a byte
// for each target half and segment (A's low half, A's high, B's low, B's high from the
// top), as the traceback reads them with one rotation. The butterflies gather them a
// word per 8 butterflies (or S/2 if fewer; ns, ns + S/2 from 2 ns, 2 ns + 1), one byte
// per target half and segment (A's for ns, B's, A's for ns + S/2, B's), butterfly ns at
// bit 7 - ns % 8 of its bytes; then the bytes are regrouped into the row.
constexpr int butterflies_per_word(int states) { return states / 2 < 8 ? states / 2 : 8; }
constexpr int words_for(int states) { return (states / 2 + 7) / 8; }

template <int S>
__host__ __device__ constexpr int decision_position(int h, int s)
{
    if constexpr (S >= 32)
        return h * S + s;
    return 16 * h + 8 * (s / (S / 2)) + s % (S / 2);
}

// A segment's view of its window; the common window (not circular, unpunctured) skips
// the index work.
template <class In, bool Circular, bool Punctured>
struct reader
{
    const In* llrs; // the window's
    const int* sent_index;
    int steps;  // a window's steps and LLRs are counted in 32 bits
    float unit; // int8: the LLR of q = 1
    bool invert;

    // Where coded bit o of a step is: its LLR's index, -1 where punctured.
    __device__ int index(int step, int o, int outputs) const
    {
        if constexpr (Circular) {
            step %= steps;
            if (step < 0)
                step += steps;
        }
        const int c = step * outputs + o;
        if constexpr (Punctured)
            return __ldg(sent_index + c);
        return c;
    }

    __device__ float operator()(int step, int o, int outputs) const
    {
        const int c = index(step, o, outputs);
        if (Punctured && c < 0)
            return 0.0f; // an erasure
        return value(__ldg(llrs + c));
    }

    __device__ float value(In x) const
    {
        const float raw = std::is_same_v<In, float> ? float(x) : float(x) * unit;
        return core::cuda::sanitize(raw, invert);
    }

    // int8: an LLR as a code, 256 an erasure (code_magnitude(), code_metric()).
    __device__ int code(int step, int o, int outputs) const
    {
        const int c = index(step, o, outputs);
        return Punctured && c < 0 ? 256 : std::uint8_t(__ldg(llrs + c));
    }
};

// The |q| of an int8 LLR's code (reader::code()): its fixed magnitude is that many
// int8_fixed_unit().
__device__ __forceinline__ int code_magnitude(int c)
{
    return c == 256 ? 0 : std::abs(int(std::int8_t(c)));
}

// The metric of an int8 LLR's code (int8_metric()).
__device__ __forceinline__ int code_metric(int c, bool invert)
{
    return c == 256 ? 0 : int8_metric(std::int8_t(c), invert);
}

// The count values at p, in loads of the widest of 16, 8 and 4 bytes that p's alignment
// and their size allow (so that a thread's values take the fewest of the cache's
// wavefronts), else one at a time.
template <class Word, class In, int count>
__device__ __forceinline__ bool load_as(const In* p, In (&x)[count])
{
    constexpr int bytes = count * sizeof(In), per_word = sizeof(Word) / sizeof(In);
    if constexpr (bytes % sizeof(Word) != 0)
        return false;
    else {
        if (reinterpret_cast<std::uintptr_t>(p) % sizeof(Word) != 0)
            return false;
#pragma unroll
        for (int w = 0; w < bytes / int(sizeof(Word)); ++w) {
            const Word v = __ldg(reinterpret_cast<const Word*>(p) + w);
            memcpy(x + w * per_word, &v, sizeof v);
        }
        return true;
    }
}

template <class In, int count>
__device__ __forceinline__ void load_values(const In* p, In (&x)[count])
{
    if (load_as<uint4>(p, x) || load_as<uint2>(p, x) || load_as<unsigned>(p, x))
        return;
#pragma unroll
    for (int j = 0; j < count; ++j)
        x[j] = __ldg(p + j);
}

// f(j, values[j]) for j in [0, count) over a warp's lanes, 16 bytes a lane a load: the
// aligned blocks inside the range whole, the values before and after them one by one.
template <class In, class F>
__device__ void for_each_value(const In* values, int count, int lane, F&& f)
{
    constexpr int per_block = 16 / sizeof(In);
    const int head = std::min(
        int((16 - reinterpret_cast<std::uintptr_t>(values) % 16) % 16 / sizeof(In)),
        count);
    for (int j = lane; j < head; j += 32)
        f(j, __ldg(values + j));
    const int blocks = (count - head) / per_block;
    const uint4* aligned = reinterpret_cast<const uint4*>(values + head);
    for (int b = lane; b < blocks; b += 32) {
        const uint4 v = __ldg(aligned + b);
        In x[per_block];
        memcpy(x, &v, sizeof v);
#pragma unroll
        for (int i = 0; i < per_block; ++i)
            f(head + b * per_block + i, x[i]);
    }
    for (int j = head + blocks * per_block + lane; j < count; j += 32)
        f(j, __ldg(values + j));
}

// f(std::integral_constant<int, i>) for i = I … End - 1: each i a constant expression.
template <int I, int End, class F>
__device__ __forceinline__ void static_for(F& f)
{
    if constexpr (I < End) {
        f(std::integral_constant<int, I>{});
        static_for<I + 1, End>(f);
    }
}

// The sign bits of the halves of \p a and \p b (bits 15, 31, 47, 63 of b:a) as bytes of
// all ones or all zeros: byte 0 a's low half, 1 a's high, 2 b's low, 3 b's high.
__device__ __forceinline__ unsigned sign_bytes(unsigned a, unsigned b)
{
    unsigned r;
    asm("prmt.b32 %0, %1, %2, 0xFDB9;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

// Width (1, 2 or 4) words at p, which is aligned to width words, in one access.
template <int width>
__device__ __forceinline__ void store_words(unsigned* p, const unsigned* w)
{
    if constexpr (width == 4)
        *reinterpret_cast<uint4*>(p) = { w[0], w[1], w[2], w[3] };
    else if constexpr (width == 2)
        *reinterpret_cast<uint2*>(p) = { w[0], w[1] };
    else
        *p = w[0];
}

template <int width>
__device__ __forceinline__ void load_words(unsigned* w, const unsigned* p)
{
    if constexpr (width == 4) {
        const uint4 v = *reinterpret_cast<const uint4*>(p);
        w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else if constexpr (width == 2) {
        const uint2 v = *reinterpret_cast<const uint2*>(p);
        w[0] = v.x, w[1] = v.y;
    } else {
        w[0] = *p;
    }
}

// c ? a : b, opaque to the compiler, which would otherwise turn a chain of these over a
// register array back into an indexed array in local memory.
__device__ __forceinline__ unsigned pick(bool c, unsigned a, unsigned b)
{
    unsigned r;
    asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\tselp.b32 %0, %1, %2, p;\n\t}"
        : "=r"(r)
        : "r"(a), "r"(b), "r"(unsigned(c)));
    return r;
}

__device__ __forceinline__ unsigned pack(int a, int b)
{
    return (unsigned(a) & 0xffffu) | (unsigned(b) << 16);
}

// A step's decision words (words_for(S)) are stored as vectors of up to four words,
// [step][vector][pair], so that a thread writes and reads a step with one access a vector
// and a warp's accesses are contiguous.
template <int S>
struct decision_row
{
    static constexpr int words = words_for(S);
    static constexpr int width = words < 4 ? words : 4; // words a vector
    static constexpr int vectors = words / width;
};

// Blocks of the decoding kernel for \p pairs pairs and at most \p threads threads.
__host__ __device__ std::size_t decoding_blocks(std::size_t pairs, std::size_t threads)
{
    return ((pairs < threads ? pairs : threads) + viterbi_policy::threads - 1) /
           viterbi_policy::threads;
}

// Where a launch's scratch puts what: the decision rows, one pair's of each decoding
// thread ([position][vector][thread]); the metrics (int8, in groups of 16 bytes:
// [group][pair], a group the group_steps steps of both segments, each step's metrics A0
// B0 A1 B1 …, padded to an even count); the decided bits, a bit a step of the run, 32 to
// a word: [word][pair] as (A, B).
struct scratch_layout
{
    std::size_t pairs;
    std::size_t threads;                         // decoding threads: the grid's
    int groups;                                  // per pair
    int group_steps;                             // steps per group
    int bit_words;                               // per segment
    std::size_t decisions, metrics, bits, bytes; // offsets and size

    __host__ __device__ scratch_layout(
        int states, int outputs, std::size_t segments, int run, std::size_t most_threads)
        : pairs(segment_pairs(segments)),
          threads(decoding_blocks(pairs, most_threads) * viterbi_policy::threads),
          group_steps(group_steps_of(outputs)),
          bit_words((run + 31) / 32),
          decisions(0)
    {
        groups = (run + group_steps - 1) / group_steps;
        metrics = (threads * std::size_t(run) * words_for(states) * 4 + 15) / 16 * 16;
        bits = metrics + pairs * std::size_t(groups) * 16;
        bytes = bits + pairs * std::size_t(bit_words) * 8;
    }
};

// The segment of job index g, its window's reader.
template <class In, bool Circular, bool Punctured>
__device__ void segment_of(const viterbi_job& job,
                           std::size_t g,
                           device_segment& seg,
                           reader<In, Circular, Punctured>& read)
{
    const std::size_t w = g / job.per_window;
    seg = job.segments[g % job.per_window];
    read = { static_cast<const In*>(job.llrs) + w * job.window_stride,
             job.sent_index,
             int(job.steps),
             job.int8_unit,
             job.invert };
}

// The sum of x over a warp's lanes, on every lane (integer sums: any order gives the
// same).
__device__ __forceinline__ long long warp_sum(long long x)
{
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, d);
    return x;
}

constexpr int prepare_pairs = viterbi_policy::prepare_pairs;
constexpr int prepare_threads = viterbi_policy::prepare_threads;

// A block per 32 pairs of segments. First its warps measure the segments, a warp a
// segment with the lanes along it: the magnitudes of its owned steps give the frame
// status, those of its whole run (float) its quantisation scale, as the CPU decoder's.
// int8 LLRs are metrics already (int8_metric(); their magnitudes |q| fixed units each).
// Then its threads quantise the metrics, an
// inverted output's negated (its branches are the uninverted code's), into the decoding
// threads' layout, a thread a group of steps of a pair and consecutive threads on
// consecutive pairs, so that the stores are contiguous; the LLRs come the second time
// from the cache. (Not launched where the decoding kernel reads the LLRs itself.)
template <class In, int N, bool Circular, bool Punctured>
__global__ void __launch_bounds__(prepare_threads)
    prepare_kernel(const __grid_constant__ viterbi_job job, unsigned inverted, int states)
{
    constexpr bool by_code = std::is_same_v<In, std::int8_t>;
    using read_t = reader<In, Circular, Punctured>;
    const std::size_t segments = std::size_t(job.per_window) * job.windows;
    const scratch_layout l(states, N, segments, job.run, job.threads);
    const std::size_t first_pair = std::size_t(blockIdx.x) * prepare_pairs;
    const int lane = threadIdx.x % 32;
    // Each segment's scale (float), reader and first step.
    __shared__ float scale[2 * prepare_pairs];
    __shared__ read_t reads[2 * prepare_pairs];
    __shared__ int firsts[2 * prepare_pairs];
    for (int i = threadIdx.x / 32; i < 2 * prepare_pairs; i += prepare_threads / 32) {
        const std::size_t pair = first_pair + i / 2;
        if (pair >= l.pairs)
            continue;
        // Segment B of an odd count's last pair repeats A.
        const std::size_t g = std::min(2 * pair + i % 2, segments - 1);
        device_segment seg;
        read_t read;
        segment_of(job, g, seg, read);
        const int first = int(seg.first), run = job.run;
        const int owned_begin = std::clamp(int(seg.begin) - first, 0, run);
        const int owned_end = std::clamp(int(seg.owned_end) - first, owned_begin, run);
        magnitudes all, own;
        auto measure = [&](int from, int to, magnitudes& m) { // a value at a time
            for (unsigned j = from * N + lane; j < unsigned(to * N); j += 32)
                if constexpr (by_code)
                    m.total +=
                        code_magnitude(read.code(first + int(j / N), int(j % N), N));
                else
                    m.add(read(first + int(j / N), int(j % N), N));
        };
        if constexpr (by_code) {
            // The owned steps' |q| alone; in the common window side by side, read 16
            // bytes a lane.
            if constexpr (!Circular && !Punctured) {
                std::int64_t sum = 0;
                for_each_value(read.llrs + std::size_t(first + owned_begin) * N,
                               (owned_end - owned_begin) * N,
                               lane,
                               [&](int, In x) { sum += std::abs(int(x)); });
                own.total = sum;
            } else {
                measure(owned_begin, owned_end, own);
            }
            own.total *= int8_fixed_unit(read.unit);
        } else if constexpr (!Circular && !Punctured) {
            // The run's values side by side, read 16 bytes a lane.
            const int owned_from = owned_begin * N, owned_to = owned_end * N;
            for_each_value(
                read.llrs + std::size_t(first) * N, run * N, lane, [&](int j, In x) {
                    if (j >= owned_from && j < owned_to)
                        own.add(read.value(x));
                    else
                        all.add(read.value(x));
                });
        } else { // the owned steps in the middle: no test a value
            measure(0, owned_begin, all);
            measure(owned_begin, owned_end, own);
            measure(owned_end, run, all);
        }
        own.total = warp_sum(own.total);
        if constexpr (!by_code) {
            all.add(own);
            all.total = warp_sum(all.total);
            all.inside = warp_sum(all.inside);
            all.counted = warp_sum(all.counted);
        }
        if (lane == 0) {
            scale[i] = quantization_scale(all);
            if (job.scales && 2 * pair + i % 2 < segments)
                job.scales[g] = by_code ? 1.0f / read.unit : scale[i];
            reads[i] = read;
            firsts[i] = first;
            if (job.owned && 2 * pair + i % 2 < segments)
                job.owned[g] = own.total;
        }
    }
    __syncthreads();
    uint4* metrics = reinterpret_cast<uint4*>(job.scratch + l.metrics);
    constexpr int steps = group_steps_of(N);
    for (int t = threadIdx.x; t < prepare_pairs * l.groups; t += prepare_threads) {
        const int p = t % prepare_pairs, group = t / prepare_pairs;
        const std::size_t pair = first_pair + p;
        if (pair >= l.pairs)
            continue;
        // Only the last group may run past the run: its missing steps are zeros.
        const int present = std::min(steps, job.run - group * steps);
        unsigned words[4] = {};
        auto put = [&](int k, int o, int h, int q) {
            q = (inverted >> o) & 1u ? -q : q;
            const int byte = k * (16 / steps) + 2 * o + h;
            words[byte / 4] |= (unsigned(q) & 0xffu) << (8 * (byte % 4));
        };
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int i = 2 * p + h;
            const read_t read = reads[i];
            const int first = firsts[i] + group * steps;
            if constexpr (!Circular && !Punctured) {
                // The common window's whole groups: their values side by side, read
                // a word at a time where aligned.
                if (present == steps) {
                    In x[steps * N];
                    load_values(read.llrs + std::size_t(first) * N, x);
#pragma unroll
                    for (int k = 0; k < steps; ++k)
#pragma unroll
                        for (int o = 0; o < N; ++o)
                            if constexpr (by_code)
                                put(k, o, h, int8_metric(x[k * N + o], read.invert));
                            else
                                put(k,
                                    o,
                                    h,
                                    quantize(read.value(x[k * N + o]), scale[i]));
                    continue;
                }
            }
#pragma unroll
            for (int k = 0; k < steps; ++k) {
                if (present < steps && k >= present)
                    break;
#pragma unroll
                for (int o = 0; o < N; ++o)
                    if constexpr (by_code)
                        put(k,
                            o,
                            h,
                            code_metric(read.code(first + k, o, N), read.invert));
                    else
                        put(k, o, h, quantize(read(first + k, o, N), scale[i]));
            }
        }
        metrics[std::size_t(group) * l.pairs + pair] = {
            words[0], words[1], words[2], words[3]
        };
    }
}

// Per output, all ones where its int8 LLRs are negated into metrics (an inverted output,
// or LLRs of the other sign): a kernel parameter, so that it takes no register.
struct output_signs
{
    unsigned negated[max_outputs];
};

output_signs signs_of(const trellis& t, const viterbi_job& job)
{
    output_signs signs{};
    const unsigned flip = t.inverted ^ (job.invert ? (1u << t.outputs) - 1 : 0u);
    for (int o = 0; o < t.outputs; ++o)
        signs.negated[o] = (flip >> o) & 1u ? ~0u : 0u;
    return signs;
}

// Whether the decoding kernel reads the job's LLRs itself (viterbi_kernel.cuh).
bool reads_llrs(const trellis& t, const viterbi_job& job)
{
    return job.int8 && !job.circular && !job.sent_index && job.firsts_aligned &&
           (t.outputs == 2 || t.outputs == 4) && job.window_stride % 4 == 0 &&
           reinterpret_cast<std::uintptr_t>(job.llrs) % 4 == 0;
}

// The decoding kernel's work for one thread, in named steps: the Viterbi of pairs of
// segments (A, B), each over its window, in the halves of packed registers (segment g of
// the job is half g % 2 of thread g / 2). Its metrics come prepared, or (Direct) from
// the int8 LLRs themselves, a group of steps two words a segment, and (Keep, for soft
// output) are written as prepared for the BCJR after it. Each thread decodes
// pairs pair, pair + stride, …, and traces each pair's paths while it runs the next
// pair's trellis, a row a step, so that the tracebacks' reads of memory overlap the
// arithmetic (they would otherwise all come at once, every thread's at the end of its
// run): the previous pair's rows come into shared memory unrolled_steps - 1 steps before
// they are traced (asynchronous copies, no register waiting), into a ring of
// unrolled_steps slots a thread.
template <class Tr, bool Direct, bool Keep>
struct viterbi_agent
{
    static constexpr int K = Tr::K, N = Tr::N, S = 1 << (K - 1), memory = K - 1;
    static_assert(!Direct || N == 2 || N == 4);
    static constexpr int words = words_for(S), per_word = butterflies_per_word(S);
    using row = decision_row<S>;
    static constexpr int unroll = S <= viterbi_policy::unrolled_states ? S : 1;
    static constexpr int group_steps = group_steps_of(N);
    static constexpr int word_steps = 4 / N; // Direct: steps of an LLR word
    static_assert(!Direct || word_steps * N == 4, "a word holds whole steps");
    static constexpr int slots = viterbi_policy::unrolled_steps;
    using vector = unsigned[row::width];
    //! The ring of the previous pair's rows: [slot][vector][thread].
    using ring_t = vector[slots][row::vectors][viterbi_policy::threads];

    // Paths not from state 0 start this far behind (conv/cpu/viterbi_kernel_impl.h).
    static constexpr int behind = memory * 2 * N * max_metric + 1;
    // The symmetric form adds without wrapping: metrics within behind + spread +
    // unrolled_steps steps' growth of it (see add_compare_select_symmetric).
    static_assert(!Tr::symmetric ||
                      behind + memory * 2 * N * max_metric +
                              viterbi_policy::unrolled_steps * 2 * N * max_metric <
                          1 << 14,
                  "symmetric metrics must stay below 2^14");

    const trellis& t;
    const viterbi_job& job;
    const output_signs& signs;
    const std::size_t segments, pairs;
    const int run;
    const scratch_layout l;
    uint2* const bits_of_pairs;
    const std::size_t thread;
    // The thread's decision rows, vector v of the row at position i at i * row_stride + v
    // * vector_stride words in: a pair's row r at position r, or every other pair's
    // (flipped) at run - 1 - r, so that a pair writes each row where the row it replaces
    // is traced at the same step.
    unsigned* const rows;
    const std::size_t vector_stride;
    const std::ptrdiff_t row_stride;
    const std::size_t stride;      // pairs between a thread's pairs: the grid's threads
    unsigned* const shared_branch; // any code: [combination] at a stride of the block
    ring_t& ring;
    const unsigned* const llr_words; // Direct: the LLRs, 4 bytes a word

    // The previous pair, traced while this one runs.
    bool previous = false, flipped = false;
    unsigned previous_pair = 0, previous_path[2] = { 0u, 0u };
    const unsigned* previous_row = nullptr; // its next row to fetch

    // The pair that runs.
    std::size_t pair;
    std::size_t g[2];
    device_segment seg[2];
    const uint4* metrics; // its prepared groups (Direct: written for soft output)
    uint4 group;          // prepared: the group of the step that runs
    // Direct: each segment's LLRs as words, word w (steps w * word_steps on) in slot
    // w % 2 of its segment; the sum of |q| over its owned steps.
    unsigned first_word[2];  // of each segment's steps in llr_words
    unsigned llr_slot[2][2]; // [segment][slot]
    unsigned owned_sum[2];
    int owned_from[2], owned_to[2], full_from[2], full_words[2]; // steps; words

    __device__ __forceinline__ viterbi_agent(const trellis& t,
                                             const viterbi_job& job,
                                             const output_signs& signs,
                                             unsigned* branch_column,
                                             ring_t& ring)
        : t(t),
          job(job),
          signs(signs),
          segments(std::size_t(job.per_window) * job.windows),
          pairs(segment_pairs(segments)),
          run(job.run),
          l(S, N, segments, run, job.threads),
          bits_of_pairs(reinterpret_cast<uint2*>(job.scratch + l.bits)),
          thread(std::size_t(blockIdx.x) * blockDim.x + threadIdx.x),
          rows(reinterpret_cast<unsigned*>(job.scratch + l.decisions) +
               thread * row::width),
          vector_stride(l.threads * row::width),
          row_stride(std::ptrdiff_t(row::vectors * vector_stride)),
          stride(l.threads),
          shared_branch(branch_column),
          ring(ring),
          llr_words(static_cast<const unsigned*>(job.llrs))
    {
    }

    // Row r of a pair's rows, flipped or not.
    __device__ __forceinline__ unsigned* row_of(bool flip, int r) const
    {
        return rows + (flip ? run - 1 - r : r) * row_stride;
    }
    // From a row to the one of the step before.
    __device__ __forceinline__ std::ptrdiff_t row_before(bool flip) const
    {
        return flip ? row_stride : -row_stride;
    }

    // The pair's segments, its prepared metrics, and its path metrics at the start.
    __device__ __forceinline__ void begin_pair(std::size_t p, s16x2 (&metric)[S])
    {
        pair = p;
        // Segment B of an odd count's last pair repeats A, its bits never read.
        g[0] = 2 * pair;
        g[1] = std::min(2 * pair + 1, segments - 1);
#pragma unroll
        for (int h = 0; h < 2; ++h)
            seg[h] = job.segments[g[h] % job.per_window];
#pragma unroll(unroll)
        for (int s = 0; s < S; ++s)
            metric[s].v = s == 0 ? 0u
                                 : pack(seg[0].start_zero ? -behind : 0,
                                        seg[1].start_zero ? -behind : 0);
        metrics = reinterpret_cast<const uint4*>(job.scratch + l.metrics) + pair;
        group = uint4{};
        owned_sum[0] = owned_sum[1] = 0u;
    }

    // Direct: each segment's first two LLR words, and where its owned steps lie. A load
    // has a word's steps or more to land before it is used (the padding of the LLR
    // buffers, core::cuda::llr_padding, covers the words loaded past the end).
    __device__ __forceinline__ void load_first_llrs()
    {
        if constexpr (Direct) {
            static_assert(4 % N == 0);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                first_word[h] = unsigned(
                    (g[h] / job.per_window * job.window_stride + seg[h].first * N) / 4);
                owned_from[h] = std::clamp(int(seg[h].begin - seg[h].first), 0, run);
                owned_to[h] =
                    std::clamp(int(seg[h].owned_end - seg[h].first), owned_from[h], run);
                full_from[h] = (owned_from[h] + word_steps - 1) / word_steps;
                full_words[h] = std::max(owned_to[h] / word_steps - full_from[h], 0);
                llr_slot[h][0] = __ldg(llr_words + first_word[h]);
                llr_slot[h][1] = __ldg(llr_words + first_word[h] + 1);
            }
        }
    }

    // sum plus the |q| of the four int8 of w where counted: w times its signs.
    __device__ __forceinline__ static unsigned
    add_magnitudes(unsigned w, unsigned sum, bool counted)
    {
        unsigned signs;
        asm("prmt.b32 %0, %1, 0, 0xBA98;" : "=r"(signs) : "r"(w));
        const unsigned weights = counted ? signs | 0x01010101u : 0u;
        return unsigned(__dp4a(int(w), int(weights), int(sum)));
    }

    // Direct with soft output (Keep): step e's metrics (the k-th of its group) where the
    // preparing kernel would have put them (prepared_metrics()), bytes A_o B_o of each
    // output o (a last group's bytes past the run, which nothing reads, stay unwritten).
    __device__ __forceinline__ void keep_prepared(int k, int e, const s16x2 (&q)[N]) const
    {
        unsigned* const words = reinterpret_cast<unsigned*>(
            const_cast<uint4*>(metrics + std::size_t(e / group_steps) * pairs));
#pragma unroll
        for (int o = 0; o < N; o += 2)
            words[k * N / 2 + o / 2] = __byte_perm(q[o].v, q[o + 1].v, 0x6420);
    }

    // The metrics of step e, the k-th of its group (k = e % group_steps, a constant
    // where the caller knows it; prepared: the first step loads the group), both
    // segments in one register per coded bit: bytes A_o and B_o sign-extended to the
    // halves. Direct: the metric of an int8 LLR q is q (-128 read as -127), negated as
    // output_signs says; whole owned words add to the magnitude sums as they are first
    // used, and a word's slot takes word w + 2 as soon as its last step is taken.
    __device__ __forceinline__ void load_branch_metrics(int k, int e, s16x2 (&q)[N])
    {
        if constexpr (Direct) {
            const int s = k * N / 4 % 2, byte = k * N % 4; // of word e * N / 4
            const int w = e / word_steps;
            const unsigned a = s ? llr_slot[0][1] : llr_slot[0][0],
                           b = s ? llr_slot[1][1] : llr_slot[1][0];
            if (byte == 0) {
                owned_sum[0] =
                    add_magnitudes(a,
                                   owned_sum[0],
                                   unsigned(w - full_from[0]) < unsigned(full_words[0]));
                owned_sum[1] =
                    add_magnitudes(b,
                                   owned_sum[1],
                                   unsigned(w - full_from[1]) < unsigned(full_words[1]));
            }
#pragma unroll
            for (int o = 0; o < N; ++o) {
                // int8_metric(), the sign with the inverted outputs' below.
                const s16x2 x{ __vmaxs2(sign_extend_pair(a, b, byte + o),
                                        pack(-max_metric, -max_metric)) };
                const s16x2 m{ signs.negated[o] };
                q[o] = s16x2{ x.v ^ m.v } - m; // -x where negated
            }
            if constexpr (Keep) // soft output: the metrics kept for the BCJR
                keep_prepared(k, e, q);
            if (byte + N == 4) { // the word's last step: its slot takes word w + 2
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const unsigned next = __ldg(llr_words + (first_word[h] + w + 2));
                    if (s)
                        llr_slot[h][1] = next;
                    else
                        llr_slot[h][0] = next;
                }
            }
            return;
        }
        if (k == 0)
            group = __ldg(metrics + std::size_t(e / group_steps) * pairs);
        group_step_metrics(group, k, q);
    }

    // The decisions of one step as the butterflies make them, gathered into the words
    // of its row (first: the row's first word; vector_stride: the rows'): kept in
    // registers and stored a vector at a time (up to K = 7), or stored word by word.
    struct step_decisions
    {
        unsigned* const first;
        const std::size_t vector_stride;
        unsigned words_of_step[S <= viterbi_policy::unrolled_states ? words : 1],
            gathered[4], word = 0;

        // Word w of the row: vector w / width of the row, element w % width.
        __device__ __forceinline__ unsigned* word_at(int w) const
        {
            return first + w / row::width * vector_stride + w % row::width;
        }
        __device__ __forceinline__ void put(int i, unsigned w) // word i of the row
        {
            if constexpr (S <= viterbi_policy::unrolled_states)
                words_of_step[i] = w;
            else
                *word_at(i) = w;
        }
        // Butterfly ns decided: the four signs (bits 15 and 31 of d0, d1) as bytes of
        // all ones or zeros (prmt's sign replication), their bits at the butterfly's into
        // the word; a gathered word's bytes to the row's words (decision_position).
        __device__ __forceinline__ void decide(int ns, s16x2 d0, s16x2 d1)
        {
            const unsigned signs = sign_bytes(d0.v, d1.v);
            const int j = ns % per_word, i = ns / per_word;
            const unsigned mask = 0x01010101u << (7 - j);
            word = j == 0 ? signs & mask : word | (signs & mask);
            if (j != per_word - 1)
                return;
            if constexpr (S <= 16) {
                put(0, __byte_perm(word, 0, 0x0213));
            } else if constexpr (S == 32) {
                gathered[i] = word;
                if (i == 1) {
                    put(0, __byte_perm(gathered[0], word, 0x0426));
                    put(1, __byte_perm(gathered[0], word, 0x1537));
                }
            } else { // four gathered words (states 32 k …): a transposition of bytes
                gathered[i % 4] = word;
                if (i % 4 == 3) {
                    const int k = i / 4;
                    const unsigned lo01 = __byte_perm(gathered[0], gathered[1], 0x1504),
                                   hi01 = __byte_perm(gathered[0], gathered[1], 0x3726),
                                   lo23 = __byte_perm(gathered[2], word, 0x1504),
                                   hi23 = __byte_perm(gathered[2], word, 0x3726);
                    put(k, __byte_perm(lo23, lo01, 0x5410));          // A, low half
                    put(S / 64 + k, __byte_perm(hi23, hi01, 0x5410)); // A, high
                    put(S / 32 + k, __byte_perm(lo23, lo01, 0x7632)); // B, low
                    put(S / 32 + S / 64 + k, __byte_perm(hi23, hi01, 0x7632)); // B, high
                }
            }
        }
        // A row kept in registers goes out a vector at a time.
        __device__ __forceinline__ void store() const
        {
            if constexpr (S <= viterbi_policy::unrolled_states)
#pragma unroll
                for (int v = 0; v < row::vectors; ++v)
                    store_words<row::width>(word_at(v * row::width),
                                            words_of_step + v * row::width);
        }
    };

    // The metric of every combination c of coded bits: +q where a bit is 0, -q where it
    // is 1, and twice that for the symmetric form; any code's also to shared memory.
    __device__ __forceinline__ void branch_metrics(const s16x2 (&q)[N],
                                                   s16x2 (&branch)[1 << N],
                                                   s16x2 (&twice)[1 << N]) const
    {
#pragma unroll
        for (int c = 0; c < (1 << N); ++c) {
            s16x2 sum{ 0u };
#pragma unroll
            for (int o = 0; o < N; ++o)
                sum = (c >> o) & 1 ? sum - q[o] : sum + q[o];
            branch[c] = sum;
            twice[c] = sum + sum;
            if constexpr (!Tr::symmetric)
                shared_branch[c * viterbi_policy::threads] = sum.v;
        }
    }

    // The symmetric form's add-compare-select of one step. Branches beta (p_0 -> ns),
    // -beta, -beta (p_0 -> ns + S/2), beta, beta's combination c known when compiling.
    // The metrics must not wrap here, so that max(m0, m1) is one add-max: every
    // unrolled_steps-th step (moves) normalises them all by state 0's, through the
    // branches. They stay within behind + spread + that many steps' growth of it: below
    // 2^14 for K <= 7 (asserted above).
    __device__ __forceinline__ void
    add_compare_select_symmetric(const s16x2* in,
                                 s16x2* out,
                                 const s16x2 (&branch)[1 << N],
                                 const s16x2 (&twice)[1 << N],
                                 bool moves,
                                 step_decisions& decisions) const
    {
        s16x2 moved[1 << N];
#pragma unroll
        for (int c = 0; c < (1 << N); ++c)
            moved[c] = moves ? branch[c] - in[0] : branch[c];
        // Butterfly ns: targets ns and ns + S/2 from a = 2 ns and b = 2 ns + 1. d = m0 -
        // m1 per target: its sign is the decision (1: p_1 is strictly better; ties keep
        // p_0).
        auto butterfly = [&](auto k) {
            constexpr int ns = decltype(k)::value;
            constexpr unsigned c = Tr::template branch<ns, 0>(), all = (1u << N) - 1;
            const s16x2 a = in[2 * ns], b = in[2 * ns + 1];
            // twice[c ^ all] is -twice[c]: one of the two a register, negated in the
            // subtraction.
            constexpr bool low = c < (c ^ all);
            const s16x2 delta = a - b, twice_low = twice[low ? c : c ^ all];
            const s16x2 d0 = low ? delta + twice_low : delta - twice_low;
            const s16x2 d1 = low ? delta - twice_low : delta + twice_low;
            // Every other butterfly adds on the ALU, which the packed adds otherwise
            // leave idle.
            const s16x2 b1 =
                ns % 2 ? b + moved[c ^ all] : core::cuda::add_on_alu(b, moved[c ^ all]);
            out[ns] = core::cuda::add_max(a, moved[c], b1);
            out[ns + S / 2] = core::cuda::add_max(a, moved[c ^ all], b + moved[c]);
            decisions.decide(ns, d0, d1);
        };
        static_for<0, S / 2>(butterfly);
    }

    // Any code's add-compare-select of one step, its branch metrics from shared memory:
    // d = m0 - m1 per target, and max(m0, m1) = m1 + max(d, 0) in wrapping arithmetic.
    __device__ __forceinline__ void
    add_compare_select_any(const s16x2* in, s16x2* out, step_decisions& decisions) const
    {
        auto metric_of = [&](unsigned c) {
            return s16x2{ shared_branch[c * viterbi_policy::threads] };
        };
#pragma unroll(unroll)
        for (int ns = 0; ns < S / 2; ++ns) {
            const s16x2 a = in[2 * ns], b = in[2 * ns + 1];
            const s16x2 m00 = a + metric_of(Tr::branch(t, ns, 0));
            const s16x2 m01 = b + metric_of(Tr::branch(t, ns, 1));
            const s16x2 m10 = a + metric_of(Tr::branch(t, ns + S / 2, 0));
            const s16x2 m11 = b + metric_of(Tr::branch(t, ns + S / 2, 1));
            const s16x2 d0 = m00 - m01, d1 = m10 - m11;
            out[ns] = m01 + s16x2{ __vimax_s16x2_relu(d0.v, 0u) };
            out[ns + S / 2] = m11 + s16x2{ __vimax_s16x2_relu(d1.v, 0u) };
            decisions.decide(ns, d0, d1);
        }
    }

    // One trellis step: metrics in -> out through the step's branch metrics q, its
    // decisions stored to step e's row.
    __device__ __forceinline__ void
    step(const s16x2* in, s16x2* out, const s16x2 (&q)[N], int e, bool moves) const
    {
        s16x2 branch[1 << N], twice[1 << N];
        branch_metrics(q, branch, twice);
        step_decisions decisions{ row_of(flipped, e), vector_stride };
        if constexpr (Tr::symmetric)
            add_compare_select_symmetric(in, out, branch, twice, moves, decisions);
        else
            add_compare_select_any(in, out, decisions);
        decisions.store();
    }

    // Traces one row of both paths (see traceback()).
    __device__ __forceinline__ static void trace(const unsigned* words_of_row,
                                                 unsigned (&path)[2])
    {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            // Rotated left by p % 32, the word has the decision at bit 31 (the funnel
            // shift takes the amount modulo 32: for S >= 32 p % 32 is the path's).
            const int s = int(path[h] & (S - 1));
            const int first = decision_position<S>(h, 0) / 32; // the segment's words
            unsigned word = words_of_row[first];
            if constexpr (S > 32)
#pragma unroll
                for (int w = 1; w < S / 32; ++w)
                    word = pick(s / 32 == w, words_of_row[first + w], word);
            const unsigned amount = S >= 32 ? path[h] : decision_position<S>(h, s);
            const unsigned decision = __funnelshift_l(word, word, amount);
            path[h] = __funnelshift_l(decision, path[h], 1);
        }
    }

    // Word j of pair p's decided bits: the paths shifted right by shift.
    __device__ __forceinline__ void
    store_word(std::size_t p, int j, const unsigned (&path)[2], int shift) const
    {
        bits_of_pairs[std::size_t(j) * pairs + p] = { path[0] >> shift,
                                                      path[1] >> shift };
    }

    // The previous pair's next row into ring slot \p slot, asynchronously.
    __device__ __forceinline__ void fetch_previous(int slot)
    {
#pragma unroll
        for (int v = 0; v < row::vectors; ++v)
            __pipeline_memcpy_async(ring[slot][v][threadIdx.x],
                                    previous_row + v * vector_stride,
                                    row::width * 4);
        previous_row += row_before(!flipped);
    }

    // The previous pair's first slots - 1 rows on their way, before the first step: the
    // first done, as step 0 writes its place.
    __device__ __forceinline__ void fetch_previous_rows()
    {
        if (!previous)
            return;
        previous_row = row_of(!flipped, run - 1);
        for (int i = 0; i < slots - 1; ++i) {
            if (run - 1 - i >= memory)
                fetch_previous(i);
            __pipeline_commit();
        }
        __pipeline_wait_prior(slots - 2);
    }

    // After step e, row run - 1 - e of the previous pair is traced (its rows below
    // `memory` are not: see traceback()), from slot e % slots (a constant where the
    // caller knows it): step e wrote its row where that row was, so its fetch had to be
    // complete before.
    __device__ __forceinline__ void trace_previous_row(int e, int slot)
    {
        const int r = run - 1 - e;
        if (!previous || r < memory)
            return;
        // All but the latest fetch done: this row's and the next's, whose place the
        // next step overwrites.
        __pipeline_wait_prior(1);
        unsigned words_of_row[words];
#pragma unroll
        for (int v = 0; v < row::vectors; ++v)
            load_words<row::width>(words_of_row + v * row::width,
                                   ring[slot][v][threadIdx.x]);
        trace(words_of_row, previous_path);
        if (((r - memory) & 31) == 0)
            store_word(previous_pair, (r - memory) >> 5, previous_path, 0);
        if (r - (slots - 1) >= memory)
            fetch_previous((slot + slots - 1) % slots);
        __pipeline_commit();
    }

    // The trellis over the pair's run: unrolled_steps steps an iteration, the first
    // moving the metrics (the symmetric form), each step's metrics loaded one step ahead,
    // so that the loads overlap the arithmetic; then one step at a time. Each step
    // traces a row of the previous pair.
    __device__ __forceinline__ void run_trellis(s16x2 (&metric)[S], s16x2 (&next)[S])
    {
        static_assert(slots == 4, "run_trellis() is written out for 4 steps");
        constexpr bool move = true, stay = false;
        s16x2 q[N], q1[N];
        load_branch_metrics(0, 0, q);
        int e = 0;
        for (; e + 4 <= run; e += 4) {
            load_branch_metrics(1 % group_steps, e + 1, q1);
            step(metric, next, q, e, move);
            trace_previous_row(e, 0);
            load_branch_metrics(2 % group_steps, e + 2, q);
            step(next, metric, q1, e + 1, stay);
            trace_previous_row(e + 1, 1);
            load_branch_metrics(3 % group_steps, e + 3, q1);
            step(metric, next, q, e + 2, stay);
            trace_previous_row(e + 2, 2);
            if (e + 4 < run)
                load_branch_metrics(0, e + 4, q);
            step(next, metric, q1, e + 3, stay);
            trace_previous_row(e + 3, 3);
        }
        for (; e < run; ++e) {
            step(metric, next, q, e, move);
#pragma unroll(unroll)
            for (int s = 0; s < S; ++s)
                metric[s] = next[s];
            trace_previous_row(e, e % slots);
            if (e + 1 < run)
                load_branch_metrics((e + 1) % group_steps, e + 1, q);
        }
    }

    // Direct: the owned steps outside whole owned words, then each segment's magnitude
    // sum (as conv/quantize.h's int8_magnitude() has it; segment B of an odd count's
    // last pair repeats A and writes nothing).
    __device__ __forceinline__ void store_owned_sums()
    {
        if constexpr (Direct) {
            if (job.owned) {
                const std::int32_t unit = int8_fixed_unit(job.int8_unit);
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int full_begin = full_from[h] * word_steps,
                              full_end = full_begin + full_words[h] * word_steps;
                    const auto* bytes =
                        reinterpret_cast<const std::int8_t*>(llr_words + first_word[h]);
                    auto add_steps = [&](int from, int to) {
                        for (int j = from * N; j < to * N; ++j)
                            owned_sum[h] += unsigned(std::abs(int(__ldg(bytes + j))));
                    };
                    add_steps(owned_from[h], std::min(owned_to[h], full_begin));
                    add_steps(std::max(full_end, owned_from[h]), owned_to[h]);
                    if (2 * pair + h < segments)
                        job.owned[g[h]] = (long long)owned_sum[h] * unit;
                }
            }
            if (job.scales) // soft output: the scales too, an int8 LLR's metric being q
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    if (2 * pair + h < segments)
                        job.scales[g[h]] = 1.0f / job.int8_unit;
        }
    }

    // End states, where the tracebacks start: 0 after a tail, else the best (by int16
    // difference; ties to the lowest). A tail's run whose best end state is another
    // fails its frame (after the owned sum, which the preparing kernel or this one
    // wrote).
    __device__ __forceinline__ void end_states(const s16x2 (&metric)[S],
                                               unsigned (&path)[2]) const
    {
        int state[2] = { 0, 0 };
        {
            int best[2] = { 0, 0 };
            unsigned best_metric = metric[0].v;
#pragma unroll(unroll)
            for (int s = 1; s < S; ++s) {
                const short lo = short(metric[s].v - best_metric);
                const short hi = short((metric[s].v >> 16) - (best_metric >> 16));
                if (lo > 0) {
                    best[0] = s;
                    best_metric = (best_metric & 0xffff0000u) | (metric[s].v & 0xffffu);
                }
                if (hi > 0) {
                    best[1] = s;
                    best_metric = (best_metric & 0xffffu) | (metric[s].v & 0xffff0000u);
                }
            }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                state[h] = seg[h].end_zero ? 0 : best[h];
                if (seg[h].end_zero && best[h] != 0 && job.owned &&
                    2 * pair + h < segments)
                    job.owned[g[h]] = missed_end_state;
            }
        }
        path[0] = unsigned(state[0]);
        path[1] = unsigned(state[1]);
    }

    // Both tracebacks at once, each path in one register: its state in the low `memory`
    // bits, and each row traced shifts in its decision, the path's bit `memory` steps
    // earlier. So once row r is traced, bit i of the path is the decided bit of step r -
    // memory + i: the word of steps 32 j … (for the writing kernel) is the path right
    // after row 32 j + memory, and rows below `memory` are never traced; the end state is
    // the path as after a row `run`, which gives the last word where its row would lie
    // past the run (stored here).
    __device__ __forceinline__ void store_last_word(const unsigned (&path)[2]) const
    {
        const int last_word = (run - 1) / 32;
        if (run > 0 && 32 * last_word + memory >= run)
            store_word(pair, last_word, path, 32 * last_word + memory - run);
    }

    // Whether the thread has a next pair, which traces this one's paths as it runs.
    __device__ __forceinline__ bool hand_over(const unsigned (&path)[2])
    {
        if (pair + stride >= pairs)
            return false;
        previous = true;
        flipped = !flipped;
        previous_pair = unsigned(pair);
        previous_path[0] = path[0];
        previous_path[1] = path[1];
        return true;
    }

    __device__ __forceinline__ void load_row(const unsigned* row_words,
                                             unsigned* words_of_row) const
    {
#pragma unroll
        for (int v = 0; v < row::vectors; ++v)
            load_words<row::width>(words_of_row + v * row::width,
                                   row_words + v * vector_stride);
    }

    // The thread's last pair, traced alone: after a head of single rows, blocks of
    // `ahead` rows, each loaded `ahead` rows before it is traced (the addresses do not
    // depend on the states), into the slot its block-mate just freed: a word ends only
    // at a block's last row.
    __device__ __forceinline__ void traceback(unsigned (&path)[2]) const
    {
        constexpr int ahead = viterbi_policy::traceback_ahead(words);
        int r = run - 1;
        for (; r >= memory && (r - memory + 1) % ahead != 0; --r) { // to whole blocks
            unsigned words_of_row[words];
            load_row(row_of(flipped, r), words_of_row);
            trace(words_of_row, path);
            if ((r - memory) % 32 == 0)
                store_word(pair, (r - memory) / 32, path, 0);
        }
        if (r >= memory) {
            unsigned block[ahead][words];
            const std::ptrdiff_t before = row_before(flipped);
            const unsigned* next = row_of(flipped, r);
#pragma unroll
            for (int i = 0; i < ahead; ++i, next += before)
                load_row(next, block[i]);
            for (; r >= memory; r -= ahead) {
#pragma unroll
                for (int i = 0; i < ahead; ++i, next += before) {
                    trace(block[i], path);
                    if (r - ahead - i >= memory)
                        load_row(next, block[i]);
                }
                if ((r - ahead + 1 - memory) % 32 == 0)
                    store_word(pair, (r - ahead + 1 - memory) / 32, path, 0);
            }
        }
    }
};

// The decoding kernel: each thread's pairs of segments one after another (viterbi_agent).
template <class Tr, bool Direct, bool Keep>
__global__ void __launch_bounds__(viterbi_policy::threads,
                                  Tr::symmetric ? viterbi_policy::symmetric_min_blocks
                                                : 1)
    viterbi_kernel(const __grid_constant__ trellis t,
                   const __grid_constant__ viterbi_job job,
                   const __grid_constant__ output_signs signs)
{
    using agent_t = viterbi_agent<Tr, Direct, Keep>;
    // Any code's branch metrics go through shared memory: [combination][thread].
    __shared__ unsigned branch_shared[Tr::symmetric ? 1 : 1 << Tr::N]
                                     [viterbi_policy::threads];
    __shared__ __align__(16) typename agent_t::ring_t ring;
    agent_t agent(t, job, signs, &branch_shared[0][threadIdx.x], ring);
    for (std::size_t pair = agent.thread; pair < agent.pairs; pair += agent.stride) {
        s16x2 metric[agent_t::S], next[agent_t::S];
        agent.begin_pair(pair, metric);
        agent.load_first_llrs();
        agent.fetch_previous_rows();
        agent.run_trellis(metric, next);
        agent.store_owned_sums();
        unsigned path[2];
        agent.end_states(metric, path);
        agent.store_last_word(path);
        if (agent.hand_over(path))
            continue; // traced while the next pair runs
        agent.traceback(path);
    }
}

// A thread per 16 bits of a window's output, each from the word of the segment that
// decides it (the segments sorted by their first decided bit; bits no segment decides
// are left alone): consecutive threads write consecutive bits, 16 bytes at once where
// aligned.
constexpr int bits_per_writer = viterbi_policy::bits_per_writer;

__global__ void write_bits_kernel(const __grid_constant__ viterbi_job job,
                                  const uint2* words, // [word][pair], (A, B)
                                  std::size_t pairs,
                                  long long span_begin,
                                  long long span_end)
{
    const long long chunks =
        (span_end - span_begin + bits_per_writer - 1) / bits_per_writer;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= chunks * job.windows)
        return;
    const std::size_t w = std::size_t(t / chunks);
    const long long k0 = span_begin + (t % chunks) * bits_per_writer;
    // The last segment whose first decided bit is at most k0.
    int lo = 0, hi = job.per_window - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (job.segments[mid].begin <= k0)
            lo = mid;
        else
            hi = mid - 1;
    }
    int s = lo;
    device_segment seg = job.segments[s];
    std::uint8_t* const out = job.bits + w * job.out_stride + (k0 - job.out_origin);
    const long long k1 = k0 + bits_per_writer;
    if (k0 >= seg.begin && k1 <= seg.end && k1 <= span_end) {
        // The common case: all from one segment, from one or two words; each 4 bits
        // spread to the low bits of 4 bytes by one multiply.
        const std::size_t g = w * job.per_window + s;
        const long long r = k0 - seg.first;
        const uint2 a = words[std::size_t(r / 32) * pairs + g / 2];
        const uint2 b =
            words[std::size_t((r + bits_per_writer - 1) / 32) * pairs + g / 2];
        const unsigned bits =
            __funnelshift_r(g % 2 ? a.y : a.x, g % 2 ? b.y : b.x, r % 32);
        unsigned v[4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
            v[i] = ((bits >> 4 * i) & 0xfu) * 0x00204081u & 0x01010101u;
        if (reinterpret_cast<std::uintptr_t>(out) % 16 == 0)
            *reinterpret_cast<uint4*>(out) = { v[0], v[1], v[2], v[3] };
        else
            for (int i = 0; i < bits_per_writer; ++i)
                out[i] = std::uint8_t(v[i / 4] >> 8 * (i % 4));
        return;
    }
    // Bits of several segments, or some no segment decides: one at a time.
    for (int i = 0; i < bits_per_writer; ++i) {
        const long long k = k0 + i;
        while (k >= seg.end && s + 1 < job.per_window)
            seg = job.segments[++s];
        if (k >= seg.begin && k < seg.end && k < span_end) {
            const std::size_t g = w * job.per_window + s;
            const long long r = k - seg.first;
            const uint2 both = words[std::size_t(r / 32) * pairs + g / 2];
            out[i] = ((g % 2 ? both.y : both.x) >> (r % 32)) & 1u;
        }
    }
}

__global__ void frame_status_kernel(const long long* owned,
                                    int per_window,
                                    int windows,
                                    std::size_t sent,
                                    int* iterations,
                                    unsigned char* passed)
{
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= windows)
        return;
    long long sum = 0;
    bool ends_as_sent = true;
    for (int i = 0; i < per_window; ++i) {
        const long long o = owned[std::size_t(w) * per_window + i];
        ends_as_sent &= o != missed_end_state;
        sum += o;
    }
    iterations[w] = 0;
    passed[w] = ends_as_sent && sent > 0 &&
                magnitude(sum) / double(sent) >= core::information_floor;
}

// The preparing kernel, unless the decoding kernel reads the LLRs itself.
template <class In, int N>
void launch_prepare(
    const viterbi_job& job, unsigned inverted, int states, bool direct, cudaStream_t s)
{
    if (direct)
        return;
    const std::size_t pairs = segment_pairs(std::size_t(job.per_window) * job.windows);
    const unsigned blocks = unsigned((pairs + prepare_pairs - 1) / prepare_pairs);
    auto go = [&](auto kernel) {
        kernel<<<blocks, prepare_threads, 0, s>>>(job, inverted, states);
        GPUTURBO_CUDA_CHECK_LAUNCH();
    };
    const bool punctured = job.sent_index != nullptr;
    if (job.circular)
        return punctured ? go(prepare_kernel<In, N, true, true>)
                         : go(prepare_kernel<In, N, true, false>);
    return punctured ? go(prepare_kernel<In, N, false, true>)
                     : go(prepare_kernel<In, N, false, false>);
}

template <class In>
void launch_prepare(const trellis& t, const viterbi_job& job, bool direct, cudaStream_t s)
{
    const int states = 1 << (t.constraint - 1);
    switch (t.outputs) {
    case 2:
        return launch_prepare<In, 2>(job, t.inverted, states, direct, s);
    case 3:
        return launch_prepare<In, 3>(job, t.inverted, states, direct, s);
    case 4:
        return launch_prepare<In, 4>(job, t.inverted, states, direct, s);
    }
    throw std::logic_error("launch_viterbi: " + std::to_string(t.outputs) + " outputs");
}

// Calls use(kernel, direct) with the decoding kernel of Tr that reads the LLRs itself
// (direct; keeping the metrics for soft output where \p keep) or the prepared metrics.
template <class Tr, class Use>
void with_kernel(bool direct, bool keep, const Use& use)
{
    if constexpr (Tr::N == 2 || Tr::N == 4)
        if (direct)
            return keep ? use(viterbi_kernel<Tr, true, true>, true)
                        : use(viterbi_kernel<Tr, true, false>, true);
    use(viterbi_kernel<Tr, false, false>, false);
}

// Calls use(kernel, direct) with the decoding kernel of t's code.
template <class Use>
void with_decoding_kernel(const trellis& t, bool direct, bool keep, const Use& use)
{
    with_code(t, "launch_viterbi", [&](auto code) {
        with_kernel<typename decltype(code)::type>(direct, keep, use);
    });
}

// A decoding kernel's threads that the current GPU holds at once.
struct resident_threads
{
    std::size_t* most;

    template <class Kernel>
    void operator()(Kernel kernel, bool) const
    {
        int device = 0, sms = 0, per_sm = 0;
        GPUTURBO_CUDA_TRY(cudaGetDevice(&device));
        GPUTURBO_CUDA_TRY(
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        GPUTURBO_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, kernel, viterbi_policy::threads, 0));
        *most = std::max(
            *most, std::size_t(std::max(per_sm, 1)) * sms * viterbi_policy::threads);
    }
};

// Launches a decoding kernel over the job's pairs: a grid of job.threads at most, whose
// threads then decode several pairs each (viterbi_kernel).
struct decoding_launch
{
    const trellis& t;
    const viterbi_job& job;
    cudaStream_t s;

    template <class Kernel>
    void operator()(Kernel kernel, bool direct) const
    {
        const std::size_t pairs =
            segment_pairs(std::size_t(job.per_window) * job.windows);
        kernel<<<unsigned(decoding_blocks(pairs, job.threads)),
                 viterbi_policy::threads,
                 0,
                 s>>>(t, job, direct ? signs_of(t, job) : output_signs{});
        GPUTURBO_CUDA_CHECK_LAUNCH();
    }
};

} // namespace

std::size_t decoding_threads(const trellis& t)
{
    std::size_t most = 0;
    for (const bool direct : { false, true })
        for (const bool keep : { false, true })
            with_decoding_kernel(t, direct, keep, resident_threads{ &most });
    return most;
}

std::size_t
scratch_bytes(const trellis& t, std::size_t segments, int run, std::size_t threads)
{
    return scratch_layout(1 << (t.constraint - 1), t.outputs, segments, run, threads)
        .bytes;
}

trellis make_trellis(const code& c)
{
    trellis t{};
    t.constraint = c.constraint;
    t.outputs = c.outputs();
    for (int o = 0; o < c.outputs(); ++o) {
        t.polynomials[o] = c.polynomials[o];
        t.inverted |= unsigned(c.inverted[o]) << o;
    }
    code uninverted = c;
    uninverted.inverted.assign(c.outputs(), false);
    const std::vector<std::uint8_t> table = branch_outputs(uninverted);
    std::copy(table.begin(), table.end(), t.branch_outputs);
    return t;
}

const uint4* prepared_metrics(const trellis& t, const viterbi_job& job)
{
    const scratch_layout l(1 << (t.constraint - 1),
                           t.outputs,
                           std::size_t(job.per_window) * job.windows,
                           job.run,
                           job.threads);
    return reinterpret_cast<const uint4*>(job.scratch + l.metrics);
}

void launch_viterbi(const trellis& t, const viterbi_job& job, cudaStream_t s)
{
    if (job.per_window == 0 || job.windows == 0)
        return;
    if (job.threads == 0)
        throw std::logic_error("launch_viterbi: no decoding threads");
    const bool direct = reads_llrs(t, job);
    if (job.int8)
        launch_prepare<std::int8_t>(t, job, direct, s);
    else
        launch_prepare<float>(t, job, direct, s);
    with_decoding_kernel(t, direct, job.scales != nullptr, decoding_launch{ t, job, s });
    const std::size_t segments = std::size_t(job.per_window) * job.windows;
    const scratch_layout l(
        1 << (t.constraint - 1), t.outputs, segments, job.run, job.threads);
    const long long writers =
        (job.decided_end - job.decided_begin + bits_per_writer - 1) / bits_per_writer *
        job.windows;
    if (writers == 0)
        return;
    write_bits_kernel<<<unsigned((writers + viterbi_policy::threads - 1) /
                                 viterbi_policy::threads),
                        viterbi_policy::threads,
                        0,
                        s>>>(job,
                             reinterpret_cast<const uint2*>(job.scratch + l.bits),
                             l.pairs,
                             job.decided_begin,
                             job.decided_end);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

void launch_frame_status(const long long* owned,
                         int per_window,
                         int windows,
                         std::size_t sent,
                         int* iterations,
                         unsigned char* passed,
                         cudaStream_t s)
{
    if (windows == 0)
        return;
    const unsigned blocks =
        unsigned((windows + viterbi_policy::threads - 1) / viterbi_policy::threads);
    frame_status_kernel<<<blocks, viterbi_policy::threads, 0, s>>>(
        owned, per_window, windows, sent, iterations, passed);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

} // namespace gputurbo::conv::cuda
