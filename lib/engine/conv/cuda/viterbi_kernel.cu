/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../../core/cuda/error.h"
#include "../../core/cuda/llr.cuh"
#include "../../core/cuda/s16x2.cuh"
#include "../quantize.h"
#include "viterbi_kernel.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::conv::cuda {
namespace {

using core::cuda::s16x2;

// Decision words per step and thread: 16 states each, segment A's bits in the low half
// and segment B's in the high half, as in the metric registers.
constexpr int words_for(int states) { return (states + 15) / 16; }

constexpr int log2_of(int x) { return x > 1 ? 1 + log2_of(x / 2) : 0; }

// Loops over states are unrolled up to K = 7, so that every metric lives in a register;
// K = 8 and 9 keep theirs in local memory.
constexpr int unrolled_states = 64;

// One segment's view of its window.
struct reader
{
    const viterbi_job& job;
    const void* llrs; // the window's
    int outputs;

    __device__ float operator()(long long step, int o) const
    {
        if (job.circular) {
            step %= job.steps;
            if (step < 0)
                step += job.steps;
        }
        long long c = step * outputs + o;
        if (job.sent_index) {
            c = job.sent_index[c];
            if (c < 0)
                return 0.0f; // punctured: an erasure
        }
        const float raw =
            job.int8 ? float(static_cast<const std::int8_t*>(llrs)[c]) * job.int8_unit
                     : static_cast<const float*>(llrs)[c];
        return core::cuda::sanitize(raw, job.invert);
    }
};

// The magnitudes of a segment's run (all of it, and its owned steps), as the CPU
// decoder sums them.
__device__ void measure(const reader& read,
                        const device_segment& s,
                        int run,
                        magnitudes& all,
                        magnitudes& own)
{
    for (int e = 0; e < run; ++e) {
        const long long k = s.first + e;
        const bool owning = k >= s.begin && k < s.owned_end;
        for (int o = 0; o < read.outputs; ++o) {
            const float v = read(k, o);
            all.add(v);
            if (owning)
                own.add(v);
        }
    }
}

__device__ __forceinline__ unsigned pack(int a, int b)
{
    return (unsigned(a) & 0xffffu) | (unsigned(b) << 16);
}

// The Viterbi of two segments (A, B), each over its window: S states, N outputs.
template <int S, int N>
__global__ void __launch_bounds__(threads_per_block)
    viterbi_kernel(const __grid_constant__ trellis t,
                   const __grid_constant__ viterbi_job job)
{
    constexpr int words = words_for(S);
    constexpr int memory = log2_of(S); // K - 1
    constexpr int unroll = S <= unrolled_states ? S : 1;
    __shared__ unsigned branch_shared[1 << max_outputs][threads_per_block];
    const std::size_t segments = std::size_t(job.per_window) * job.windows;
    const std::size_t pairs = segment_pairs(segments);
    const std::size_t pair = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (pair >= pairs)
        return;
    const int run = job.run;
    // Segment B of an odd count's last pair repeats A, its results dropped.
    const std::size_t g[2] = { 2 * pair, std::min(2 * pair + 1, segments - 1) };
    const bool has_b = 2 * pair + 1 < segments;
    device_segment seg[2];
    reader read[2] = { { job, nullptr, N }, { job, nullptr, N } };
    float scale[2];
    for (int h = 0; h < 2; ++h) {
        const std::size_t w = g[h] / job.per_window;
        seg[h] = job.segments[g[h] % job.per_window];
        read[h].llrs =
            job.int8
                ? static_cast<const void*>(static_cast<const std::int8_t*>(job.llrs) +
                                           w * job.window_stride)
                : static_cast<const void*>(static_cast<const float*>(job.llrs) +
                                           w * job.window_stride);
        magnitudes all, own;
        measure(read[h], seg[h], run, all, own);
        scale[h] = quantization_scale(all);
        if (job.owned && (h == 0 || has_b))
            job.owned[g[h]] = own.total;
    }

    // Paths not from state 0 start this far behind (conv/cpu/viterbi_kernel_impl.h).
    const int behind = memory * 2 * N * max_metric + 1;
    s16x2 metric[S], next[S];
#pragma unroll(unroll)
    for (int s = 0; s < S; ++s)
        metric[s].v = s == 0 ? 0u
                             : pack(seg[0].start_zero ? -behind : 0,
                                    seg[1].start_zero ? -behind : 0);

    unsigned* branch = &branch_shared[0][threadIdx.x];
    const std::size_t thread_stride = pairs;
    std::uint32_t* decided = job.decisions + pair;
    // One trellis step: metrics in -> out, decisions to step e's words.
    auto step = [&](const s16x2* in, s16x2* out, int e) {
        int q[2][N];
#pragma unroll
        for (int o = 0; o < N; ++o)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                q[h][o] = quantize(read[h](seg[h].first + e, o), scale[h]);
#pragma unroll
        for (int c = 0; c < (1 << N); ++c) {
            int a = 0, b = 0;
#pragma unroll
            for (int o = 0; o < N; ++o) {
                const bool one = (c >> o) & 1;
                a += one ? -q[0][o] : q[0][o];
                b += one ? -q[1][o] : q[1][o];
            }
            branch[c * threads_per_block] = pack(a, b);
        }
        unsigned word[words];
#pragma unroll
        for (int w = 0; w < words; ++w)
            word[w] = 0;
#pragma unroll(unroll)
        for (int ns = 0; ns < S / 2; ++ns) {
            const s16x2 a = in[2 * ns], b = in[2 * ns + 1];
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int to = ns + half * (S / 2);
                const s16x2 m0 =
                    a + s16x2{ branch[t.branch_outputs[2 * to] * threads_per_block] };
                const s16x2 m1 =
                    b + s16x2{ branch[t.branch_outputs[2 * to + 1] * threads_per_block] };
                // max(m0, m1) in wrapping arithmetic: m1 + max(m0 - m1, 0); the sign of
                // m0 - m1 is the decision (1: p_1 is strictly better; ties keep p_0).
                const s16x2 d = m0 - m1;
                out[to] = m1 + s16x2{ __vimax_s16x2_relu(d.v, 0u) };
                const int k = to % 16;
                word[to / 16] |= (d.v >> (15 - k)) & (0x00010001u << k);
            }
        }
#pragma unroll
        for (int w = 0; w < words; ++w)
            decided[(std::size_t(e) * words + w) * thread_stride] = word[w];
    };
    int e = 0;
    for (; e + 2 <= run; e += 2) {
        step(metric, next, e);
        step(next, metric, e + 1);
    }
    if (e < run) {
        step(metric, next, e);
#pragma unroll(unroll)
        for (int s = 0; s < S; ++s)
            metric[s] = next[s];
    }

