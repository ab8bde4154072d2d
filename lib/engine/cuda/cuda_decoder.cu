/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cuda_decoder.h"
#include "cuda_error.h"
#include "turbo_kernel.cuh"

#include <algorithm>
#include <exception>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace gputurbo::cuda {
namespace {

// Device memory that grows to the largest request and is then reused.
template <class T>
class device_array
{
public:
    device_array() = default;
    device_array(const device_array&) = delete;
    device_array& operator=(const device_array&) = delete;
    ~device_array() { release(); }

    T* reserve(std::size_t count)
    {
        if (count > d_count) {
            release();
            GPUTURBO_CUDA_TRY(cudaMalloc(&d_ptr, count * sizeof(T)));
            d_count = count;
        }
        return d_ptr;
    }
    T* get() const { return d_ptr; }

private:
    void release()
    {
        if (d_ptr)
            cudaFree(d_ptr); // never throws; a failure here cannot be acted on
        d_ptr = nullptr;
        d_count = 0;
    }
    T* d_ptr = nullptr;
    std::size_t d_count = 0;
};

class event
{
public:
    event() { GPUTURBO_CUDA_TRY(cudaEventCreate(&d_event)); }
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    ~event() { cudaEventDestroy(d_event); }
    operator cudaEvent_t() const { return d_event; }

private:
    cudaEvent_t d_event = nullptr;
};

class stream
{
public:
    stream()
    {
        GPUTURBO_CUDA_TRY(cudaStreamCreateWithFlags(&d_stream, cudaStreamNonBlocking));
    }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    ~stream() { cudaStreamDestroy(d_stream); }
    operator cudaStream_t() const { return d_stream; }

private:
    cudaStream_t d_stream = nullptr;
};

// CRC remainder contributed by a 1 at bit k of a K-bit block: the CRC is linear, so a
// block checks when the XOR of the contributions of its set bits is zero.
std::vector<std::uint32_t> crc_contributions(lte::crc24 type, int K)
{
    std::vector<std::uint8_t> unit(K, 0);
    std::vector<std::uint32_t> table(K);
    // The contribution of bit k is that of bit K-1 shifted through K-1-k zeros.
    unit[K - 1] = 1;
    std::uint32_t reg = lte::crc24_parity(type, unit.data(), K);
    const std::uint32_t poly = lte::crc24_parity(type, unit.data() + K - 1, 1);
    for (int k = K - 1; k >= 0; --k) {
        table[k] = reg;
        const bool feedback = (reg >> 23) & 1u;
        reg = (reg << 1) & 0xFFFFFFu;
        if (feedback)
            reg ^= poly;
    }
    return table;
}

// Page-locked host memory, so that copies run at the bus's speed and asynchronously.
template <class T>
class pinned_array
{
public:
    pinned_array() = default;
    pinned_array(const pinned_array&) = delete;
    pinned_array& operator=(const pinned_array&) = delete;
    ~pinned_array()
    {
        if (d_ptr)
            cudaFreeHost(d_ptr);
    }
    T* reserve(std::size_t count)
    {
        if (count > d_count) {
            if (d_ptr)
                cudaFreeHost(d_ptr);
            d_ptr = nullptr;
            d_count = 0;
            GPUTURBO_CUDA_TRY(cudaMallocHost(&d_ptr, count * sizeof(T)));
            d_count = count;
        }
        return d_ptr;
    }
    T* get() const { return d_ptr; }

private:
    T* d_ptr = nullptr;
    std::size_t d_count = 0;
};

// Whether the DMA engines can read or write [p, p + bytes) directly: page-locked memory
// (host_buffer, cudaHostAlloc) needs no staging copy.
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

// memcpy spread over a few threads: one core cannot keep up with the bus.
void parallel_copy(void* dst, const void* src, std::size_t bytes)
{
    constexpr std::size_t min_share = std::size_t(1) << 20;
    const int threads = int(std::min<std::size_t>(
        std::max(1u, std::thread::hardware_concurrency() / 2), bytes / min_share + 1));
    const std::size_t share = (bytes + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) {
        const std::size_t at = std::min(bytes, t * share);
        pool.emplace_back([=] {
            std::memcpy(static_cast<char*>(dst) + at,
                        static_cast<const char*>(src) + at,
                        std::min(share, bytes - at));
        });
    }
    std::memcpy(dst, src, std::min(share, bytes));
    for (auto& t : pool)
        t.join();
}

constexpr int threads_per_block_target = 128;
// Codewords per pipeline chunk: big enough to fill the GPU, small enough that copying one
// chunk overlaps with decoding the previous one.
constexpr std::size_t chunk_llrs = std::size_t(1) << 23; // 32 MB of float LLRs
constexpr std::size_t waves_per_chunk = 4;

class cuda_decoder final : public decoder
{
public:
    cuda_decoder(const decoder_config& config, int device)
        : decoder(config), d_device(device)
    {
        const int count = device_count();
        if (device < 0 || device >= count)
            throw std::runtime_error("CUDA device " + std::to_string(device) +
                                     " does not exist (" + std::to_string(count) +
                                     " device(s) found)");
        if (config.subblocks > max_threads_per_block())
            throw std::invalid_argument(
                "subblocks P=" + std::to_string(config.subblocks) +
                " is too many for the CUDA backend: use P <= " +
                std::to_string(max_threads_per_block()));
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&d_prop, d_device));
        int driver = 0, runtime = 0;
        GPUTURBO_CUDA_TRY(cudaDriverGetVersion(&driver));
        GPUTURBO_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
        auto version = [](int v) {
            return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
        };
        d_versions = "CUDA driver " + version(driver) + ", runtime " + version(runtime);

