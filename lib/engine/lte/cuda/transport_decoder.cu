/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transport-block receiver on one GPU. A call copies the LLRs of every transport
// block in, then runs on the GPU alone: the scrambling sequences, one kernel that
// descrambles, quantises and combines every code block's LLRs into its soft buffer
// (which stays on the GPU) and the turbo decoder's input, the turbo kernels (one launch
// per block size and CRC, the sizes side by side on four streams), and one kernel that
// checks each decided code block against its soft values (decision_check.h) and one
// that concatenates each transport block and checks its CRC-24A; then the data and the
// results come back. A call's transport blocks go in chunks through two slots, so that
// one chunk's copies overlap another's kernels. The arithmetic of the soft buffers is
// the CPU receiver's, value for value.

#include "core/cuda/llr.cuh"
#include "core/cuda/memory.h"
#include "core/cuda/pipeline.h"
#include "core/cuda/runtime.h"
#include "core/cuda/slot_ring.h"
#include "core/thread_pool.h"
#include "../decision_check.h"
#include "../transport_plan.h"
#include "transport_decoder.h"

#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/device_kernels.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

namespace gputurbo::lte::cuda {
namespace {

using core::cuda::device_array;
using core::cuda::pinned_array;

// A codeword position's entry in a block's inverse table: the index of its bit among
// those the circular buffer sends, or one of these.
constexpr std::int32_t not_sent = -1;
constexpr std::int32_t filler_bit = -2; // a known zero: +127 in a new buffer

// One code block's work in combine_kernel.
struct combine_job
{
    const void* llrs;                // its E LLRs: float, or int8
    const std::uint32_t* scrambling; // its transport block's c(n), 32 a word, or null
    const std::int32_t* inverse;     // [length] see not_sent, filler_bit
    std::int8_t* buffer;             // its soft buffer's codeword, or null (no HARQ)
    std::int8_t* input;              // the turbo decoder's input codeword
    int llr_first;                   // its first LLR's n in the scrambling sequence
    int E, sent, start, length;
    bool int8, fresh, invert;
};

using core::cuda::quantize_llr;

// LLRs of a code block in shared memory at once; a longer transmission goes in tiles.
constexpr int combine_tile = 16384;
constexpr int combine_threads = 256;

// A thread block per code block. Its LLRs come into shared memory as they were sent
// (coalesced), quantised and in the engine's sign (descrambled, inverted); then each
// thread takes four codeword positions at a time (codewords are 3K + 12 values, a
// multiple of 4, and start on multiples of 4): the position's soft value, plus every LLR
// sent from it (bit k of the E goes to sent index (start + k) mod sent), in the order
// sent, each add saturated as on the CPU.
__global__ void combine_kernel(const combine_job* jobs, float scale)
{
    __shared__ std::int8_t q[combine_tile];
    const combine_job j = jobs[blockIdx.x];
    for (int first = 0; first == 0 || first < j.E; first += combine_tile) {
        const int end = min(j.E, first + combine_tile);
        for (int k = first + int(threadIdx.x); k < end; k += blockDim.x) {
            int v = j.int8 ? max(int(static_cast<const std::int8_t*>(j.llrs)[k]), -127)
                           : quantize_llr(static_cast<const float*>(j.llrs)[k], scale);
            bool flip = j.invert;
            if (j.scrambling) {
                const unsigned n = unsigned(j.llr_first + k);
                flip ^= (j.scrambling[n >> 5] >> (n & 31u)) & 1u;
            }
            q[k - first] = std::int8_t(flip ? -v : v);
        }
        __syncthreads();
        const bool last = end >= j.E;
        for (int c = 4 * int(threadIdx.x); c < j.length; c += 4 * int(blockDim.x)) {
            const int4 inverse = *reinterpret_cast<const int4*>(j.inverse + c);
            const int in[4] = { inverse.x, inverse.y, inverse.z, inverse.w };
            // The values so far: the buffer's (or a new one's) in the first tile, the
            // decoder input's after.
            char4 old = make_char4(0, 0, 0, 0);
            if (first > 0)
                old = *reinterpret_cast<const char4*>(j.input + c);
            else if (!j.fresh)
                old = *reinterpret_cast<const char4*>(j.buffer + c);
            const int before[4] = { old.x, old.y, old.z, old.w };
            int v[4];
            for (int p = 0; p < 4; ++p) {
                const int i = in[p];
                v[p] = first == 0 && j.fresh ? (i == filler_bit ? 127 : 0) : before[p];
                if (i < 0)
                    continue;
                int k = i >= j.start ? i - j.start : i - j.start + j.sent;
                if (k < first) // the first of its bits in this tile
                    k += (first - k + j.sent - 1) / j.sent * j.sent;
                for (; k < end; k += j.sent) {
                    v[p] += q[k - first];
                    v[p] = v[p] > 127 ? 127 : (v[p] < -127 ? -127 : v[p]);
                }
            }
            const char4 out = make_char4(char(v[0]), char(v[1]), char(v[2]), char(v[3]));
            if (last && j.buffer)
                *reinterpret_cast<char4*>(j.buffer + c) = out;
            *reinterpret_cast<char4*>(j.input + c) = out;
        }
        __syncthreads();
    }
}

// The 36.211 §7.2 registers (bit i holds x(k + i)) are advanced by matrices: column i
// of jump[k] is the register 2^k steps after the unit register e_i.
constexpr int jump_steps = 32; // 2^31 steps at most
using jump_table = std::array<std::uint32_t, 31 * jump_steps>;

__host__ __device__ std::uint32_t apply(const std::uint32_t* columns, std::uint32_t state)
{
    std::uint32_t out = 0;
    for (int i = 0; i < 31; ++i)
        out ^= ((state >> i) & 1u) ? columns[i] : 0u;
    return out;
}

__host__ __device__ std::uint32_t step(std::uint32_t reg, bool x2)
{
    const std::uint32_t b =
        x2 ? ((reg >> 3) ^ (reg >> 2) ^ (reg >> 1) ^ reg) & 1u : ((reg >> 3) ^ reg) & 1u;
    return (reg >> 1) | (b << 30);
}

jump_table make_jumps(bool x2)
{
    jump_table t{};
    for (int i = 0; i < 31; ++i)
        t[std::size_t(i)] = step(1u << i, x2);
    for (int k = 1; k < jump_steps; ++k)
        for (int i = 0; i < 31; ++i)
            t[std::size_t(31 * k + i)] =
                apply(&t[std::size_t(31 * (k - 1))], t[std::size_t(31 * (k - 1) + i)]);
    return t;
}

// The registers advanced by n steps.
__host__ __device__ std::uint32_t
advance(const std::uint32_t* jumps, std::uint32_t reg, unsigned n)
{
    for (int k = 0; n != 0; ++k, n >>= 1)
        if (n & 1u)
            reg = apply(jumps + 31 * k, reg);
    return reg;
}

struct scrambling_job
{
    std::uint32_t x1, x2; // the registers at n = 0 (after the 1600 steps)
    int words;
    std::uint32_t* out;
};

// A thread per 32 bits of c(n).
__global__ void scrambling_kernel(const scrambling_job* jobs, const std::uint32_t* jumps)
{
    const scrambling_job j = jobs[blockIdx.y];
    for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < j.words;
         w += gridDim.x * blockDim.x) {
        std::uint32_t x1 = advance(jumps, j.x1, 32u * unsigned(w));
        std::uint32_t x2 = advance(jumps + 31 * jump_steps, j.x2, 32u * unsigned(w));
        std::uint32_t c = 0;
        for (int b = 0; b < 32; ++b) {
            c |= ((x1 ^ x2) & 1u) << b;
            x1 = step(x1, false);
            x2 = step(x2, true);
        }
        j.out[w] = c;
    }
}

// One transport block's work in concatenate_kernel.
struct concatenate_job
{
    const std::uint8_t* const* blocks; // [C] each code block's K decided bits
    int C, C_minus, K_minus, K_plus, F, L, B, tbs;
    std::uint8_t* data; // tbs bits out
    //! the XOR of the CRC-24A contributions (0 when it checks); zeroed before
    std::uint32_t* remainder;
};

constexpr int concatenate_threads = 256;

// A thread block per code block: its payload into its transport block's data, and the
// XOR of the CRC-24A contributions (by distance from the end) of its bits into the
// transport block's remainder.
__global__ void concatenate_kernel(const concatenate_job* jobs,
                                   const std::uint32_t* contribution)
{
    const concatenate_job t = jobs[blockIdx.y];
    const int r = blockIdx.x;
    if (r >= t.C)
        return;
    const int minus_before = min(r, t.C_minus);
    const int at = minus_before * t.K_minus + (r - minus_before) * t.K_plus - r * t.L -
                   (r > 0 ? t.F : 0); // the block's first bit in the B
    const int skip = r == 0 ? t.F : 0;
    const int payload = (r < t.C_minus ? t.K_minus : t.K_plus) - t.L - skip;
    const std::uint8_t* bits = t.blocks[r] + skip;
    std::uint32_t x = 0;
    for (int i = threadIdx.x; i < payload; i += blockDim.x) {
        const int k = at + i;
        const std::uint8_t b = bits[i];
        x ^= b ? contribution[t.B - 1 - k] : 0u;
        if (k < t.tbs)
            t.data[k] = b;
    }
    for (int d = 16; d > 0; d /= 2)
        x ^= __shfl_xor_sync(0xffffffffu, x, d);
    __shared__ std::uint32_t warps[concatenate_threads / 32];
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < concatenate_threads / 32; ++w)
            x ^= warps[w];
        if (x != 0)
            atomicXor(t.remainder, x);
    }
}

