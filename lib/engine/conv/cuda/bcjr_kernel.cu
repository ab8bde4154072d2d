/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/cuda/error.h"
#include "core/cuda/s16x2.cuh"
#include "../fast_bcjr.h"
#include "bcjr_kernel.cuh"
#include "codes.cuh"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>

namespace gputurbo::conv::cuda {
namespace {

using core::cuda::s16x2;

// Threads of a block, and blocks an SM holds: each thread has a pair's S metrics to
// work on a step, independent work enough to keep an SM busy with few threads, whose
// window slots (of every state) share its shared memory: at K = 7, two warps a
// scheduler, with windows of four steps (three slots).
constexpr int bcjr_threads = 128;
constexpr int bcjr_blocks_per_sm = 2;
// Shared memory words of a block's window slots.
constexpr int slot_words = 48 * 1024 / bcjr_blocks_per_sm;

// Steps of a window (fast_bcjr.h): its slots, one fewer, of a block's threads fill its
// shared memory.
constexpr int window_of(int states)
{
    const int slots = slot_words / (states * bcjr_threads);
    return slots < 1 ? 1 : (slots > 31 ? 32 : slots + 1);
}

// The packed pair as fast_bcjr.h's lanes.
struct s16x2_ops
{
    using V = s16x2;
    __device__ static V splat(int x) { return { (unsigned(x) & 0xffffu) * 0x10001u }; }
    __device__ static V add(V a, V b) { return a + b; }
    __device__ static V sub(V a, V b) { return a - b; }
    __device__ static V max(V a, V b) { return { __vmaxs2(a.v, b.v) }; }
    __device__ static V add_max(V a, V b, V c) { return core::cuda::add_max(a, b, c); }
};

// The code as fast_bcjr.h reads it.
template <class Tr>
struct pair_code
{
    static constexpr int K = Tr::K, N = Tr::N;
    const trellis& t;
    __device__ unsigned pattern(int ns, int b) const { return Tr::pattern(t, ns, b); }
};

// A thread's pair of segments as fast_bcjr.h's run reads and writes it: the prepared
// metrics, its checkpoints ([checkpoint][state][thread] in global memory), its window
// slots ([slot][state][thread] in the block's shared memory), and the LLRs out.
template <class Tr>
struct pair_io
{
    static constexpr int N = Tr::N, S = 1 << (Tr::K - 1);
    static constexpr int group_steps = group_steps_of(N);

    const viterbi_job& job;
    const uint4* groups; // the pair's first group of metrics
    std::size_t pairs;
    unsigned* checkpoints; // the thread's first word
    std::size_t threads;   // of the grid: the checkpoints' stride
    unsigned* slots;       // the thread's first word
    bool real[2];          // B of an odd count's last pair repeats A: not written
    int start_zero[2], end_zero[2];
    int from[2], to[2]; // run steps whose LLRs each writes: [from, to)
    float* out[2];      // where the LLR of run step from goes
    float factor[2];    // from an output to an LLR

    __device__ pair_io(const viterbi_job& job,
                       const soft_job& soft,
                       const uint4* prepared,
                       std::size_t pair,
                       unsigned* checkpoint_words,
                       unsigned* slot_words)
        : job(job),
          groups(prepared + pair),
          pairs(segment_pairs(std::size_t(job.per_window) * job.windows)),
          checkpoints(checkpoint_words + std::size_t(blockIdx.x) * blockDim.x +
                      threadIdx.x),
          threads(std::size_t(gridDim.x) * blockDim.x),
          slots(slot_words + threadIdx.x)
    {
        const std::size_t segments = std::size_t(job.per_window) * job.windows;
        for (int h = 0; h < 2; ++h) {
            const std::size_t g = std::min(2 * pair + h, segments - 1);
            real[h] = 2 * pair + h < segments;
            const device_segment seg = job.segments[g % job.per_window];
            start_zero[h] = seg.start_zero;
            end_zero[h] = seg.end_zero;
            from[h] = int(std::clamp(seg.begin - seg.first, 0ll, (long long)job.run));
            to[h] = int(
                std::clamp(seg.end - seg.first, (long long)from[h], (long long)job.run));
            out[h] = soft_values(soft, g, seg.begin);
            factor[h] = (soft.invert ? -0.5f : 0.5f) / job.scales[g];
        }
    }

    __device__ float* soft_values(const soft_job& soft, std::size_t g, long long k) const
    {
        return soft.values + g / job.per_window * job.out_stride + (k - job.out_origin);
    }

    __device__ int steps() const { return job.run; }
    __device__ int wanted_begin() const { return min(from[0], from[1]); }
    __device__ int wanted_end() const { return max(to[0], to[1]); }

    // The group of metrics of the step last read, and the next one the way the run
    // goes, loaded a group ahead so that the loads' latency hides behind the steps.
    int held_group = -1, ahead_group = -1;
    uint4 held, ahead_metrics;

    __device__ uint4 group_of(int t)
    {
        const int g = t / group_steps;
        if (g != held_group) {
            const int next = g < held_group ? g - 1 : g + 1;
            held = g == ahead_group ? ahead_metrics : load_group(g);
            held_group = g;
            ahead_group = next;
            if (next >= 0 && next * group_steps < job.run)
                ahead_metrics = load_group(next);
        }
        return held;
    }
    __device__ uint4 load_group(int g) const
    {
        return __ldg(groups + std::size_t(g) * pairs);
    }

    __device__ void metrics(int t, s16x2 (&m)[N])
    {
        group_step_metrics(group_of(t), t % group_steps, m);
    }

