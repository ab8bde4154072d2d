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
#include <exception>
#include <stdexcept>
#include <thread>

namespace gputurbo::core::cuda {

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

std::string version(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

using ticket = batch_decoder::ticket;
constexpr ticket taken_by_decode = ~ticket(0);

} // namespace

struct pipeline::slot
{
    stream queue;
    event kernels_start, kernels_end, input_read;
    pinned_array<unsigned char> host_llrs; // float, int8 or int4 LLRs
    pinned_array<std::uint8_t> host_bits;
    pinned_array<int> host_iterations;
    pinned_array<unsigned char> host_passed;
    device_array<unsigned char> llrs;  // float or int8 LLRs
    device_array<int4_pair> int4_llrs; // int4 input, before unpacking into llrs
    device_array<unsigned char> workspace;
    device_array<std::uint8_t> bits;
    device_array<int> iterations;
    device_array<unsigned char> passed;
    int block = 0;
    std::size_t n = 0;
    std::size_t bytes = 0; // of bits a codeword, output_bytes(format, block)
    std::uint8_t* direct_bits = nullptr; // page-locked output the bits go to directly
    bool reads_caller = false;           // the input copy reads the caller's buffer
    ticket id = 0;                       // 0: free
};

pipeline::pipeline(int device, family_kernels& kernels)
    : d_device(device), d_kernels(kernels)
{
    const int count = device_count();
    if (device < 0 || device >= count)
        throw std::runtime_error("CUDA device " + std::to_string(device) +
                                 " does not exist (" + std::to_string(count) +
                                 " device(s) found)");
    if (const std::string why = cannot_run_reason(device); !why.empty())
        throw std::runtime_error(why);
    GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
    GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&d_prop, d_device));
    int driver = 0, runtime = 0;
    GPUTURBO_CUDA_TRY(cudaDriverGetVersion(&driver));
    GPUTURBO_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
    d_versions = "CUDA driver " + version(driver) + ", runtime " + version(runtime);
}

pipeline::~pipeline() = default;

std::size_t pipeline::outstanding() const
{
    std::size_t n = 0;
    for (const auto& sl : d_slots)
        n += sl->id != 0 && sl->id != taken_by_decode;
    return n;
}

// A free slot, made on first need (streams and events live on d_device): up to
// max_in_flight for submitted batches (the caller checks their count) and two more, so
// that decode() also runs while batches are outstanding.
pipeline::slot& pipeline::free_slot()
{
    for (auto& sl : d_slots)
        if (sl->id == 0)
            return *sl;
    if (d_slots.size() >= std::size_t(batch_decoder::max_in_flight + 2))
        throw std::logic_error("pipeline: every slot is taken");
    d_slots.push_back(std::make_unique<slot>());
    return *d_slots.back();
}

void pipeline::submit(ticket t, const llr_batch& b)
{
    GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
    slot& sl = free_slot();
    enqueue(sl, b, nullptr);
    sl.id = t;
    // The caller may reuse the LLR buffer once submit() returns.
    try {
        if (sl.reads_caller)
            GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.input_read));
    } catch (...) {
        cudaStreamSynchronize(sl.queue);
        sl.id = 0; // the caller never gets the ticket: the slot is free again
        throw;
    }
}

