/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/control.h>

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

constexpr int columns = 32;
// The inter-column permutation of the sub-block interleaver for convolutional codes
// (Table 5.1.4-2).
constexpr std::array<int, columns> permutation = { 1, 17, 9,  25, 5, 21, 13, 29,
                                                   3, 19, 11, 27, 7, 23, 15, 31,
                                                   0, 16, 8,  24, 4, 20, 12, 28,
                                                   2, 18, 10, 26, 6, 22, 14, 30 };

constexpr long max_mask = 0xFFFF;

void check_at_least_one(const char* name, long value)
{
    if (value < 1)
        throw std::invalid_argument(std::string(name) + "=" + std::to_string(value) +
                                    " is out of range: use 1 or more");
}

void check_block_bits(const char* name, long value, long most)
{
    if (value < 1 || value > most)
        throw std::invalid_argument(std::string(name) + "=" + std::to_string(value) +
                                    " is out of range: use 1 ... " +
                                    std::to_string(most));
}

void check_mask(long mask)
{
    if (mask < 0 || mask > max_mask)
        throw std::invalid_argument("mask=" + std::to_string(mask) +
                                    " is out of range: use 0 ... 65535 (16 bits)");
}

// Control blocks are A payload bits and their CRC: the frames the code carries.
int frame_bits(int A)
{
    check_block_bits("A", A, max_control_bits);
    return A + control_crc_bits;
}

// §5.1.4.2 interleaves three streams: the outputs of the rate-1/3 code.
constexpr int streams = 3;

} // namespace

std::vector<std::int32_t> conv_circular_buffer(int D)
{
    check_block_bits("D", D, max_control_bits + control_crc_bits);
    const int R = (D + columns - 1) / columns, K_pi = R * columns, dummies = K_pi - D;
    std::vector<std::int32_t> w(streams * std::size_t(K_pi));
    for (int k = 0; k < K_pi; ++k) {
        // Each stream is written row by row after the dummies and read column by
        // column, columns permuted: v_k = y_(P(k / R) + 32 (k mod R)) = d_(that -
        // dummies).
        const int i = permutation[k / R] + columns * (k % R) - dummies;
        for (int s = 0; s < streams; ++s)
            w[s * std::size_t(K_pi) + k] = i < 0 ? null_bit : streams * i + s;
    }
    return w;
}

// The convolutional code's buffer is sent from its start (k0 = 0), all of it (N_cb =
// K_w): bit selection is the turbo code's.
void conv_select_bits(const std::vector<std::int32_t>& w,
                      const std::uint8_t* coded,
                      int E,
                      std::uint8_t* e)
{
    check_at_least_one("E", E);
    select_bits(w, int(w.size()), 0, coded, E, e);
}

void conv_combine_bits(const std::vector<std::int32_t>& w,
                       const float* llrs,
                       int E,
                       float* coded)
{
    check_at_least_one("E", E);
    for (const std::int32_t at : w)
        if (at != null_bit)
            coded[at] = 0.0f;
    combine_bits(w, int(w.size()), 0, llrs, E, coded);
}

void quantize_control_frame(const float* coded, int K, std::int8_t* q)
{
    // In 8 lanes: a float max over one lane would keep the compiler from vectorising.
    constexpr int lanes = 8;
    float lane[lanes] = {};
    int k = 0;
    for (; k + lanes <= K; k += lanes)
        for (int l = 0; l < lanes; ++l)
            lane[l] = std::max(lane[l], std::fabs(coded[k + l]));
    float largest = 0.0f;
    for (; k < K; ++k)
        largest = std::max(largest, std::fabs(coded[k]));
    for (const float m : lane)
        largest = std::max(largest, m);
    if (largest == 0.0f) {
        std::fill(q, q + K, std::int8_t(0));
        return;
    }
    core::quantize_llrs(coded, std::size_t(K), q, 127.0f / largest);
}

void attach_masked_crc(int A, long mask, std::uint8_t* bits)
{
    check_block_bits("A", A, max_control_bits);
    check_mask(mask);
    const std::uint32_t masked =
        crc_parity(crc::crc16, bits, std::size_t(A)) ^ std::uint32_t(mask);
    for (int i = 0; i < control_crc_bits; ++i)
        bits[A + i] = std::uint8_t((masked >> (control_crc_bits - 1 - i)) & 1u);
}

std::uint16_t crc_mask(int A, const std::uint8_t* bits)
{
    check_block_bits("A", A, max_control_bits);
    std::uint32_t received = 0;
    for (int i = 0; i < control_crc_bits; ++i)
        received = received << 1 | (bits[A + i] & 1u);
    return std::uint16_t(received ^ crc_parity(crc::crc16, bits, std::size_t(A)));
}

std::uint16_t bch_mask(int ports)
{
    switch (ports) {
    case 1:
        return 0x0000;
    case 2:
        return 0xFFFF;
    case 4:
        return 0x5555;
    }
    throw std::invalid_argument(
        "ports=" + std::to_string(ports) +
        " is not an antenna port count of the BCH: use 1, 2 or 4");
}

int bch_ports(std::uint16_t mask)
{
    for (const int ports : { 1, 2, 4 })
        if (bch_mask(ports) == mask)
            return ports;
    return 0;
}

void control_encode(int A, const std::uint8_t* payload, long mask, int E, std::uint8_t* e)
{
    const int D = frame_bits(A);
    check_mask(mask);
    check_at_least_one("E", E);
    std::vector<std::uint8_t> block(payload, payload + A);
    block.resize(std::size_t(D));
    attach_masked_crc(A, mask, block.data());
    const conv::viterbi_config c = control_decoder_config();
    std::vector<std::uint8_t> coded(conv::coded_length(c.generator, c.mode, D));
    conv::encode(c.generator, c.mode, D, block.data(), 1, coded.data());
    conv_select_bits(conv_circular_buffer(D), coded.data(), E, e);
}

conv::viterbi_config control_decoder_config()
{
    conv::viterbi_config c;
    c.generator = conv::preset("lte");
    c.mode = conv::termination::tail_biting;
    c.invert_llr = true;
    return c;
}

void control_decode(core::batch_decoder& decoder,
                    int A,
                    int E,
                    const float* llrs,
                    std::size_t n,
                    std::uint8_t* payload,
                    std::uint16_t* masks,
                    core::codeword_status* status)
{
    const int D = frame_bits(A);
    check_at_least_one("E", E);
    decoder.check_block(D);
    const std::size_t coded_bits = streams * std::size_t(D);
    if (decoder.input_length(D) != coded_bits)
        throw std::invalid_argument("control_decode: the decoder reads " +
                                    std::to_string(decoder.input_length(D)) +
                                    " LLRs a frame of A + 16 = " + std::to_string(D) +
                                    " bits, a control block " +
                                    std::to_string(coded_bits) +
                                    ": use a decoder of the \"lte\" code, tail-biting "
                                    "(control_decoder_config())");
    if (n == 0)
        return;
    const auto w = conv_circular_buffer(D);
    std::vector<float> coded(n * coded_bits);
    for (std::size_t i = 0; i < n; ++i)
        conv_combine_bits(w, llrs + i * std::size_t(E), E, coded.data() + i * coded_bits);
    std::vector<std::uint8_t> bits(n * std::size_t(D));
    decoder.decode(D, coded.data(), n, bits.data(), status);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* block = bits.data() + i * std::size_t(D);
        std::copy(block, block + A, payload + i * std::size_t(A));
        masks[i] = crc_mask(A, block);
    }
}

} // namespace gputurbo::lte
