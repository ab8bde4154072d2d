/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::core {
namespace {
std::atomic<std::size_t> alive{ 0 };
} // namespace

batch_decoder::batch_decoder() { ++alive; }
batch_decoder::~batch_decoder() { --alive; }
std::size_t batch_decoder::objects_alive() { return alive; }

namespace {

std::string unknown_ticket(batch_decoder::ticket t)
{
    return "collect: ticket " + std::to_string(t) + " is unknown or already collected";
}

// n codewords of block unpacked bits into bit_format::packed.
void pack_bits(const std::uint8_t* bits, int block, std::size_t n, std::uint8_t* packed)
{
    const std::size_t bytes = output_bytes(bit_format::packed, block);
    for (std::size_t c = 0; c < n; ++c, bits += block, packed += bytes)
        for (std::size_t j = 0; j < bytes; ++j) {
            const int first = int(8 * j);
            const int last = std::min(first + 8, block);
            std::uint8_t byte = 0;
            for (int i = first; i < last; ++i)
                byte |= std::uint8_t((bits[i] != 0) << (7 - (i - first)));
            packed[j] = byte;
        }
}

// Throws std::invalid_argument for an int8 scale out of int8_scale's range.
void check_int8_scale(float int8_scale)
{
    check(find_parameter(engine_parameters(), "int8_scale"), int8_scale);
}

} // namespace

// Packed bits are made here, from the unpacked bits of the decoder's own scratch (one
// implementation for every family and backend, which cannot change the decoded bits),
// unless the backend writes them itself (packs_bits(): a GPU, to move 8 times fewer
// bytes).
void batch_decoder::check_soft(const llr_batch& b) const
{
    if (b.soft.kind == soft_output::none || gives_soft(b.soft.kind))
        return;
    // The kinds it gives instead, by name.
    std::string given = to_string(soft_output::none);
    for (soft_output k :
         { soft_output::app, soft_output::extrinsic, soft_output::code_extrinsic })
        if (gives_soft(k))
            given += std::string(", ") + to_string(k);
    throw std::invalid_argument("output=" + std::string(to_string(b.soft.kind)) +
                                " is not given by this decoder (" + backend() +
                                " backend): use " + given);
}

void batch_decoder::decode_checked(const llr_batch& b,
                                   std::uint8_t* bits,
                                   codeword_status* status,
                                   bit_format format)
{
    check_block(b.block);
    if (b.count == 0)
        return;
    if ((!b.f32 && !b.i8 && !b.i4) || !bits)
        throw std::invalid_argument("decode: null input or output buffer");
    check_soft(b);
    if (b.soft.kind != soft_output::none && !b.soft.values)
        throw std::invalid_argument("decode_soft: null soft output buffer");
    llr_batch in = readable(b);
    if (format != bit_format::packed) {
        decode_batch(in, bits, status);
        return;
    }
    if (packs_bits()) {
        in.format = bit_format::packed;
        decode_batch(in, bits, status);
        return;
    }
    d_unpacked.resize(b.count * std::size_t(b.block));
    decode_batch(in, d_unpacked.data(), status);
    pack_bits(d_unpacked.data(), b.block, b.count, bits);
}

llr_batch batch_decoder::readable(const llr_batch& b)
{
    if (!b.i4 || reads_int4())
        return b;
    const std::size_t n = b.count * input_length(b.block);
    d_int8.resize(n);
    unpack_int4(b.i4, n, d_int8.data());
    llr_batch unpacked = llr_batch::of(b.block, d_int8.data(), b.count);
    unpacked.soft = b.soft;
    return unpacked;
}

batch_decoder::ticket batch_decoder::submit_checked(const llr_batch& b)
{
    check_block(b.block);
    if (!b.f32 && !b.i8 && !b.i4 && b.count > 0)
        throw std::invalid_argument("submit: null input buffer");
    check_soft(b);
    const ticket t = submit_batch(b.count > 0 ? readable(b) : b);
    // The shape alone: its LLR pointers unset.
    llr_batch shape = llr_batch::of(b.block, static_cast<const float*>(nullptr), b.count);
    shape.soft.kind = b.soft.kind;
    d_submitted[t] = shape;
    return t;
}

void batch_decoder::decode_soft_checked(llr_batch b,
                                        soft_values soft,
                                        std::uint8_t* bits,
                                        codeword_status* status)
{
    if (soft.kind == soft_output::none)
        throw std::invalid_argument(
            "decode_soft: soft output kind none: use decode() for bits only");
    if (soft.values && soft.int8)
        throw std::invalid_argument(
            "decode_soft: soft values go to values (float) or to int8, not both");
    b.soft = soft;
    if (!bits) { // the bits nobody asked for go to the decoder's own scratch
        d_unpacked.resize(b.count * std::size_t(b.block));
        bits = d_unpacked.data();
    }
    if (!soft.int8) {
        decode_checked(b, bits, status, bit_format::unpacked);
        return;
    }
    // Every backend writes floats: int8 values are those, quantised here.
    check_int8_scale(soft.int8_scale);
    check_block(b.block);
    d_soft.resize(b.count * soft_length(b.block, soft.kind));
    b.soft.values = d_soft.data();
    b.soft.int8 = nullptr;
    decode_checked(b, bits, status, bit_format::unpacked);
    quantize_llrs(d_soft.data(), d_soft.size(), soft.int8, soft.int8_scale);
}

void batch_decoder::collect(
    ticket t, std::uint8_t* bits, codeword_status* status, bit_format format, float* soft)
{
    collect_checked(t, bits, status, format, { soft });
}

void batch_decoder::collect(ticket t,
                            std::uint8_t* bits,
                            codeword_status* status,
                            bit_format format,
                            std::int8_t* soft,
                            float int8_scale)
{
    collect_checked(t, bits, status, format, { nullptr, {}, soft, int8_scale });
}

void batch_decoder::collect_checked(ticket t,
                                    std::uint8_t* bits,
                                    codeword_status* status,
                                    bit_format format,
                                    soft_values soft)
{
    const auto it = d_submitted.find(t);
    if (it == d_submitted.end())
        throw std::invalid_argument(unknown_ticket(t));
    const llr_batch b = it->second;
    if (b.count > 0 && !bits)
        throw std::invalid_argument("collect: null output buffer");
    const bool wanted = soft.values || soft.int8;
    if (b.soft.kind == soft_output::none && wanted)
        throw std::invalid_argument(
            "collect: the batch was submitted without soft output");
    if (soft.int8) { // the backend's floats, quantised below
        check_int8_scale(soft.int8_scale);
        d_soft.resize(b.count * soft_length(b.block, b.soft.kind));
        soft.values = d_soft.data();
    }
    d_submitted.erase(it); // the backend frees the ticket whatever collect_batch() meets
    if (format != bit_format::packed)
        collect_batch(t, bits, status, soft.values);
    else {
        d_unpacked.resize(b.count * std::size_t(b.block));
        collect_batch(t, d_unpacked.data(), status, soft.values);
        pack_bits(d_unpacked.data(), b.block, b.count, bits);
    }
    if (soft.int8)
        quantize_llrs(d_soft.data(), d_soft.size(), soft.int8, soft.int8_scale);
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
    llr_batch mine = b;
    if (b.soft.kind != soft_output::none) {
        result.soft.resize(b.count * soft_length(b.block, b.soft.kind));
        mine.soft.values = result.soft.data();
    }
    if (b.count > 0)
        decode_batch(mine, result.bits.data(), result.status.data());
    d_finished.emplace(t, std::move(result));
    return t;
}

void batch_decoder::collect_batch(ticket t,
                                  std::uint8_t* bits,
                                  codeword_status* status,
                                  float* soft)
{
    const auto it = d_finished.find(t);
    if (it == d_finished.end())
        throw std::invalid_argument(unknown_ticket(t));
    if (!it->second.bits.empty() && !bits)
        throw std::invalid_argument("collect: null output buffer");
    std::copy(it->second.bits.begin(), it->second.bits.end(), bits);
    if (status)
        std::copy(it->second.status.begin(), it->second.status.end(), status);
    if (soft)
        std::copy(it->second.soft.begin(), it->second.soft.end(), soft);
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
