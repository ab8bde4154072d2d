/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_LLR_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_LLR_H

/*!
 * \file llr.h
 * \brief The engine's LLR convention and int8 quantisation, shared by every code family.
 *
 * The engine reads L = ln P(bit = 0) / P(bit = 1): a positive value means 0 (BPSK
 * 0 -> +1). GNU Radio's soft demappers and gr-fec use the opposite sign; each family's
 * config has an `invert_llr` switch for it, which the blocks and the numpy API set from
 * their `llr_sign` (GNU Radio's sign by default: parse it with positive_means_one()).
 * Before decoding, NaN becomes an erasure (0) and every value is clamped to [-llr_limit,
 * +llr_limit], so +-Inf becomes +-llr_limit.
 *
 * int8 LLRs: q = round(L * scale) saturated to +-127 (quantize_llrs()), read back as
 * L = q / scale. They carry a quarter of float's bytes over the bus.
 *
 * int4 LLRs (int4_pair): the same q saturated to +-7, two to a byte, an eighth of
 * float's bytes. The decoders unpack them to int8 (the CUDA ones on the GPU, after the
 * copy) and decode those, bit for bit as int8 input of the same values.
 */

#include <cstddef>
#include <cstdint>

namespace gputurbo::core {

//! Magnitude to which input LLRs are clamped (+-Inf becomes +-llr_limit).
constexpr float llr_limit = 1000.0f;

//! An input LLR as every decoder reads it: NaN becomes 0 (an erasure), values are
//! clamped to +-llr_limit, and the sign is flipped when \p invert (the other
//! convention). The CUDA kernels read their input the same way.
inline float sanitize_llr(float x, bool invert)
{
    if (x != x)
        return 0.0f;
    x = x > llr_limit ? llr_limit : (x < -llr_limit ? -llr_limit : x);
    return invert ? -x : x;
}

/*!
 * \brief The least mean |a-posteriori LLR| of a decoded codeword that carries
 * information. Erased input (all NaN or zero) or near-zero input decodes to LLRs near 0
 * and hard decisions of all zeros, which pass CRC-24A/B: such a codeword is never
 * reported passed, whatever its stop rule. Any codeword with channel information, even
 * far below the decoding threshold, lies orders of magnitude above it.
 */
constexpr float information_floor = 0.01f;

/*!
 * \brief Quantises float LLRs to int8: round(L * scale) (halves away from zero),
 * saturated to [-127, 127]; NaN becomes 0. With \p bits below 8 (2 … 8), saturated to
 * +-(2^(bits-1) - 1) instead: the values a narrower LLR format carries. Throws
 * std::invalid_argument for other widths.
 */
void quantize_llrs(
    const float* llrs, std::size_t n, std::int8_t* out, float scale, int bits = 8);

//! The float LLRs q / scale of n int8 values.
void dequantize_llrs(const std::int8_t* llrs, std::size_t n, float* out, float scale);

//! Two int4 LLRs in a byte: LLR 2i of a sequence in the low nibble of byte i, LLR 2i + 1
//! in the high one, each a two's complement q (-8 is read as -7).
struct int4_pair
{
    std::uint8_t nibbles;
};

//! Bytes that hold n int4 LLRs.
constexpr std::size_t int4_bytes(std::size_t n) { return (n + 1) / 2; }

//! Packs n int8 LLRs, saturated to +-7, as int4 (an odd n leaves the last high nibble 0).
void pack_int4(const std::int8_t* q, std::size_t n, int4_pair* out);
//! The n int8 LLRs of int4 ones (-8 as -7).
void unpack_int4(const int4_pair* in, std::size_t n, std::int8_t* out);
//! The int4 of a nibble (its low four bits), as it is read: -7 … 7.
constexpr int int4_value(unsigned nibble)
{
    const int q = int(nibble & 15u) - (nibble & 8u ? 16 : 0);
    return q < -7 ? -7 : q;
}

} // namespace gputurbo::core

#endif
