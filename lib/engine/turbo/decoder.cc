/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config_members.h"
#include "cpu/cpu_decoder.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/cuda_decoder.h"
#endif

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/device_kernels.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gputurbo::turbo {
namespace {

// P divides K, and g fits a sub-block when the guarding trains.
void check_subblocks(const decoder_config& c, int K, int P)
{
    if (P < 1 || K % P != 0)
        throw std::invalid_argument(core::assignment(parameter("subblocks"), P) +
                                    " must divide K=" + std::to_string(K) +
                                    " (or be 0: automatic)");
    const bool windowed = c.guarding == guard::dstw || c.guarding == guard::pividstw;
    if (P > 1 && windowed && (c.guard_window < 1 || c.guard_window > K / P))
        throw std::invalid_argument(
            core::assignment(parameter("guard_window"), c.guard_window) +
            " is out of range for " + to_string(c.guarding) +
            " at K=" + std::to_string(K) + ", P=" + std::to_string(P) +
            ": use 1 ... K/P = " + std::to_string(K / P));
}

// With no K of its own (each call names one), a fixed P must still fit some LTE size,
// or no call could ever be decoded.
void check_some_block_fits(const decoder_config& c)
{
    const int P = c.subblocks;
    int largest = 0; // the largest K that P divides: the widest sub-blocks
    for (const auto& row : qpp_table())
        if (row.K % P == 0)
            largest = row.K;
    if (largest == 0)
        throw std::invalid_argument(
            core::assignment(parameter("subblocks"), P) +
            " divides none of the 188 LTE block sizes: no codeword could be decoded "
            "(use 0: automatic, or a divisor of the block sizes to decode)");
    const bool windowed = c.guarding == guard::dstw || c.guarding == guard::pividstw;
    if (P > 1 && windowed && c.guard_window > largest / P)
        throw std::invalid_argument(
            core::assignment(parameter("guard_window"), c.guard_window) +
            " is larger than K/P for every LTE block size K that P=" + std::to_string(P) +
            " divides (at most " + std::to_string(largest) + "/" + std::to_string(P) +
            " = " + std::to_string(largest / P) + " for " + to_string(c.guarding) +
            "): no codeword could be decoded");
}

} // namespace

std::optional<core::crc> stop_crc(stop_rule r)
{
    if (r == stop_rule::crc24a)
        return core::crc::crc24a;
    if (r == stop_rule::crc24b)
        return core::crc::crc24b;
    return std::nullopt;
}

void decoder_config::validate() const
{
    // Every number against its range in the table; K (0: none) against the LTE sizes.
    for_each_member(*this, [](std::string_view name, const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, float>) {
            if (name != "K")
                core::check(parameter(name), value);
            else if (value != 0)
                qpp(int(value)); // throws for an invalid K
        }
    });
    core::check_devices(parameter("devices"), devices);
    if (subblocks > 0) {
        if (K != 0)
            check_subblocks(*this, K, subblocks);
        else
            check_some_block_fits(*this);
    }
}

decoder::decoder(const decoder_config& config) : d_config(config) { d_config.validate(); }

int decoder::subblocks(int K) const
{
    return d_config.subblocks > 0 ? d_config.subblocks : automatic_subblocks(K);
}

void decoder::check_block(int K) const { turbo::check_block(d_config, K, subblocks(K)); }

void decoder::set_iterations(int iterations)
{
    core::check(parameter("iterations"), iterations);
    d_config.iterations = iterations;
}

void decoder::set_stop_threshold(float threshold)
{
    core::check(parameter("stop_threshold"), threshold);
    d_config.stop_threshold = threshold;
}

void decoder::decode(const std::vector<float>& llrs,
                     std::vector<std::uint8_t>& bits,
                     std::vector<codeword_status>* status)
{
    check_block(d_config.K);
    const std::size_t n = codeword_length(d_config.K);
    if (llrs.size() % n != 0)
        throw std::invalid_argument(
            "decode: " + std::to_string(llrs.size()) +
            " LLRs is not a whole number of codewords of 3K+12 = " + std::to_string(n));
    const std::size_t count = llrs.size() / n;
    bits.resize(count * d_config.K);
    if (status)
        status->resize(count);
    decode(llrs.data(), count, bits.data(), status ? status->data() : nullptr);
}

void check_block(const decoder_config& config, int K, int P)
{
    qpp(K); // throws for an invalid K
    check_subblocks(config, K, P);
}

int cuda_subblocks(const decoder_config& config, int K)
{
    return config.subblocks > 0
               ? config.subblocks
               : subblocks_for_length(K, cuda_subblock_length, cuda_segment_length);
}

int subblocks_for_length(int K, int length, int multiple)
{
    length = std::max(1, length);
    for (int w = length; w <= std::min(K, 4 * length); ++w)
        if (K % w == 0 && w % multiple == 0)
            return K / w;
    for (int w = length; w < K; ++w)
        if (K % w == 0)
            return K / w;
    return 1;
}

std::unique_ptr<decoder> make_decoder(const decoder_config& config,
                                      std::string_view backend)
{
    config.validate();
    switch (core::choose_backend(backend, config.devices)) {
    case core::backend::cuda:
#ifdef GPUTURBO_HAVE_CUDA
        return cuda::make_cuda_decoder(config);
#else
        break; // choose_backend() has thrown
#endif
    case core::backend::cpu: {
        const cpu::chosen_kernel chosen = cpu::kernel_for(config);
        return std::make_unique<cpu::cpu_decoder>(
            config, *chosen.kernel, core::backend::cpu, 0, chosen.why);
    }
    case core::backend::reference:
        // The oracle, kept as plain as it gets: one lane, one thread.
        return std::make_unique<cpu::cpu_decoder>(
            config, cpu::reference_kernel(), core::backend::reference, 1);
    }
    throw std::logic_error("make_decoder: unhandled backend");
}

std::unique_ptr<device_kernels> make_device_kernels(const decoder_config& config,
                                                    int device)
{
    config.validate();
#ifdef GPUTURBO_HAVE_CUDA
    return cuda::make_device_kernels(config, device);
#else
    (void)device;
    throw std::runtime_error("make_device_kernels: this build has no CUDA");
#endif
}

} // namespace gputurbo::turbo
