/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// int8 soft output (core::soft_values::int8, and collect() with an int8 buffer): the
// values are the float ones as int8 input reads them, round(L * int8_scale) saturated to
// +-127, for the turbo and the convolutional decoders on every backend that gives soft
// output, from decode_soft() and from submit() / collect(). Fresh random inputs (seed
// printed).

#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace gputurbo;

namespace {

//! round(v * scale), halves away from zero, saturated to +-127: written apart from the
//! engine's quantize_llrs().
std::vector<std::int8_t> quantised(const std::vector<float>& values, float scale)
{
    std::vector<std::int8_t> q(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        q[i] = std::int8_t(std::lround(std::clamp(values[i] * scale, -127.0f, 127.0f)));
    return q;
}

//! The float and int8 soft values of one decode_soft() each, with their bits.
struct float_and_int8
{
    std::vector<float> values;
    std::vector<std::int8_t> q;
    std::vector<std::uint8_t> bits, bits_q;
};

template <class LLR>
float_and_int8 decode_both(core::batch_decoder& dec,
                           int block,
                           const std::vector<LLR>& llrs,
                           std::size_t n,
                           core::soft_output kind,
                           float scale)
{
    float_and_int8 r;
    const std::size_t length = n * dec.soft_length(block, kind);
    r.values.resize(length);
    r.q.resize(length);
    r.bits.resize(n * block);
    r.bits_q.resize(n * block);
    dec.decode_soft(block, llrs.data(), n, { r.values.data(), kind }, r.bits.data());
    dec.decode_soft(
        block, llrs.data(), n, { nullptr, kind, r.q.data(), scale }, r.bits_q.data());
    return r;
}

//! A scale at which about half of \p values saturate: 127 over their median magnitude.
float half_saturating_scale(std::vector<float> values)
{
    for (auto& v : values)
        v = std::fabs(v);
    const auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    return *middle > 0.0f ? 127.0f / *middle : 1.0f;
}

//! Values both saturated and not, so that the comparison covers both.
void expect_both_ranges(const std::vector<std::int8_t>& q, const std::string& what)
{
    const auto saturated =
        std::count_if(q.begin(), q.end(), [](int v) { return v == 127 || v == -127; });
    EXPECT_GT(saturated, 0) << what;
    EXPECT_LT(std::size_t(saturated), q.size()) << what;
}

//! submit() of two batches, one collected as int8 (packed bits), one as float; their
//! values as decode_soft() gives them.
template <class LLR>
void expect_async_equals_sync(core::batch_decoder& dec,
                              int block,
                              const std::vector<LLR>& llrs,
                              std::size_t n,
                              core::soft_output kind,
                              float scale)
{
    const float_and_int8 sync = decode_both(dec, block, llrs, n, kind, scale);
    const auto tq = dec.submit(block, llrs.data(), n, kind);
    const auto tf = dec.submit(block, llrs.data(), n, kind);
    std::vector<std::int8_t> q(sync.q.size(), 0);
    std::vector<float> values(sync.values.size());
    const std::size_t bytes = core::output_bytes(core::bit_format::packed, block);
    std::vector<std::uint8_t> packed(n * bytes), bits(n * block);
    dec.collect(tf, bits.data(), nullptr, core::bit_format::unpacked, values.data());
    dec.collect(tq, packed.data(), nullptr, core::bit_format::packed, q.data(), scale);
    const std::string what = core::to_string(kind);
    EXPECT_EQ(q, sync.q) << what;
    EXPECT_EQ(values, sync.values) << what;
    EXPECT_EQ(bits, sync.bits) << what;
    for (std::size_t c = 0; c < n; ++c)
        for (int k = 0; k < block; ++k)
            ASSERT_EQ((packed[c * bytes + k / 8] >> (7 - k % 8)) & 1,
                      sync.bits[c * block + k])
                << what << " codeword " << c << " bit " << k;
}

class TurboSoftInt8 : public ::testing::TestWithParam<std::string>
{
};

class ViterbiSoftInt8 : public conv_test::backend_test
{
};

} // namespace

// Each kind at the default scale and at one where about half the values saturate.
template <class LLR>
void expect_quantised(core::batch_decoder& dec,
                      int block,
                      const std::vector<LLR>& llrs,
                      std::size_t n,
                      core::soft_output kind,
                      const std::string& what)
{
    float scale = 8.0f;
    for (int pass = 0; pass < 2; ++pass) {
        const float_and_int8 r = decode_both(dec, block, llrs, n, kind, scale);
        const std::string where =
            what + " " + core::to_string(kind) + " scale=" + std::to_string(scale);
        EXPECT_EQ(r.q, quantised(r.values, scale)) << where;
        EXPECT_EQ(r.bits_q, r.bits) << where;
        if (pass == 1)
            expect_both_ranges(r.q, where);
        scale = half_saturating_scale(r.values);
    }
}

TEST_P(TurboSoftInt8, ValuesAreTheFloatOnesQuantised)
{
    std::mt19937_64 rng(test::test_seed());
    for (const bool invert : { false, true }) {
        turbo::decoder_config c;
        c.K = turbo::qpp_table()[rng() % 60].K;
        c.invert_llr = invert;
        GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
        auto b = test::make_batch(c.K, 0.25 * (rng() % 6), 6, rng());
        if (invert)
            for (auto& l : b.llrs)
                l = -l;
        const std::string what = "K=" + std::to_string(c.K) + (invert ? " inverted" : "");
        for (const auto kind : { core::soft_output::app, core::soft_output::extrinsic })
            expect_quantised(*dec, c.K, b.llrs, 6, kind, what);
    }
}

TEST_P(TurboSoftInt8, Int8InputAndOutputShareTheScale)
{
    // int8 in and int8 out of one decoder: the same units, its int8_scale.
    turbo::decoder_config c;
    c.K = 512;
    c.int8_scale = 4.0f;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = test::make_batch(c.K, 1.0, 5, 91);
    std::vector<std::int8_t> q(b.llrs.size());
    core::quantize_llrs(b.llrs.data(), q.size(), q.data(), c.int8_scale);
    const float_and_int8 r =
        decode_both(*dec, c.K, q, 5, core::soft_output::app, c.int8_scale);
    EXPECT_EQ(r.q, quantised(r.values, c.int8_scale));
    expect_both_ranges(r.q, "int8 input");
}

TEST_P(TurboSoftInt8, SubmitAndCollectGiveWhatDecodeSoftGives)
{
    turbo::decoder_config c;
    c.K = 256;
    c.early_stop = turbo::stop_rule::hard;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    const auto b = test::make_batch(c.K, 0.75, 7, 93);
    for (const auto kind : { core::soft_output::app, core::soft_output::extrinsic })
        expect_async_equals_sync(*dec, c.K, b.llrs, 7, kind, 8.0f);
}

TEST_P(TurboSoftInt8, BadRequestsSayWhy)
{
    turbo::decoder_config c;
    c.K = 40;
    GPUTURBO_MAKE_OR_SKIP(dec, c, GetParam());
    std::vector<float> llrs(turbo::codeword_length(c.K)), out(c.K);
    std::vector<std::int8_t> q(c.K);
    std::vector<std::uint8_t> bits(c.K);
    const auto app = core::soft_output::app;
    EXPECT_EQ(test::invalid_argument_message([&] {
                  dec->decode_soft(c.K, llrs.data(), 1, { out.data(), app, q.data(), 8 });
              }),
              "decode_soft: soft values go to values (float) or to int8, not both");
    const std::string bad_scale = test::invalid_argument_message([&] {
        dec->decode_soft(c.K, llrs.data(), 1, { nullptr, app, q.data(), 0.0f });
    });
    EXPECT_EQ(bad_scale.rfind("int8_scale=0 is out of range", 0), 0u) << bad_scale;
    // collect(): a bad scale leaves the batch outstanding; a batch without soft output
    // has no values to give.
    const auto t = dec->submit(c.K, llrs.data(), 1, app);
    EXPECT_EQ(test::invalid_argument_message([&] {
                  dec->collect(
                      t, bits.data(), nullptr, core::bit_format::unpacked, q.data(), -1);
              }).rfind("int8_scale=-1 is out of range", 0),
              0u);
    dec->collect(t, bits.data(), nullptr, core::bit_format::unpacked, q.data(), 8);
    const auto tn = dec->submit(c.K, llrs.data(), 1);
    EXPECT_NE(test::invalid_argument_message([&] {
                  dec->collect(
                      tn, bits.data(), nullptr, core::bit_format::unpacked, q.data(), 8);
              }).find("without soft output"),
              std::string::npos);
    dec->collect(tn, bits.data(), nullptr);
}

INSTANTIATE_TEST_SUITE_P(AllBackends,
                         TurboSoftInt8,
                         ::testing::ValuesIn(test::all_backends),
                         test::backend_test_name);

TEST_P(ViterbiSoftInt8, ValuesAreTheFloatOnesQuantised)
{
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const auto mode : conv_test::frame_modes)
        for (const bool invert : { false, true }) {
            conv::viterbi_config c;
            c.mode = mode;
            c.invert_llr = invert;
            const auto dec = conv::make_viterbi_decoder(c, GetParam());
            if (!dec->gives_soft(core::soft_output::app))
                GTEST_SKIP() << "the " << GetParam() << " backend gives no soft output";
            const int frame_bits = 20 + int(rng() % 100);
            const std::size_t frames = 3;
            const auto bits = conv_test::random_bits(frames * frame_bits, bit_rng);
            auto llrs = conv_test::noisy_llrs(c, frame_bits, bits, 2.0, rng);
            if (invert)
                for (auto& l : llrs)
                    l = -l;
            const std::string what =
                std::string(conv::to_string(mode)) + (invert ? " inverted" : "");
            for (const auto kind :
                 { core::soft_output::app, core::soft_output::code_extrinsic })
                if (dec->gives_soft(kind)) {
                    expect_quantised(*dec, frame_bits, llrs, frames, kind, what);
                    expect_async_equals_sync(*dec, frame_bits, llrs, frames, kind, 3.0f);
                }
        }
}

