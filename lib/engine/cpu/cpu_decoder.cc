/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

namespace gputurbo::cpu {
namespace {

bool supported(const group_kernel& k)
{
#if defined(__x86_64__) || defined(__i386__)
    if (&k == &kernel_avx512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (&k == &kernel_avx2)
        return __builtin_cpu_supports("avx2");
#endif
    (void)k;
    return true;
}

std::vector<const group_kernel*> all_kernels()
{
    return
    {
#if defined(__x86_64__) || defined(__i386__)
        &kernel_avx512, &kernel_avx2,
#endif
            &kernel_generic, &kernel_scalar
    };
}

} // namespace

const group_kernel& best_kernel()
{
    if (const char* wanted = std::getenv("GPUTURBO_CPU_KERNEL"); wanted && *wanted) {
        for (const group_kernel* k : all_kernels())
            if (std::string(wanted) == k->isa) {
                if (!supported(*k))
                    throw std::runtime_error(std::string("GPUTURBO_CPU_KERNEL=") +
                                             wanted +
                                             ": this CPU lacks that instruction set");
                return *k;
            }
        throw std::invalid_argument(std::string("GPUTURBO_CPU_KERNEL=") + wanted +
                                    ": use scalar, generic, avx2 or avx512");
    }
    // avx2 before avx512: 16 lanes double the alpha store (3 MB per group at K = 6144,
    // beyond L2) and measured no faster (docs/PERFORMANCE.md).
    for (const group_kernel* k : { &kernel_avx2, &kernel_avx512, &kernel_generic })
        if (supported(*k))
            return *k;
    return kernel_generic;
}

cpu_decoder::cpu_decoder(const decoder_config& config,
                         const group_kernel& kernel,
                         int threads)
    : decoder(config),
      d_kernel(kernel),
      d_pi(lte::cached_interleaver(config.K)),
      d_threads(threads > 0 ? threads
                            : std::max(1, int(std::thread::hardware_concurrency()))),
      d_workspace_bytes((kernel.workspace_bytes(config) + 63) / 64 * 64)
{
}

void cpu_decoder::decode_batch(const llr_input& input,
                               std::size_t n_codewords,
                               std::uint8_t* bits,
                               codeword_status* status)
{
    const float* llrs = as_float(input, n_codewords);
    const int K = d_config.K;
    const std::size_t lanes = d_kernel.lanes;
    const std::size_t groups = (n_codewords + lanes - 1) / lanes;
    const int workers = int(std::min<std::size_t>(d_threads, groups));
    while (int(d_workspaces.size()) < workers) {
        void* p = std::aligned_alloc(64, d_workspace_bytes);
        if (!p)
            throw std::bad_alloc();
        d_workspaces.emplace_back(p);
    }

    std::atomic<std::size_t> next_group{ 0 };
    auto work = [&](int worker) {
        for (std::size_t g; (g = next_group.fetch_add(1)) < groups;) {
            const std::size_t first = g * lanes;
            const group_job job{ llrs + first * lte::codeword_length(K),
                                 int(std::min(lanes, n_codewords - first)),
                                 bits + first * K,
                                 status ? status + first : nullptr };
            d_kernel.decode(d_config, d_pi.data(), job, d_workspaces[worker].get());
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < workers; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (auto& t : pool)
        t.join();
}

std::string cpu_decoder::backend() const
{
    return &d_kernel == &kernel_scalar ? "reference" : "cpu";
}

std::string cpu_decoder::device() const
{
    return "CPU, " + std::to_string(d_threads) + " thread(s), " + d_kernel.isa +
           " kernel (" + std::to_string(d_kernel.lanes) + " codewords per group)";
}

} // namespace gputurbo::cpu
