/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The fast BCJR (conv/fast_bcjr.h): the cpu and cuda backends' max-log soft output.
// On metrics that quantise exactly (int8 LLRs at int8_scale 1) and frames of one
// segment its values are the float max-log reference's, bit for bit; on any input its
// signs are the decoder's own Viterbi decisions (a value of 0 is a tie); the CPU's
// instruction sets and the GPU give the same values bit for bit; what it cannot give
// goes to the reference or is refused. Fresh random inputs (seed printed).

#include "conv/bcjr.h"
#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::conv;
using namespace gputurbo::conv_test;

namespace {

class FastBcjr : public backend_test
{
};

std::vector<float> soft_of(core::batch_decoder& dec,
                           int frame_bits,
                           const void* llrs,
                           bool int8,
                           std::size_t frames,
                           std::vector<std::uint8_t>* bits = nullptr)
{
    std::vector<float> values(frames * frame_bits);
    const core::soft_values out{ values.data(), core::soft_output::app };
    std::uint8_t* b = bits ? (bits->resize(values.size()), bits->data()) : nullptr;
    if (int8)
        dec.decode_soft(
            frame_bits, static_cast<const std::int8_t*>(llrs), frames, out, b);
    else
        dec.decode_soft(frame_bits, static_cast<const float*>(llrs), frames, out, b);
    return values;
}

} // namespace

TEST_P(FastBcjr, EqualsTheMaxLogReferenceWhereMetricsAreExact)
{
    // int8 LLRs at int8_scale 1 are the metrics themselves: the int16 arithmetic is then
    // the float max-log's on the same numbers, and a frame of one segment is the whole
    // BCJR. Terminated and truncated (tail-biting frames run round with overlaps: not
    // the exact wrap-around), presets and others, punctured, both signs.
    std::mt19937_64 rng(test::test_seed());
    const code_case codes[] = {
        { preset("ccsds"), "none" },       { preset("802.11"), "3/4" },
        { preset("lte"), "none" },         { preset("gsm"), "none" },
        { preset("cdma-r3"), "none" },     { parse_code(4, "15,17,13,11"), "none" },
        { parse_code(5, "23,12"), "none" }
    };
    for (const code_case& cc : codes)
        for (const termination mode : { termination::terminated, termination::truncated })
            for (const bool invert : { false, true }) {
                viterbi_config c = cc.config(mode, invert);
                c.int8_scale = 1.0f;
                const int frame_bits = 1 + int(rng() % 400);
                const std::size_t frames = 1 + rng() % 40;
                const auto dec = make_viterbi_decoder(c, GetParam());
                const std::size_t sent = dec->input_length(frame_bits);
                std::vector<std::int8_t> q(frames * sent);
                for (auto& x : q) // small values make ties, large ones saturate
                    x = std::int8_t(int(rng() % 255) - 127) / (rng() % 2 ? 1 : 16);
                const auto values = soft_of(*dec, frame_bits, q.data(), true, frames);
                const std::string what = cc.generator.text() + " " + cc.puncturing + " " +
                                         to_string(mode) + (invert ? " inverted" : "") +
                                         " frame_bits=" + std::to_string(frame_bits);
                std::vector<float> received(sent);
                std::vector<float> llrs(coded_length(c.generator, mode, frame_bits));
                for (std::size_t f = 0; f < frames; ++f) {
                    for (std::size_t i = 0; i < sent; ++i)
                        received[i] = invert ? -q[f * sent + i] : q[f * sent + i];
                    depuncture(c.generator,
                               c.punctured,
                               mode,
                               frame_bits,
                               received.data(),
                               1,
                               llrs.data());
                    const soft_frame app = bcjr(c.generator,
                                                mode,
                                                frame_bits,
                                                llrs.data(),
                                                soft_algorithm::max_log);
                    for (int k = 0; k < frame_bits; ++k) {
                        const float want =
                            std::clamp(app.info[k], -core::llr_limit, core::llr_limit);
                        ASSERT_EQ(values[f * frame_bits + k], invert ? -want : want)
                            << what << " frame " << f << " bit " << k;
                    }
                }
            }
}

