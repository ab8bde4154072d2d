/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../../core/cuda/pipeline.h"
#include "../../core/cuda/runtime.h"
#include "cuda_decoder.h"
#include "turbo_kernel.cuh"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::turbo::cuda {
namespace {

// CRC remainder contributed by a 1 at bit k of a K-bit block: the CRC is linear, so a
// block checks when the XOR of the contributions of its set bits is zero.
std::vector<std::uint32_t> crc_contributions(lte::crc type, int K)
{
    std::vector<std::uint8_t> unit(K, 0);
    std::vector<std::uint32_t> table(K);
    // The contribution of bit k is that of bit K-1 shifted through K-1-k zeros.
    unit[K - 1] = 1;
    std::uint32_t reg = lte::crc_parity(type, unit.data(), K);
    const std::uint32_t poly = lte::crc_parity(type, unit.data() + K - 1, 1);
    const int L = lte::crc_length(type);
    const std::uint32_t mask = (std::uint32_t(1) << L) - 1;
    for (int k = K - 1; k >= 0; --k) {
        table[k] = reg;
        const bool feedback = (reg >> (L - 1)) & 1u;
        reg = (reg << 1) & mask;
        if (feedback)
            reg ^= poly;
    }
    return table;
}

constexpr int threads_per_block_target = 128;
// Codewords per pipeline chunk: big enough to fill the GPU, small enough that copying one
// chunk overlaps with decoding the previous one.
constexpr std::size_t chunk_llrs = std::size_t(1) << 23; // 32 MB of float LLRs
constexpr std::size_t waves_per_chunk = 4;

// A turbo decoder on one GPU: the core's pipeline with the turbo kernels. The launch
// configuration of each block size is worked out once.
class cuda_decoder final : public decoder, private core::cuda::family_kernels
{
public:
    cuda_decoder(const decoder_config& config, int device)
        : decoder(config),
          d_pipeline(device, *this),
          d_lanes(lanes_for(config.cuda_arithmetic))
    {
        const cudaDeviceProp& prop = d_pipeline.properties();
        d_shared_limit = prop.sharedMemPerBlockOptin - static_shared_bytes();
        configure_kernels(d_lanes, config.algo == algorithm::log_map, d_shared_limit);
        if (config.K != 0)
            check_block(config.K);
    }

    void check_block(int K) const override
    {
        decoder::check_block(K);
        const int P = subblocks(K);
        if (P > max_threads_per_block())
            throw std::invalid_argument("subblocks P=" + std::to_string(P) +
                                        " is too many for the CUDA backend: use P <= " +
                                        std::to_string(max_threads_per_block()));
        if (shared_bytes_per_group(K, P, d_lanes) > d_shared_limit)
            throw std::invalid_argument("K=" + std::to_string(K) +
                                        " with P=" + std::to_string(P) +
                                        " needs more shared memory than this GPU has");
    }

    core::backend kind() const override { return core::backend::cuda; }
    double device_seconds() const override { return d_pipeline.device_seconds(); }

    std::string device() const override
    {
        const cudaDeviceProp& prop = d_pipeline.properties();
        const int K = d_config.K != 0 ? d_config.K : max_block_size;
        return std::string(prop.name) + " (GPU " + std::to_string(d_pipeline.device()) +
               ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
               (d_lanes == 2 ? "int16, 2 codewords per thread, " : "float32, ") +
               std::to_string(per_block(K, subblocks(K)) * d_lanes) + " codeword(s) of " +
               std::to_string(subblocks(K)) +
               " thread(s) per block at K=" + std::to_string(K) + "; " +
               d_pipeline.versions() + ")";
    }

private:
    // What is worked out once per block size.
    struct shape_plan
    {
        int P;
        int per_block;     // groups of codewords per thread block
        std::size_t chunk; // codewords per pipeline chunk
        core::cuda::device_array<std::uint32_t> crc; // CRC contributions (crc stop rules)
    };

    int automatic_subblocks(int K) const override
    {
        return subblocks_for_length(K, cuda_subblock_length);
    }

    // Groups of codewords side by side in a thread block.
    int per_block(int K, int P) const
    {
        return std::max(
            1,
            std::min({ threads_per_block_target / P,
                       max_threads_per_block() / P,
                       int(d_shared_limit / shared_bytes_per_group(K, P, d_lanes)) }));
    }

