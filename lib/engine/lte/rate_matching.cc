/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/rate_matching.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

constexpr int columns = 32;
// The inter-column permutation of the sub-block interleaver (Table 5.1.4-1).
constexpr std::array<int, columns> permutation = { 0, 16, 8,  24, 4, 20, 12, 28,
                                                   2, 18, 10, 26, 6, 22, 14, 30,
                                                   1, 17, 9,  25, 5, 21, 13, 29,
                                                   3, 19, 11, 27, 7, 23, 15, 31 };

int rows(int K) { return (K + 4 + columns - 1) / columns; }

// visit(k, at) for the E bits sent from k0 on: bit k of e is codeword bit at.
template <class Visit>
void for_each_sent(
    const std::vector<std::int32_t>& w, int Ncb, int k0, int E, Visit visit)
{
    if (Ncb < 1 || std::size_t(Ncb) > w.size())
        throw std::invalid_argument("rate matching: N_cb " + std::to_string(Ncb) +
                                    " outside the circular buffer's 1 ... " +
                                    std::to_string(w.size()));
    for (int k = 0, j = 0; k < E; ++j) {
        const std::int32_t at = w[std::size_t((k0 + j) % Ncb)];
        if (at != null_bit)
            visit(k++, at);
        else if (j >= Ncb && k == 0)
            throw std::invalid_argument("rate matching: the first N_cb bits of the "
                                        "circular buffer are all NULL");
    }
}

} // namespace

std::vector<std::int32_t> circular_buffer(int K, int filler)
{
    const int D = K + 4, R = rows(K), K_pi = R * columns, dummies = K_pi - D;
    // y_k of stream s: the codeword index of d^(s)_{k - dummies}, or NULL.
    auto y = [&](int s, int k) -> std::int32_t {
        const int i = k - dummies;
        if (i < 0 || (s < 2 && i < filler))
            return null_bit;
        return 3 * i + s;
    };
    std::vector<std::int32_t> w(3 * std::size_t(K_pi));
    for (int k = 0; k < K_pi; ++k) {
        // Streams 0 and 1: written row by row, read column by column, columns permuted.
        const int column = permutation[k / R], row = k % R;
        const int y01 = column + columns * row;
        // Stream 2: pi(k) = (P(k / R) + C (k mod R) + 1) mod K_pi.
        const int y2 = (column + columns * row + 1) % K_pi;
        w[k] = y(0, y01);
        w[K_pi + 2 * std::size_t(k)] = y(1, y01);
        w[K_pi + 2 * std::size_t(k) + 1] = y(2, y2);
    }
    return w;
}

long soft_buffer_bits(long N_soft, int K_C, int K_MIMO, int M_DL_HARQ)
{
    if (N_soft < 1 || K_C < 1 || K_MIMO < 1 || M_DL_HARQ < 1)
        throw std::invalid_argument("soft_buffer_bits: N_soft, K_C, K_MIMO and M_DL_HARQ "
                                    "are 1 or more");
    return N_soft / (long(K_C) * K_MIMO * std::min(M_DL_HARQ, 8));
}

int circular_buffer_bits(int Kw, int C, long N_IR)
{
    return N_IR > 0 ? int(std::min<long>(N_IR / C, Kw)) : Kw;
}

int start_position(int K, int Ncb, int rv)
{
    if (rv < 0 || rv > 3)
        throw std::invalid_argument("redundancy version " + std::to_string(rv) +
                                    ": use 0 ... 3");
    const int R = rows(K);
    return R * (2 * ((Ncb + 8 * R - 1) / (8 * R)) * rv + 2);
}

void select_bits(const std::vector<std::int32_t>& w,
                 int Ncb,
                 int k0,
                 const std::uint8_t* codeword,
                 int E,
                 std::uint8_t* e)
{
    for_each_sent(w, Ncb, k0, E, [&](int k, std::int32_t at) { e[k] = codeword[at]; });
}

void combine_bits(const std::vector<std::int32_t>& w,
                  int Ncb,
                  int k0,
                  const float* llrs,
                  int E,
                  float* codeword)
{
    for_each_sent(
        w, Ncb, k0, E, [&](int k, std::int32_t at) { codeword[at] += llrs[k]; });
}

int block_bits(int G, int C, int Qm, int layers, int r)
{
    const int symbols = G / (layers * Qm), gamma = symbols % C;
    return layers * Qm * (symbols / C + (r >= C - gamma ? 1 : 0));
}

} // namespace gputurbo::lte
