/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../trellis_math.h"
#include "cuda_error.h"
#include "turbo_kernel.cuh"

#include <gnuradio/gputurbo/engine/decoder.h>

#include <algorithm>
#include <type_traits>

namespace gputurbo::cuda {
namespace {

using namespace gputurbo::trellis;
using bm_t = branch_metrics<float>;
using trellis::metrics_from_halves;

// Threads per block. With two blocks of 192 per SM the register budget is 168 per
// thread: enough for the 8-state recursions with 4 stages of alpha in registers.
constexpr int max_threads = 192;
constexpr int min_blocks = 2;
constexpr int segment = 8; // stages recomputed in registers by the backward pass

__host__ __device__ constexpr int segments(int w) { return (w + segment - 1) / segment; }

// Shared memory of one codeword, in 4-byte words.
struct shared_plan
{
    int ext, checkpoints, hard, previous_hard, sums, mins, crcs, total;
    __host__ __device__ explicit shared_plan(int K, int P)
    {
        const int slots = K + P; // padded: slot(k) = k + k/w keeps banks apart
        const int words = words_per_codeword(K);
        ext = 0;
        checkpoints = ext + slots;
        hard = checkpoints + segments(K / P) * S * P;
        previous_hard = hard + words;
        sums = previous_hard + words;
        mins = sums + P;
        crcs = mins + P;
        total = crcs + P;
    }
};

__device__ __forceinline__ int div_w(int k, const kernel_config& c)
{
    return c.w == 1 ? k : int(__umulhi(unsigned(k), c.w_magic));
}
// Shared-memory slot of natural position k: one pad word per sub-block, so the P
// threads reading "their" stage j hit P different banks.
__device__ __forceinline__ int slot(int k, const kernel_config& c)
{
    return k + div_w(k, c);
}
// Global index of stage k in a trellis input array: stage-major, sub-block-minor, so
// that the P threads read consecutive words (the tail follows at K … K+2).
__device__ __forceinline__ int transposed(int k, const kernel_config& c)
{
    const int q = div_w(k, c);
    return (k - q * c.w) * c.P + q;
}

__device__ __forceinline__ int qpp(int k, const kernel_config& c)
{
    // 32 bits suffice: f2 * k < 2^23 and (f2 k mod K) * k < 2^26 for K <= 6144.
    return int((unsigned(c.f1) * unsigned(k) +
                (unsigned(c.f2) * unsigned(k) % unsigned(c.K)) * unsigned(k)) %
               unsigned(c.K));
}

// pi(k) along increasing or decreasing k without divisions:
// pi(k+1) = pi(k) + d(k), d(k) = f1 + f2 (2k + 1) mod K, d(k+1) = d(k) + 2 f2.
struct qpp_walk
{
    int pi, d, K, two_f2;
    __device__ void start_forward(int k, const kernel_config& c)
    {
        K = c.K;
        two_f2 = int((2u * unsigned(c.f2)) % unsigned(K));
        pi = qpp(k, c);
        d = int((unsigned(c.f1) + unsigned(c.f2) * unsigned(2 * k + 1) % unsigned(K)) %
                unsigned(K));
    }
    __device__ void start_backward(int k, const kernel_config& c)
    {
        start_forward(k, c); // d becomes d(k-1) = d(k) - 2 f2
        d -= two_f2;
        if (d < 0)
            d += K;
    }
    __device__ void forward()
    {
        pi += d;
        if (pi >= K)
            pi -= K;
        d += two_f2;
        if (d >= K)
            d -= K;
    }
    // After forward() has reached pi(k): make backward() step to pi(k-1) next.
    __device__ void reverse()
    {
        d -= two_f2;
        if (d < 0)
            d += K;
    }
    __device__ void backward()
    {
        pi -= d;
        if (pi < 0)
            pi += K;
        d -= two_f2;
        if (d < 0)
            d += K;
    }
};

__device__ __forceinline__ float sanitize(float x, bool invert)
{
    x = isnan(x) ? 0.0f : fminf(fmaxf(x, -llr_limit), llr_limit);
    return invert ? -x : x;
}

// One block per codeword: the codeword is read into shared memory with coalesced loads
// (sanitised on the way), then written out in the decoder's stage-major order with
// coalesced stores; both directions touch global memory only in whole lines.
template <class In>
__global__ void prepare_kernel(kernel_config c, device_buffers b, int n)
{
    extern __shared__ float cw_shared[];
    const int K = c.K, P = c.P, w = c.w;
    const int len = 3 * K + 12;
    const unsigned p_magic = unsigned(((1ull << 32) + P - 1) / P);
    for (int cw = blockIdx.x; cw < n; cw += gridDim.x) {
        const In* raw = static_cast<const In*>(b.raw) + (std::size_t)cw * len;
        float* out = b.trellis + (std::size_t)cw * 4 * (K + 3);
        for (int i = threadIdx.x; i < len; i += blockDim.x)
            cw_shared[i] =
                sanitize(std::is_same_v<In, float> ? float(raw[i])
                                                   : float(raw[i]) * c.int8_inverse,
                         c.invert);
        __syncthreads();
        auto at = [&](int stream, int kk) {
            return cw_shared[c.streams ? stream * (K + 4) + kk : 3 * kk + stream];
        };
        // Output slot t = j P + q holds stage k = q w + j (sub-block q, offset j).
        for (int t = threadIdx.x; t < K; t += blockDim.x) {
            const int j = P == 1 ? t : int(__umulhi(unsigned(t), p_magic));
            const int k = (t - j * P) * w + j;
            out[t] = at(0, k);
            out[(K + 3) + t] = at(1, k);
            out[2 * (K + 3) + t] = at(0, qpp(k, c));
            out[3 * (K + 3) + t] = at(2, k);
        }
        if (threadIdx.x <
            3) { // tail (36.212 §5.1.3.2.2): encoder 1's x z x z x z, then 2's
            const int j = threadIdx.x, k = K + j, t1 = 2 * j, t2 = 6 + 2 * j;
            out[k] = at(t1 % 3, K + t1 / 3);
            out[(K + 3) + k] = at((t1 + 1) % 3, K + (t1 + 1) / 3);
            out[2 * (K + 3) + k] = at(t2 % 3, K + t2 / 3);
            out[3 * (K + 3) + k] = at((t2 + 1) % 3, K + (t2 + 1) / 3);
        }
        __syncthreads(); // before the next codeword overwrites cw_shared
    }
}

// What decoder 2 learns about the a-posteriori LLRs of its thread's stages.
struct app_stats
{
    float sum = 0.0f;
    float least = 3.4e38f;
    unsigned crc = 0;
};

// One constituent decoder over the thread's sub-block, called by every thread of the
// block (inactive ones only meet the barrier). The codeword's one extrinsic array holds
// the other decoder's output: D = 0 (natural order) reads it at k, D = 1 (interleaved
// order) through pi, and both overwrite what they read with their own scaled extrinsic;
// D = 1 also sets the hard decisions.
template <bool Exact, int D>
__device__ void half_iteration(bool active,
                               const kernel_config& c,
                               const float* __restrict__ sys,
                               const float* __restrict__ par,
                               float* extrinsic_llrs,
                               float* checkpoints,
                               const float* prev_edges, // [2][S][P]: alpha, beta
                               float* next_edges,
                               int p,
                               unsigned* hard,
                               const unsigned* __restrict__ crc_contribution,
                               app_stats& stats)
{
    const int K = c.K, P = c.P, w = c.w, g = c.g;
    const int k0 = p * w, k1 = k0 + w;
    const bool stores =
        c.guarding == int(guard::pivi) || c.guarding == int(guard::pividstw);
    const bool trains =
        c.guarding == int(guard::dstw) || c.guarding == int(guard::pividstw);
    const int edge_offset = c.guarding == int(guard::pividstw) ? g : 0;

    qpp_walk walk;
    // Inputs of stage k. Inside the thread's own sub-block the indices need no division:
    // stage k0 + j sits at j P + p in the trellis arrays and at k + p in shared memory.
    auto stage = [&](int k, int position, float& s, float& a, float& z) {
        const bool own = k >= k0 && k < k1;
        const int t = own ? (k - k0) * P + p : transposed(k, c);
        s = sys[t];
        z = par[t];
        a = extrinsic_llrs[D == 0 && own ? k + p : slot(position, c)];
    };

    float alpha[S], beta[S];
    if (active) {
        // Forward recursion, keeping alpha at every 8th stage.
        if (p == 0)
            set_known_start(alpha);
        else if (stores) {
#pragma unroll
            for (int s = 0; s < S; ++s)
                alpha[s] = prev_edges[s * P + p];
        } else
            set_equiprobable(alpha);
        if (p > 0 && trains) {
            if (D == 1)
                walk.start_forward(k0 - g, c);
            for (int k = k0 - g; k < k0; ++k) {
                float s, a, z;
                stage(k, D == 1 ? walk.pi : k, s, a, z);
                float t[S];
                forward_step<Exact>(alpha, t, metrics(s, a, z));
#pragma unroll
                for (int q = 0; q < S; ++q)
                    alpha[q] = t[q];
                if (D == 1)
                    walk.forward();
            }
        }
        // By segments: the loads of 8 stages are issued together, so that their latency
        // is paid once per segment, not once per stage.
        if (D == 1)
            walk.start_forward(k0, c);
        for (int first = 0; first < w; first += segment) {
            const int count = min(segment, w - first);
            float seg_sys[segment], seg_apriori[segment], seg_par[segment];
#pragma unroll
            for (int j = 0; j < segment; ++j) {
                if (j < count) {
                    stage(k0 + first + j,
                          D == 1 ? walk.pi : k0 + first + j,
                          seg_sys[j],
                          seg_apriori[j],
                          seg_par[j]);
                    if (D == 1)
                        walk.forward();
                }
            }
#pragma unroll
            for (int s = 0; s < S; ++s)
                checkpoints[((first / segment) * S + s) * P + p] = alpha[s];
#pragma unroll
            for (int j = 0; j < segment; ++j) {
                if (j < count) {
                    if (stores && p + 1 < P && first + j == w - edge_offset) {
#pragma unroll
                        for (int s = 0; s < S; ++s)
                            next_edges[s * P + p + 1] = alpha[s];
                    }
                    float t[S];
                    forward_step<Exact>(
                        alpha, t, metrics(seg_sys[j], seg_apriori[j], seg_par[j]));
#pragma unroll
                    for (int q = 0; q < S; ++q)
                        alpha[q] = t[q];
                }
            }
        }
        if (stores && p + 1 < P && edge_offset == 0) {
#pragma unroll
            for (int s = 0; s < S; ++s)
                next_edges[s * P + p + 1] = alpha[s];
        }

        // Beta at the sub-block's end: the last stages of the previous iteration,
        // training over the next sub-block's first stages, or the tail.
        if (p == P - 1) {
            set_known_start(beta);
            for (int k = K + 2; k >= K; --k)
                backward_step<Exact>(beta, metrics(sys[k], 0.0f, par[k]));
        } else {
            if (stores) {
#pragma unroll
                for (int s = 0; s < S; ++s)
                    beta[s] = prev_edges[(S + s) * P + p];
            } else
                set_equiprobable(beta);
            if (trains) {
                if (D == 1)
                    walk.start_backward(k1 + g - 1, c);
                for (int k = k1 + g - 1; k >= k1; --k) {
                    float s, a, z;
                    stage(k, D == 1 ? walk.pi : k, s, a, z);
                    backward_step<Exact>(beta, metrics(s, a, z));
                    if (D == 1)
                        walk.backward();
                }
            }
        }
    }
    // Every read of another sub-block's stages is done: from here on each position is
    // read and written by its own thread alone, so the output may replace the input.
    __syncthreads();
    if (!active)
        return;

    // Backward recursion with the extrinsic output, one 8-stage segment at a time.
    const int save_at = k0 + edge_offset; // stage whose beta sub-block p-1 starts from
    float* beta_out = next_edges + S * P;
    if (stores && p > 0 && save_at == k1) {
#pragma unroll
        for (int s = 0; s < S; ++s)
            beta_out[s * P + p - 1] = beta[s];
    }
    for (int m = segments(w) - 1; m >= 0; --m) {
        const int first = m * segment;
        const int count = min(segment, w - first);
        // The segment's inputs as the branch metric halves: A = (sys + apriori)/2 and
        // B = parity/2 (2A is exactly sys + apriori, which the a-posteriori LLR needs).
        float half_a[segment], half_b[segment];
        if (D == 1)
            walk.start_forward(k0 + first, c);
#pragma unroll
        for (int j = 0; j < segment; ++j) {
            if (j < count) {
                float s, a, z;
                stage(k0 + first + j, D == 1 ? walk.pi : k0 + first + j, s, a, z);
                half_a[j] = (s + a) * 0.5f;
                half_b[j] = z * 0.5f;
                if (D == 1)
                    walk.forward();
            }
        }
        if (D == 1)
            walk.reverse(); // walk.backward() now yields pi(k0 + first + count - 1) …
            // Two halves of 4 stages, the upper one first; each recomputes its alphas
            // from the segment's checkpoint, so only 4 stages of alpha live in registers.
#pragma unroll
        for (int upper = 1; upper >= 0; --upper) {
            const int lo = upper * (segment / 2);
            const int n = min(segment / 2, count - lo);
            if (n <= 0)
                continue;
#pragma unroll
            for (int s = 0; s < S; ++s)
                alpha[s] = checkpoints[(m * S + s) * P + p];
#pragma unroll
            for (int j = 0; j < lo; ++j) {
                float t[S];
                forward_step<Exact>(alpha, t, metrics_from_halves(half_a[j], half_b[j]));
#pragma unroll
                for (int s = 0; s < S; ++s)
                    alpha[s] = t[s];
            }
            float seg_alpha[segment / 2][S];
#pragma unroll
            for (int j = 0; j < segment / 2; ++j) {
                if (j < n) {
#pragma unroll
                    for (int s = 0; s < S; ++s)
                        seg_alpha[j][s] = alpha[s];
                    if (j + 1 == n)
                        break; // the last stored alpha needs no successor
                    float t[S];
                    forward_step<Exact>(
                        alpha, t, metrics_from_halves(half_a[lo + j], half_b[lo + j]));
#pragma unroll
                    for (int s = 0; s < S; ++s)
                        alpha[s] = t[s];
                }
            }
#pragma unroll
            for (int j = segment / 2 - 1; j >= 0; --j) {
                if (j < n) {
                    const int k = k0 + first + lo + j;
                    int position = k;
                    if (D == 1) {
                        walk.backward();
                        position = walk.pi;
                    }
                    const bm_t bm = metrics_from_halves(half_a[lo + j], half_b[lo + j]);
                    const float e = extrinsic<Exact>(seg_alpha[j], beta, bm);
                    extrinsic_llrs[slot(position, c)] = e * c.scale;
                    if (D == 1) {
                        const float app = 2.0f * half_a[lo + j] + e;
                        const float mag = fabsf(app);
                        stats.sum += mag;
                        stats.least = fminf(stats.least, mag);
                        if (app < 0.0f) {
                            atomicOr(&hard[position >> 5], 1u << (position & 31));
                            if (crc_contribution)
                                stats.crc ^= crc_contribution[position];
                        }
                    }
                    backward_step<Exact>(beta, bm);
                    if (stores && p > 0 && k == save_at) {
#pragma unroll
                        for (int s = 0; s < S; ++s)
                            beta_out[s * P + p - 1] = beta[s];
                    }
                }
            }
        }
    }
}

template <bool Exact>
__global__ void __launch_bounds__(max_threads, min_blocks)
    decode_kernel(kernel_config c, device_buffers b, int n)
{
    extern __shared__ float shared[];
    const int P = c.P, K = c.K;
    const int local = threadIdx.x / P, p = threadIdx.x % P;
    const int cw = blockIdx.x * c.per_block + local;
    const bool real = local < c.per_block && cw < n;
    const shared_plan plan(K, P);
    float* mine = shared + (real ? local : 0) * plan.total;
    float* ext = mine + plan.ext;
    float* checkpoints = mine + plan.checkpoints;
    unsigned* hard = reinterpret_cast<unsigned*>(mine + plan.hard);
    unsigned* previous_hard = reinterpret_cast<unsigned*>(mine + plan.previous_hard);
    float* sums = mine + plan.sums;
    float* mins = mine + plan.mins;
    unsigned* crcs = reinterpret_cast<unsigned*>(mine + plan.crcs);
    const int words = words_per_codeword(K);

    const float* trellis = b.trellis + (std::size_t)(real ? cw : 0) * 4 * (K + 3);
    float* edges = b.edges + (std::size_t)(real ? cw : 0) * 2 * 2 * 2 * S * P;
    const unsigned* crc =
        (c.stop == int(stop_rule::crc24a) || c.stop == int(stop_rule::crc24b))
            ? b.crc_contribution
            : nullptr;
    if (real) {
        for (int k = p; k < K + P; k += P)
            ext[k] = 0.0f; // the first a-priori input
        for (int i = p; i < 2 * 2 * 2 * S * P; i += P)
            edges[i] = 0.0f; // first iteration: equiprobable edges
        for (int i = p; i < words; i += P)
            previous_hard[i] = 0;
    }
    // Each thread cleared entries that its neighbours read (and the first half-iteration
    // writes edge metrics that another thread cleared): all of it must be done first.
    __syncthreads();
    bool done = !real;
    __shared__ int decided[max_threads]; // per codeword: 1 once its output is taken
    for (int it = 1; it <= c.iterations; ++it) {
        const int prev = it & 1, next = (it + 1) & 1;
        auto edge = [&](int d, int buffer) {
            return edges + ((d * 2 + buffer) * 2) * S * P;
        };
        app_stats stats;
        if (!done)
            for (int i = p; i < words; i += P)
                hard[i] = 0;
        half_iteration<Exact, 0>(!done,
                                 c,
                                 trellis,
                                 trellis + (K + 3),
                                 ext,
                                 checkpoints,
                                 edge(0, prev),
                                 edge(0, next),
                                 p,
                                 hard,
                                 crc,
                                 stats);
        __syncthreads();
        half_iteration<Exact, 1>(!done,
                                 c,
                                 trellis + 2 * (K + 3),
                                 trellis + 3 * (K + 3),
                                 ext,
                                 checkpoints,
                                 edge(1, prev),
                                 edge(1, next),
                                 p,
                                 hard,
                                 crc,
                                 stats);
        if (!done) {
            sums[p] = stats.sum;
            mins[p] = stats.least;
            crcs[p] = stats.crc;
        }
        __syncthreads();
        const bool last = it == c.iterations;
        const bool evaluate = c.stop != int(stop_rule::off) || last;
        if (!done && p == 0 && evaluate) {
            bool ok = true;
            if (c.stop == int(stop_rule::mean_llr)) {
                double total = 0.0;
                for (int q = 0; q < P; ++q)
                    total += sums[q];
                ok = total / K >= c.threshold;
            } else if (c.stop == int(stop_rule::min_llr)) {
                float least = mins[0];
                for (int q = 1; q < P; ++q)
                    least = fminf(least, mins[q]);
                ok = least >= c.threshold;
            } else if (crc) {
                unsigned r = 0;
                for (int q = 0; q < P; ++q)
                    r ^= crcs[q];
                ok = r == 0;
            } else if (c.stop == int(stop_rule::hard)) {
                bool same = it > 1;
                for (int i = 0; i < words; ++i) {
                    same = same && hard[i] == previous_hard[i];
                    previous_hard[i] = hard[i];
                }
                ok = same;
            }
            const bool take = ok || last;
            decided[local] = take;
            if (take) {
                b.iterations[cw] = it;
                b.passed[cw] = ok;
            }
        } else if (!done && p == 0)
            decided[local] = 0;
        __syncthreads();
        if (!done && decided[local]) {
            std::uint8_t* bits = b.bits + (std::size_t)cw * K;
            for (int i = p; i < K; i += P)
                bits[i] = std::uint8_t((hard[i >> 5] >> (i & 31)) & 1u);
            done = true;
        }
        if (__syncthreads_and(done))
            break;
    }
}

} // namespace

std::size_t shared_bytes_per_codeword(int K, int P)
{
    return std::size_t(shared_plan(K, P).total) * sizeof(float);
}

std::size_t static_shared_bytes()
{
    cudaFuncAttributes a{}, b{};
    GPUTURBO_CUDA_TRY(cudaFuncGetAttributes(&a, decode_kernel<true>));
    GPUTURBO_CUDA_TRY(cudaFuncGetAttributes(&b, decode_kernel<false>));
    return std::max(a.sharedSizeBytes, b.sharedSizeBytes);
}

int max_threads_per_block() { return max_threads; }

void launch_prepare(const kernel_config& c,
                    const device_buffers& b,
                    int n,
                    cudaStream_t s)
{
    if (n <= 0)
        return;
    const std::size_t shared = (3 * std::size_t(c.K) + 12) * sizeof(float);
    if (c.int8)
        prepare_kernel<std::int8_t><<<std::min(n, 65535), 256, shared, s>>>(c, b, n);
    else
        prepare_kernel<float><<<std::min(n, 65535), 256, shared, s>>>(c, b, n);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

void configure_decode_kernel(const kernel_config& c)
{
    for (const void* f :
         { (const void*)prepare_kernel<float>, (const void*)prepare_kernel<std::int8_t> })
        GPUTURBO_CUDA_TRY(
            cudaFuncSetAttribute(f,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 int((3 * c.K + 12) * sizeof(float))));
    GPUTURBO_CUDA_TRY(cudaFuncSetAttribute(decode_kernel<true>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(c.shared_bytes)));
    GPUTURBO_CUDA_TRY(cudaFuncSetAttribute(decode_kernel<false>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(c.shared_bytes)));
}

void launch_decode(const kernel_config& c, const device_buffers& b, int n, cudaStream_t s)
{
    if (n <= 0)
        return;
    const int blocks = (n + c.per_block - 1) / c.per_block;
    const int threads = c.per_block * c.P;
    if (c.exact)
        decode_kernel<true><<<blocks, threads, c.shared_bytes, s>>>(c, b, n);
    else
        decode_kernel<false><<<blocks, threads, c.shared_bytes, s>>>(c, b, n);
    GPUTURBO_CUDA_CHECK_LAUNCH();
}

} // namespace gputurbo::cuda