// One code block's work in check_kernel.
struct check_job
{
    const std::int8_t* values; // the turbo decoder's input codeword, 3K + 12
    const std::uint8_t* bits;  // its K decided bits
    agreement* out;
    int K, f1, f2, filler;
};

constexpr int check_threads = 256;

// The constituent encoder's state n steps of input 0 after state s: its register,
// left alone, runs in a cycle of 7.
__device__ int idle(int s, int n)
{
    for (n %= 7; n > 0; --n)
        s = turbo::rsc::next_state(s, 0);
    return s;
}

// Bits [first, end) of a code block (at most 64) in natural order and in the second
// encoder's order (bit pi(k)), bit k - first of each word.
__device__ void segment_bits(const check_job& j,
                             const std::uint8_t* bits,
                             int first,
                             int end,
                             std::uint64_t& natural,
                             std::uint64_t& interleaved)
{
    const std::uint64_t K = std::uint64_t(j.K), k0 = std::uint64_t(first);
    // pi(k) = f1 k + f2 k^2 mod K, stepped by pi(k + 1) - pi(k) = f1 + f2 (2k + 1).
    int pi = int((j.f1 * k0 + (j.f2 * k0 % K) * k0) % K);
    int step = int((j.f1 + j.f2 * (2 * k0 + 1)) % K);
    const int step_step = int(2 * std::uint64_t(j.f2) % K);
    natural = interleaved = 0;
    for (int k = first; k < end; ++k) {
        natural |= std::uint64_t(bits[k]) << (k - first);
        interleaved |= std::uint64_t(bits[pi]) << (k - first);
        pi += step;
        pi -= pi >= j.K ? j.K : 0;
        step += step_step;
        step -= step >= j.K ? j.K : 0;
    }
}

// The segment of bits of each thread of check_kernel: about K / check_threads (at most
// 64: a word of bits), a multiple of 4 whose quarter is odd, so that the threads of a
// warp read their values (3 a bit, in shared memory) from 32 different banks.
__device__ int segment_length(int K)
{
    int length = ((K + check_threads - 1) / check_threads + 3) / 4 * 4;
    return length / 4 % 2 == 1 ? length : length + 4;
}