TEST_P(FastBcjr, SignsAreTheViterbiDecisions)
{
    // Noisy float LLRs, long frames cut into segments (a small geometry), every
    // termination, punctured: where a value is not 0 its sign is decode()'s bit, and
    // decode_soft()'s bits are decode()'s.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    std::size_t compared = 0, ties = 0;
    for (const termination mode : frame_modes)
        for (const char* pattern : { "none", "2/3" }) {
            viterbi_config c;
            c.generator = preset("ccsds");
            c.mode = mode;
            c.punctured = parse_puncturing(pattern, c.generator);
            c.geometry.depth = 24;
            c.geometry.training = 20;
            c.geometry.bits = 100;
            const int frame_bits = 50 + int(rng() % 700);
            const std::size_t frames = 1 + rng() % 20;
            const auto bits = random_bits(frames * frame_bits, bit_rng);
            const auto llrs =
                noisy_llrs(c, frame_bits, bits, 1.0 + 0.5 * (rng() % 4), rng);
            const auto dec = make_viterbi_decoder(c, GetParam());
            std::vector<std::uint8_t> hard(bits.size()), soft_bits;
            dec->decode(frame_bits, llrs.data(), frames, hard.data(), nullptr);
            const auto values =
                soft_of(*dec, frame_bits, llrs.data(), false, frames, &soft_bits);
            const std::string what = std::string(to_string(mode)) + " " + pattern +
                                     " frame_bits=" + std::to_string(frame_bits);
            ASSERT_EQ(soft_bits, hard) << what;
            for (std::size_t i = 0; i < values.size(); ++i) {
                ties += values[i] == 0.0f;
                if (values[i] != 0.0f)
                    ASSERT_EQ(values[i] < 0.0f, hard[i] == 1) << what << " bit " << i;
            }
            compared += values.size();
        }
    std::printf("signs against the decisions: %zu bits, %zu ties\n", compared, ties);
}