        d_lanes = lanes_for(config.cuda_arithmetic != arithmetic::float32);
        const std::size_t per_group =
            shared_bytes_per_group(config.K, config.subblocks, d_lanes);
        const std::size_t limit = d_prop.sharedMemPerBlockOptin - static_shared_bytes();
        if (per_group > limit)
            throw std::invalid_argument("K=" + std::to_string(config.K) +
                                        " with P=" + std::to_string(config.subblocks) +
                                        " needs more shared memory than this GPU has");
        d_per_block = std::max(1,
                               std::min({ threads_per_block_target / config.subblocks,
                                          max_threads_per_block() / config.subblocks,
                                          int(limit / per_group) }));
        configure_decode_kernel(kernel());
        // A chunk fills the GPU several times over, so that the last, partly filled
        // round of thread blocks costs little.
        const std::size_t resident = std::size_t(resident_blocks_per_sm(kernel())) *
                                     d_prop.multiProcessorCount * d_per_block * d_lanes;
        d_chunk = std::max(chunk_llrs / lte::codeword_length(config.K),
                           waves_per_chunk * resident);

        if (const auto crc = stop_crc(config.early_stop)) {
            const auto table = crc_contributions(*crc, config.K);
            GPUTURBO_CUDA_TRY(cudaMemcpy(d_crc.reserve(table.size()),
                                         table.data(),
                                         table.size() * sizeof(std::uint32_t),
                                         cudaMemcpyHostToDevice));
        }
    }

    void decode_batch(const llr_input& llrs,
                      std::size_t n_codewords,
                      std::uint8_t* bits,
                      codeword_status* status) override
    {
        if (llrs.i8)
            run(llrs.i8, n_codewords, bits, status);
        else
            run(llrs.f32, n_codewords, bits, status);
    }

    double device_seconds() const override { return d_device_seconds; }

    std::string backend() const override { return "cuda"; }

    std::string device() const override
    {
        return std::string(d_prop.name) + " (GPU " + std::to_string(d_device) + ", " +
               std::to_string(d_prop.multiProcessorCount) + " SMs, " +
               (d_lanes == 2 ? "int16, 2 codewords per thread, " : "float32, ") +
               std::to_string(d_per_block * d_lanes) + " codeword(s) of " +
               std::to_string(d_config.subblocks) + " thread(s) per block; " +
               d_versions + ")";
    }

private:
    struct slot
    {
        std::unique_ptr<stream> stream;
        std::unique_ptr<event> kernels_start, kernels_end, input_read;
        pinned_array<unsigned char> host_llrs; // float or int8 LLRs
        pinned_array<std::uint8_t> host_bits;
        pinned_array<int> host_iterations;
        pinned_array<unsigned char> host_passed;
        device_array<unsigned char> raw; // float or int8 LLRs
        device_array<unsigned char> trellis;
        device_array<float> edges;
        device_array<std::uint8_t> bits;
        device_array<int> iterations;
        device_array<unsigned char> passed;
        std::size_t n = 0;
        std::uint8_t* direct_bits = nullptr; // page-locked output the bits go to directly
        bool reads_caller = false;           // the input copy reads the caller's buffer
        ticket id = 0;                       // 0: free
    };

    // A free slot, made on first need (streams and events live on d_device).
    slot& free_slot()
    {
        for (auto& sl : d_slots)
            if (sl->id == 0)
                return *sl;
        if (d_slots.size() >= std::size_t(max_in_flight))
            throw std::runtime_error("submit: " + std::to_string(max_in_flight) +
                                     " batches are in flight: collect one first");
        auto sl = std::make_unique<slot>();
        sl->stream = std::make_unique<stream>();
        sl->kernels_start = std::make_unique<event>();
        sl->kernels_end = std::make_unique<event>();
        sl->input_read = std::make_unique<event>();
        d_slots.push_back(std::move(sl));
        return *d_slots.back();
    }

    ticket submit_batch(const llr_input& llrs, std::size_t n_codewords) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        slot& sl = free_slot();
        if (llrs.i8)
            submit(sl, llrs.i8, n_codewords, nullptr);
        else
            submit(sl, llrs.f32, n_codewords, nullptr);
        sl.id = ++d_last_id;
        // The caller may reuse the LLR buffer once submit() returns.
        if (sl.reads_caller)
            GPUTURBO_CUDA_TRY(cudaEventSynchronize(*sl.input_read));
        return sl.id;
    }

    void collect_batch(ticket t, std::uint8_t* bits, codeword_status* status) override
    {
        for (auto& sl : d_slots)
            if (sl->id == t && t != 0) {
                if (sl->n > 0 && !bits)
                    throw std::invalid_argument("collect: null output buffer");
                GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
                sl->id = 0; // free again, whatever collect() meets
                collect(*sl, bits, status);
                return;
            }
        throw std::invalid_argument("collect: ticket " + std::to_string(t) +
                                    " is unknown or already collected");
    }

    kernel_config kernel() const
    {
        const decoder_config& c = d_config;
        kernel_config k{};
        k.K = c.K;
        k.P = c.subblocks;
        k.w = c.K / c.subblocks;
        k.g = c.guard_window;
        k.guarding = int(c.guarding);
        k.iterations = c.iterations;
        k.stop = int(c.early_stop);
        k.scale = c.algo == algorithm::scaled_max_log ? c.scaling : 1.0f;
        k.exact = c.algo == algorithm::log_map;
        k.invert = c.invert_llr;
        k.streams = c.input_layout == layout::streams;
        k.lanes = d_lanes;
        // int16 units: 1/16 LLR.
        k.input_scale = d_lanes == 2 ? 16.0f : 1.0f;
        k.scale_q15 = int(k.scale * 32768.0f + 0.5f);
        // Thresholds compare a-posteriori LLRs, which int16 holds in 2 units per LLR.
        k.threshold = c.stop_threshold * (d_lanes == 2 ? 32.0f : 1.0f);
        k.f1 = lte::qpp(c.K).f1;
        k.f2 = lte::qpp(c.K).f2;
        k.w_magic = unsigned(((std::uint64_t(1) << 32) + k.w - 1) / k.w);
        k.per_block = d_per_block;
        k.shared_bytes = d_per_block * shared_bytes_per_group(c.K, c.subblocks, d_lanes);
        return k;
    }

    // Chunks go through two slots in turn: while the GPU decodes chunk i, the host copies
    // chunk i+1 in and collects chunk i-1's results.
    template <class In>
    void run(const In* llrs,
             std::size_t n_codewords,
             std::uint8_t* bits,
             codeword_status* status)
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        const std::size_t len = lte::codeword_length(d_config.K);
        const std::size_t chunks = (n_codewords + d_chunk - 1) / d_chunk;
        double seconds = 0.0;
        slot* previous = nullptr;
        try {
            for (std::size_t i = 0; i <= chunks; ++i) {
                slot* current = nullptr;
                if (i < chunks) {
                    const std::size_t first = i * d_chunk;
                    current = &free_slot();
                    current->id = ~ticket(0); // taken by this call, not by a ticket
                    submit(*current,
                           llrs + first * len,
                           std::min(d_chunk, n_codewords - first),
                           bits + first * d_config.K);
                }
                if (previous) {
                    const std::size_t first = (i - 1) * d_chunk;
                    previous->id = 0;
                    collect(*previous,
                            bits + first * d_config.K,
                            status ? status + first : nullptr);
                    seconds += d_device_seconds;
                }
                previous = current;
            }
        } catch (...) {
            // Leave no work of this call in flight that could write into a later call's
            // buffers.
            for (auto& sl : d_slots)
                if (sl->id == ~ticket(0)) {
                    cudaStreamSynchronize(*sl->stream);
                    sl->id = 0;
                }
            throw;
        }
        d_device_seconds = seconds;
    }

    // Enqueues one batch on the slot's stream. Page-locked input is copied to the GPU
    // directly, other input through the slot's staging buffer; bits_out, if page-locked,
    // receives the bits directly (else collect() copies them there).
    template <class In>
    void submit(slot& sl, const In* llrs, std::size_t n, std::uint8_t* bits_out)
    {
        sl.n = n;
        sl.direct_bits = nullptr;
        sl.reads_caller = false;
        if (n == 0)
            return; // an empty batch: nothing to enqueue, nothing to collect
        const int K = d_config.K, P = d_config.subblocks;
        const std::size_t len = lte::codeword_length(K);
        device_buffers b{};
        const std::size_t in_bytes = n * len * sizeof(In);
        sl.reads_caller = page_locked(llrs, in_bytes);
        if (bits_out && page_locked(bits_out, n * K))
            sl.direct_bits = bits_out;
        // Every buffer is reserved before the input is read: a batch too big for this
        // GPU (or for page-locked memory) fails here, touching nothing, and the failed
        // reservation leaves the slot empty for the next call.
        try {
            b.raw = sl.raw.reserve(in_bytes);
            const std::size_t groups = (n + d_lanes - 1) / d_lanes;
            b.trellis = sl.trellis.reserve(groups * 2 * (K + 3) * 8);
            b.edges = sl.edges.reserve(groups * 8 * lte::rsc::num_states * P);
            b.bits = sl.bits.reserve(n * K);
            b.iterations = sl.iterations.reserve(n);
            b.passed = sl.passed.reserve(n);
            if (!sl.reads_caller)
                sl.host_llrs.reserve(in_bytes);
            if (!sl.direct_bits)
                sl.host_bits.reserve(n * K);
            sl.host_iterations.reserve(n);
            sl.host_passed.reserve(n);
        } catch (const cuda_error& e) {
            if (e.code != cudaErrorMemoryAllocation)
                throw;
            cudaGetLastError(); // leave no error behind for a later call to find
            sl.n = 0;
            throw std::runtime_error(
                "a batch of " + std::to_string(n) +
                " codewords of K=" + std::to_string(K) + " needs more memory than GPU " +
                std::to_string(d_device) +
                " (or page-locked host memory) has: submit smaller batches (decode() "
                "splits any batch by itself)");
        }
        b.crc_contribution = d_crc.get();
        const void* source = llrs;
        if (!sl.reads_caller) {
            parallel_copy(sl.host_llrs.get(), llrs, in_bytes);
            source = sl.host_llrs.get();
        }
        std::uint8_t* bits_host = sl.direct_bits ? sl.direct_bits : sl.host_bits.get();

        const cudaStream_t s = *sl.stream;
        GPUTURBO_CUDA_TRY(
            cudaMemcpyAsync(sl.raw.get(), source, in_bytes, cudaMemcpyHostToDevice, s));
        GPUTURBO_CUDA_TRY(cudaEventRecord(*sl.input_read, s));
        kernel_config k = kernel();
        k.int8 = std::is_same_v<In, std::int8_t>;
        if (k.int8) // the int8 value q means q / int8_scale
            k.input_scale = (d_lanes == 2 ? 16.0f : 1.0f) / d_config.int8_scale;
        GPUTURBO_CUDA_TRY(cudaEventRecord(*sl.kernels_start, s));
        launch_prepare(k, b, int(n), s);
        launch_decode(k, b, int(n), s);
        GPUTURBO_CUDA_TRY(cudaEventRecord(*sl.kernels_end, s));
        GPUTURBO_CUDA_TRY(
            cudaMemcpyAsync(bits_host, b.bits, n * K, cudaMemcpyDeviceToHost, s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.host_iterations.get(),
                                          b.iterations,
                                          n * sizeof(int),
                                          cudaMemcpyDeviceToHost,
                                          s));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(
            sl.host_passed.get(), b.passed, n, cudaMemcpyDeviceToHost, s));
    }

    void collect(slot& sl, std::uint8_t* bits, codeword_status* status)
    {
        d_device_seconds = 0.0;
        if (sl.n == 0)
            return;
        GPUTURBO_CUDA_TRY(cudaStreamSynchronize(*sl.stream));
        float ms = 0.0f;
        GPUTURBO_CUDA_TRY(cudaEventElapsedTime(&ms, *sl.kernels_start, *sl.kernels_end));
        d_device_seconds = ms * 1e-3;
        if (bits != sl.direct_bits)
            parallel_copy(bits,
                          sl.direct_bits ? sl.direct_bits : sl.host_bits.get(),
                          sl.n * d_config.K);
        if (status)
            for (std::size_t i = 0; i < sl.n; ++i)
                status[i] = codeword_status{ sl.host_iterations.get()[i],
                                             sl.host_passed.get()[i] != 0 };
    }

    const int d_device;
    cudaDeviceProp d_prop{};
    std::vector<std::unique_ptr<slot>> d_slots;
    ticket d_last_id = 0;
    std::string d_versions;
    int d_lanes = 1; // codewords per GPU thread group: 2 with int16 metrics
    int d_per_block = 1;
    std::size_t d_chunk = 1;
    device_array<std::uint32_t> d_crc;
    double d_device_seconds = 0.0;
};