// A thread block per code block: its decision encoded again, in a segment of bits per
// thread, and each soft value added to the code block's agreement (decision_check.h).
// The encoders are linear: a segment's states are its states from state 0 plus its
// start state run on with input 0 for as many steps; so each thread first runs its
// segment from 0, a scan over the threads composes those maps into every segment's
// start state, and each thread then runs its segment again from there.
__global__ void __launch_bounds__(check_threads)
    check_kernel(const check_job* jobs, const __grid_constant__ contradiction_odds odds)
{
    constexpr unsigned all = 0xffffffffu;
    constexpr int warps = check_threads / 32;
    __shared__ std::uint8_t bits[turbo::max_block_size];
    __shared__ int words[turbo::codeword_length(turbo::max_block_size) / 4];
    __shared__ contradiction_odds table; // indexed by value: no constant-bank serialising
    __shared__ int warp_maps[warps][3];  // a warp's segments composed: n, e1, e2
    __shared__ std::uint8_t starts[2][check_threads + 1]; // [check_threads]: after K
    __shared__ unsigned long long sums[5];
    const check_job j = jobs[blockIdx.x];
    const int t = int(threadIdx.x), lane = t % 32, warp = t / 32;
    for (int k = t; k < j.K; k += check_threads)
        bits[k] = j.bits[k] & 1u;
    const int codeword_words = int(turbo::codeword_length(j.K) / 4); // 4-byte aligned
    for (int w = t; w < codeword_words; w += check_threads)
        words[w] = reinterpret_cast<const int*>(j.values)[w];
    for (int q = t; q < 128; q += check_threads) {
        table.p[q] = odds.p[q];
        table.spread[q] = odds.spread[q];
    }
    if (t < 5)
        sums[t] = 0;
    __syncthreads();
    const std::int8_t* values = reinterpret_cast<const std::int8_t*>(words);
    const int length = segment_length(j.K);
    static_assert((turbo::max_block_size / check_threads + 3) / 4 * 4 + 4 <= 64);
    const int first = min(j.K, t * length), end = min(j.K, first + length);

    // Each segment from state 0: the map s -> idle(s, n) ^ e of its start state.
    std::uint64_t natural, interleaved;
    segment_bits(j, bits, first, end, natural, interleaved);
    int e1 = 0, e2 = 0;
    for (int i = 0; i < end - first; ++i) {
        e1 = turbo::rsc::next_state(e1, int(natural >> i) & 1);
        e2 = turbo::rsc::next_state(e2, int(interleaved >> i) & 1);
    }
    int n = (end - first) % 7;
    // Composed with the segments before it (map a, then b: n_a + n_b, idle(e_a, n_b)
    // ^ e_b): in the warp, then after the warps before.
    for (int d = 1; d < 32; d *= 2) {
        const int n_before = __shfl_up_sync(all, n, d);
        const int e1_before = __shfl_up_sync(all, e1, d);
        const int e2_before = __shfl_up_sync(all, e2, d);
        if (lane >= d) {
            e1 ^= idle(e1_before, n);
            e2 ^= idle(e2_before, n);
            n = (n + n_before) % 7;
        }
    }
    if (lane == 31) {
        warp_maps[warp][0] = n;
        warp_maps[warp][1] = e1;
        warp_maps[warp][2] = e2;
    }
    __syncthreads();
    int before1 = 0, before2 = 0; // the state after the warps before
    for (int w = 0; w < warp; ++w) {
        before1 = idle(before1, warp_maps[w][0]) ^ warp_maps[w][1];
        before2 = idle(before2, warp_maps[w][0]) ^ warp_maps[w][2];
    }
    starts[0][t + 1] = std::uint8_t(idle(before1, n) ^ e1); // after this segment
    starts[1][t + 1] = std::uint8_t(idle(before2, n) ^ e2);
    if (t == 0)
        starts[0][0] = starts[1][0] = 0;
    __syncthreads();

    agreement_sums<int, unsigned> a; // a thread's at most 3 * 64 + 12 values
    int s1 = starts[0][t], s2 = starts[1][t];
    for (int k = first; k < end; ++k) {
        const int u = int(natural >> (k - first)) & 1;
        const int u2 = int(interleaved >> (k - first)) & 1;
        const std::int8_t* v = values + 3 * k;
        if (k >= j.filler) { // d0 and d1 of a filler bit are known, not received
            a.add(table, v[0], u);
            a.add(table, v[1], turbo::rsc::parity(s1, u));
        }
        a.add(table, v[2], turbo::rsc::parity(s2, u2));
        s1 = turbo::rsc::next_state(s1, u);
        s2 = turbo::rsc::next_state(s2, u2);
    }
    if (t == 0) // the trellis terminations
        for (int e = 0; e < 2; ++e) {
            int s = starts[e][check_threads];
            for (int step = 0; step < 3; ++step) {
                const int u = turbo::rsc::termination_input(s);
                for (const bool parity : { false, true }) {
                    const turbo::tail_place at = turbo::tail_position(e, step, parity);
                    a.add(table,
                          values[3 * (j.K + at.offset) + at.stream],
                          parity ? turbo::rsc::parity(s, u) : u);
                }
                s = turbo::rsc::next_state(s, u);
            }
        }
    unsigned long long v[5] = { (unsigned long long)(long long)a.correlation,
                                a.energy,
                                a.contradictions,
                                a.expected,
                                a.spread };
    for (int i = 0; i < 5; ++i) {
        for (int d = 16; d > 0; d /= 2)
            v[i] += __shfl_xor_sync(all, v[i], d);
        if (lane == 0)
            atomicAdd(&sums[i], v[i]);
    }
    __syncthreads();
    if (t == 0)
        *j.out = agreement{ (long long)sums[0], sums[1], sums[2], sums[3], sums[4] };
}

constexpr unsigned max_grid_y = 65535;

// A code block of a chunk: its transport block (index in the chunk) and its number.
struct member
{
    std::size_t tb;
    int r;
};

// A chunk's code blocks in waves of the turbo kernels (the code blocks they run at
// once): enough to fill the GPU, few enough that one chunk's copies overlap another's
// kernels.
constexpr double waves_per_chunk = 4.0;

