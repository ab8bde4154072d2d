/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PDCCH search's decoding on one GPU (pdcch_search.h). A block's combined LLRs
// (a warp's work) are those of pdcch.cc's combine_frame() in the same order of adds
// (sent position j: L_j, then L_{j + K}, …), quantised as quantize_control_frame()
// does; its CRC rule and re-encoding agreement are control_check.h's, as the CPU
// search's (the build has no fused multiply-add), so that what passes is what the CPU
// search passes.

#include "../control_check.h"
#include "core/cuda/error.h"
#include "core/cuda/llr.cuh"
#include "core/cuda/memory.h"
#include "pdcch_search.h"

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/device_kernels.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>

#include <algorithm>
#include <map>
#include <vector>

namespace gputurbo::lte::cuda {
namespace {

using core::cuda::device_array;
using core::cuda::pinned_array;

constexpr int block_threads = 128;

// The sum of the LLRs sent for position j of the circular buffer's first round: the
// sent bits j, j + K, j + 2 K, … below E.
__device__ float sent_value(const float* llrs, int j, int E, int K)
{
    float v = core::cuda::sanitize(llrs[j], false);
    for (int e = j + K; e < E; e += K)
        v += core::cuda::sanitize(llrs[e], false);
    return v;
}

// Block i's candidate: picks[i], or i where every candidate is a block.
__device__ std::uint32_t picked(const std::uint32_t* picks, std::size_t i)
{
    return picks ? picks[i] : std::uint32_t(i);
}

// Each block's int8 frame of the decoder's input (order: the coded bit of each sent
// position of the first round), a warp a block: lane t sums positions t, t + 32, …
// (reads side by side), the warp finds their largest magnitude, and each lane
// quantises its own, summed again.
__global__ void __launch_bounds__(block_threads)
    combine_kernel(const float* llrs,
                   const device_block* candidates,
                   const std::uint32_t* picks,
                   std::size_t n,
                   const std::int32_t* order,
                   int K,
                   std::int8_t* frames)
{
    const std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int lane = int(threadIdx.x % 32);
    if (i >= n) // the same for the whole warp
        return;
    const device_block b = candidates[picked(picks, i)];
    const float* l = llrs + b.llr_offset;
    const int E = cce_llrs * int(b.level), first_round = min(E, K);
    std::int8_t* q = frames + i * std::size_t(K);
    float largest = 0.0f;
    for (int j = lane; j < first_round; j += 32)
        largest = fmaxf(largest, fabsf(sent_value(l, j, E, K)));
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, d));
    if (largest == 0.0f || E < K)
        for (int k = lane; k < K; k += 32)
            q[k] = 0;
    if (largest == 0.0f)
        return;
    __syncwarp(); // the zeros before the values
    const float scale = 127.0f / largest;
    for (int j = lane; j < first_round; j += 32)
        q[order[j]] =
            std::int8_t(core::cuda::quantize_llr(sent_value(l, j, E, K), scale));
}

// The CRC's mask of a decided block of A payload and 16 CRC bits (crc_mask(): gCRC16,
// the register from 0, the payload's bits first).
__device__ int crc_mask_of(const std::uint8_t* decided, int A)
{
    unsigned reg = 0;
    for (int i = 0; i < A; ++i) {
        const unsigned feedback = ((reg >> 15) ^ decided[i]) & 1u;
        reg = ((reg << 1) & 0xFFFFu) ^ (feedback ? 0x1021u : 0u);
    }
    unsigned received = 0;
    for (int i = 0; i < control_crc_bits; ++i)
        received = received << 1 | (decided[A + i] & 1u);
    return int(received ^ reg);
}

