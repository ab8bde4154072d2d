/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gputurbo::core {

void quantize_llrs(
    const float* llrs, std::size_t n, std::int8_t* out, float scale, int bits)
{
    if (bits < 2 || bits > 8)
        throw std::invalid_argument("quantize_llrs: " + std::to_string(bits) +
                                    "-bit LLRs (2 ... 8 bits)");
    const float most = float((1 << (bits - 1)) - 1);
    // Without a branch (NaN first, std::min/max, copysign), so that the compiler
    // vectorises the loop: branches on the signs of noisy LLRs cost 25 times its time.
    for (std::size_t i = 0; i < n; ++i) {
        float v = llrs[i] * scale;
        v = v == v ? v : 0.0f;
        v = std::max(std::min(v, most), -most);
        out[i] = std::int8_t(int(v + std::copysign(0.5f, v))); // -0 rounds to 0 too
    }
}

void pack_int4(const std::int8_t* q, std::size_t n, int4_pair* out)
{
    auto nibble = [&](std::size_t i) {
        const int v = i < n ? q[i] : 0;
        return unsigned(v > 7 ? 7 : (v < -7 ? -7 : v)) & 15u;
    };
    for (std::size_t i = 0; i < int4_bytes(n); ++i)
        out[i].nibbles = std::uint8_t(nibble(2 * i) | nibble(2 * i + 1) << 4);
}

void unpack_int4(const int4_pair* in, std::size_t n, std::int8_t* out)
{
    for (std::size_t i = 0; i < n; ++i)
        out[i] = std::int8_t(int4_value(in[i / 2].nibbles >> 4 * (i % 2)));
}

void dequantize_llrs(const std::int8_t* llrs, std::size_t n, float* out, float scale)
{
    const float inverse = 1.0f / scale;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = float(llrs[i]) * inverse;
}

} // namespace gputurbo::core
