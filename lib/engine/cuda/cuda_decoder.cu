/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cuda_decoder.h"
#include "cuda_error.h"
#include "turbo_kernel.cuh"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
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

constexpr int threads_per_block_target = 128;
constexpr int max_sub_blocks = 256; // threads per codeword: one block

class cuda_decoder final : public decoder
{
public:
    cuda_decoder(const decoder_config& config, int device)
        : decoder(config), d_device(device)
    {
        if (config.subblocks > max_sub_blocks)
            throw std::invalid_argument(
                "subblocks P=" + std::to_string(config.subblocks) +
                " is too many for the CUDA backend: use P <= " +
                std::to_string(max_sub_blocks));
        const int count = device_count();
        if (device < 0 || device >= count)
            throw std::runtime_error("CUDA device " + std::to_string(device) +
                                     " does not exist (" + std::to_string(count) +
                                     " device(s) found)");
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&d_prop, d_device));
        d_stream = std::make_unique<stream>();
        d_kernels_start = std::make_unique<event>();
        d_kernels_end = std::make_unique<event>();

        const std::size_t per_codeword =
            shared_bytes_per_codeword(config.K, config.subblocks);
        const std::size_t limit = d_prop.sharedMemPerBlockOptin;
        if (per_codeword > limit)
            throw std::invalid_argument("K=" + std::to_string(config.K) +
                                        " with P=" + std::to_string(config.subblocks) +
                                        " needs more shared memory than this GPU has");
        d_per_block = std::max(1,
                               std::min<int>(threads_per_block_target / config.subblocks,
                                             int(limit / per_codeword)));
        configure_decode_kernel(kernel());

        const std::size_t bytes_per_codeword =
            lte::codeword_length(config.K) * sizeof(float) +
            4 * std::size_t(config.K + 3) * sizeof(float) +
            8 * lte::rsc::num_states * std::size_t(config.subblocks) * sizeof(float);
        // Calls larger than this are decoded in chunks: device memory stays bounded.
        d_chunk = std::max<std::size_t>(1, (std::size_t(1) << 30) / bytes_per_codeword);

        if (config.early_stop == stop_rule::crc24a ||
            config.early_stop == stop_rule::crc24b) {
            const auto table = crc_contributions(
                config.early_stop == stop_rule::crc24a ? lte::crc24::a : lte::crc24::b,
                config.K);
            GPUTURBO_CUDA_TRY(cudaMemcpy(d_crc.reserve(table.size()),
                                         table.data(),
                                         table.size() * sizeof(std::uint32_t),
                                         cudaMemcpyHostToDevice));
        }
    }

    void decode(const float* llrs,
                std::size_t n_codewords,
                std::uint8_t* bits,
                codeword_status* status) override
    {
        if (n_codewords == 0)
            return;
        if (!llrs || !bits)
            throw std::invalid_argument("decode: null input or output buffer");
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        d_device_seconds = 0.0;
        for (std::size_t first = 0; first < n_codewords; first += d_chunk) {
            const std::size_t n = std::min(d_chunk, n_codewords - first);
            decode_chunk(llrs + first * lte::codeword_length(d_config.K),
                         n,
                         bits + first * d_config.K,
                         status ? status + first : nullptr);
        }
    }

    double device_seconds() const override { return d_device_seconds; }

    std::string backend() const override { return "cuda"; }

    std::string device() const override
    {
        return std::string(d_prop.name) + " (GPU " + std::to_string(d_device) + ", " +
               std::to_string(d_prop.multiProcessorCount) + " SMs, " +
               std::to_string(d_per_block) + " codeword(s) of " +
               std::to_string(d_config.subblocks) + " thread(s) per block)";
    }