__device__ bool has(const std::int32_t* sorted, std::uint32_t count, int x)
{
    std::uint32_t lo = 0, hi = count;
    while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (sorted[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && sorted[lo] == x;
}

// The blocks whose frame status passed, whose RNTI the mode's rule takes and whose
// decision, re-encoded, correlates with their LLRs at least as the floors ask (by level
// and RNTI hypotheses): listed (in any order) with their A payload bits.
__global__ void __launch_bounds__(block_threads)
    check_kernel(const float* llrs,
                 const device_block* candidates,
                 const std::uint32_t* picks,
                 std::size_t n,
                 const std::uint8_t* bits,
                 const unsigned char* passed,
                 const std::int32_t* sent_of,     // coded bit -> sent position
                 const unsigned char* coded_bits, // [2^K] of each register
                 const std::uint32_t* rnti_first,
                 const std::int32_t* listed,
                 const std::int32_t* ue,
                 int A,
                 bool exhaustive,
                 correlation_floors least,
                 unsigned* count,
                 passed_block* out,
                 std::uint8_t* payloads)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n || !passed[i])
        return;
    const std::uint32_t candidate = picked(picks, i);
    const device_block b = candidates[candidate];
    const int D = A + control_crc_bits;
    const std::uint8_t* decided = bits + i * std::size_t(D);
    const int mask = crc_mask_of(decided, A);
    const std::uint32_t first = rnti_first[b.subframe],
                        lists = rnti_first[b.subframe + 1] - first;
    const int space = dci_space(
        mask,
        exhaustive,
        lists > 0,
        b.common,
        [&](int rnti) { return has(listed + first, lists, rnti); },
        [&](int rnti) { return has(ue + b.ue_first, b.ue_count, rnti); });
    if (space < 0)
        return;
    const float* l = llrs + b.llr_offset;
    const int K = 3 * D, E = cce_llrs * int(b.level);
    // The frame's value of coded bit i: its sent position's, 0 where none was sent.
    const float correlation =
        reencoded_agreement(decided,
                            D,
                            coded_bits,
                            [&](int i) {
                                const int j = sent_of[i];
                                return j < E ? sent_value(l, j, E, K) : 0.0f;
                            }) /
        b.magnitude;
    const int hypotheses =
        rnti_hypotheses(exhaustive, int(lists), b.common, int(b.ue_count));
    if (double(correlation) < least.of(b.floor_level, hypotheses))
        return;
    const unsigned at = atomicAdd(count, 1u);
    out[at] = { candidate, mask, space, correlation };
    for (int k = 0; k < A; ++k)
        payloads[std::size_t(at) * A + k] = decided[k];
}

unsigned grid(std::size_t n) { return unsigned((n + block_threads - 1) / block_threads); }

// device, made current (so that the members after it are made on it).
int made_current(int device)
{
    GPUTURBO_CUDA_TRY(cudaSetDevice(device));
    return device;
}

// \p count values of page-locked \p from to \p to, enqueued on \p s.
template <class T>
void copy_staged(device_array<T>& to,
                 const pinned_array<T>& from,
                 std::size_t count,
                 cudaStream_t s)
{
    T* d = to.reserve(std::max<std::size_t>(count, 1));
    if (count > 0)
        GPUTURBO_CUDA_TRY(
            cudaMemcpyAsync(d, from.get(), count * sizeof(T), cudaMemcpyHostToDevice, s));
}