// Streams on which a chunk's turbo launches of different block sizes run side by side:
// one size alone fills the GPU less at the end of its last wave.
constexpr std::size_t branches = 4;

// What one chunk of a call holds on its way through the GPU, besides the ring's stream,
// events and staging (staged_in: its LLRs, staged_out: its data): buffers that grow to
// the largest chunk.
struct transport_slot : core::cuda::slot
{
    core::cuda::event combined; // the turbo inputs are ready
    std::array<core::cuda::stream, branches> branch_queues;
    std::array<core::cuda::event, branches> branch_done;
    std::size_t first = 0, n = 0; // its transport blocks in the call
    std::uint8_t* data = nullptr; // where its data go in the caller's output
    bool direct = false;          // the data go there by DMA
    std::size_t data_bytes = 0;
    std::vector<std::vector<std::size_t>> status_at; // [tb][r] index in iterations
    device_array<unsigned char> llrs, workspace;
    device_array<std::uint32_t> sequences;
    device_array<std::int8_t> input;
    device_array<std::uint8_t> bits, data_out;
    device_array<int> iterations;
    device_array<unsigned char> passed;
    device_array<std::uint32_t> remainders;
    device_array<scrambling_job> scrambling_jobs;
    device_array<combine_job> jobs;
    device_array<concatenate_job> tb_jobs;
    device_array<check_job> checks;
    device_array<agreement> agreements;
    device_array<const std::uint8_t*> pointers;
    pinned_array<scrambling_job> host_scrambling_jobs;
    pinned_array<combine_job> host_jobs;
    pinned_array<concatenate_job> host_tb_jobs;
    pinned_array<check_job> host_checks;
    pinned_array<agreement> host_agreements;
    pinned_array<const std::uint8_t*> host_pointers;
    pinned_array<unsigned char> host_passed;
    pinned_array<std::uint32_t> host_remainders;
    pinned_array<int> host_iterations;

    //! The branches too: after an error they may not have joined the slot's stream.
    void wait() const
    {
        cudaError_t e = cudaStreamSynchronize(queue);
        for (const auto& branch : branch_queues) {
            const cudaError_t b = cudaStreamSynchronize(branch);
            e = e != cudaSuccess ? e : b;
        }
        GPUTURBO_CUDA_TRY(e);
    }
};

// Where a chunk's work lies in its slot's buffers, worked out (and every buffer reserved)
// before the slot's stream gets work.
struct chunk_layout
{
    std::size_t n = 0;                       // transport blocks
    const transport_block* blocks = nullptr; // [n]
    const transport_plan* const* plan = nullptr;
    // Groups of code blocks of one size and CRC.
    std::map<std::pair<int, turbo::stop_rule>, std::vector<member>> groups;
    // By transport block: its LLRs (bytes), scrambling words, first code block.
    std::vector<std::size_t> llr_at, llr_bytes, sequence_at, pointer_at;
    std::size_t bytes = 0, scrambled = 0, pointers = 0;
    int most_blocks = 0; // code blocks of a transport block
    // By group: its turbo input (values), decided bits, first status.
    std::vector<std::size_t> input_at, bits_at, status_at;
    std::array<std::size_t, branches> workspace_at{}; // bytes, by branch
    unsigned char* llrs = nullptr;
    unsigned char* host_llrs = nullptr;
    std::uint32_t* sequences = nullptr;
    scrambling_job* scrambling_jobs = nullptr;
    scrambling_job* host_scrambling = nullptr;
    std::int8_t* input = nullptr;
    std::uint8_t* decided = nullptr;
    int* iterations = nullptr;
    unsigned char* passed = nullptr;
    unsigned char* work = nullptr;
    combine_job* jobs = nullptr;
    combine_job* host_jobs = nullptr;
    concatenate_job* tb_jobs = nullptr;
    concatenate_job* host_tb_jobs = nullptr;
    const std::uint8_t** block_bits = nullptr;
    const std::uint8_t** host_block_bits = nullptr;
    std::uint8_t* data_out = nullptr;
    check_job* checks = nullptr;
    check_job* host_checks = nullptr;
    agreement* agreements = nullptr;
    std::uint32_t* remainders = nullptr;
    const std::uint32_t* contribution = nullptr; // CRC-24A by distance from the end
};

class cuda_transport_decoder final : public transport_decoder
{
public:
    cuda_transport_decoder(const transport_config& config, int device)
        : transport_decoder(config),
          d_device(device),
          d_kernels(turbo::make_device_kernels(config.turbo, device)),
          d_odds(make_contradiction_odds(config.turbo.int8_scale))
    {
        const std::array<jump_table, 2> jumps = { make_jumps(false), make_jumps(true) };
        core::cuda::upload(
            d_jumps.reserve(2 * 31 * jump_steps), jumps[0].data(), 2 * 31 * jump_steps);
        d_x1_start = advance(jumps[0].data(), 1u, 1600);
        d_x2_jump = jumps[1];
    }

    // Plans the call, then its chunks of whole transport blocks through two slots in
    // turn: each combined, decoded and concatenated on the GPU (enqueue()).
    void decode(const transport_block* blocks,
                std::size_t n,
                std::uint8_t* data,
                transport_result* results) override
    {
        d_device_seconds = 0.0;
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        const batch_plan plan = plan_call(blocks, n, data);
        if (n == 0)
            return;
        // The soft buffers of the processes, before any work.
        std::vector<std::int8_t*> buffers(n, nullptr);
        for (std::size_t i = 0; i < n; ++i)
            if (blocks[i].harq_process != no_harq)
                buffers[i] = d_buffers[blocks[i].harq_process].reserve(
                    plan.blocks[i]->soft_buffer_length);
        const std::vector<std::size_t> ends = chunk_ends(plan);
        std::size_t out = 0; // the next chunk's data in the caller's output
        d_slots.in_turn(
            ends.size(),
            [&](transport_slot& sl, std::size_t k) {
                sl.first = k == 0 ? 0 : ends[k - 1];
                sl.n = ends[k] - sl.first;
                sl.data = data + out;
                for (std::size_t i = sl.first; i < ends[k]; ++i)
                    out += std::size_t(blocks[i].format.tbs);
                enqueue(sl, blocks, plan, buffers);
            },
            [&](transport_slot& sl, std::size_t) { finish(sl, results); });
    }

