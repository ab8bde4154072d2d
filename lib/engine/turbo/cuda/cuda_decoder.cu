/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../../core/cuda/pipeline.h"
#include "../../core/cuda/runtime.h"
#include "cuda_decoder.h"
#include "launcher.cuh"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::turbo::cuda {
namespace {

// Codewords per pipeline chunk: big enough to fill the GPU, small enough that copying one
// chunk overlaps with decoding the previous one.
constexpr std::size_t chunk_llrs = std::size_t(1) << 23; // 32 MB of float LLRs
constexpr std::size_t waves_per_chunk = 4;

// A turbo decoder on one GPU: the core's pipeline with the turbo kernels.
class cuda_decoder final : public decoder, private core::cuda::family_kernels
{
public:
    cuda_decoder(const decoder_config& config, int device)
        : decoder(config),
          d_pipeline(device, *this),
          d_launcher(config, d_pipeline.properties())
    {
        if (config.K != 0)
            check_block(config.K);
    }

    void check_block(int K) const override
    {
        decoder::check_block(K);
        d_launcher.check(K, subblocks(K));
    }

    core::backend kind() const override { return core::backend::cuda; }
    double device_seconds() const override { return d_pipeline.device_seconds(); }
    arithmetic metric_arithmetic() const override
    {
        return d_launcher.lanes() == 2 ? arithmetic::int16 : arithmetic::float32;
    }

    std::string device() const override
    {
        const cudaDeviceProp& prop = d_pipeline.properties();
        const int K = d_config.K != 0 ? d_config.K : max_block_size;
        const int P = subblocks(K);
        return std::string(prop.name) + " (GPU " + std::to_string(d_pipeline.device()) +
               ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
               (d_launcher.lanes() == 2 ? "int16, 2 codewords per thread, "
                                        : "float32, ") +
               std::to_string(P) + " thread(s) per codeword at K=" + std::to_string(K) +
               "; " + d_pipeline.versions() + ")";
    }

private:
    int automatic_subblocks(int K) const override
    {
        return subblocks_for_length(K, cuda_subblock_length, cuda_segment_length);
    }

    std::size_t input_length(int K) const override { return codeword_length(K); }

    std::size_t workspace_bytes(int K, std::size_t n) const override
    {
        return d_launcher.workspace_bytes(d_config, K, subblocks(K), n);
    }

    // A chunk fills the GPU several times over, so that the last, partly filled round
    // of thread blocks costs little.
    std::size_t chunk_codewords(int K, std::size_t) override
    {
        const int P = subblocks(K);
        auto& chunk = d_chunks[{ K, P }];
        if (chunk == 0)
            chunk =
                std::max(chunk_llrs / codeword_length(K),
                         waves_per_chunk * d_launcher.resident_codewords(d_config, K, P));
        return chunk;
    }

    void launch(int K,
                std::size_t n,
                const core::cuda::batch_buffers& b,
                cudaStream_t s) override
    {
        // d_config as it is now: the runtime setters change iterations and threshold.
        d_launcher.launch(d_config, K, subblocks(K), n, b, s);
    }

    bool reads_int4() const override { return true; } // the pipeline unpacks it
    bool packs_bits() const override { return true; } // the decode kernel packs them

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
    launcher d_launcher;
    std::map<std::pair<int, int>, std::size_t> d_chunks; // by (K, P)
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
    arithmetic metric_arithmetic() const override
    {
        return d_parts.front()->metric_arithmetic();
    }

    std::string device() const override { return core::cuda::describe_devices(d_parts); }

private:
    int automatic_subblocks(int K) const override
    {
        return d_parts.front()->subblocks(K);
    }
    bool packs_bits() const override { return true; } // each part's kernels pack them

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