// The one quantiser of int8 input and int8 soft output (branch-free, vectorised): its
// edge cases.
TEST(SoftInt8, QuantiserRoundsHalvesAwayFromZeroAndSaturates)
{
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> llrs = { 0.0f,     -0.0f,     0.06f,    0.0625f,
                                      -0.0625f, 0.1875f,   -0.1875f, 15.8125f,
                                      15.75f,   -15.9375f, 1e30f,    -1e30f,
                                      inf,      -inf,      nan,      -nan };
    const std::vector<std::int8_t> want = { 0,   0,    0,   1,    -1,  2,    -2, 127,
                                            126, -127, 127, -127, 127, -127, 0,  0 };
    std::vector<std::int8_t> q(llrs.size());
    core::quantize_llrs(llrs.data(), llrs.size(), q.data(), 8.0f);
    EXPECT_EQ(q, want);
    // Narrower formats saturate at +-(2^(bits-1) - 1).
    const std::vector<float> four = { 1.0f, -1.0f, 0.4375f, -0.4375f, 0.375f };
    q.resize(four.size());
    core::quantize_llrs(four.data(), four.size(), q.data(), 8.0f, 4);
    EXPECT_EQ(q, (std::vector<std::int8_t>{ 7, -7, 4, -4, 3 }));
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         ViterbiSoftInt8,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });
