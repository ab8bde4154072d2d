/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "../../core/cpu/isa.h"
#include "../../core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace gputurbo::turbo::cpu {
namespace {

using core::cpu::isa;

const group_kernel& kernel_for(isa i)
{
    switch (i) {
#if defined(__x86_64__) || defined(__i386__)
    case isa::avx512:
        return kernel_avx512;
    case isa::avx2:
        return kernel_avx2;
#endif
    case isa::scalar:
        return kernel_scalar;
    default:
        return kernel_generic;
    }
}

} // namespace

const group_kernel& best_kernel()
{
    // avx2 before avx512: 16 lanes double the alpha store (3 MB per group at K = 6144,
    // beyond L2) and measured no faster (docs/PERFORMANCE.md).
    return kernel_for(core::cpu::choose({ isa::avx2, isa::avx512, isa::generic }));
}

const group_kernel& best_int16_kernel()
{
#if defined(__x86_64__) || defined(__i386__)
    // avx512 first: 32 sub-blocks per register and one-instruction lane permutations
    // decode 1.5 times faster than avx2 on Zen 5 (docs/notes-cpu-int16.md).
    switch (core::cpu::choose({ isa::avx512, isa::avx2 })) {
    case isa::avx512:
        return kernel_avx512_int16;
    case isa::avx2:
        return kernel_avx2_int16;
    default:
        break;
    }
#endif
    throw std::runtime_error(
        "arithmetic=int16 on the CPU needs an AVX2 or AVX-512 kernel");
}

const group_kernel& reference_kernel() { return kernel_scalar; }

cpu_decoder::cpu_decoder(const decoder_config& config,
                         const group_kernel& kernel,
                         core::backend kind,
                         int threads)
    : decoder(config),
      d_kernel(kernel),
      d_kind(kind),
      d_threads(core::thread_count(threads > 0 ? threads : config.threads))
{
}

int cpu_decoder::automatic_subblocks(int K) const
{
    // As many sub-blocks as the kernel has lanes for, each at least a training window
    // and 64 stages long: shorter ones cost more at their edges than sharing the
    // register with other codewords does (measured: docs/notes-cpu-int16.md).
    constexpr int min_length = 64;
    const bool trains =
        d_config.guarding == guard::dstw || d_config.guarding == guard::pividstw;
    int P = 1;
    while (2 * P <= d_kernel.windows && K % (2 * P) == 0 && K / (2 * P) >= min_length &&
           (!trains || K / (2 * P) >= d_config.guard_window))
        P *= 2;
    return P;
}

void cpu_decoder::decode_batch(const batch& b,
                               std::uint8_t* bits,
                               codeword_status* status)
{
    const float* llrs = as_float(b, d_config.int8_scale);
    const int K = b.block;
    const kernel_shape shape{ K, subblocks(K) };
    if (d_kernel.windows > 0 && shape.P > d_kernel.windows)
        throw std::invalid_argument("subblocks P=" + std::to_string(shape.P) +
                                    " exceeds the " + std::to_string(d_kernel.windows) +
                                    " sub-blocks of the CPU's " + d_kernel.isa +
                                    " kernel");
    const std::vector<std::uint32_t>& pi = cached_interleaver(K);
    const std::size_t lanes =
        d_kernel.windows > 0 ? std::size_t(d_kernel.windows / shape.P) : d_kernel.lanes;
    const std::size_t groups = (b.count + lanes - 1) / lanes;
    const int workers = int(std::min<std::size_t>(d_threads, groups));
    const std::size_t bytes = (d_kernel.workspace_bytes(shape) + 63) / 64 * 64;
    if (bytes > d_workspace_bytes) {
        d_workspaces.clear();
        d_workspace_bytes = bytes;
    }
    while (int(d_workspaces.size()) < workers) {
        void* p = std::aligned_alloc(64, d_workspace_bytes);
        if (!p)
            throw std::bad_alloc();
        std::memset(p, 0, d_workspace_bytes);
        d_workspaces.emplace_back(p);
    }

    std::atomic<std::size_t> next_group{ 0 };
    core::thread_pool::shared().run(workers, [&](int worker) {
        for (std::size_t g; (g = next_group.fetch_add(1)) < groups;) {
            const std::size_t first = g * lanes;
            const group_job job{ llrs + first * codeword_length(K),
                                 int(std::min(lanes, b.count - first)),
                                 bits + first * K,
                                 status ? status + first : nullptr };
            d_kernel.decode(d_config, shape, pi.data(), job, d_workspaces[worker].get());
        }
    });
}

core::backend cpu_decoder::kind() const { return d_kind; }

std::string cpu_decoder::device() const
{
    const std::string unit =
        d_kernel.windows > 0
            ? std::to_string(d_kernel.windows) + " int16 lanes of sub-blocks"
            : std::to_string(d_kernel.lanes) + " codewords per group";
    return "CPU, " + std::to_string(d_threads) + " thread(s), " + d_kernel.isa +
           " kernel (" + unit + ")";
}

} // namespace gputurbo::turbo::cpu
