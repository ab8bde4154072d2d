/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "isa.h"
#include "../names.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gputurbo::core::cpu {

const char* to_string(isa i)
{
    static const std::pair<const char*, isa> names[] = {
        { "scalar", isa::scalar },
        { "generic", isa::generic },
        { "avx2", isa::avx2 },
        { "avx512", isa::avx512 },
    };
    return name_of(i, names);
}

bool supported(isa i)
{
#if defined(__x86_64__) || defined(__i386__)
    if (i == isa::avx512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (i == isa::avx2)
        return __builtin_cpu_supports("avx2");
    return true;
#else
    return i == isa::scalar || i == isa::generic;
#endif
}

std::optional<isa> named_in_environment()
{
    const char* wanted = std::getenv("GPUTURBO_CPU_KERNEL");
    if (!wanted || !*wanted)
        return std::nullopt;
    for (isa i : { isa::scalar, isa::generic, isa::avx2, isa::avx512 })
        if (std::string(wanted) == to_string(i)) {
            if (!supported(i))
                throw std::runtime_error(std::string("GPUTURBO_CPU_KERNEL=") + wanted +
                                         ": this CPU lacks that instruction set");
            return i;
        }
    throw std::invalid_argument(std::string("GPUTURBO_CPU_KERNEL=") + wanted +
                                ": use scalar, generic, avx2 or avx512");
}

isa choose(std::initializer_list<isa> preference)
{
    if (const auto named = named_in_environment())
        return *named;
    for (isa i : preference)
        if (supported(i))
            return i;
    return isa::scalar;
}

std::vector<double>
best_times(std::size_t n, const std::function<void(std::size_t)>& run, int rounds)
{
    using clock = std::chrono::steady_clock;
    std::vector<double> best(n, 1e300);
    for (std::size_t i = 0; i < n; ++i)
        run(i);
    for (int r = 0; r < rounds; ++r)
        for (std::size_t i = 0; i < n; ++i) {
            const auto start = clock::now();
            run(i);
            best[i] = std::min(
                best[i], std::chrono::duration<double>(clock::now() - start).count());
        }
    return best;
}

} // namespace gputurbo::core::cpu