template <class T>
void to_device(device_array<T>& to, const std::vector<T>& from, cudaStream_t s)
{
    T* d = to.reserve(std::max<std::size_t>(from.size(), 1));
    if (!from.empty())
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(
            d, from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

class device_search final : public pdcch_device_search
{
public:
    device_search(std::unique_ptr<conv::device_kernels> kernels)
        : d_kernels(std::move(kernels)), d_device(made_current(d_kernels->gpu()))
    {
        const conv::code code = control_decoder_config().generator;
        std::vector<unsigned char> coded(std::size_t(1) << code.constraint);
        for (std::size_t reg = 0; reg < coded.size(); ++reg)
            coded[reg] = static_cast<unsigned char>(code.coded_bits(unsigned(reg)));
        core::cuda::upload(d_coded.reserve(coded.size()), coded.data(), coded.size());
    }

    // Its buffers go only once the work that uses them is done.
    ~device_search() override
    {
        cudaSetDevice(d_device);
        cudaStreamSynchronize(d_stream); // a failure here cannot be acted on
    }

    // make(), its memory found, or a runtime_error that says what to do (and no CUDA
    // error left behind for a later call to find).
    template <class Make>
    decltype(auto) with_memory_advice(std::size_t n, const Make& make)
    {
        try {
            return make();
        } catch (const core::cuda::cuda_error& e) {
            if (e.code != cudaErrorMemoryAllocation)
                throw;
            cudaGetLastError();
            throw std::runtime_error(
                "pdcch search: " + std::to_string(n) +
                " values or candidates need more memory than GPU " +
                std::to_string(d_device) +
                " (or page-locked host memory) has: search fewer subframes a call");
        }
    }

    float* llr_room(std::size_t count) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        // The last call's work is done (its copies have read the rooms), and what it
        // left uncollected (a call that failed) is forgotten.
        GPUTURBO_CUDA_TRY(cudaStreamSynchronize(d_stream));
        for (auto& [A, sl] : d_slots)
            sl->n = 0;
        return with_memory_advice(count, [&] {
            return d_staged_llrs.reserve(std::max<std::size_t>(count, 1));
        });
    }

    device_block* candidate_room(std::size_t count) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        return with_memory_advice(count, [&] {
            return d_staged_candidates.reserve(std::max<std::size_t>(count, 1));
        });
    }

    void
    send(std::size_t llrs, std::size_t candidates, const device_rntis& rntis) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        with_memory_advice(llrs + candidates, [&] {
            // From pageable memory, done when they return: before the LLRs' copy, so
            // as not to wait for it.
            to_device(d_rnti_first, rntis.first, d_stream);
            to_device(d_listed, rntis.listed, d_stream);
            to_device(d_ue, rntis.ue, d_stream);
            copy_staged(d_candidates, d_staged_candidates, candidates, d_stream);
            copy_staged(d_llrs, d_staged_llrs, llrs, d_stream);
        });
    }

    void submit_size(int A,
                     const std::uint32_t* picks,
                     std::size_t n,
                     bool exhaustive,
                     const correlation_floors& least) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        size_slot& sl = slot_of(A);
        sl.n = 0; // until its work is enqueued whole
        if (n == 0)
            return;
        with_memory_advice(n, [&] {
            const int D = A + control_crc_bits, K = 3 * D;
            if (d_kernels->input_length(D) != std::size_t(K))
                throw std::logic_error("pdcch_device_search: the decoder reads " +
                                       std::to_string(d_kernels->input_length(D)) +
                                       " LLRs a frame of " + std::to_string(D) +
                                       " bits, not " + std::to_string(K));
            const tables& t = tables_of(D);
            const std::uint32_t* device_picks = nullptr;
            if (picks) {
                std::copy(picks, picks + n, sl.staged_picks.reserve(n));
                copy_staged(sl.picks, sl.staged_picks, n, d_stream);
                device_picks = sl.picks.get();
            }
            std::int8_t* frames =
                sl.frames.reserve(n * std::size_t(K) + conv::device_llr_padding);
            conv::device_batch batch{ frames,
                                      sl.bits.reserve(n * std::size_t(D)),
                                      sl.iterations.reserve(n),
                                      sl.passed.reserve(n),
                                      sl.workspace.reserve(
                                          d_kernels->workspace_bytes(D, n)) };
            passed_block* out = sl.out.reserve(n);
            std::uint8_t* payloads = sl.payloads.reserve(n * std::size_t(A));
            combine_kernel<<<grid(32 * n), block_threads, 0, d_stream>>>(
                d_llrs.get(),
                d_candidates.get(),
                device_picks,
                n,
                t.order.get(),
                K,
                frames);
            GPUTURBO_CUDA_CHECK_LAUNCH();
            d_kernels->launch(D, n, batch, d_stream);
            GPUTURBO_CUDA_TRY(
                cudaMemsetAsync(sl.count.get(), 0, sizeof(unsigned), d_stream));
            check_kernel<<<grid(n), block_threads, 0, d_stream>>>(d_llrs.get(),
                                                                  d_candidates.get(),
                                                                  device_picks,
                                                                  n,
                                                                  batch.bits,
                                                                  batch.passed,
                                                                  t.sent_of.get(),
                                                                  d_coded.get(),
                                                                  d_rnti_first.get(),
                                                                  d_listed.get(),
                                                                  d_ue.get(),
                                                                  A,
                                                                  exhaustive,
                                                                  least,
                                                                  sl.count.get(),
                                                                  out,
                                                                  payloads);
            GPUTURBO_CUDA_CHECK_LAUNCH();
            GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.found.get(),
                                              sl.count.get(),
                                              sizeof(unsigned),
                                              cudaMemcpyDeviceToHost,
                                              d_stream));
            GPUTURBO_CUDA_TRY(cudaEventRecord(sl.done, d_stream));
        });
        sl.n = n;
    }

    void collect_size(int A,
                      std::vector<passed_block>& blocks,
                      std::vector<std::uint8_t>& payloads) override
    {
        blocks.clear();
        payloads.clear();
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        const auto at = d_slots.find(A);
        if (at == d_slots.end() || at->second->n == 0)
            return;
        size_slot& sl = *at->second;
        GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.done));
        const unsigned found = *sl.found.get();
        blocks.resize(found);
        payloads.resize(std::size_t(found) * A);
        if (found > 0) {
            GPUTURBO_CUDA_TRY(cudaMemcpy(blocks.data(),
                                         sl.out.get(),
                                         found * sizeof(passed_block),
                                         cudaMemcpyDeviceToHost));
            GPUTURBO_CUDA_TRY(cudaMemcpy(payloads.data(),
                                         sl.payloads.get(),
                                         payloads.size(),
                                         cudaMemcpyDeviceToHost));
        }
        sl.n = 0;
    }

private:
    // For a block of D bits: order[j], the coded bit of sent position j of the first
    // round (a permutation of 0 … 3 D - 1), and sent_of, its inverse.
    struct tables
    {
        device_array<std::int32_t> order, sent_of;
    };

    const tables& tables_of(int D)
    {
        auto& t = d_tables[D];
        if (!t) {
            std::vector<std::int32_t> order;
            for (const std::int32_t at : conv_circular_buffer(D))
                if (at != null_bit)
                    order.push_back(at);
            std::vector<std::int32_t> sent_of(order.size());
            for (std::size_t j = 0; j < order.size(); ++j)
                sent_of[std::size_t(order[j])] = std::int32_t(j);
            auto made = std::make_unique<tables>();
            core::cuda::upload(
                made->order.reserve(order.size()), order.data(), order.size());
            core::cuda::upload(
                made->sent_of.reserve(sent_of.size()), sent_of.data(), sent_of.size());
            t = std::move(made);
        }
        return *t;
    }

    // One DCI size's buffers and answer, while its work is in flight.
    struct size_slot
    {
        device_array<std::uint32_t> picks; // none where every candidate is a block
        pinned_array<std::uint32_t> staged_picks;
        device_array<std::int8_t> frames;
        device_array<std::uint8_t> bits;
        device_array<int> iterations;
        device_array<unsigned char> passed;
        device_array<unsigned char> workspace;
        device_array<unsigned> count;
        pinned_array<unsigned> found;
        device_array<passed_block> out;
        device_array<std::uint8_t> payloads;
        core::cuda::event done;
        std::size_t n = 0; // blocks submitted and not collected
    };

    size_slot& slot_of(int A)
    {
        auto& sl = d_slots[A];
        if (!sl) {
            sl = std::make_unique<size_slot>();
            sl->count.reserve(1);
            sl->found.reserve(1);
        }
        return *sl;
    }

    std::unique_ptr<conv::device_kernels> d_kernels;
    const int d_device; // made current before the members below
    core::cuda::stream d_stream;
    std::map<int, std::unique_ptr<tables>> d_tables;
    device_array<unsigned char> d_coded;
    device_array<float> d_llrs;
    pinned_array<float> d_staged_llrs;
    device_array<device_block> d_candidates;
    pinned_array<device_block> d_staged_candidates;
    device_array<std::uint32_t> d_rnti_first;
    device_array<std::int32_t> d_listed, d_ue;
    std::map<int, std::unique_ptr<size_slot>> d_slots;
};

} // namespace

std::unique_ptr<pdcch_device_search>
make_pdcch_device_search(const core::batch_decoder& decoder)
{
    auto kernels = conv::device_kernels_of(decoder);
    if (!kernels)
        return nullptr;
    return std::make_unique<device_search>(std::move(kernels));
}

} // namespace gputurbo::lte::cuda