    // State 0, or every state alike, per half.
    __device__ static s16x2 first_metric(int s, int zero_a, int zero_b)
    {
        constexpr int behind = fast_bcjr::penalty(Tr::K, N);
        if (s == 0)
            return { 0u };
        return { (unsigned(zero_a ? -behind : 0) & 0xffffu) |
                 (unsigned(zero_b ? -behind : 0) << 16) };
    }
    __device__ s16x2 start(int s) const
    {
        return first_metric(s, start_zero[0], start_zero[1]);
    }
    __device__ s16x2 end(int s) const
    {
        return first_metric(s, end_zero[0], end_zero[1]);
    }

    __device__ void save(int c, int s, s16x2 v) const
    {
        checkpoints[(std::size_t(c) * S + s) * threads] = v.v;
    }
    __device__ s16x2 load(int c, int s) const
    {
        return { checkpoints[(std::size_t(c) * S + s) * threads] };
    }
    // Each lane fetches two of the warp's lines of checkpoint c (a line a state: the
    // threads' words side by side) into L2.
    __device__ void ahead(int c) const
    {
        const unsigned lane = threadIdx.x % 32;
        const unsigned* first = checkpoints - lane + std::size_t(c) * S * threads;
#pragma unroll
        for (int s = 0; s < S; s += 32)
            if (s + lane < S)
                asm volatile(
                    "prefetch.global.L2 [%0];" ::"l"(first + (s + lane) * threads));
    }
    __device__ void keep(int i, int s, s16x2 v) const
    {
        slots[(i * S + s) * bcjr_threads] = v.v;
    }
    __device__ s16x2 kept(int i, int s) const
    {
        return { slots[(i * S + s) * bcjr_threads] };
    }

    __device__ void write(int t, s16x2 v) const
    {
#pragma unroll
        for (int h = 0; h < 2; ++h)
            if (real[h] && t >= from[h] && t < to[h]) {
                const int x = short(h ? v.v >> 16 : v.v & 0xffffu);
                out[h][t - from[h]] =
                    fminf(fmaxf(float(x) * factor[h], -core::llr_limit), core::llr_limit);
            }
    }
};

template <class Tr>
__global__ void __launch_bounds__(bcjr_threads, bcjr_blocks_per_sm)
    bcjr_kernel(const __grid_constant__ trellis t,
                const __grid_constant__ viterbi_job job,
                const __grid_constant__ soft_job soft,
                const uint4* prepared)
{
    constexpr int window = window_of(1 << (Tr::K - 1));
    extern __shared__ unsigned slots[];
    const std::size_t pairs = segment_pairs(std::size_t(job.per_window) * job.windows);
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs;
         p += threads) {
        pair_io<Tr> io(
            job, soft, prepared, p, reinterpret_cast<unsigned*>(soft.checkpoints), slots);
        fast_bcjr::kernel<s16x2_ops, pair_code<Tr>>::template run<window>(
            pair_code<Tr>{ t }, io);
    }
}

// use(kernel, shared memory bytes, window) for t's code, which fits().
template <class Use>
void with_bcjr_kernel(const trellis& t, const Use& use)
{
    with_code(t, "launch_bcjr", [&](auto code) {
        using Tr = typename decltype(code)::type;
        if constexpr (fast_bcjr::fits(Tr::K, Tr::N)) {
            constexpr int S = 1 << (Tr::K - 1), window = window_of(S);
            const std::size_t shared = std::size_t(window - 1) * S * bcjr_threads * 4;
            // More than 48 KiB of it, on the current device (each of several GPUs).
            GPUTURBO_CUDA_TRY(
                cudaFuncSetAttribute(bcjr_kernel<Tr>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(shared)));
            use(bcjr_kernel<Tr>, shared, window);
        } else {
            throw std::logic_error("launch_bcjr: the code does not fit in int16");
        }
    });
}

// Blocks of t's BCJR grid for \p pairs: one a pair's thread, at most what the current
// GPU holds at once.
std::size_t grid_blocks(const trellis& t, std::size_t pairs)
{
    std::size_t most = 0;
    with_bcjr_kernel(t, [&](auto kernel, std::size_t shared, int) {
        int device = 0, sms = 0, per_sm = 0;
        GPUTURBO_CUDA_TRY(cudaGetDevice(&device));
        GPUTURBO_CUDA_TRY(
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        GPUTURBO_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, kernel, bcjr_threads, shared));
        most = std::size_t(std::max(per_sm, 1)) * sms;
    });
    return std::min((pairs + bcjr_threads - 1) / bcjr_threads, most);
}

} // namespace

std::size_t bcjr_checkpoint_bytes(const trellis& t, const viterbi_job& job)
{
    const std::size_t pairs = segment_pairs(std::size_t(job.per_window) * job.windows);
    std::size_t bytes = 0;
    with_bcjr_kernel(t, [&](auto, std::size_t, int window) {
        const std::size_t checkpoints = std::size_t((job.run + window - 1) / window);
        bytes = grid_blocks(t, pairs) * bcjr_threads * checkpoints *
                (std::size_t(1) << (t.constraint - 1)) * 4;
    });
    return bytes;
}

void launch_bcjr(const trellis& t,
                 const viterbi_job& job,
                 const soft_job& soft,
                 cudaStream_t s)
{
    const std::size_t pairs = segment_pairs(std::size_t(job.per_window) * job.windows);
    if (pairs == 0)
        return;
    const unsigned blocks = unsigned(grid_blocks(t, pairs));
    const uint4* prepared = prepared_metrics(t, job);
    with_bcjr_kernel(t, [&](auto kernel, std::size_t shared, int) {
        kernel<<<blocks, bcjr_threads, shared, s>>>(t, job, soft, prepared);
        GPUTURBO_CUDA_CHECK_LAUNCH();
    });
}

} // namespace gputurbo::conv::cuda