    void check(const transport_block& block) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        trim();
        d_book.check(block, d_cache);
    }

    void release(int process) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        d_book.release(process);
        d_buffers.erase(process);
    }

    std::size_t harq_processes() const override { return d_book.size(); }
    std::vector<int> dropped_processes() const override { return d_book.dropped(); }
    std::uint64_t dropped_count() const override { return d_book.dropped_count(); }

    std::vector<std::int8_t> soft_buffer(int process) const override
    {
        std::vector<std::int8_t> values(soft_buffer_length(d_book.tbs(process)));
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        GPUTURBO_CUDA_TRY(cudaMemcpy(values.data(),
                                     d_buffers.at(process).get(),
                                     values.size(),
                                     cudaMemcpyDeviceToHost));
        return values;
    }

    void
    set_soft_buffer(int process, int tbs, const std::vector<std::int8_t>& values) override
    {
        check_soft_buffer(process, tbs, values.size());
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        core::cuda::upload(
            d_buffers[process].reserve(values.size()), values.data(), values.size());
        for (const int dropped : d_book.set(process, tbs))
            d_buffers.erase(dropped);
    }

    core::backend kind() const override { return core::backend::cuda; }
    std::string device() const override { return d_kernels->device(); }
    double device_seconds() const override { return d_device_seconds; }