    // End states: 0 after a tail, else the best (by int16 difference; ties to the
    // lowest).
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
        for (int h = 0; h < 2; ++h)
            state[h] = seg[h].end_zero ? 0 : best[h];
    }
    // Both tracebacks at once: their chains of dependent loads overlap.
    std::uint8_t* out[2];
    for (int h = 0; h < 2; ++h) {
        const std::size_t w = g[h] / job.per_window;
        out[h] = job.bits + w * job.out_stride + (seg[h].begin - job.out_origin);
    }
    const long long lo[2] = { seg[0].begin - seg[0].first, seg[1].begin - seg[1].first };
    const long long hi[2] = { seg[0].end - seg[0].first, seg[1].end - seg[1].first };
    for (int r = run - 1; r >= 0; --r) {
        const std::uint32_t* row = decided + std::size_t(r) * words * thread_stride;
        for (int h = 0; h < 2; ++h) {
            if (r >= lo[h] && r < hi[h] && (h == 0 || has_b))
                out[h][r - lo[h]] = std::uint8_t(state[h] >> (memory - 1));
            const unsigned word = row[std::size_t(state[h] / 16) * thread_stride];
            const int d = (word >> (h * 16 + state[h] % 16)) & 1u;
            state[h] = ((state[h] << 1) & (S - 1)) | d;
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
    for (int i = 0; i < per_window; ++i)
        sum += owned[std::size_t(w) * per_window + i];
    iterations[w] = 0;
    passed[w] = sent > 0 && magnitude(sum) / double(sent) >= core::information_floor;
}

template <int S, int N>
void launch(const trellis& t, const viterbi_job& job, cudaStream_t s)
{
    const std::size_t pairs = segment_pairs(std::size_t(job.per_window) * job.windows);
    const unsigned blocks = unsigned((pairs + threads_per_block - 1) / threads_per_block);
    viterbi_kernel<S, N><<<blocks, threads_per_block, 0, s>>>(t, job);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

template <int S>
void launch_states(const trellis& t, const viterbi_job& job, cudaStream_t s)
{
    switch (t.outputs) {
    case 2:
        return launch<S, 2>(t, job, s);
    case 3:
        return launch<S, 3>(t, job, s);
    case 4:
        return launch<S, 4>(t, job, s);
    }
    throw std::logic_error("launch_viterbi: " + std::to_string(t.outputs) + " outputs");
}

} // namespace

std::size_t decision_words(const trellis& t, std::size_t segments, int run)
{
    return segment_pairs(segments) * std::size_t(run) *
           words_for(1 << (t.constraint - 1));
}

void launch_viterbi(const trellis& t, const viterbi_job& job, cudaStream_t s)
{
    if (job.per_window == 0 || job.windows == 0)
        return;
    switch (t.constraint) {
    case 3:
        return launch_states<4>(t, job, s);
    case 4:
        return launch_states<8>(t, job, s);
    case 5:
        return launch_states<16>(t, job, s);
    case 6:
        return launch_states<32>(t, job, s);
    case 7:
        return launch_states<64>(t, job, s);
    case 8:
        return launch_states<128>(t, job, s);
    case 9:
        return launch_states<256>(t, job, s);
    }
    throw std::logic_error("launch_viterbi: constraint length " +
                           std::to_string(t.constraint));
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
        unsigned((windows + threads_per_block - 1) / threads_per_block);
    frame_status_kernel<<<blocks, threads_per_block, 0, s>>>(
        owned, per_window, windows, sent, iterations, passed);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

} // namespace gputurbo::conv::cuda
