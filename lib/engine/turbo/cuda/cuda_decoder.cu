/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/cuda/multi_device.h"
#include "core/cuda/pipeline.h"
#include "core/cuda/runtime.h"
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
        const int K = d_config.K != 0 ? d_config.K : max_block_size;
        return describe(d_pipeline.properties(),
                        d_pipeline.device(),
                        d_launcher.lanes(),
                        K,
                        subblocks(K),
                        d_pipeline.versions());
    }

private:
    int automatic_subblocks(int K) const override { return cuda_subblocks(d_config, K); }

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
    bool gives_soft(core::soft_output kind) const override
    {
        return kind != core::soft_output::code_extrinsic;
    }

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

    void collect_batch(ticket t,
                       std::uint8_t* bits,
                       codeword_status* status,
                       float* soft) override
    {
        d_pipeline.collect(t, bits, status, soft);
    }

    core::cuda::pipeline d_pipeline;
    launcher d_launcher;
    std::map<std::pair<int, int>, std::size_t> d_chunks; // by (K, P)
};

// Several GPUs of one host, each with a decoder of its own; the runtime setters reach
// every one.
class multi_device_decoder final : public core::cuda::multi_device<decoder, cuda_decoder>
{
public:
    multi_device_decoder(const decoder_config& config, const std::vector<int>& devices)
        : multi_device(
              core::cuda::parts_on<cuda_decoder>(
                  devices,
                  [&](int d) { return std::make_unique<cuda_decoder>(config, d); }),
              config)
    {
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

    arithmetic metric_arithmetic() const override
    {
        return d_parts.front()->metric_arithmetic();
    }

private:
    int automatic_subblocks(int K) const override
    {
        return d_parts.front()->subblocks(K);
    }
    bool packs_bits() const override { return true; } // each part's kernels pack them
    bool gives_soft(core::soft_output kind) const override
    {
        return kind != core::soft_output::code_extrinsic;
    }
};

// The kernels alone, for codewords another pipeline has put on the GPU.
class kernels_on_device final : public device_kernels
{
public:
    kernels_on_device(const decoder_config& config, int device)
        : d_config(config),
          d_device(device),
          d_prop(core::cuda::open_device(device)),
          d_launcher(config, d_prop),
          d_versions(core::cuda::driver_and_runtime_versions())
    {
        if (config.K != 0)
            check_block(config.K);
    }

    void check_block(int K) const override
    {
        turbo::check_block(d_config, K, subblocks(K));
        d_launcher.check(K, subblocks(K));
    }

    std::size_t resident_codewords(const decoder_config& c, int K) const override
    {
        return d_launcher.resident_codewords(c, K, subblocks(K));
    }

    std::size_t
    workspace_bytes(const decoder_config& c, int K, std::size_t n) const override
    {
        return d_launcher.workspace_bytes(c, K, subblocks(K), n);
    }

    void launch(const decoder_config& c,
                int K,
                std::size_t n,
                const device_batch& b,
                cudaStream_t s) override
    {
        d_launcher.launch(c, K, subblocks(K), n, core::cuda::buffers_of(b), s);
    }

    std::string device() const override
    {
        const int K = d_config.K != 0 ? d_config.K : max_block_size;
        return describe(
            d_prop, d_device, d_launcher.lanes(), K, subblocks(K), d_versions);
    }

private:
    int subblocks(int K) const { return cuda_subblocks(d_config, K); }

    const decoder_config d_config;
    const int d_device;
    const cudaDeviceProp d_prop;
    launcher d_launcher;
    const std::string d_versions;
};

} // namespace

std::unique_ptr<device_kernels> make_device_kernels(const decoder_config& config,
                                                    int device)
{
    return std::make_unique<kernels_on_device>(config, device);
}

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
