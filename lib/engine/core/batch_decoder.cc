/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace gputurbo::core {
namespace {
std::atomic<std::size_t> alive{ 0 };
} // namespace

batch_decoder::batch_decoder() { ++alive; }
batch_decoder::~batch_decoder() { --alive; }
std::size_t batch_decoder::objects_alive() { return alive; }

namespace {

llr_batch batch_of(int block, const float* llrs, std::size_t n)
{
    return { block, n, llrs, nullptr };
}
llr_batch batch_of(int block, const std::int8_t* llrs, std::size_t n)
{
    return { block, n, nullptr, llrs };
}

} // namespace

void batch_decoder::decode_checked(const llr_batch& b,
                                   std::uint8_t* bits,
                                   codeword_status* status)
{
    check_block(b.block);
    if (b.count == 0)
        return;
    if ((!b.f32 && !b.i8) || !bits)
        throw std::invalid_argument("decode: null input or output buffer");
    decode_batch(b, bits, status);
}

batch_decoder::ticket batch_decoder::submit_checked(const llr_batch& b)
{
    check_block(b.block);
    if (!b.f32 && !b.i8 && b.count > 0)
        throw std::invalid_argument("submit: null input buffer");
    return submit_batch(b);
}

void batch_decoder::decode(int block,
                           const float* llrs,
                           std::size_t n_codewords,
                           std::uint8_t* bits,
                           codeword_status* status)
{
    decode_checked(batch_of(block, llrs, n_codewords), bits, status);
}

void batch_decoder::decode(int block,
                           const std::int8_t* llrs,
                           std::size_t n_codewords,
                           std::uint8_t* bits,
                           codeword_status* status)
{
    decode_checked(batch_of(block, llrs, n_codewords), bits, status);
}

batch_decoder::ticket
batch_decoder::submit(int block, const float* llrs, std::size_t n_codewords)
{
    return submit_checked(batch_of(block, llrs, n_codewords));
}

batch_decoder::ticket
batch_decoder::submit(int block, const std::int8_t* llrs, std::size_t n_codewords)
{
    return submit_checked(batch_of(block, llrs, n_codewords));
}

void batch_decoder::collect(ticket t, std::uint8_t* bits, codeword_status* status)
{
    collect_batch(t, bits, status);
}

batch_decoder::ticket batch_decoder::next_ticket(std::size_t outstanding)
{
    if (outstanding >= std::size_t(max_in_flight))
        throw std::runtime_error("submit: " + std::to_string(max_in_flight) +
                                 " batches are in flight: collect one first");
    return ++d_last_ticket;
}

batch_decoder::ticket batch_decoder::submit_batch(const batch& b)
{
    const ticket t = next_ticket(d_finished.size());
    finished result;
    result.bits.resize(b.count * std::size_t(b.block));
    result.status.resize(b.count);
    if (b.count > 0)
        decode_batch(b, result.bits.data(), result.status.data());
    d_finished.emplace(t, std::move(result));
    return t;
}

void batch_decoder::collect_batch(ticket t, std::uint8_t* bits, codeword_status* status)
{
    const auto it = d_finished.find(t);
    if (it == d_finished.end())
        throw std::invalid_argument("collect: ticket " + std::to_string(t) +
                                    " is unknown or already collected");
    if (!it->second.bits.empty() && !bits)
        throw std::invalid_argument("collect: null output buffer");
    std::copy(it->second.bits.begin(), it->second.bits.end(), bits);
    if (status)
        std::copy(it->second.status.begin(), it->second.status.end(), status);
    d_finished.erase(it);
}

const float* batch_decoder::as_float(const batch& b, float int8_scale)
{
    if (b.f32)
        return b.f32;
    const std::size_t n = b.count * input_length(b.block);
    d_dequantized.resize(n);
    dequantize_llrs(b.i8, n, d_dequantized.data(), int8_scale);
    return d_dequantized.data();
}

} // namespace gputurbo::core