// Several GPUs of one host: each call's codewords are cut into one contiguous share per
// GPU, decoded concurrently (a host thread per GPU) and written back in place.
class multi_device_decoder final : public decoder
{
public:
    multi_device_decoder(const decoder_config& config, const std::vector<int>& devices)
        : decoder(config)
    {
        for (int d : devices)
            d_parts.push_back(std::make_unique<cuda_decoder>(config, d));
    }

    void decode_batch(const llr_input& llrs,
                      std::size_t n_codewords,
                      std::uint8_t* bits,
                      codeword_status* status) override
    {
        if (llrs.i8)
            run(llrs.i8, n_codewords, bits, status);
        else
            run(llrs.f32, n_codewords, bits, status);
    }

    void set_iterations(int iterations) override
    {
        decoder::set_iterations(iterations);
        for (auto& part : d_parts)
            part->set_iterations(iterations);
    }

    void set_stop_threshold(float threshold) override
    {
        decoder::set_stop_threshold(threshold);
        for (auto& part : d_parts)
            part->set_stop_threshold(threshold);
    }

    //! The GPUs run side by side: the slowest one's kernel time.
    double device_seconds() const override
    {
        double longest = 0.0;
        for (const auto& part : d_parts)
            longest = std::max(longest, part->device_seconds());
        return longest;
    }