TEST_P(FastBcjr, BitsAndStatusesAreDecodesOnEveryCodeWithTies)
{
    // decode_soft()'s bits and statuses are decode()'s (on CUDA the BCJR traces the
    // Viterbi's paths itself), where ties abound too: codes of every kernel form
    // (symmetric presets, any code, K = 9, four outputs, punctured), every termination,
    // one segment and several, float and int8 frames of noisy codewords and of noise
    // (whose terminated frames miss their end state: they fail).
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    const code_case codes[] = {
        { preset("ccsds"), "3/4" },         { preset("lte"), "none" },
        { preset("gsm"), "none" },          { preset("cdma-r2"), "none" },
        { parse_code(5, "23,12"), "none" }, { parse_code(4, "15,17,13,11"), "none" }
    };
    std::size_t compared = 0, ties = 0, failed = 0;
    for (const code_case& cc : codes)
        for (const termination mode : frame_modes)
            for (const bool segmented : { false, true }) {
                viterbi_config c = cc.config(mode, rng() % 2);
                if (segmented) {
                    c.geometry.depth = 26;
                    c.geometry.training = 22;
                    c.geometry.bits = 90;
                }
                const int frame_bits = 10 + int(rng() % 500);
                const std::size_t frames = 2 + rng() % 30;
                const auto bits = random_bits(frames * frame_bits, bit_rng);
                auto llrs = noisy_llrs(c, frame_bits, bits, 0.5 + 0.5 * (rng() % 4), rng);
                const std::size_t sent = llrs.size() / frames;
                for (std::size_t i = 0; i < sent; ++i) // frame 0: noise
                    llrs[i] = float(int(rng() % 9) - 4);
                std::vector<std::int8_t> q(llrs.size());
                core::quantize_llrs(llrs.data(), llrs.size(), q.data(), 1.0f);
                const auto dec = make_viterbi_decoder(c, GetParam());
                for (const bool int8 : { false, true }) {
                    std::vector<std::uint8_t> hard(bits.size()), soft_bits(bits.size());
                    std::vector<core::codeword_status> hard_status(frames),
                        soft_status(frames);
                    std::vector<float> values(bits.size());
                    const core::soft_values out{ values.data(), core::soft_output::app };
                    auto decode_both = [&](const auto* in) { // float or int8
                        dec->decode(
                            frame_bits, in, frames, hard.data(), hard_status.data());
                        dec->decode_soft(frame_bits,
                                         in,
                                         frames,
                                         out,
                                         soft_bits.data(),
                                         soft_status.data());
                    };
                    if (int8)
                        decode_both(q.data());
                    else
                        decode_both(llrs.data());
                    const std::string what = cc.generator.text() + " " + cc.puncturing +
                                             " " + to_string(mode) +
                                             (segmented ? " segmented" : "") +
                                             (int8 ? " int8" : " float") +
                                             " frame_bits=" + std::to_string(frame_bits);
                    ASSERT_EQ(soft_bits, hard) << what;
                    for (std::size_t f = 0; f < frames; ++f) {
                        ASSERT_EQ(soft_status[f].passed, hard_status[f].passed)
                            << what << " frame " << f;
                        failed += !hard_status[f].passed;
                    }
                    for (std::size_t i = 0; i < values.size(); ++i) {
                        ties += values[i] == 0.0f;
                        if (values[i] != 0.0f)
                            ASSERT_EQ(values[i] < 0.0f != c.invert_llr, hard[i] == 1)
                                << what << " bit " << i;
                    }
                    compared += values.size();
                }
            }
    std::printf("bits against decode(): %zu bits, %zu ties, %zu frames failed\n",
                compared,
                ties,
                failed);
    EXPECT_GT(ties, compared / 1000);
    EXPECT_GT(failed, 0u);
}

TEST(FastBcjrBackends, InstructionSetsAndTheGpuAgreeBitForBit)
{
    // The same values from every CPU kernel (generic, AVX2, AVX-512) and, where there is
    // one, the GPU: float and int8 input, long frames in segments, every termination.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    const code_case codes[] = { { preset("ccsds"), "3/4" },
                                { preset("lte"), "none" },
                                { preset("cdma-r2"), "none" },
                                { parse_code(5, "23,12"), "none" } };
    for (const code_case& cc : codes)
        for (const termination mode : frame_modes)
            for (const bool int8 : { false, true }) {
                viterbi_config c = cc.config(mode, rng() % 2);
                c.geometry.depth = 30;
                c.geometry.training = 28;
                c.geometry.bits = 150;
                const int frame_bits = 20 + int(rng() % 600);
                const std::size_t frames = 1 + rng() % 33;
                const auto bits = random_bits(frames * frame_bits, bit_rng);
                auto llrs = noisy_llrs(c, frame_bits, bits, 2.0, rng);
                add_special_values(llrs, c.invert_llr);
                std::vector<std::int8_t> q(llrs.size());
                core::quantize_llrs(llrs.data(), llrs.size(), q.data(), c.int8_scale);
                const void* in = int8 ? static_cast<const void*>(q.data()) : llrs.data();
                std::vector<float> first;
                std::string first_device;
                auto check = [&](core::batch_decoder& dec) {
                    const auto values = soft_of(dec, frame_bits, in, int8, frames);
                    if (first.empty()) {
                        first = values;
                        first_device = dec.device();
                    }
                    ASSERT_EQ(values, first)
                        << dec.device() << " against " << first_device << ": "
                        << cc.generator.text() << " " << to_string(mode)
                        << (int8 ? " int8" : " float");
                };
                for_each_cpu_kernel(c, check);
                if (have_cuda())
                    check(*make_viterbi_decoder(c, "cuda"));
            }
    if (!have_cuda())
        std::printf(
            "backend 'cuda' is not available on this machine: CPU kernels only\n");
}

