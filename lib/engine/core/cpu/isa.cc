/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "isa.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gputurbo::core::cpu {

const char* to_string(isa i)
{
    switch (i) {
    case isa::scalar:
        return "scalar";
    case isa::generic:
        return "generic";
    case isa::avx2:
        return "avx2";
    case isa::avx512:
        return "avx512";
    }
    return "?";
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

isa choose(std::initializer_list<isa> preference)
{
    if (const char* wanted = std::getenv("GPUTURBO_CPU_KERNEL"); wanted && *wanted) {
        for (isa i : { isa::scalar, isa::generic, isa::avx2, isa::avx512 })
            if (std::string(wanted) == to_string(i)) {
                if (!supported(i))
                    throw std::runtime_error(std::string("GPUTURBO_CPU_KERNEL=") +
                                             wanted +
                                             ": this CPU lacks that instruction set");
                return i;
            }
        throw std::invalid_argument(std::string("GPUTURBO_CPU_KERNEL=") + wanted +
                                    ": use scalar, generic, avx2 or avx512");
    }
    for (isa i : preference)
        if (supported(i))
            return i;
    return isa::scalar;
}

} // namespace gputurbo::core::cpu