void pipeline::collect(ticket t, std::uint8_t* bits, codeword_status* status)
{
    for (auto& sl : d_slots)
        if (sl->id == t && t != 0 && t != taken_by_decode) {
            if (sl->n > 0 && !bits)
                throw std::invalid_argument("collect: null output buffer");
            GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
            sl->id = 0; // free again, whatever finish() meets
            finish(*sl, bits, status);
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
    slot* previous = nullptr;
    try {
        for (std::size_t i = 0; i <= chunks; ++i) {
            slot* current = nullptr;
            if (i < chunks) {
                const std::size_t first = i * chunk;
                llr_batch part = b;
                part.count = std::min(chunk, b.count - first);
                if (part.f32)
                    part.f32 += first * len;
                else if (part.i8)
                    part.i8 += first * len;
                else
                    part.i4 += first * len / 2; // whole bytes: see chunk
                current = &free_slot();
                current->id = taken_by_decode;
                enqueue(*current, part, bits + first * bytes);
            }
            if (previous) {
                const std::size_t first = (i - 1) * chunk;
                previous->id = 0;
                finish(
                    *previous, bits + first * bytes, status ? status + first : nullptr);
                seconds += d_device_seconds;
            }
            previous = current;
        }
    } catch (...) {
        // Leave no work of this call in flight that could write into a later call's
        // buffers.
        for (auto& sl : d_slots)
            if (sl->id == taken_by_decode) {
                cudaStreamSynchronize(sl->queue);
                sl->id = 0;
            }
        throw;
    }
    d_device_seconds = seconds;
}

// Enqueues one batch on the slot's stream. Page-locked input is copied to the GPU
// directly, other input through the slot's staging buffer; bits_out, if page-locked,
// receives the bits directly (else finish() copies them there).
void pipeline::enqueue(slot& sl, const llr_batch& b, std::uint8_t* bits_out)
{
    sl.block = b.block;
    sl.n = b.count;
    sl.bytes = output_bytes(b.format, b.block);
    sl.direct_bits = nullptr;
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
        buffers.iterations = sl.iterations.reserve(n);
        buffers.passed = sl.passed.reserve(n);
        if (!sl.reads_caller)
            sl.host_llrs.reserve(in_bytes);
        if (!sl.direct_bits)
            sl.host_bits.reserve(out);
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
    buffers.int8 = !b.f32;
    buffers.packed_bits = b.format == bit_format::packed;
    const void* source = llrs;
    if (!sl.reads_caller) {
        parallel_copy(sl.host_llrs.get(), llrs, in_bytes);
        source = sl.host_llrs.get();
    }
    std::uint8_t* bits_host = sl.direct_bits ? sl.direct_bits : sl.host_bits.get();

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
}

void pipeline::finish(slot& sl, std::uint8_t* bits, codeword_status* status)
{
    d_device_seconds = 0.0;
    if (sl.n == 0)
        return;
    GPUTURBO_CUDA_TRY(cudaStreamSynchronize(sl.queue));
    float ms = 0.0f;
    GPUTURBO_CUDA_TRY(cudaEventElapsedTime(&ms, sl.kernels_start, sl.kernels_end));
    d_device_seconds = ms * 1e-3;
    if (bits != sl.direct_bits)
        parallel_copy(
            bits, sl.direct_bits ? sl.direct_bits : sl.host_bits.get(), sl.n * sl.bytes);
    if (status)
        for (std::size_t i = 0; i < sl.n; ++i)
            status[i] = codeword_status{ sl.host_iterations.get()[i],
                                         sl.host_passed.get()[i] != 0 };
}

void decode_across(const std::vector<batch_decoder*>& parts,
                   const llr_batch& b,
                   std::size_t input_length,
                   std::uint8_t* bits,
                   codeword_status* status)
{
    // A host thread per GPU, not the thread pool: each part's staging copies use the
    // pool (or threads of their own) while the GPUs decode side by side.
    const std::size_t n = b.count, share = (n + parts.size() - 1) / parts.size();
    std::vector<std::exception_ptr> errors(parts.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < parts.size(); ++i)
        threads.emplace_back([&, i] {
            try {
                const std::size_t first = std::min(n, i * share);
                const std::size_t count = std::min(share, n - first);
                std::uint8_t* out = bits + first * output_bytes(b.format, b.block);
                codeword_status* st = status ? status + first : nullptr;
                if (b.f32)
                    parts[i]->decode(
                        b.block, b.f32 + first * input_length, count, out, st, b.format);
                else
                    parts[i]->decode(
                        b.block, b.i8 + first * input_length, count, out, st, b.format);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
    for (auto& t : threads)
        t.join();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

} // namespace gputurbo::core::cuda