TEST_P(FastBcjr, WhatItCannotGiveGoesToTheReferenceOrIsRefused)
{
    // log-MAP and codes whose metrics do not fit in int16 (K >= 8 with four outputs):
    // the cpu backend gives the reference's values; cuda refuses, naming what it gives.
    std::mt19937_64 rng(test::test_seed());
    for (const bool wide : { false, true }) {
        viterbi_config c;
        if (wide)
            c.generator = parse_code(9, "753,561,557,663");
        else
            c.soft_algorithm = soft_algorithm::log_map;
        const int frame_bits = 40;
        std::vector<float> llrs(make_viterbi_decoder(c, "reference")->input_length(40));
        for (auto& v : llrs)
            v = float(int(rng() % 17) - 8);
        const auto want = soft_of(
            *make_viterbi_decoder(c, "reference"), frame_bits, llrs.data(), false, 1);
        const auto dec = make_viterbi_decoder(c, GetParam());
        if (GetParam() == "cuda") {
            EXPECT_FALSE(dec->gives_soft(core::soft_output::app));
            EXPECT_EQ(
                message_of([&] { soft_of(*dec, frame_bits, llrs.data(), false, 1); }),
                "output=llr is not given by this decoder (cuda backend): use bits");
        } else {
            EXPECT_EQ(soft_of(*dec, frame_bits, llrs.data(), false, 1), want)
                << (wide ? "K = 9, four outputs" : "log-map");
        }
    }
}

TEST_P(FastBcjr, FramesThatFailDoNotPassWithSoftOutput)
{
    // decode_soft()'s status is decode()'s where frames are wrong: a terminated frame
    // whose last K-1 bits are not the zero tail (cut from the wrong place of a stream),
    // and frames without information (zeros, NaN), do not pass; the one sent right
    // does. Noiseless, frames of one segment and of several.
    std::mt19937 rng(13);
    viterbi_config c;
    c.generator = preset("ccsds");
    const int memory = c.generator.constraint - 1;
    const auto dec = make_viterbi_decoder(c, GetParam());
    for (const int frame_bits : { 30, 7000 }) {
        // Sent as truncated frames of frame_bits + memory bits: frame 0 with the zero
        // tail, frame 1 with another; frames 2 and 3 zeros and NaN.
        viterbi_config sent = c;
        sent.mode = termination::truncated;
        const int length = frame_bits + memory;
        auto bits = random_bits(2 * std::size_t(length), rng);
        for (int i = 0; i < memory; ++i) {
            bits[std::size_t(frame_bits) + i] = 0;
            bits[std::size_t(length) + frame_bits + i] = i == 0;
        }
        auto llrs = noiseless_llrs(sent, length, bits, rng);
        const std::size_t n = dec->input_length(frame_bits);
        ASSERT_EQ(llrs.size(), 2 * n);
        llrs.resize(3 * n, 0.0f);
        llrs.resize(4 * n, std::numeric_limits<float>::quiet_NaN());
        std::vector<float> values(4 * std::size_t(frame_bits));
        std::vector<std::uint8_t> out(values.size());
        std::vector<core::codeword_status> status(4);
        dec->decode_soft(frame_bits,
                         llrs.data(),
                         4,
                         { values.data(), core::soft_output::app },
                         out.data(),
                         status.data());
        for (int f = 0; f < 4; ++f)
            EXPECT_EQ(status[f].passed, f == 0)
                << "frame_bits=" << frame_bits << " frame " << f;
        EXPECT_TRUE(std::equal(out.begin(), out.begin() + frame_bits, bits.begin()));
    }
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         FastBcjr,
                         ::testing::Values("cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });
