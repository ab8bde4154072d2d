/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../thread_pool.h"
#include "pipeline.h"
#include "runtime.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gputurbo::core::cuda {

cudaDeviceProp open_device(int device)
{
    check_device(device);
    GPUTURBO_CUDA_TRY(cudaSetDevice(device));
    cudaDeviceProp prop{};
    GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    return prop;
}

bool page_locked(const void* p, std::size_t bytes)
{
    for (const void* at :
         { p, static_cast<const void*>(static_cast<const char*>(p) + bytes - 1) }) {
        cudaPointerAttributes a{};
        if (cudaPointerGetAttributes(&a, at) != cudaSuccess) {
            cudaGetLastError(); // not an error of ours: the pointer is just not CUDA's
            return false;
        }
        if (a.type != cudaMemoryTypeHost)
            return false;
    }
    return true;
}

void parallel_copy(void* dst, const void* src, std::size_t bytes)
{
    constexpr std::size_t min_share = std::size_t(1) << 20;
    const int workers = int(
        std::min<std::size_t>(std::max(1, thread_count(0) / 2), bytes / min_share + 1));
    const std::size_t share = (bytes + workers - 1) / workers;
    thread_pool::shared().run(workers, [&](int w) {
        const std::size_t at = std::min(bytes, w * share);
        std::memcpy(static_cast<char*>(dst) + at,
                    static_cast<const char*>(src) + at,
                    std::min(share, bytes - at));
    });
}

namespace {

// int4 LLRs unpacked to int8 (core/llr.h), a thread per 8 of them.
__global__ void unpack_int4_kernel(const int4_pair* in, std::size_t n, std::int8_t* out)
{
    const std::size_t first = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 8;
    if (first >= n)
        return;
    if (first + 8 <= n) {
        const unsigned w = *reinterpret_cast<const unsigned*>(in + first / 2);
        unsigned q[2] = {};
        for (int i = 0; i < 8; ++i)
            q[i / 4] |= unsigned(std::uint8_t(int4_value(w >> 4 * i))) << 8 * (i % 4);
        *reinterpret_cast<uint2*>(out + first) = { q[0], q[1] };
        return;
    }
    for (std::size_t i = first; i < n; ++i)
        out[i] = std::int8_t(int4_value(in[i / 2].nibbles >> 4 * (i % 2)));
}

using ticket = batch_decoder::ticket;
constexpr ticket taken_by_decode = ~ticket(0);

} // namespace

// staged_in: float, int8 or int4 LLRs; staged_out: bits.
struct pipeline::batch_slot : slot
{
    pinned_array<int> host_iterations;
    pinned_array<unsigned char> host_passed;
    device_array<unsigned char> llrs;  // float or int8 LLRs
    device_array<int4_pair> int4_llrs; // int4 input, before unpacking into llrs
    device_array<unsigned char> workspace;
    device_array<std::uint8_t> bits;
    device_array<float> soft;      // soft output, when the batch wants it
    pinned_array<float> host_soft; // … on its way to the caller
    bool has_soft = false;
    device_array<int> iterations;
    device_array<unsigned char> passed;
    int block = 0;
    std::size_t n = 0;
    std::size_t bytes = 0; // of bits a codeword, output_bytes(format, block)
    std::uint8_t* direct_bits = nullptr; // page-locked output the bits go to directly
    bool reads_caller = false;           // the input copy reads the caller's buffer
    ticket id = 0;                       // taken by submit() or decode()
};

pipeline::pipeline(int device, family_kernels& kernels)
    : d_device(device),
      d_kernels(kernels),
      d_prop(open_device(device)),
      d_versions(driver_and_runtime_versions()),
      d_slots(std::make_unique<slot_ring<batch_slot>>(
          std::size_t(batch_decoder::max_in_flight + 2)))
{
}

pipeline::~pipeline() = default;

std::size_t pipeline::outstanding() const
{
    std::size_t n = 0;
    for (const batch_slot* sl : d_slots->taken())
        n += sl->id != taken_by_decode;
    return n;
}

void pipeline::submit(ticket t, const llr_batch& b)
{
    GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
    batch_slot& sl = d_slots->take();
    sl.id = t;
    try {
        enqueue(sl, b, nullptr);
        // The caller may reuse the LLR buffer once submit() returns.
        if (sl.reads_caller)
            GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.input_read));
    } catch (...) {
        cudaStreamSynchronize(sl.queue);
        d_slots->give_back(sl); // the caller never gets the ticket
        throw;
    }
}

