/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_TURBO_CODE_H
#define INCLUDED_GPUTURBO_ENGINE_TURBO_CODE_H

/*!
 * \file code.h
 * \brief The LTE turbo code of 3GPP TS 36.212 §5.1.3.2: block sizes, QPP interleaver,
 *        constituent code, encoder with trellis termination. What the code is, apart
 *        from how it is decoded (turbo/decoder.h).
 *
 * Codeword layout (3K+12 values per codeword). The encoder produces three streams
 * d^(0), d^(1), d^(2) of K+4 bits each: d^(0)_k = x_k (systematic), d^(1)_k = z_k (parity
 * of the first encoder), d^(2)_k = z'_k (parity of the second encoder) for k < K, and the
 * 12 termination bits of §5.1.3.2.2 in k = K … K+3.
 *  - layout::interleaved (the default): triples, codeword[3k + s] = d^(s)_k, k = 0 … K+3.
 *  - layout::streams: d^(0) | d^(1) | d^(2), codeword[s (K+4) + k] = d^(s)_k.
 * Bits are unpacked: one bit per byte, value 0 or 1.
 */

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gputurbo::turbo {

//! Order of the 3K+12 values of one codeword (see the file comment).
enum class layout { interleaved, streams };

layout parse_layout(std::string_view name); //!< "interleaved" | "streams"; throws
const char* to_string(layout l);

constexpr int num_block_sizes = 188; //!< rows of Table 5.1.3-3
constexpr int min_block_size = 40;
constexpr int max_block_size = 6144;
constexpr int num_tail_bits = 12;

//! One row of 36.212 Table 5.1.3-3: pi(i) = (f1 i + f2 i^2) mod K.
struct qpp_row
{
    int K;
    int f1;
    int f2;
};

//! All 188 rows, in increasing K.
const std::array<qpp_row, num_block_sizes>& qpp_table();

bool is_valid_block_size(int K);

//! The row for K; throws std::invalid_argument naming the nearest valid sizes.
const qpp_row& qpp(int K);

//! Values per codeword: 3K + 12.
constexpr std::size_t codeword_length(int K)
{
    return 3 * std::size_t(K) + num_tail_bits;
}

//! Index of d^(stream)_k inside a codeword of the given layout.
constexpr std::size_t codeword_index(layout l, int K, int stream, int k)
{
    return l == layout::interleaved ? 3 * std::size_t(k) + stream
                                    : std::size_t(stream) * (K + 4) + k;
}

//! A codeword position by stream: d^(stream)_(K + offset).
struct tail_place
{
    int stream;
    int offset;
};

//! Where 36.212 §5.1.3.2.2 puts the trellis termination: the systematic bit (parity
//! false) or parity bit (true) of step j = 0 … 2 of constituent encoder 0 or 1. The 12
//! tail bits x_K z_K x_K+1 z_K+1 x_K+2 z_K+2 of the first, then the second's, fill
//! d^(0..2)_K … d^(0..2)_K+3 in that order. The encoder and every decoder kernel read
//! the tail through this one map.
constexpr tail_place tail_position(int encoder, int j, bool parity)
{
    const int t = 6 * encoder + 2 * j + (parity ? 1 : 0);
    return { t % 3, t / 3 };
}

//! pi(i) for i = 0 … K-1: the second encoder reads c'_i = c_{pi(i)}. Throws on invalid K.
std::vector<std::uint32_t> interleaver(int K);

//! interleaver(K), computed once per K for the life of the process (thread-safe).
const std::vector<std::uint32_t>& cached_interleaver(int K);

//! Inverse of interleaver(K): deinterleaver(K)[pi(i)] = i.
std::vector<std::uint32_t> deinterleaver(int K);

/*!
 * \brief The 8-state constituent code: feedback g0 = 1+D^2+D^3, parity g1 = 1+D+D^3.
 *
 * The state s = 4 s1 + 2 s2 + s3 holds the shift register (s1 the newest). For input bit
 * u: a = u ^ s2 ^ s3, parity z = a ^ s1 ^ s3, next state 4a + 2s1 + s2.
 */
struct rsc
{
    static constexpr int num_states = 8;
    static constexpr int next_state(int s, int u)
    {
        const int a = u ^ ((s >> 1) & 1) ^ (s & 1);
        return (a << 2) | (s >> 1);
    }
    static constexpr int parity(int s, int u)
    {
        const int a = u ^ ((s >> 1) & 1) ^ (s & 1);
        return a ^ ((s >> 2) & 1) ^ (s & 1);
    }
    //! The input that drives the register towards zero (trellis termination).
    static constexpr int termination_input(int s) { return ((s >> 1) & 1) ^ (s & 1); }
};

/*!
 * \brief Encodes n_codewords blocks of K bits each.
 * \param bits n_codewords * K unpacked bits (each byte 0 or 1; only bit 0 is read)
 * \param codewords n_codewords * (3K+12) unpacked bits in the given layout
 */
void encode(int K,
            const std::uint8_t* bits,
            std::size_t n_codewords,
            std::uint8_t* codewords,
            layout out_layout = layout::interleaved);

} // namespace gputurbo::turbo

#endif