    shape_plan& plan(int K)
    {
        auto& p = d_plans[K];
        if (p && p->P == subblocks(K))
            return *p;
        const int P = subblocks(K);
        p = std::make_unique<shape_plan>();
        p->P = P;
        p->per_block = per_block(K, P);
        // A chunk fills the GPU several times over, so that the last, partly filled
        // round of thread blocks costs little.
        const std::size_t resident =
            std::size_t(resident_blocks_per_sm(
                make_kernel_config(d_config, K, P, d_lanes, p->per_block, false))) *
            d_pipeline.properties().multiProcessorCount * p->per_block * d_lanes;
        p->chunk = std::max(chunk_llrs / codeword_length(K), waves_per_chunk * resident);
        if (const auto crc = stop_crc(d_config.early_stop)) {
            const auto table = crc_contributions(*crc, K);
            core::cuda::upload(p->crc.reserve(table.size()), table.data(), table.size());
        }
        return *p;
    }

    std::size_t input_length(int K) const override { return codeword_length(K); }

    std::size_t workspace_bytes(int K, std::size_t n) const override
    {
        const int P = subblocks(K);
        return cuda::workspace_bytes(
            make_kernel_config(d_config, K, P, d_lanes, 1, false), n);
    }

    std::size_t chunk_codewords(int K, std::size_t) override { return plan(K).chunk; }

    void launch(int K,
                std::size_t n,
                const core::cuda::batch_buffers& b,
                cudaStream_t s) override
    {
        // Made at each launch: the runtime setters change iterations and threshold.
        const shape_plan& p = plan(K);
        const kernel_config k =
            make_kernel_config(d_config, K, p.P, d_lanes, p.per_block, b.int8);
        const device_buffers buffers = buffers_of(k, n, b, p.crc.get());
        launch_prepare(k, buffers, int(n), s);
        launch_decode(k, buffers, int(n), s);
    }

    bool reads_int4() const override { return true; } // the pipeline unpacks it

    void
    decode_batch(const batch& b, std::uint8_t* bits, codeword_status* status) override
    {
        d_pipeline.decode(b, bits, status);
    }

    ticket submit_batch(const batch& b) override
    {
        const ticket t = next_ticket(d_pipeline.outstanding());
        d_pipeline.submit(t, b);
        return t;
    }

    void collect_batch(ticket t, std::uint8_t* bits, codeword_status* status) override
    {
        d_pipeline.collect(t, bits, status);
    }

    core::cuda::pipeline d_pipeline;
    const int d_lanes; // codewords per GPU thread group: 2 with int16 metrics
    std::size_t d_shared_limit = 0;
    std::map<int, std::unique_ptr<shape_plan>> d_plans; // by K
};

// Several GPUs of one host, each with a decoder of its own.
class multi_device_decoder final : public decoder
{
public:
    multi_device_decoder(const decoder_config& config, const std::vector<int>& devices)
        : decoder(config)
    {
        for (int d : devices)
            d_parts.push_back(std::make_unique<cuda_decoder>(config, d));
    }

    void check_block(int K) const override { d_parts.front()->check_block(K); }

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

    double device_seconds() const override
    {
        return core::cuda::slowest_device_seconds(d_parts);
    }

    core::backend kind() const override { return core::backend::cuda; }

    std::string device() const override { return core::cuda::describe_devices(d_parts); }

private:
    int automatic_subblocks(int K) const override
    {
        return d_parts.front()->subblocks(K);
    }

    void
    decode_batch(const batch& b, std::uint8_t* bits, codeword_status* status) override
    {
        std::vector<core::batch_decoder*> parts;
        for (auto& part : d_parts)
            parts.push_back(part.get());
        core::cuda::decode_across(parts, b, codeword_length(b.block), bits, status);
    }

    std::vector<std::unique_ptr<cuda_decoder>> d_parts;
};

} // namespace

std::unique_ptr<decoder> make_cuda_decoder(const decoder_config& config)
{
    const std::string why = core::cuda::unavailable_reason(config.devices);
    if (!why.empty())
        throw std::runtime_error("backend 'cuda' is not available: " + why);
    const std::vector<int> devices = core::cuda::parse_devices(config.devices);
    if (devices.size() == 1)
        return std::make_unique<cuda_decoder>(config, devices.front());
    return std::make_unique<multi_device_decoder>(config, devices);
}

} // namespace gputurbo::turbo::cuda