void pipeline::collect(ticket t, std::uint8_t* bits, codeword_status* status, float* soft)
{
    for (batch_slot* sl : d_slots->taken())
        if (sl->id == t && t != taken_by_decode) {
            if (sl->n > 0 && !bits)
                throw std::invalid_argument("collect: null output buffer");
            GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
            d_slots->give_back(*sl); // free again, whatever finish() meets
            finish(*sl, bits, status, soft);
            return;
        }
    throw std::invalid_argument("collect: ticket " + std::to_string(t) +
                                " is unknown or already collected");
}

void pipeline::decode(const llr_batch& b, std::uint8_t* bits, codeword_status* status)
{
    GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
    const std::size_t len = d_kernels.input_length(b.block);
    std::size_t chunk =
        std::max<std::size_t>(1, d_kernels.chunk_codewords(b.block, b.count));
    if (b.i4 && len % 2)
        chunk += chunk % 2; // every chunk starts on a whole byte of int4 LLRs
    const std::size_t chunks = (b.count + chunk - 1) / chunk;
    const std::size_t bytes = output_bytes(b.format, b.block); // of bits a codeword
    double seconds = 0.0;
    d_slots->in_turn(
        chunks,
        [&](batch_slot& sl, std::size_t i) {
            const std::size_t first = i * chunk;
            llr_batch part = b;
            part.count = std::min(chunk, b.count - first);
            if (part.f32)
                part.f32 += first * len;
            else if (part.i8)
                part.i8 += first * len;
            else
                part.i4 += first * len / 2; // whole bytes: see chunk

            sl.id = taken_by_decode;
            enqueue(sl, part, bits + first * bytes);
        },
        [&](batch_slot& sl, std::size_t i) {
            const std::size_t first = i * chunk;
            finish(sl,
                   bits + first * bytes,
                   status ? status + first : nullptr,
                   b.soft.values ? b.soft.values + first * std::size_t(b.block)
                                 : nullptr);
            seconds += d_device_seconds;
        });
    d_device_seconds = seconds;
}

// Enqueues one batch on the slot's stream. Page-locked input is copied to the GPU
// directly, other input through the slot's staging buffer; bits_out, if page-locked,
// receives the bits directly (else finish() copies them there).
void pipeline::enqueue(batch_slot& sl, const llr_batch& b, std::uint8_t* bits_out)
{
    sl.block = b.block;
    sl.n = b.count;
    sl.bytes = output_bytes(b.format, b.block);
    sl.direct_bits = nullptr;
    sl.has_soft = false;
    sl.reads_caller = false;
    if (b.count == 0)
        return; // an empty batch: nothing to enqueue, nothing to collect
    const std::size_t n = b.count, block = std::size_t(b.block), out = n * sl.bytes;
    const void* llrs = b.f32  ? static_cast<const void*>(b.f32)
                       : b.i8 ? static_cast<const void*>(b.i8)
                              : static_cast<const void*>(b.i4);
    const std::size_t values = n * d_kernels.input_length(b.block);
    const std::size_t in_bytes = b.f32  ? values * sizeof(float)
                                 : b.i8 ? values
                                        : int4_bytes(values);
    sl.reads_caller = page_locked(llrs, in_bytes);
    if (bits_out && page_locked(bits_out, out))
        sl.direct_bits = bits_out;
    // Every buffer is reserved before the input is read: a batch too big for this GPU
    // (or for page-locked memory) fails here, touching nothing, and the failed
    // reservation leaves the slot empty for the next call.
    batch_buffers buffers{};
    try {
        // int4 is unpacked on the GPU: the kernels read int8.
        buffers.llrs = sl.llrs.reserve((b.i4 ? values : in_bytes) + llr_padding);
        if (b.i4)
            sl.int4_llrs.reserve(in_bytes);
        buffers.workspace = sl.workspace.reserve(d_kernels.workspace_bytes(b.block, n));
        buffers.bits = sl.bits.reserve(out);
        if (b.soft.kind != soft_output::none) {
            buffers.soft = sl.soft.reserve(n * block);
            sl.host_soft.reserve(n * block);
        }
        buffers.iterations = sl.iterations.reserve(n);
        buffers.passed = sl.passed.reserve(n);
        if (!sl.reads_caller)
            sl.staged_in.reserve(in_bytes);
        if (!sl.direct_bits)
            sl.staged_out.reserve(out);
        sl.host_iterations.reserve(n);
        sl.host_passed.reserve(n);
    } catch (const cuda_error& e) {
        if (e.code != cudaErrorMemoryAllocation)
            throw;
        cudaGetLastError(); // leave no error behind for a later call to find
        sl.n = 0;
        throw std::runtime_error(
            "a batch of " + std::to_string(n) + " codewords of " + std::to_string(block) +
            " bits needs more memory than GPU " + std::to_string(d_device) +
            " (or page-locked host memory) has: submit smaller batches (decode() "
            "splits any batch by itself)");
    }
    buffers.soft_kind = b.soft.kind;
    sl.has_soft = buffers.soft != nullptr;
    buffers.int8 = !b.f32;
    buffers.packed_bits = b.format == bit_format::packed;
    const void* source = llrs;
    if (!sl.reads_caller) {
        parallel_copy(sl.staged_in.get(), llrs, in_bytes);
        source = sl.staged_in.get();
    }
    std::uint8_t* bits_host = sl.direct_bits ? sl.direct_bits : sl.staged_out.get();

    const cudaStream_t s = sl.queue;
    void* const device_input =
        b.i4 ? static_cast<void*>(sl.int4_llrs.get()) : sl.llrs.get();
    GPUTURBO_CUDA_TRY(
        cudaMemcpyAsync(device_input, source, in_bytes, cudaMemcpyHostToDevice, s));
    GPUTURBO_CUDA_TRY(cudaEventRecord(sl.input_read, s));
    // The kernels start after the previous batch's: each fills the GPU anyway, and so a
    // batch's kernel time (device_seconds()) holds no other batch's work. Without the
    // wait, an input copy shorter than the previous batch's kernels (int8) let this
    // start event fire while the GPU was still busy, and that overlap counted twice.
    if (d_last_enqueued && d_last_enqueued != &sl)
        GPUTURBO_CUDA_TRY(cudaStreamWaitEvent(s, d_last_enqueued->kernels_end, 0));
    GPUTURBO_CUDA_TRY(cudaEventRecord(sl.kernels_start, s));
    if (b.i4) {
        constexpr unsigned threads = 256;
        const std::size_t groups = (values + 7) / 8;
        unpack_int4_kernel<<<unsigned((groups + threads - 1) / threads), threads, 0, s>>>(
            sl.int4_llrs.get(), values, reinterpret_cast<std::int8_t*>(sl.llrs.get()));
        GPUTURBO_CUDA_CHECK_LAUNCH();
    }
    d_kernels.launch(b.block, n, buffers, s);
    GPUTURBO_CUDA_TRY(cudaEventRecord(sl.kernels_end, s));
    d_last_enqueued = &sl;
    GPUTURBO_CUDA_TRY(
        cudaMemcpyAsync(bits_host, buffers.bits, out, cudaMemcpyDeviceToHost, s));
    GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_iterations.get(),
                                      buffers.iterations,
                                      n * sizeof(int),
                                      cudaMemcpyDeviceToHost,
                                      s));
    GPUTURBO_CUDA_TRY(cudaMemcpyAsync(
        sl.host_passed.get(), buffers.passed, n, cudaMemcpyDeviceToHost, s));
    if (sl.has_soft)
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_soft.get(),
                                          buffers.soft,
                                          n * block * sizeof(float),
                                          cudaMemcpyDeviceToHost,
                                          s));
}

void pipeline::finish(batch_slot& sl,
                      std::uint8_t* bits,
                      codeword_status* status,
                      float* soft)
{
    d_device_seconds = 0.0;
    if (sl.n == 0)
        return;
    sl.wait();
    d_device_seconds = sl.kernel_seconds();
    if (bits != sl.direct_bits)
        parallel_copy(
            bits, sl.direct_bits ? sl.direct_bits : sl.staged_out.get(), sl.n * sl.bytes);
    if (status)
        for (std::size_t i = 0; i < sl.n; ++i)
            status[i] = codeword_status{ sl.host_iterations.get()[i],
                                         sl.host_passed.get()[i] != 0 };
    if (sl.has_soft && soft)
        parallel_copy(
            soft, sl.host_soft.get(), sl.n * std::size_t(sl.block) * sizeof(float));
}

} // namespace gputurbo::core::cuda