private:
    // The call checked and booked before any work: its plans, the HARQ processes it
    // uses, the buffers it drops.
    batch_plan plan_call(const transport_block* blocks, std::size_t n, std::uint8_t* data)
    {
        trim(); // before this call takes any plan
        batch_plan plan = d_book.begin_call(blocks, n, data, d_cache);
        for (const int process : plan.dropped)
            d_buffers.erase(process);
        return plan;
    }

    // Where each chunk of the call ends (transport blocks): about waves_per_chunk waves
    // of the turbo kernels each, all of one size, so that no small one comes last.
    std::vector<std::size_t> chunk_ends(const batch_plan& plan)
    {
        auto waves_of = [&](const transport_plan* p) {
            double waves = 0.0;
            for (const code_block_plan& cb : p->blocks)
                waves += 1.0 / resident(cb.K);
            return waves;
        };
        double total_waves = 0.0;
        for (const transport_plan* p : plan.blocks)
            total_waves += waves_of(p);
        const double chunk_waves =
            total_waves / std::max(1.0, std::round(total_waves / waves_per_chunk));
        std::vector<std::size_t> ends;
        const std::size_t n = plan.blocks.size();
        for (std::size_t end = 0; end < n;) {
            double waves = 0.0;
            while (end < n && waves < chunk_waves)
                waves += waves_of(plan.blocks[end++]);
            ends.push_back(end);
        }
        return ends;
    }

    // Enqueues a chunk (sl.first, sl.n) on its slot, phase by phase: every buffer laid
    // out, the LLRs in, the kernels (scrambling sequences, combining, turbo decoding,
    // the decisions checked, concatenation), the results out.
    void enqueue(transport_slot& sl,
                 const transport_block* all,
                 const batch_plan& all_plans,
                 const std::vector<std::int8_t*>& all_buffers)
    {
        const chunk_layout c = lay_out(sl, all, all_plans);
        copy_in(sl, c);
        GPUTURBO_CUDA_TRY(cudaEventRecord(sl.kernels_start, sl.queue));
        scramble(sl, c);
        combine(sl, c, all_plans, all_buffers);
        decode_groups(sl, c);
        check_decisions(sl, c);
        concatenate(sl, c);
        GPUTURBO_CUDA_TRY(cudaEventRecord(sl.kernels_end, sl.queue));
        copy_out(sl, c);
    }

    // Sizes first: every buffer is reserved before the slot's stream gets work.
    chunk_layout
    lay_out(transport_slot& sl, const transport_block* all, const batch_plan& all_plans)
    {
        chunk_layout c;
        const std::size_t n = c.n = sl.n;
        const transport_block* blocks = c.blocks = all + sl.first;
        const transport_plan* const* plan = c.plan = all_plans.blocks.data() + sl.first;
        for (std::size_t i = 0; i < n; ++i)
            for (int r = 0; r < plan[i]->s.C; ++r)
                c.groups[{ plan[i]->blocks[std::size_t(r)].K,
                           block_stop_rule(d_config, plan[i]->s.C) }]
                    .push_back({ i, r });
        c.llr_at.resize(n);
        c.llr_bytes.resize(n);
        c.sequence_at.resize(n);
        c.pointer_at.resize(n);
        std::size_t words = 0;
        sl.data_bytes = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const transport_format& f = blocks[i].format;
            // Packed as the caller's are (a float block aligned for its loads), so
            // that consecutive blocks of one host buffer go in one copy.
            const std::size_t size = blocks[i].f32 ? sizeof(float) : 1;
            c.llr_bytes[i] = std::size_t(f.G) * size;
            c.llr_at[i] = (c.bytes + size - 1) / size * size;
            c.bytes = c.llr_at[i] + c.llr_bytes[i];
            c.sequence_at[i] = words;
            if (f.c_init != no_scrambling) {
                words += std::size_t(f.G + 31) / 32;
                ++c.scrambled;
            }
            sl.data_bytes += std::size_t(f.tbs);
            c.pointer_at[i] = c.pointers;
            c.pointers += std::size_t(plan[i]->s.C);
            c.most_blocks = std::max(c.most_blocks, plan[i]->s.C);
        }
        std::size_t inputs = 0, bits = 0, members = 0;
        std::array<std::size_t, branches> branch_workspace{}; // the most of its groups
        for (const auto& [key, list] : c.groups) {
            const int K = key.first;
            c.input_at.push_back(inputs);
            c.bits_at.push_back(bits);
            c.status_at.push_back(members);
            members += list.size();
            inputs += list.size() * turbo::codeword_length(K) + core::cuda::llr_padding;
            bits += list.size() * std::size_t(K);
            std::size_t& w = branch_workspace[(c.input_at.size() - 1) % branches];
            w = std::max(w,
                         d_kernels->workspace_bytes(
                             block_decoder_config(d_config, key.second), K, list.size()));
        }
        std::size_t workspace = 0;
        for (std::size_t k = 0; k < branches; ++k) {
            c.workspace_at[k] = workspace;
            workspace += (branch_workspace[k] + 255) / 256 * 256;
        }
        reserve(sl, c, words, inputs, bits, workspace);
        return c;
    }

    // The slot's buffers for a chunk of these sizes.
    void reserve(transport_slot& sl,
                 chunk_layout& c,
                 std::size_t words,
                 std::size_t inputs,
                 std::size_t bits,
                 std::size_t workspace)
    {
        const std::size_t n = c.n, pointers = c.pointers;
        sl.direct = core::cuda::page_locked(sl.data, sl.data_bytes);
        c.llrs = sl.llrs.reserve(c.bytes);
        c.host_llrs = sl.staged_in.reserve(c.bytes);
        c.sequences = sl.sequences.reserve(std::max<std::size_t>(words, 1));
        c.scrambling_jobs =
            sl.scrambling_jobs.reserve(std::max<std::size_t>(c.scrambled, 1));
        c.host_scrambling =
            sl.host_scrambling_jobs.reserve(std::max<std::size_t>(c.scrambled, 1));
        c.input = sl.input.reserve(inputs);
        c.decided = sl.bits.reserve(bits);
        c.iterations = sl.iterations.reserve(pointers);
        c.passed = sl.passed.reserve(pointers);
        c.work = sl.workspace.reserve(std::max<std::size_t>(workspace, 1));
        c.jobs = sl.jobs.reserve(pointers);
        c.host_jobs = sl.host_jobs.reserve(pointers);
        c.tb_jobs = sl.tb_jobs.reserve(n);
        c.host_tb_jobs = sl.host_tb_jobs.reserve(n);
        c.block_bits = sl.pointers.reserve(pointers);
        c.host_block_bits = sl.host_pointers.reserve(pointers);
        c.data_out = sl.data_out.reserve(sl.data_bytes);
        c.checks = sl.checks.reserve(pointers);
        c.host_checks = sl.host_checks.reserve(pointers);
        c.agreements = sl.agreements.reserve(pointers);
        sl.host_agreements.reserve(pointers);
        c.remainders = sl.remainders.reserve(n);
        if (!sl.direct)
            sl.staged_out.reserve(sl.data_bytes);
        sl.host_remainders.reserve(n);
        sl.host_iterations.reserve(pointers);
        sl.host_passed.reserve(pointers);
        c.contribution = crc_table(c.plan, n);
    }

    // The LLRs in: runs of blocks that follow each other in the caller's memory (and so
    // in ours), each by DMA in one copy when page-locked (one check a run), else into
    // the staging buffer (copied on several threads), which goes in one transfer.
    void copy_in(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        const std::size_t n = c.n;
        const auto& llr_at = c.llr_at;
        const auto& llr_bytes = c.llr_bytes;
        std::vector<std::size_t> staged;
        std::size_t staged_from = c.bytes, staged_to = 0;
        auto source = [&](std::size_t i) {
            return static_cast<const unsigned char*>(
                c.blocks[i].f32 ? static_cast<const void*>(c.blocks[i].f32)
                                : static_cast<const void*>(c.blocks[i].i8));
        };
        std::size_t run_first = 0, run_bytes = 0; // blocks from run_first on, not copied
        auto copy_run = [&](std::size_t end) {
            if (run_bytes == 0)
                return;
            if (core::cuda::page_locked(source(run_first), run_bytes))
                GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.llrs + llr_at[run_first],
                                                  source(run_first),
                                                  run_bytes,
                                                  cudaMemcpyHostToDevice,
                                                  s));
            else {
                for (std::size_t i = run_first; i < end; ++i)
                    staged.push_back(i);
                staged_from = std::min(staged_from, llr_at[run_first]);
                staged_to = std::max(staged_to, llr_at[run_first] + run_bytes);
            }
            run_bytes = 0;
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (run_bytes == 0 || source(i) != source(run_first) + run_bytes ||
                llr_at[i] != llr_at[run_first] + run_bytes) {
                copy_run(i);
                run_first = i;
            }
            run_bytes += llr_bytes[i];
        }
        copy_run(n);
        if (staged.empty())
            return;
        const int workers = std::min<int>(core::thread_count(0), int(staged.size()));
        core::thread_pool::shared().run(workers, [&](int w) {
            for (std::size_t k = std::size_t(w); k < staged.size();
                 k += std::size_t(workers))
                std::memcpy(c.host_llrs + llr_at[staged[k]],
                            source(staged[k]),
                            llr_bytes[staged[k]]);
        });
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.llrs + staged_from,
                                          c.host_llrs + staged_from,
                                          staged_to - staged_from,
                                          cudaMemcpyHostToDevice,
                                          s));
    }

    // The scrambling sequences.
    void scramble(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        int most_words = 0;
        for (std::size_t i = 0, k = 0; i < c.n; ++i) {
            const transport_format& f = c.blocks[i].format;
            if (f.c_init == no_scrambling)
                continue;
            scrambling_job& j = c.host_scrambling[k++];
            j.x1 = d_x1_start;
            j.x2 = advance(d_x2_jump.data(), std::uint32_t(f.c_init), 1600);
            j.words = (f.G + 31) / 32;
            j.out = c.sequences + c.sequence_at[i];
            most_words = std::max(most_words, j.words);
        }
        if (c.scrambled == 0)
            return;
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.scrambling_jobs,
                                          c.host_scrambling,
                                          c.scrambled * sizeof(scrambling_job),
                                          cudaMemcpyHostToDevice,
                                          s));
        for (std::size_t first = 0; first < c.scrambled; first += max_grid_y) {
            const unsigned count =
                unsigned(std::min<std::size_t>(max_grid_y, c.scrambled - first));
            scrambling_kernel<<<dim3((most_words + 127) / 128, count), 128, 0, s>>>(
                c.scrambling_jobs + first, d_jumps.get());
            GPUTURBO_CUDA_CHECK_LAUNCH();
        }
    }

    // Combining, into the soft buffers and the turbo decoder's input; with each code
    // block's check job and where its decided bits and status will be.
    void combine(transport_slot& sl,
                 const chunk_layout& c,
                 const batch_plan& all_plans,
                 const std::vector<std::int8_t*>& all_buffers)
    {
        const cudaStream_t s = sl.queue;
        sl.status_at.assign(c.n, {});
        for (std::size_t i = 0; i < c.n; ++i)
            sl.status_at[i].resize(std::size_t(c.plan[i]->s.C));
        std::size_t job = 0, g = 0;
        for (const auto& [key, list] : c.groups) {
            const int K = key.first;
            const std::size_t length = turbo::codeword_length(K);
            for (std::size_t m = 0; m < list.size(); ++m, ++job) {
                const auto [i, r] = list[m];
                const transport_block& t = c.blocks[i];
                const code_block_plan& cb = c.plan[i]->blocks[std::size_t(r)];
                std::int8_t* buffer = all_buffers[sl.first + i];
                combine_job& j = c.host_jobs[job];
                j.llrs =
                    c.llrs + c.llr_at[i] + cb.llr_first * (t.f32 ? sizeof(float) : 1);
                j.scrambling = t.format.c_init != no_scrambling
                                   ? c.sequences + c.sequence_at[i]
                                   : nullptr;
                j.inverse = inverse_table(cb);
                j.buffer = buffer ? buffer + cb.codeword_first : nullptr;
                j.input = c.input + c.input_at[g] + m * length;
                j.llr_first = int(cb.llr_first);
                j.E = cb.E;
                j.sent = int(cb.table->sent.size());
                j.start = cb.start;
                j.length = int(length);
                j.int8 = t.i8 != nullptr;
                j.fresh = all_plans.fresh[sl.first + i];
                j.invert = d_config.turbo.invert_llr;
                std::uint8_t* decided = c.decided + c.bits_at[g] + m * std::size_t(K);
                c.host_block_bits[c.pointer_at[i] + std::size_t(r)] = decided;
                const turbo::qpp_row& qpp = turbo::qpp(K);
                c.host_checks[job] = check_job{ j.input, decided, c.agreements + job, K,
                                                qpp.f1,  qpp.f2,  cb.filler };
                sl.status_at[i][std::size_t(r)] = c.status_at[g] + m;
            }
            ++g;
        }
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.jobs,
                                          c.host_jobs,
                                          c.pointers * sizeof(combine_job),
                                          cudaMemcpyHostToDevice,
                                          s));
        combine_kernel<<<unsigned(c.pointers), combine_threads, 0, s>>>(
            c.jobs, d_config.turbo.int8_scale);
        GPUTURBO_CUDA_CHECK_LAUNCH();
    }

    // The turbo decoder, a launch per group, the groups on the branch streams in turn
    // (each branch its own workspace), joined again before the decisions are checked.
    void decode_groups(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        const std::size_t used = std::min(branches, c.groups.size());
        GPUTURBO_CUDA_TRY(cudaEventRecord(sl.combined, s));
        for (std::size_t k = 0; k < used; ++k)
            GPUTURBO_CUDA_TRY(cudaStreamWaitEvent(sl.branch_queues[k], sl.combined, 0));
        std::size_t g = 0;
        for (const auto& [key, list] : c.groups) {
            const std::size_t branch = g % branches;
            turbo::device_batch b{};
            b.llrs = c.input + c.input_at[g];
            b.bits = c.decided + c.bits_at[g];
            b.iterations = c.iterations + c.status_at[g];
            b.passed = c.passed + c.status_at[g];
            b.workspace = c.work + c.workspace_at[branch];
            d_kernels->launch(block_decoder_config(d_config, key.second),
                              key.first,
                              list.size(),
                              b,
                              sl.branch_queues[branch]);
            ++g;
        }
        for (std::size_t k = 0; k < used; ++k) {
            GPUTURBO_CUDA_TRY(cudaEventRecord(sl.branch_done[k], sl.branch_queues[k]));
            GPUTURBO_CUDA_TRY(cudaStreamWaitEvent(s, sl.branch_done[k], 0));
        }
    }

    // Each decision against its soft values.
    void check_decisions(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.checks,
                                          c.host_checks,
                                          c.pointers * sizeof(check_job),
                                          cudaMemcpyHostToDevice,
                                          s));
        check_kernel<<<unsigned(c.pointers), check_threads, 0, s>>>(c.checks, d_odds);
        GPUTURBO_CUDA_CHECK_LAUNCH();
    }

    // The transport blocks back from their code blocks' bits, their CRCs checked.
    void concatenate(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        const std::size_t n = c.n;
        for (std::size_t i = 0, at = 0; i < n; ++i) {
            const segmentation& seg = c.plan[i]->s;
            concatenate_job& t = c.host_tb_jobs[i];
            t.blocks = c.block_bits + c.pointer_at[i];
            t.C = seg.C;
            t.C_minus = seg.C_minus;
            t.K_minus = seg.K_minus;
            t.K_plus = seg.K_plus;
            t.F = seg.F;
            t.L = seg.L;
            t.B = seg.B;
            t.tbs = c.blocks[i].format.tbs;
            t.data = c.data_out + at;
            t.remainder = c.remainders + i;
            at += std::size_t(t.tbs);
        }
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.block_bits,
                                          c.host_block_bits,
                                          c.pointers * sizeof(const std::uint8_t*),
                                          cudaMemcpyHostToDevice,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(c.tb_jobs,
                                          c.host_tb_jobs,
                                          n * sizeof(concatenate_job),
                                          cudaMemcpyHostToDevice,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemsetAsync(c.remainders, 0, n * sizeof(std::uint32_t), s));
        for (std::size_t first = 0; first < n; first += max_grid_y) {
            const unsigned count = unsigned(std::min<std::size_t>(max_grid_y, n - first));
            concatenate_kernel<<<dim3(unsigned(c.most_blocks), count),
                                 concatenate_threads,
                                 0,
                                 s>>>(c.tb_jobs + first, c.contribution);
            GPUTURBO_CUDA_CHECK_LAUNCH();
        }
    }

    // Results out: the data directly into page-locked memory, else through ours.
    void copy_out(transport_slot& sl, const chunk_layout& c)
    {
        const cudaStream_t s = sl.queue;
        const std::size_t pointers = c.pointers;
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.direct ? sl.data : sl.staged_out.get(),
                                          c.data_out,
                                          sl.data_bytes,
                                          cudaMemcpyDeviceToHost,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_remainders.get(),
                                          c.remainders,
                                          c.n * sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_agreements.get(),
                                          c.agreements,
                                          pointers * sizeof(agreement),
                                          cudaMemcpyDeviceToHost,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_iterations.get(),
                                          c.iterations,
                                          pointers * sizeof(int),
                                          cudaMemcpyDeviceToHost,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(
            sl.host_passed.get(), c.passed, pointers, cudaMemcpyDeviceToHost, s));
    }

    void finish(transport_slot& sl, transport_result* results)
    {
        GPUTURBO_CUDA_TRY(cudaStreamSynchronize(sl.queue)); // the branches joined it
        d_device_seconds += sl.kernel_seconds();
        if (!sl.direct)
            core::cuda::parallel_copy(sl.data, sl.staged_out.get(), sl.data_bytes);
        if (!results)
            return;
        for (std::size_t i = 0; i < sl.n; ++i) {
            transport_result& r = results[sl.first + i];
            r.code_blocks.resize(sl.status_at[i].size());
            bool blocks_ok = true;
            for (std::size_t b = 0; b < sl.status_at[i].size(); ++b) {
                const std::size_t at = sl.status_at[i][b];
                // A block whose CRC checks passes only if its values agree with it.
                r.code_blocks[b] =
                    core::codeword_status{ sl.host_iterations.get()[at],
                                           sl.host_passed.get()[at] != 0 &&
                                               consistent(sl.host_agreements.get()[at]) };
                blocks_ok &= r.code_blocks[b].passed;
            }
            r.crc_ok = sl.host_remainders.get()[i] == 0 && blocks_ok;
        }
    }

    // The plan cache's trim(); the GPU's copies of its tables go with them. Nothing is
    // in flight between calls.
    void trim()
    {
        if (d_cache.trim())
            d_inverse.clear();
    }

    // A block's inverse rate-matching table on the GPU, made on first use.
    const std::int32_t* inverse_table(const code_block_plan& cb)
    {
        auto& table = d_inverse[cb.table];
        if (!table.get()) {
            std::vector<std::int32_t> inverse(turbo::codeword_length(cb.K), not_sent);
            for (std::size_t i = 0; i < cb.table->sent.size(); ++i)
                inverse[std::size_t(cb.table->sent[i])] = std::int32_t(i);
            for (int k = 0; k < cb.filler; ++k)
                inverse[3 * std::size_t(k)] = inverse[3 * std::size_t(k) + 1] =
                    filler_bit;
            core::cuda::upload(
                table.reserve(inverse.size()), inverse.data(), inverse.size());
        }
        return table.get();
    }

    // The CRC-24A contributions by distance from the end, for the chunk's largest B.
    const std::uint32_t* crc_table(const transport_plan* const* plan, std::size_t n)
    {
        int B = 0;
        for (std::size_t i = 0; i < n; ++i)
            B = std::max(B, plan[i]->s.B);
        if (B > d_crc_length) {
            const auto by_position = core::crc_contributions(core::crc::crc24a, B);
            const std::vector<std::uint32_t> by_distance(by_position.rbegin(),
                                                         by_position.rend());
            // Both slots' work may read the old table: let it finish first.
            GPUTURBO_CUDA_TRY(cudaDeviceSynchronize());
            core::cuda::upload(d_crc.reserve(by_distance.size()),
                               by_distance.data(),
                               by_distance.size());
            d_crc_length = B;
        }
        return d_crc.get();
    }

    // Code blocks of K the turbo kernels run at once.
    double resident(int K)
    {
        double& r = d_resident[K];
        if (r == 0.0)
            r = double(d_kernels->resident_codewords(d_config.turbo, K));
        return r;
    }

    const int d_device;
    // The turbo kernels of the transport config: what a block size needs, the launches.
    const std::unique_ptr<turbo::device_kernels> d_kernels;
    std::map<int, double> d_resident; // codewords the GPU runs at once, by K
    harq_book d_book{ d_config.max_harq_processes };
    plan_cache d_cache{ [this](int K) { d_kernels->check_block(K); } };
    std::map<int, device_array<std::int8_t>> d_buffers;               // by process
    std::map<const sent_bits*, device_array<std::int32_t>> d_inverse; // by table
    const contradiction_odds d_odds;
    device_array<std::uint32_t> d_jumps, d_crc;
    std::uint32_t d_x1_start = 0;
    jump_table d_x2_jump{};
    int d_crc_length = 0;
    double d_device_seconds = 0.0;
    // Last: it waits for the work in flight before the buffers above go.
    core::cuda::slot_ring<transport_slot> d_slots;
};

} // namespace

std::unique_ptr<transport_decoder>
make_cuda_transport_decoder(const transport_config& config)
{
    const std::string why = core::cuda::unavailable_reason(config.turbo.devices);
    if (!why.empty())
        throw std::runtime_error("backend 'cuda' is not available: " + why);
    const std::vector<int> devices = core::cuda::parse_devices(config.turbo.devices);
    if (devices.size() != 1)
        throw std::invalid_argument("devices=" + config.turbo.devices +
                                    ": the transport-block decoder runs on one GPU (name "
                                    "one, such as 0)");
    return std::make_unique<cuda_transport_decoder>(config, devices.front());
}

} // namespace gputurbo::lte::cuda
