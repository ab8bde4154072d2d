/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Packed output (core::bit_format::packed) of the batch API, for both code families:
// decode() and submit()/collect() write the unpacked bits packed MSB first, each codeword
// on a byte boundary with zero padding, and nothing beyond. Fresh random noisy inputs
// (their seed is printed; GPUTURBO_TEST_SEED replays one, see test_seed()).

#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <cmath>
#include <random>

using namespace gputurbo;
using namespace gputurbo::core;
using namespace gputurbo::test;

namespace {

// The output buffers have guard bytes beyond their last byte, filled with untouched.
constexpr std::size_t guard_bytes = 16;
constexpr std::uint8_t untouched = 0xA5;

// numpy.packbits(bits.reshape(n, block), axis=1), written out bit by bit.
std::vector<std::uint8_t> packbits(const std::vector<std::uint8_t>& bits, int block)
{
    const std::size_t n = bits.size() / block;
    const std::size_t bytes = (std::size_t(block) + 7) / 8;
    std::vector<std::uint8_t> packed(n * bytes, 0);
    for (std::size_t c = 0; c < n; ++c)
        for (int i = 0; i < block; ++i)
            if (bits[c * block + i])
                packed[c * bytes + i / 8] |= std::uint8_t(0x80 >> (i % 8));
    return packed;
}

// One batch of noisy LLRs for a decoder, float and int8.
struct batch_input
{
    std::vector<float> f32;
    std::vector<std::int8_t> i8;
};

struct decoded
{
    std::vector<std::uint8_t> bits;
    std::vector<codeword_status> status;
};

void expect_same_status(const std::vector<codeword_status>& a,
                        const std::vector<codeword_status>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].iterations, b[i].iterations) << "codeword " << i;
        EXPECT_EQ(a[i].passed, b[i].passed) << "codeword " << i;
    }
}

// The padding of each codeword's last byte is zero.
void expect_zero_padding(const std::vector<std::uint8_t>& packed, int block)
{
    const int unused = (8 - block % 8) % 8;
    const std::size_t bytes = output_bytes(bit_format::packed, block);
    const std::uint8_t mask = std::uint8_t((1u << unused) - 1);
    for (std::size_t c = 0; c < packed.size() / bytes; ++c)
        ASSERT_EQ(packed[(c + 1) * bytes - 1] & mask, 0) << "codeword " << c;
}

/*
 * On one decoder: decode() and submit()/collect() of float and int8 input give packed
 * bits equal to the unpacked ones packed, the same statuses, zero padding, and write no
 * byte beyond n * ceil(block/8).
 */
void check_packed(batch_decoder& dec, int block, std::size_t n, const batch_input& in)
{
    const std::size_t bytes = n * output_bytes(bit_format::packed, block);
    auto run = [&](bool int8, bit_format f) {
        decoded d;
        d.bits.assign(n * output_bytes(f, block) + guard_bytes, untouched);
        d.status.resize(n);
        if (int8)
            dec.decode(block, in.i8.data(), n, d.bits.data(), d.status.data(), f);
        else
            dec.decode(block, in.f32.data(), n, d.bits.data(), d.status.data(), f);
        for (std::size_t i = d.bits.size() - guard_bytes; i < d.bits.size(); ++i)
            EXPECT_EQ(d.bits[i], untouched) << "byte " << i << " written";
        d.bits.resize(d.bits.size() - guard_bytes);
        return d;
    };

    decoded unpacked[2];
    for (const bool int8 : { false, true }) {
        SCOPED_TRACE(int8 ? "int8" : "float");
        unpacked[int8] = run(int8, bit_format::unpacked);
        const decoded packed = run(int8, bit_format::packed);
        ASSERT_EQ(packed.bits.size(), bytes);
        EXPECT_EQ(packed.bits, packbits(unpacked[int8].bits, block));
        expect_zero_padding(packed.bits, block);
        expect_same_status(packed.status, unpacked[int8].status);
    }
    ASSERT_GT(std::count(unpacked[0].bits.begin(), unpacked[0].bits.end(), 1), 0);

    // Three batches in flight, collected out of order, two packed and one not.
    const batch_decoder::ticket t[3] = { dec.submit(block, in.f32.data(), n),
                                         dec.submit(block, in.i8.data(), n),
                                         dec.submit(block, in.f32.data(), n) };
    const struct
    {
        int ticket;
        bool int8;
        bit_format format;
    } order[] = { { 1, true, bit_format::packed },
                  { 2, false, bit_format::unpacked },
                  { 0, false, bit_format::packed } };
    for (const auto& o : order) {
        SCOPED_TRACE("collect of ticket " + std::to_string(o.ticket));
        decoded d;
        d.bits.assign(n * output_bytes(o.format, block) + guard_bytes, untouched);
        d.status.resize(n);
        dec.collect(t[o.ticket], d.bits.data(), d.status.data(), o.format);
        EXPECT_TRUE(std::all_of(d.bits.end() - guard_bytes,
                                d.bits.end(),
                                [](std::uint8_t b) { return b == untouched; }));
        d.bits.resize(d.bits.size() - guard_bytes);
        const auto& want = unpacked[o.int8];
        EXPECT_EQ(d.bits,
                  o.format == bit_format::packed ? packbits(want.bits, block)
                                                 : want.bits);
        expect_same_status(d.status, want.status);
    }
    EXPECT_THROW(dec.collect(t[0], nullptr, nullptr, bit_format::packed),
                 std::invalid_argument);
}