    std::string backend() const override { return "cuda"; }

    std::string device() const override
    {
        std::string text = std::to_string(d_parts.size()) + " GPUs:";
        for (const auto& part : d_parts)
            text += " [" + part->device() + "]";
        return text;
    }

private:
    template <class In>
    void run(const In* llrs, std::size_t n, std::uint8_t* bits, codeword_status* status)
    {
        const std::size_t len = lte::codeword_length(d_config.K);
        const std::size_t share = (n + d_parts.size() - 1) / d_parts.size();
        std::vector<std::exception_ptr> errors(d_parts.size());
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < d_parts.size(); ++i) {
            const std::size_t first = std::min(n, i * share);
            const std::size_t count = std::min(share, n - first);
            threads.emplace_back([&, i, first, count] {
                try {
                    d_parts[i]->decode(llrs + first * len,
                                       count,
                                       bits + first * d_config.K,
                                       status ? status + first : nullptr);
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            });
        }
        for (auto& t : threads)
            t.join();
        for (const auto& e : errors)
            if (e)
                std::rethrow_exception(e);
    }

    std::vector<std::unique_ptr<cuda_decoder>> d_parts;
};

// "all", or comma-separated indices (validated by decoder_config::validate()).
std::vector<int> parse_devices(const std::string& text, int count)
{
    std::vector<int> devices;
    if (text == "all") {
        for (int d = 0; d < count; ++d)
            devices.push_back(d);
        return devices;
    }
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        devices.push_back(std::stoi(text.substr(at, comma - at)));
        at = comma + 1;
    }
    return devices;
}

} // namespace

void* allocate_page_locked(std::size_t bytes)
{
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError(); // not sticky: the caller falls back to ordinary memory
        return nullptr;
    }
    return p;
}

void free_page_locked(void* p) noexcept { cudaFreeHost(p); }

bool register_page_locked(void* p, std::size_t bytes)
{
    if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) != cudaSuccess) {
        cudaGetLastError(); // not sticky: the caller goes on with pageable memory
        return false;
    }
    return true;
}

void unregister_page_locked(void* p) noexcept { cudaHostUnregister(p); }

int device_count()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no device" error
        return 0;
    }
    return count;
}

std::string unavailable_reason()
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    }
    return count > 0 ? "" : "no CUDA device found";
}

std::unique_ptr<decoder> make_cuda_decoder(const decoder_config& config)
{
    const std::string why = unavailable_reason();
    if (!why.empty())
        throw std::runtime_error("backend 'cuda' is not available: " + why);
    const std::vector<int> devices = parse_devices(config.devices, device_count());
    if (devices.size() == 1)
        return std::make_unique<cuda_decoder>(config, devices.front());
    return std::make_unique<multi_device_decoder>(config, devices);
}

} // namespace gputurbo::cuda
