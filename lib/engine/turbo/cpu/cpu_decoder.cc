/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "core/cpu/isa.h"
#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gputurbo::turbo::cpu {
namespace {

using core::cpu::isa;

const group_kernel& float_kernel_for(isa i)
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

//! The candidates' kernels for this CPU: the one GPUTURBO_CPU_KERNEL names (if in the
//! list), else every one this CPU runs.
std::vector<const group_kernel*>
runnable(std::initializer_list<std::pair<isa, const group_kernel*>> candidates)
{
    const auto named = core::cpu::named_in_environment();
    std::vector<const group_kernel*> kernels;
    for (const auto& [i, kernel] : candidates)
        if (named ? *named == i : core::cpu::supported(i))
            kernels.push_back(kernel);
    return kernels;
}

//! The fastest of \p kernels on this CPU, by decoding the same 16 codewords (K = 6144,
//! the default configuration, one thread) with each: the widest registers are not
//! always the fastest (alpha beyond L2, 512-bit operations split in two halves).
chosen_kernel fastest(const std::vector<const group_kernel*>& kernels)
{
    const decoder_config config;
    const std::size_t count = 16;
    std::vector<float> llrs(count * codeword_length(config.K));
    std::uint32_t x = 1;
    for (float& l : llrs) // random values; the default configuration runs 6 iterations
        l = float(int((x = x * 1664525u + 1013904223u) >> 24) - 128) / 16.0f;
    std::vector<std::uint8_t> bits(count * config.K);
    std::vector<std::unique_ptr<cpu_decoder>> decoders;
    for (const group_kernel* k : kernels)
        decoders.push_back(
            std::make_unique<cpu_decoder>(config, *k, core::backend::cpu, 1));
    const std::vector<double> times = core::cpu::best_times(kernels.size(), [&](auto i) {
        decoders[i]->decode(llrs.data(), count, bits.data(), nullptr);
    });
    const auto best =
        std::size_t(std::min_element(times.begin(), times.end()) - times.begin());
    std::string why = "fastest here:";
    for (std::size_t i = 0; i < kernels.size(); ++i)
        why += std::string(" ") + kernels[i]->isa + " " +
               std::to_string(int(count * config.K / times[i] / 1e6 + 0.5)) + " Mbit/s";
    return { kernels[best], why };
}

} // namespace

chosen_kernel best_kernel()
{
    const auto kernels = runnable({
#if defined(__x86_64__) || defined(__i386__)
        { isa::avx512, &kernel_avx512 }, { isa::avx2, &kernel_avx2 },
#endif
    });
    if (kernels.empty()) // generic, or scalar by name
        return { &float_kernel_for(core::cpu::choose({ isa::generic })), "" };
    if (kernels.size() == 1)
        return { kernels[0], "" };
    static const chosen_kernel measured = fastest(kernels); // all this CPU runs
    return measured;
}

std::optional<chosen_kernel> best_int16_kernel()
{
    const auto kernels = runnable({
#if defined(__x86_64__) || defined(__i386__)
        { isa::avx512, &kernel_avx512_int16 }, { isa::avx2, &kernel_avx2_int16 },
#endif
    });
    if (kernels.empty())
        return std::nullopt;
    if (kernels.size() == 1)
        return chosen_kernel{ kernels[0], "" };
    static const chosen_kernel measured = fastest(kernels); // all this CPU runs
    return measured;
}

chosen_kernel kernel_for(const decoder_config& config)
{
    const auto int16 = config.cuda_arithmetic == arithmetic::float32
                           ? std::nullopt
                           : best_int16_kernel();
    if (config.cuda_arithmetic == arithmetic::int16 && !int16)
        throw std::runtime_error(
            "arithmetic=int16 on the CPU needs AVX2 or AVX-512 (this CPU has neither, "
            "or GPUTURBO_CPU_KERNEL names scalar or generic)");
    // automatic: int16 where its kernel takes the configuration's P, else float32.
    if (int16 && (config.cuda_arithmetic == arithmetic::int16 ||
                  config.subblocks <= int16->kernel->windows))
        return *int16;
    return best_kernel();
}

const group_kernel& reference_kernel() { return kernel_scalar; }

cpu_decoder::cpu_decoder(const decoder_config& config,
                         const group_kernel& kernel,
                         core::backend kind,
                         int threads,
                         std::string choice)
    : decoder(config),
      d_kernel(kernel),
      d_choice(std::move(choice)),
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
            core::soft_values soft = b.soft;
            if (soft.values)
                soft.values += first * K;
            const group_job job{ llrs + first * codeword_length(K),
                                 int(std::min(lanes, b.count - first)),
                                 bits + first * K,
                                 status ? status + first : nullptr,
                                 soft };
            d_kernel.decode(d_config, shape, pi.data(), job, d_workspaces[worker].get());
        }
    });
}

core::backend cpu_decoder::kind() const { return d_kind; }

arithmetic cpu_decoder::metric_arithmetic() const
{
    return d_kernel.windows > 0 ? arithmetic::int16 : arithmetic::float32;
}

std::string cpu_decoder::device() const
{
    const std::string unit =
        d_kernel.windows > 0
            ? std::to_string(d_kernel.windows) + " int16 lanes of sub-blocks"
            : std::to_string(d_kernel.lanes) + " codewords per group";
    return "CPU, " + std::to_string(d_threads) + " thread(s), " + d_kernel.isa +
           " kernel (" + unit + (d_choice.empty() ? "" : "; " + d_choice) + ")";
}

} // namespace gputurbo::turbo::cpu