class PackedTurbo : public ::testing::TestWithParam<std::string>
{
};

class PackedViterbi : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST(PackedBits, OutputBytes)
{
    EXPECT_EQ(output_bytes(bit_format::unpacked, 1001), 1001u);
    EXPECT_EQ(output_bytes(bit_format::packed, 1001), 126u);
    EXPECT_EQ(output_bytes(bit_format::packed, 40), 5u);
    EXPECT_EQ(output_bytes(bit_format::packed, 6144), 768u);
    EXPECT_EQ(output_bytes(bit_format::packed, 1), 1u);
    EXPECT_EQ(output_bytes(bit_format::packed, 8), 1u);
    EXPECT_EQ(output_bytes(bit_format::packed, 9), 2u);
    EXPECT_EQ(output_bytes(bit_format::packed, 0), 0u);
}

TEST_P(PackedTurbo, EqualsTheUnpackedBitsPacked)
{
    const std::uint64_t seed = test_seed();
    for (const int K : { 40, 6144 }) {
        SCOPED_TRACE("K=" + std::to_string(K));
        decoder_config c;
        c.K = K;
        c.iterations = 4;
        c.early_stop = stop_rule::hard; // codewords that differ in iterations
        GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
        const std::size_t n = K == 40 ? 200 : 12;
        const auto b = make_batch(K, 0.5, n, seed + K);
        batch_input in{ b.llrs, std::vector<std::int8_t>(b.llrs.size()) };
        quantize_llrs(in.f32.data(), in.f32.size(), in.i8.data(), c.int8_scale);
        check_packed(*dec, K, n, in);
        if (HasFatalFailure())
            return;
    }
}

TEST_P(PackedViterbi, EqualsTheUnpackedBitsPackedForFramesOfAnyLength)
{
    const std::uint64_t seed = test_seed();
    std::mt19937_64 rng(seed);
    conv::viterbi_config c;
    c.generator = conv::preset("802.11");
    c.mode = conv::termination::terminated;
    const auto dec = conv::make_viterbi_decoder(c, GetParam());
    for (const int frame_bits : { 1001, 13 }) {
        SCOPED_TRACE("frame_bits=" + std::to_string(frame_bits));
        const std::size_t n = 37;
        std::vector<std::uint8_t> bits(n * frame_bits);
        for (auto& bit : bits)
            bit = rng() & 1;
        std::vector<std::uint8_t> sent(
            n * conv::coded_length(c.generator, c.mode, frame_bits));
        conv::encode(c.generator, c.mode, frame_bits, bits.data(), n, sent.data());
        // BPSK (0 -> +1) at Eb/N0 = 3 dB, rate 1/2: L = 2y / sigma^2, positive for 0.
        const double sigma = std::sqrt(1.0 / (2.0 * 0.5 * std::pow(10.0, 0.3)));
        std::normal_distribution<double> noise(0.0, sigma);
        batch_input in;
        for (const std::uint8_t s : sent)
            in.f32.push_back(
                float(2.0 * ((s ? -1.0 : 1.0) + noise(rng)) / (sigma * sigma)));
        in.i8.resize(in.f32.size());
        quantize_llrs(in.f32.data(), in.f32.size(), in.i8.data(), c.int8_scale);
        check_packed(*dec, frame_bits, n, in);
        if (HasFatalFailure())
            return;
    }
}

INSTANTIATE_TEST_SUITE_P(Backends,
                         PackedTurbo,
                         ::testing::ValuesIn(all_backends),
                         backend_test_name);
INSTANTIATE_TEST_SUITE_P(Backends,
                         PackedViterbi,
                         ::testing::Values("reference", "cpu"),
                         backend_test_name);