private:
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
        k.threshold = c.stop_threshold;
        k.scale = c.algo == algorithm::scaled_max_log ? c.scaling : 1.0f;
        k.exact = c.algo == algorithm::log_map;
        k.invert = c.invert_llr;
        k.streams = c.input_layout == layout::streams;
        k.f1 = lte::qpp(c.K).f1;
        k.f2 = lte::qpp(c.K).f2;
        k.w_magic = unsigned(((std::uint64_t(1) << 32) + k.w - 1) / k.w);
        k.per_block = d_per_block;
        k.shared_bytes = d_per_block * shared_bytes_per_codeword(c.K, c.subblocks);
        return k;
    }

    void decode_chunk(const float* llrs,
                      std::size_t n,
                      std::uint8_t* bits,
                      codeword_status* status)
    {
        const int K = d_config.K, P = d_config.subblocks;
        const std::size_t len = lte::codeword_length(K);
        const int words = words_per_codeword(K);
        device_buffers b{};
        b.raw = d_raw.reserve(n * len);
        b.trellis = d_trellis.reserve(n * 4 * (K + 3));
        b.edges = d_edges.reserve(n * 8 * lte::rsc::num_states * P);
        b.bits = d_bits.reserve(n * words);
        b.iterations = d_iterations.reserve(n);
        b.passed = d_passed.reserve(n);
        b.crc_contribution = d_crc.get();

        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(d_raw.get(),
                                          llrs,
                                          n * len * sizeof(float),
                                          cudaMemcpyHostToDevice,
                                          *d_stream));
        const kernel_config k = kernel();
        GPUTURBO_CUDA_TRY(cudaEventRecord(*d_kernels_start, *d_stream));
        launch_prepare(k, b, int(n), *d_stream);
        launch_decode(k, b, int(n), *d_stream);
        GPUTURBO_CUDA_TRY(cudaEventRecord(*d_kernels_end, *d_stream));
        d_host_bits.resize(n * words);
        d_host_iterations.resize(n);
        d_host_passed.resize(n);
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(d_host_bits.data(),
                                          b.bits,
                                          n * words * sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost,
                                          *d_stream));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(d_host_iterations.data(),
                                          b.iterations,
                                          n * sizeof(int),
                                          cudaMemcpyDeviceToHost,
                                          *d_stream));
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(d_host_passed.data(),
                                          b.passed,
                                          n * sizeof(unsigned char),
                                          cudaMemcpyDeviceToHost,
                                          *d_stream));
        GPUTURBO_CUDA_TRY(cudaStreamSynchronize(*d_stream));
        float ms = 0.0f;
        GPUTURBO_CUDA_TRY(cudaEventElapsedTime(&ms, *d_kernels_start, *d_kernels_end));
        d_device_seconds += ms * 1e-3;

        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t* packed = d_host_bits.data() + i * words;
            std::uint8_t* out = bits + i * K;
            for (int k = 0; k < K; ++k)
                out[k] = std::uint8_t((packed[k >> 5] >> (k & 31)) & 1u);
            if (status)
                status[i] =
                    codeword_status{ d_host_iterations[i], d_host_passed[i] != 0 };
        }
    }

    const int d_device;
    cudaDeviceProp d_prop{};
    std::unique_ptr<stream> d_stream;
    std::unique_ptr<event> d_kernels_start, d_kernels_end; // made on d_device
    double d_device_seconds = 0.0;
    int d_per_block = 1;
    std::size_t d_chunk = 1;
    device_array<float> d_raw, d_trellis, d_edges;
    device_array<std::uint32_t> d_bits, d_crc;
    device_array<int> d_iterations;
    device_array<unsigned char> d_passed;
    std::vector<std::uint32_t> d_host_bits;
    std::vector<int> d_host_iterations;
    std::vector<unsigned char> d_host_passed;
};

} // namespace

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

std::unique_ptr<decoder> make_cuda_decoder(const decoder_config& config, int device)
{
    const std::string why = unavailable_reason();
    if (!why.empty())
        throw std::runtime_error("backend 'cuda' is not available: " + why);
    return std::make_unique<cuda_decoder>(config, device);
}

} // namespace gputurbo::cuda
