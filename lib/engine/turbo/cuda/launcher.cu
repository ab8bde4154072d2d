/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "launcher.cuh"

#include <gnuradio/gputurbo/engine/core/crc.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::turbo::cuda {
namespace {

// The device copy of the table kept under \p key, made by \p make and uploaded on first
// use.
template <class Make>
const std::uint32_t*
device_table(device_tables& tables, std::pair<int, int> key, Make make)
{
    auto& table = tables[key];
    if (!table.get()) {
        const std::vector<std::uint32_t> values = make();
        core::cuda::upload(table.reserve(values.size()), values.data(), values.size());
    }
    return table.get();
}

} // namespace

std::string describe(const cudaDeviceProp& prop,
                     int device,
                     int lanes,
                     int K,
                     int P,
                     const std::string& versions)
{
    return std::string(prop.name) + " (GPU " + std::to_string(device) + ", " +
           std::to_string(prop.multiProcessorCount) + " SMs, " +
           (lanes == 2 ? "int16, 2 codewords per thread, " : "float32, ") +
           std::to_string(P) + " thread(s) per codeword at K=" + std::to_string(K) +
           "; " + versions + ")";
}

launcher::launcher(const decoder_config& config, const cudaDeviceProp& prop)
    : d_lanes(lanes_for(config.cuda_arithmetic)),
      d_multiprocessors(prop.multiProcessorCount),
      d_shared_limit(prop.sharedMemPerBlockOptin - static_shared_bytes())
{
    configure_kernels(d_lanes, config.algo == algorithm::log_map, d_shared_limit);
}

void launcher::check(int K, int P) const
{
    if (P > turbo_policy::max_threads)
        throw std::invalid_argument("subblocks P=" + std::to_string(P) +
                                    " is too many for the CUDA backend: use P <= " +
                                    std::to_string(turbo_policy::max_threads));
    if (shared_bytes_per_group(K, P, d_lanes) > d_shared_limit)
        throw std::invalid_argument("K=" + std::to_string(K) +
                                    " with P=" + std::to_string(P) +
                                    " needs more shared memory than this GPU has");
}

int launcher::per_block(int K, int P) const
{
    return std::max(
        1,
        std::min({ turbo_policy::threads_target / P,
                   turbo_policy::max_threads / P,
                   int(d_shared_limit / shared_bytes_per_group(K, P, d_lanes)) }));
}

kernel_config launcher::config_of(const decoder_config& c, int K, int P, bool int8) const
{
    return make_kernel_config(c, K, P, d_lanes, per_block(K, P), int8);
}

std::size_t launcher::resident_codewords(const decoder_config& c, int K, int P) const
{
    const kernel_config k = config_of(c, K, P, false);
    return std::size_t(resident_blocks_per_sm(k)) * d_multiprocessors * k.per_block *
           d_lanes;
}

std::size_t
launcher::workspace_bytes(const decoder_config& c, int K, int P, std::size_t n) const
{
    return cuda::workspace_bytes(make_kernel_config(c, K, P, d_lanes, 1, false), n);
}

void launcher::launch(const decoder_config& c,
                      int K,
                      int P,
                      std::size_t n,
                      const core::cuda::batch_buffers& b,
                      cudaStream_t s)
{
    const auto type = stop_crc(c.early_stop);
    const std::uint32_t* crc =
        type ? device_table(d_crc,
                            { int(*type), K },
                            [&] { return core::crc_contributions(*type, K); })
             : nullptr;
    const std::uint32_t* interleaved =
        device_table(d_interleaved, { K, P }, [&] { return interleaved_stages(K, P); });
    const kernel_config k = config_of(c, K, P, b.int8);
    const device_buffers buffers = buffers_of(k, n, b, crc, interleaved);
    launch_prepare(k, buffers, int(n), s);
    launch_decode(k, buffers, int(n), s);
}

} // namespace gputurbo::turbo::cuda
