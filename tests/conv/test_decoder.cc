/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi decoders: round trips over every preset, termination and puncturing,
// input handling, statuses, the error rate of the K=7 code, maximum likelihood against
// brute force, and bad configurations. Fixed seeds throughout.

#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/host_memory.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::conv;
using namespace gputurbo::conv_test;

namespace {

class ViterbiBackend : public backend_test
{
};

} // namespace

TEST_P(ViterbiBackend, NoiselessRoundTripEveryPresetTerminationPuncturing)
{
    std::mt19937 rng(3);
    for (const auto& name : preset_names())
        for (const termination mode : frame_modes) {
            viterbi_config c;
            c.generator = preset(name);
            c.mode = mode;
            const int memory = c.generator.constraint - 1;
            for (const puncturing& p : puncturings_of(c.generator)) {
                c.punctured = p;
                const auto dec = make_viterbi_decoder(c, GetParam());
                for (const int frame_bits : { 1, 2, memory, memory + 1, 13, 100 }) {
                    if (mode == termination::tail_biting && frame_bits < memory)
                        continue;
                    const auto bits = random_bits(3 * frame_bits, rng);
                    const auto llrs = noiseless_llrs(c, frame_bits, bits, rng);
                    ASSERT_EQ(llrs.size(), 3 * dec->input_length(frame_bits));
                    std::vector<std::uint8_t> out(bits.size());
                    std::vector<core::codeword_status> status(3);
                    dec->decode(frame_bits, llrs.data(), 3, out.data(), status.data());
                    const std::string what = name + " " + to_string(mode) + " " +
                                             pattern_text(p) +
                                             " frame_bits=" + std::to_string(frame_bits);
                    EXPECT_EQ(out, bits) << what;
                    for (const auto& s : status) {
                        EXPECT_TRUE(s.passed) << what;
                        EXPECT_EQ(s.iterations, 0) << what;
                    }
                }
            }
        }
}

TEST_P(ViterbiBackend, Int8LlrsAreTheirOwnMetrics)
{
    // Noisy frames of one segment: int8 LLRs decode exactly as the reference decodes
    // them (exact Viterbi; tail-biting frames are decoded by wrap-around, so there only
    // where they are noiseless), whatever their scale; -128 is read as -127.
    std::mt19937 rng(8);
    std::mt19937_64 noise(8);
    for (const termination mode : frame_modes) {
        viterbi_config c;
        c.mode = mode;
        c.int8_scale = 4.0f;
        const int frame_bits = 120, frames = 6;
        const auto bits = random_bits(frames * frame_bits, rng);
        const auto llrs = noisy_llrs(c, frame_bits, bits, 1.0, noise);
        std::vector<std::int8_t> q(llrs.size());
        core::quantize_llrs(llrs.data(), llrs.size(), q.data(), c.int8_scale);
        q[3] = -128;
        std::vector<std::int8_t> symmetric(q);
        symmetric[3] = -127;
        std::vector<std::uint8_t> want(bits.size()), out(bits.size());
        make_viterbi_decoder(c, "reference")
            ->decode(frame_bits, symmetric.data(), frames, want.data(), nullptr);
        for (const float scale : { 4.0f, 0.5f }) {
            c.int8_scale = scale;
            make_viterbi_decoder(c, GetParam())
                ->decode(frame_bits, q.data(), frames, out.data(), nullptr);
            if (mode != termination::tail_biting)
                EXPECT_EQ(out, want) << to_string(mode) << " scale " << scale;
        }

        std::mt19937 magnitudes(1);
        const auto clean = noiseless_llrs(c, frame_bits, bits, magnitudes);
        core::quantize_llrs(clean.data(), clean.size(), q.data(), c.int8_scale);
        make_viterbi_decoder(c, GetParam())
            ->decode(frame_bits, q.data(), frames, out.data(), nullptr);
        EXPECT_EQ(out, bits) << to_string(mode);
    }

    // The scale sets the magnitudes, so whether a frame carries information: q = +-1 is
    // L = +-0.25 at scale 4 and +-0.005 (below core::information_floor) at 200.
    viterbi_config c;
    const int frame_bits = 30;
    const auto bits = random_bits(frame_bits, rng);
    std::vector<std::int8_t> q;
    for (const auto s : sent_bits(c, frame_bits, bits))
        q.push_back(s ? -1 : 1);
    for (const float scale : { 4.0f, 200.0f }) {
        c.int8_scale = scale;
        std::vector<std::uint8_t> out(frame_bits);
        core::codeword_status status;
        make_viterbi_decoder(c, GetParam())
            ->decode(frame_bits, q.data(), 1, out.data(), &status);
        EXPECT_EQ(out, bits) << scale;
        EXPECT_EQ(status.passed, scale == 4.0f) << scale;
    }
}

TEST_P(ViterbiBackend, Int4InputEqualsInt8OfTheSameValues)
{
    // Rate 1/3 frames of an odd LLR count (so that frames start mid-byte), decode() and
    // submit(): int4 decodes bit for bit as int8 of the values it carries.
    std::mt19937 rng(9);
    std::mt19937_64 noise(9);
    viterbi_config c;
    c.generator = preset("lte");
    c.mode = termination::terminated;
    const int frame_bits = 97, frames = 9;
    ASSERT_EQ(punctured_length(c.generator, c.punctured, c.mode, frame_bits) % 2, 1u);
    const auto bits = random_bits(frames * frame_bits, rng);
    const auto llrs = noisy_llrs(c, frame_bits, bits, 1.5, noise);
    std::vector<std::int8_t> q(llrs.size());
    core::quantize_llrs(llrs.data(), llrs.size(), q.data(), 1.0f, 4);
    std::vector<core::int4_pair> packed(core::int4_bytes(q.size()));
    core::pack_int4(q.data(), q.size(), packed.data());
    const auto dec = make_viterbi_decoder(c, GetParam());
    std::vector<std::uint8_t> want(bits.size()), got(bits.size()), later(bits.size());
    std::vector<core::codeword_status> sw(frames), sg(frames);
    dec->decode(frame_bits, q.data(), frames, want.data(), sw.data());
    dec->decode(frame_bits, packed.data(), frames, got.data(), sg.data());
    dec->collect(dec->submit(frame_bits, packed.data(), frames), later.data(), nullptr);
    EXPECT_EQ(got, want);
    EXPECT_EQ(later, want);
    for (int f = 0; f < frames; ++f)
        EXPECT_EQ(sg[f].passed, sw[f].passed) << f;
    std::size_t errors = 0;
    for (std::size_t i = 0; i < bits.size(); ++i)
        errors += want[i] != bits[i];
    EXPECT_GT(errors, 0u); // noisy enough to tell decoders apart
    EXPECT_LT(errors, bits.size() / 10);
}

TEST_P(ViterbiBackend, InvertLlrTakesTheOtherSign)
{
    std::mt19937 rng(4);
    std::mt19937_64 noise(4);
    for (const termination mode : frame_modes) {
        viterbi_config c;
        c.mode = mode;
        c.punctured = parse_puncturing("3/4", c.generator);
        const int frame_bits = 90, frames = 5;
        const auto bits = random_bits(frames * frame_bits, rng);
        const auto llrs = awgn_llrs(sent_bits(c, frame_bits, bits), 0.8, noise);
        std::vector<float> negated(llrs.size());
        for (std::size_t i = 0; i < llrs.size(); ++i)
            negated[i] = -llrs[i];
        std::vector<std::uint8_t> plain(bits.size()), inverted(bits.size());
        make_viterbi_decoder(c, GetParam())
            ->decode(frame_bits, llrs.data(), frames, plain.data(), nullptr);
        c.invert_llr = true;
        make_viterbi_decoder(c, GetParam())
            ->decode(frame_bits, negated.data(), frames, inverted.data(), nullptr);
        EXPECT_EQ(inverted, plain) << to_string(mode);
    }
}

TEST_P(ViterbiBackend, ErasuresAndInfinitiesAreSanitised)
{
    // NaN and 0 are erasures, +-Inf is clamped: a noiseless frame with many of each
    // still decodes (a NaN or an Inf - Inf in a metric would not).
    std::mt19937 rng(6);
    for (const termination mode : frame_modes) {
        viterbi_config c;
        c.mode = mode;
        const int frame_bits = 200;
        const auto bits = random_bits(frame_bits, rng);
        auto llrs = noiseless_llrs(c, frame_bits, bits, rng);
        for (std::size_t i = 0; i < llrs.size(); ++i) {
            if (i % 7 == 3)
                llrs[i] = std::numeric_limits<float>::quiet_NaN();
            else if (i % 11 == 5)
                llrs[i] = 0.0f;
            else if (i % 2)
                llrs[i] = std::copysign(std::numeric_limits<float>::infinity(), llrs[i]);
        }
        std::vector<std::uint8_t> out(frame_bits);
        core::codeword_status status;
        make_viterbi_decoder(c, GetParam())
            ->decode(frame_bits, llrs.data(), 1, out.data(), &status);
        EXPECT_EQ(out, bits) << to_string(mode);
        EXPECT_TRUE(status.passed) << to_string(mode);
    }
}

TEST_P(ViterbiBackend, FramesWithoutInformationDoNotPassAndDecodeToZeros)
{
    // Zero, NaN and near-zero (mean |L| below core::information_floor) frames do not
    // pass; weak but real ones (mean |L| of 0.05) do. With every metric tied, the tie
    // rules decode zeros in every termination.
    const int frame_bits = 40;
    std::mt19937 rng(2);
    for (const termination mode : frame_modes) {
        viterbi_config c;
        c.mode = mode;
        c.punctured = parse_puncturing("2/3", c.generator);
        const auto dec = make_viterbi_decoder(c, GetParam());
        const std::size_t n = dec->input_length(frame_bits);
        const auto bits = random_bits(frame_bits, rng);
        std::vector<float> sign;
        for (const auto s : sent_bits(c, frame_bits, bits))
            sign.push_back(s ? -1.0f : 1.0f);
        std::vector<float> llrs(4 * n, 0.0f); // zero, NaN, 1e-3 x sign, 0.05 x sign
        std::fill_n(llrs.begin() + n, n, std::numeric_limits<float>::quiet_NaN());
        for (std::size_t i = 0; i < n; ++i) {
            llrs[2 * n + i] = 1e-3f * sign[i];
            llrs[3 * n + i] = 0.05f * sign[i];
        }
        std::vector<std::uint8_t> out(4 * frame_bits, 7);
        std::vector<core::codeword_status> status(4);
        dec->decode(frame_bits, llrs.data(), 4, out.data(), status.data());
        for (int f = 0; f < 4; ++f)
            EXPECT_EQ(status[f].passed, f == 3) << to_string(mode) << " frame " << f;
        for (int f = 0; f < 2; ++f)
            EXPECT_EQ(std::vector<std::uint8_t>(out.begin() + f * frame_bits,
                                                out.begin() + (f + 1) * frame_bits),
                      std::vector<std::uint8_t>(frame_bits, 0))
                << to_string(mode) << " frame " << f;
        EXPECT_EQ(std::vector<std::uint8_t>(out.begin() + 3 * frame_bits, out.end()),
                  bits)
            << to_string(mode);
    }
}

TEST_P(ViterbiBackend, TerminatedFramesThatDoNotEndInStateZeroDoNotPass)
{
    // A terminated frame's traceback starts in state 0, where the zero tail leaves the
    // encoder. Frames whose last K-1 bits are not that tail (a frame cut from the wrong
    // place in a stream, say) end in another state: they decode, but do not pass. Frame
    // 0 of each batch has the zero tail, frames 1 ... 3 another one; noiseless, every
    // preset and puncturing, frames of one segment and of several.
    std::mt19937 rng(12);
    for (const auto& name : preset_names()) {
        viterbi_config c;
        c.generator = preset(name);
        const int memory = c.generator.constraint - 1;
        for (const puncturing& p : puncturings_of(c.generator)) {
            c.punctured = p;
            const auto dec = make_viterbi_decoder(c, GetParam());
            for (const int frame_bits : { 30, 7000 }) {
                // Sent as truncated frames of frame_bits + memory bits, the last memory
                // of them the tail: frame f's is f in binary.
                viterbi_config sent = c;
                sent.mode = termination::truncated;
                const int length = frame_bits + memory;
                auto bits = random_bits(4 * std::size_t(length), rng);
                for (int f = 0; f < 4; ++f)
                    for (int i = 0; i < memory; ++i)
                        bits[std::size_t(f) * length + frame_bits + i] = (f >> i) & 1;
                const auto llrs = noiseless_llrs(sent, length, bits, rng);
                ASSERT_EQ(llrs.size(), 4 * dec->input_length(frame_bits));
                std::vector<std::uint8_t> out(4 * std::size_t(frame_bits));
                std::vector<core::codeword_status> status(4);
                dec->decode(frame_bits, llrs.data(), 4, out.data(), status.data());
                const std::string what = name + " " + pattern_text(p) +
                                         " frame_bits=" + std::to_string(frame_bits);
                for (int f = 0; f < 4; ++f)
                    EXPECT_EQ(status[f].passed, f == 0) << what << " frame " << f;
                EXPECT_TRUE(
                    std::equal(out.begin(), out.begin() + frame_bits, bits.begin()))
                    << what;
            }
        }
    }
}

TEST_P(ViterbiBackend, BatchCompositionAndThreadsDoNotChangeResults)
{
    std::mt19937 rng(9);
    std::mt19937_64 noise(9);
    for (const termination mode : frame_modes) {
        viterbi_config c;
        c.generator = preset("gsm");
        c.mode = mode;
        const int frame_bits = 50, frames = 9;
        const auto bits = random_bits(frames * frame_bits, rng);
        const auto llrs = awgn_llrs(sent_bits(c, frame_bits, bits), 1.1, noise);
        std::vector<std::vector<std::uint8_t>> outs;
        std::vector<std::vector<core::codeword_status>> statuses;
        for (const int threads : { 1, 3 }) {
            c.threads = threads;
            const auto dec = make_viterbi_decoder(c, GetParam());
            std::vector<std::uint8_t> out(bits.size());
            std::vector<core::codeword_status> status(frames);
            dec->decode(frame_bits, llrs.data(), frames, out.data(), status.data());
            outs.push_back(out);
            statuses.push_back(status);
            const std::size_t n = dec->input_length(frame_bits);
            for (int f = 0; f < frames; ++f)
                dec->decode(frame_bits,
                            llrs.data() + f * n,
                            1,
                            out.data() + f * frame_bits,
                            status.data() + f);
            outs.push_back(out);
            statuses.push_back(status);
        }
        for (std::size_t i = 1; i < outs.size(); ++i) {
            EXPECT_EQ(outs[i], outs[0]) << to_string(mode) << " run " << i;
            for (int f = 0; f < frames; ++f)
                EXPECT_EQ(statuses[i][f].passed, statuses[0][f].passed);
        }
    }
}

TEST_P(ViterbiBackend, LongFramesKeepFloatPrecision)
{
    // 20000 steps of saturated LLRs (+-1000) and then 20000 of weak ones (+-0.1): the
    // path metrics would reach 4e7, where float's step is 4 and the weak half's
    // differences vanish, but for the renormalisation that keeps them near 0.
    std::mt19937 rng(10);
    viterbi_config c;
    const int frame_bits = 40000;
    const auto bits = random_bits(frame_bits, rng);
    const auto sent = sent_bits(c, frame_bits, bits);
    std::vector<float> llrs(sent.size());
    for (std::size_t i = 0; i < sent.size(); ++i)
        llrs[i] = (sent[i] ? -1.0f : 1.0f) * (i < sent.size() / 2 ? 1000.0f : 0.1f);
    std::vector<std::uint8_t> out(frame_bits);
    make_viterbi_decoder(c, GetParam())
        ->decode(frame_bits, llrs.data(), 1, out.data(), nullptr);
    EXPECT_EQ(out, bits);
}

TEST_P(ViterbiBackend, PageLockedBuffersInAndPackedBitsOut)
{
    // The core's host_buffer (page-locked where CUDA can give it) holds int8 LLRs in
    // and packed bits out, through submit and collect, as for turbo.
    std::mt19937 rng(5);
    viterbi_config c;
    c.generator = preset("ccsds");
    c.punctured = parse_puncturing("2/3", c.generator);
    const int frame_bits = 333, frames = 40;
    const auto dec = make_viterbi_decoder(c, GetParam());
    const auto bits = random_bits(std::size_t(frame_bits) * frames, rng);
    const auto llrs = noiseless_llrs(c, frame_bits, bits, rng);
    core::host_buffer<std::int8_t> in(llrs.size());
    for (std::size_t i = 0; i < llrs.size(); ++i)
        in[i] = std::int8_t(llrs[i] > 0 ? 40 : -40);
    const std::size_t row = core::output_bytes(core::bit_format::packed, frame_bits);
    core::host_buffer<std::uint8_t> out(row * frames);
    const auto t = dec->submit(frame_bits, in.data(), frames);
    dec->collect(t, out.data(), nullptr, core::bit_format::packed);
    for (int f = 0; f < frames; ++f)
        for (int i = 0; i < frame_bits; ++i)
            ASSERT_EQ((out[f * row + i / 8] >> (7 - i % 8)) & 1,
                      bits[std::size_t(f) * frame_bits + i])
                << "frame " << f << " bit " << i;
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         ViterbiBackend,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return std::string(info.param); });

TEST(Viterbi, SimdDecoderAgainstTheReferenceOnNoisyFrames)
{
    // The SIMD decoder quantises each frame's LLRs to -127 ... 127 (cpu_decoder.h) and
    // decodes tail-biting frames by wrap-around, not exhaustively: its decisions may
    // differ from the reference's where paths nearly tie, rarely, and its frame error
    // count must be the reference's within statistical noise. Fresh noisy frames of every
    // preset and termination, unpunctured at 1.5 dB and at 3/4 at 3 dB: some frames
    // wrong.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    const int frame_bits = 200, frames = 64;
    std::size_t all_bits = 0, all_differ = 0, all_frame_errors = 0;
    for (const auto& name : preset_names())
        for (const termination mode : frame_modes)
            for (const puncturing& p : puncturings_of(preset(name))) {
                if (!(p.none() || p.period() == 3))
                    continue;
                viterbi_config c;
                c.generator = preset(name);
                c.mode = mode;
                c.punctured = p;
                const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
                const auto llrs =
                    noisy_llrs(c, frame_bits, bits, p.none() ? 1.5 : 3.0, rng);
                std::vector<std::uint8_t> ref(bits.size()), simd(bits.size());
                make_viterbi_decoder(c, "reference")
                    ->decode(frame_bits, llrs.data(), frames, ref.data(), nullptr);
                make_viterbi_decoder(c, "cpu")->decode(
                    frame_bits, llrs.data(), frames, simd.data(), nullptr);
                // Frames in error: bit errors come in bursts, frames independently.
                std::size_t ref_errors = 0, simd_errors = 0, differ = 0;
                for (int f = 0; f < frames; ++f) {
                    bool ref_wrong = false, simd_wrong = false;
                    for (int i = f * frame_bits; i < (f + 1) * frame_bits; ++i) {
                        ref_wrong = ref_wrong || ref[i] != bits[i];
                        simd_wrong = simd_wrong || simd[i] != bits[i];
                        differ += ref[i] != simd[i];
                    }
                    ref_errors += ref_wrong;
                    simd_errors += simd_wrong;
                }
                const std::string what =
                    name + " " + to_string(mode) + " " + pattern_text(p);
                EXPECT_LE(std::fabs(double(simd_errors) - double(ref_errors)),
                          3.0 * std::sqrt(double(ref_errors)) + 3.0)
                    << what << ": " << simd_errors << " against " << ref_errors;
                all_bits += bits.size();
                all_differ += differ;
                all_frame_errors += ref_errors;
            }
    std::printf(
        "SIMD and reference decisions differ in %zu of %zu bits; %zu frames wrong\n",
        all_differ,
        all_bits,
        all_frame_errors);
    EXPECT_LE(double(all_differ), 0.002 * double(all_bits));
    // Enough errors to compare: about 500 frames of 1920 (a strong code at 3/4 may
    // have none at some seeds).
    EXPECT_GT(all_frame_errors, 250u);
}

namespace {

// Fresh noisy frames decoded by the CPU and the CUDA decoders, from float and from int8
// LLRs: the bits and statuses must be equal. Adds the bits compared and the wrong ones.
void expect_cuda_decides_as_cpu(const viterbi_config& c,
                                int frame_bits,
                                int frames,
                                double ebn0_db,
                                std::mt19937_64& rng,
                                std::mt19937& bit_rng,
                                const std::string& name,
                                std::size_t& compared,
                                std::size_t& wrong)
{
    const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
    const auto llrs = noisy_llrs(c, frame_bits, bits, ebn0_db, rng);
    std::vector<std::int8_t> q(llrs.size());
    core::quantize_llrs(llrs.data(), q.size(), q.data(), c.int8_scale);
    const auto cpu = make_viterbi_decoder(c, "cpu");
    const auto gpu = make_viterbi_decoder(c, "cuda");
    for (const bool int8 : { false, true }) {
        std::vector<std::uint8_t> a(bits.size()), b(bits.size(), 7);
        std::vector<core::codeword_status> sa(frames), sb(frames);
        if (int8) {
            cpu->decode(frame_bits, q.data(), frames, a.data(), sa.data());
            gpu->decode(frame_bits, q.data(), frames, b.data(), sb.data());
        } else {
            cpu->decode(frame_bits, llrs.data(), frames, a.data(), sa.data());
            gpu->decode(frame_bits, llrs.data(), frames, b.data(), sb.data());
        }
        const std::string what = name + (int8 ? " int8" : " float");
        EXPECT_TRUE(b == a) << what;
        for (int f = 0; f < frames; ++f)
            EXPECT_EQ(sb[f].passed, sa[f].passed) << what << " frame " << f;
        for (std::size_t i = 0; i < a.size(); ++i)
            wrong += a[i] != bits[i];
        compared += a.size();
    }
}

} // namespace

TEST(Viterbi, CudaDecidesAsTheCpuBitForBit)
{
    // The CUDA decoder cuts frames into the CPU's segments, quantises them alike and
    // runs the same integer add-compare-select with the same ties: on fresh noisy frames
    // of every preset, termination and puncturing, float and int8, short frames (one
    // segment) and long ones (many), its bits and statuses are the CPU decoder's.
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    std::size_t compared = 0, wrong = 0;
    // The presets (kernels of their own), and codes that take the kernel of any code:
    // K = 3 … 8, rates 1/2 … 1/4, one without the symmetry of the presets (16 does not
    // tap the oldest bit) and inverted outputs.
    std::vector<code> codes;
    for (const auto& name : preset_names())
        codes.push_back(preset(name));
    for (const auto& [K, polys] :
         std::vector<std::pair<int, const char*>>{ { 3, "7,-5" },
                                                   { 4, "13,16" },
                                                   { 5, "25,27,33,37" },
                                                   { 6, "47,-53,75" },
                                                   { 8, "247,371" } })
        codes.push_back(parse_code(K, polys));
    for (const code& generator : codes)
        for (const termination mode : frame_modes)
            for (const puncturing& p : puncturings_of(generator))
                for (const bool long_frames : { false, true }) {
                    viterbi_config c;
                    c.generator = generator;
                    c.mode = mode;
                    c.punctured = p;
                    if (long_frames) // about ten segments a frame
                        c.geometry = { 60 * p.period(), 0, 0 };
                    // Odd segment counts; int8 LLRs in words (read by the decoding
                    // kernel) where unpunctured at rates 1/2 and 1/4 in long frames
                    // with K - 1 even.
                    const int frame_bits = long_frames ? 530 * p.period() : 97;
                    const int frames = long_frames ? 5 : 67;
                    expect_cuda_decides_as_cpu(c,
                                               frame_bits,
                                               frames,
                                               p.none() ? 1.0 : 2.5,
                                               rng,
                                               bit_rng,
                                               generator.text() + " " + to_string(mode) +
                                                   " " + pattern_text(p) +
                                                   (long_frames ? " long" : " short"),
                                               compared,
                                               wrong);
                }
    std::printf("CUDA and CPU decisions compared on %zu bits (%zu of them wrong)\n",
                compared,
                wrong);
    EXPECT_GT(wrong, compared / 1000); // noisy enough that decisions are close
}

TEST(Viterbi, CudaThreadsDecodingManyPairsEachDecideAsTheCpu)
{
    // A decoding thread runs its pairs of segments one after another in one region of
    // decision rows, writing each pair's rows over the previous pair's as it traces
    // them: a batch of 1.2 million short segments gives every thread several pairs on
    // any GPU (an odd count: the last pair has one segment). A code whose decisions of
    // a step are one word (K = 5), the K = 7 kernel (int8 read by it, float prepared),
    // and one whose metrics stay in memory and whose rows are two vectors (K = 8).
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const code& generator :
         { preset("802.11"), preset("gsm"), parse_code(8, "247,371") }) {
        viterbi_config c;
        c.generator = generator;
        c.geometry = { 32, 0, 0 }; // short segments: 129 a frame
        std::size_t compared = 0, wrong = 0;
        expect_cuda_decides_as_cpu(
            c, 4112, 9301, 1.5, rng, bit_rng, generator.text(), compared, wrong);
        EXPECT_GT(wrong, compared / 1000); // noisy enough that decisions are close
    }
}

// Several GPUs (or one GPU twice): the batch cut into shares decodes exactly as on one,
// float, int8 and int4 (which the several-GPU decoder unpacks on the host).
TEST(Viterbi, CudaSplittingABatchOverDevicesChangesNothing)
{
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937 rng(12);
    std::mt19937_64 noise(12);
    viterbi_config c;
    const int frame_bits = 700, frames = 45;
    const auto bits = random_bits(std::size_t(frame_bits) * frames, rng);
    const auto llrs = noisy_llrs(c, frame_bits, bits, 2.0, noise);
    std::vector<std::int8_t> q(llrs.size());
    core::quantize_llrs(llrs.data(), q.size(), q.data(), 1.0f, 4);
    std::vector<core::int4_pair> packed(core::int4_bytes(q.size()));
    core::pack_int4(q.data(), q.size(), packed.data());
    auto decode_all = [&](core::batch_decoder& dec) {
        std::vector<std::uint8_t> out(3 * bits.size());
        std::vector<core::codeword_status> status(3 * frames);
        dec.decode(frame_bits, llrs.data(), frames, out.data(), status.data());
        dec.decode(frame_bits,
                   q.data(),
                   frames,
                   out.data() + bits.size(),
                   status.data() + frames);
        dec.decode(frame_bits,
                   packed.data(),
                   frames,
                   out.data() + 2 * bits.size(),
                   status.data() + 2 * frames);
        std::vector<std::uint8_t> passed;
        for (const auto& s : status)
            passed.push_back(s.passed);
        return std::make_pair(out, passed);
    };
    const auto one = decode_all(*make_viterbi_decoder(c, "cuda"));
    for (const char* devices : { "0,0", "all" }) {
        c.devices = devices;
        const auto dec = make_viterbi_decoder(c, "cuda");
        const auto many = decode_all(*dec);
        EXPECT_EQ(many.first, one.first) << devices << ": " << dec->device();
        EXPECT_EQ(many.second, one.second) << devices;
    }
}

// A batch bigger than the GPU's memory is refused with a clear error before its input
// is read, and the decoder goes on working.
TEST(Viterbi, CudaBatchTooBigForTheGpuIsAClearErrorAndHarmless)
{
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    viterbi_config c;
    c.generator = preset("ccsds");
    const int frame_bits = 65536, frames = 3;
    const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
    const auto llrs = noisy_llrs(c, frame_bits, bits, 2.0, rng);
    const auto dec = make_viterbi_decoder(c, "cuda");
    std::vector<std::uint8_t> want(bits.size()), again(bits.size(), 7);
    dec->decode(frame_bits, llrs.data(), frames, want.data(), nullptr);
    // 50 million frames need 26 TB of LLRs alone; only the first 3 exist.
    try {
        dec->submit(frame_bits, llrs.data(), 50'000'000);
        ADD_FAILURE() << "an impossible batch was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("needs more memory"), std::string::npos)
            << e.what();
    }
    dec->decode(frame_bits, llrs.data(), frames, again.data(), nullptr);
    EXPECT_EQ(again, want);
    const auto t = dec->submit(frame_bits, llrs.data(), frames);
    std::fill(again.begin(), again.end(), 7);
    dec->collect(t, again.data(), nullptr);
    EXPECT_EQ(again, want);
}

TEST(Viterbi, EveryInstructionSetDecodesAlike)
{
    // The SIMD kernels differ only in how many frames share a group and how wide their
    // vectors are, and each lane decodes alone: every instruction set this CPU runs
    // gives the same bits and statuses. Codes whose butterflies are symmetric (every
    // preset's) and one whose are not, float LLRs with erasures, infinities and zeros of
    // either sign, int8 LLRs, either sign convention; frames whose LLRs fill no whole
    // number of vectors, and groups with a remainder.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    const int frame_bits = 120, frames = 70; // groups of 8, 16 and 32 with a remainder
    const code_case codes[] = { { preset("ccsds"), "2/3" },
                                { preset("cdma-r3"), "" },
                                { parse_code(5, "23,12"), "" } }; // 12: no end tap
    for (const code_case& cc : codes)
        for (const termination mode : frame_modes)
            for (const bool invert : { false, true }) {
                const viterbi_config c = cc.config(mode, invert);
                const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
                auto llrs = noisy_llrs(c, frame_bits, bits, 2.5, rng);
                add_special_values(llrs, invert);
                std::vector<std::int8_t> q(llrs.size());
                core::quantize_llrs(llrs.data(), llrs.size(), q.data(), c.int8_scale);
                std::vector<std::uint8_t> first[2];
                std::vector<bool> first_passed[2];
                for_each_cpu_kernel(
                    c,
                    [&](core::batch_decoder& dec) {
                        for (const int int8 : { 0, 1 }) {
                            std::vector<std::uint8_t> out(bits.size());
                            std::vector<core::codeword_status> status(frames);
                            if (int8)
                                dec.decode(frame_bits,
                                           q.data(),
                                           frames,
                                           out.data(),
                                           status.data());
                            else
                                dec.decode(frame_bits,
                                           llrs.data(),
                                           frames,
                                           out.data(),
                                           status.data());
                            std::vector<bool> passed;
                            for (const auto& st : status)
                                passed.push_back(st.passed);
                            if (first[int8].empty()) {
                                first[int8] = out;
                                first_passed[int8] = passed;
                            }
                            EXPECT_EQ(out, first[int8])
                                << dec.device() << " " << cc.generator.text() << " "
                                << to_string(mode) << (invert ? " inverted" : "")
                                << (int8 ? " int8" : " float");
                            EXPECT_EQ(passed, first_passed[int8]) << dec.device();
                        }
                    },
                    true);
            }
}

TEST(Viterbi, BitErrorRateOfTheK7Code)
{
    // The K=7 r1/2 code (133,171), terminated frames of 1000 bits, unquantised soft
    // decisions; Eb/N0 counts the tail (R = 1000/2012). The union bound over the code's
    // distance spectrum, 36 Q(sqrt(20 R Eb/N0)) + 211 Q(sqrt(24 R Eb/N0)) + ..., is
    // 1.9e-5 at 4 dB (tight there) and 3e-6 at 4.5 dB; at 3 dB it is loose (7e-4 from
    // its first nine terms). Published simulations of this code reach 1e-5 near 4.2 ...
    // 4.4 dB. Measured at this seed: 3 dB 3.32e-4 (166 errors in 5e5 bits), 4 dB
    // 1.75e-5 (35 in 2e6); longer runs of this decoder: 3.70e-4 (4e6 bits), 1.83e-5
    // (1e7) and 3.1e-6 at 4.5 dB (1e7). The bounds, about a factor 2 either way at 3 dB
    // (the BER changes 4x per 0.5 dB there), catch a decoder a quarter of a dB worse, or
    // half a dB better (one that sees the sent bits).
    viterbi_config c;
    c.generator = preset("802.11");
    const int frame_bits = 1000;
    const auto dec = make_viterbi_decoder(c, "reference");
    std::mt19937 rng(2026);
    std::mt19937_64 noise(2026);
    struct point
    {
        double ebn0_db;
        int frames;
        double least, most;
    };
    for (const point p :
         { point{ 3.0, 500, 1.5e-4, 7e-4 }, point{ 4.0, 2000, 5e-6, 6e-5 } }) {
        const auto bits = random_bits(std::size_t(p.frames) * frame_bits, rng);
        const auto llrs = noisy_llrs(c, frame_bits, bits, p.ebn0_db, noise);
        std::vector<std::uint8_t> out(bits.size());
        dec->decode(frame_bits, llrs.data(), p.frames, out.data(), nullptr);
        std::size_t errors = 0;
        for (std::size_t i = 0; i < bits.size(); ++i)
            errors += out[i] != bits[i];
        const double ber = double(errors) / double(bits.size());
        std::printf("  Eb/N0 %.1f dB: BER %.3g (%zu errors in %zu bits)\n",
                    p.ebn0_db,
                    ber,
                    errors,
                    bits.size());
        EXPECT_GE(ber, p.least) << p.ebn0_db << " dB";
        EXPECT_LE(ber, p.most) << p.ebn0_db << " dB";
    }
}

TEST(Viterbi, MaximumLikelihoodAgainstEveryCodeword)
{
    // Tiny frames under heavy noise: the decision's correlation with the received LLRs
    // is the largest over every information word's codeword (ties allowed), in every
    // termination; tail-biting is the case that needs every start state.
    struct setup
    {
        int constraint;
        const char* polynomials;
        const char* pattern;
    };
    const setup setups[] = { { 3, "7,5", "none" },
                             { 5, "23,33", "none" },
                             { 5, "23,33", "111,100" },
                             { 4, "13,15,17", "none" } };
    std::mt19937 rng(12);
    std::mt19937_64 noise(12);
    int wrong = 0; // frames decoded to another word than sent: the noise mattered
    for (const setup& s : setups)
        for (const termination mode : frame_modes)
            for (int frame_bits = 6; frame_bits <= 8; ++frame_bits) {
                viterbi_config c;
                c.generator = parse_code(s.constraint, s.polynomials);
                c.punctured = parse_puncturing(s.pattern, c.generator);
                c.mode = mode;
                const auto dec = make_viterbi_decoder(c, "reference");
                // Every information word and its sent bits.
                std::vector<std::uint8_t> words;
                for (unsigned w = 0; w < (1u << frame_bits); ++w)
                    for (int i = 0; i < frame_bits; ++i)
                        words.push_back(w >> i & 1);
                const auto codewords = sent_bits(c, frame_bits, words);
                const std::size_t n = dec->input_length(frame_bits);
                auto correlation = [&](const std::uint8_t* sent, const float* llrs) {
                    double sum = 0.0;
                    for (std::size_t i = 0; i < n; ++i)
                        sum += sent[i] ? -llrs[i] : llrs[i];
                    return sum;
                };
                for (int trial = 0; trial < 20; ++trial) {
                    const auto bits = random_bits(frame_bits, rng);
                    const auto llrs =
                        awgn_llrs(sent_bits(c, frame_bits, bits), 1.0, noise);
                    std::vector<std::uint8_t> out(frame_bits);
                    dec->decode(frame_bits, llrs.data(), 1, out.data(), nullptr);
                    double best = -1e30;
                    for (unsigned w = 0; w < (1u << frame_bits); ++w)
                        best = std::max(
                            best, correlation(codewords.data() + w * n, llrs.data()));
                    const double got =
                        correlation(sent_bits(c, frame_bits, out).data(), llrs.data());
                    EXPECT_NEAR(got, best, 1e-4 * std::max(1.0, std::fabs(best)))
                        << c.generator.text() << " " << s.pattern << " "
                        << to_string(mode) << " frame_bits=" << frame_bits;
                    wrong += out != bits;
                }
            }
    EXPECT_GT(wrong, 50);
}

TEST(Viterbi, BadConfigurationsHaveClearErrors)
{
    auto make = [](const viterbi_config& c, const std::string& backend = "reference") {
        return message_of([&] { make_viterbi_decoder(c, backend); });
    };
    auto contains = [](const std::string& text, const char* part) {
        return text.find(part) != std::string::npos;
    };
    viterbi_config c;
    c.generator.constraint = 10;
    EXPECT_TRUE(contains(make(c), "K=10 is out of range")) << make(c);
    c = {};
    c.generator.polynomials = { 0133, 0 };
    EXPECT_TRUE(contains(make(c), "polynomial 0")) << make(c);
    c.generator.polynomials = { 0133, 0371 };
    EXPECT_TRUE(contains(make(c), "wider than K=7")) << make(c);
    c.generator.polynomials = { 0133 };
    c.generator.inverted = { false };
    EXPECT_TRUE(contains(make(c), "1 polynomial(s)")) << make(c);

    c = {};
    c.punctured.keep = { { 1, 1 }, { 1, 0 }, { 0, 1 } };
    EXPECT_TRUE(contains(make(c), "3 patterns for a code of 2 outputs")) << make(c);
    c.punctured.keep = { { 1, 1 }, { 1 } };
    EXPECT_TRUE(contains(make(c), "unequal lengths")) << make(c);
    c.punctured.keep = { { 1, 2 }, { 1, 1 } };
    EXPECT_TRUE(contains(make(c), "0 or 1, not 2")) << make(c);
    c.punctured.keep = { { 0, 0 }, { 0, 0 } };
    EXPECT_TRUE(contains(make(c), "keeps no coded bit")) << make(c);
    EXPECT_THROW(parse_puncturing("3/4", preset("gsm")), std::invalid_argument);
    EXPECT_THROW(parse_puncturing("11,1x", preset("gsm")), std::invalid_argument);

    c = {};
    c.int8_scale = 0.0f;
    EXPECT_TRUE(contains(make(c), "int8_scale=0 is out of range")) << make(c);
    c.int8_scale = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(contains(make(c), "int8_scale")) << make(c);
    c = {};
    c.threads = 4097;
    EXPECT_TRUE(contains(make(c), "threads=4097 is out of range")) << make(c);
    c.threads = -1;
    EXPECT_TRUE(contains(make(c), "threads=-1 is out of range")) << make(c);

    c = {};
    c.mode = termination::streaming;
    EXPECT_EQ(make(c),
              "termination streaming decodes a continuous stream, not frames: use "
              "make_stream_decoder()");
    c = {};
    c.geometry.depth = -1;
    EXPECT_TRUE(contains(make(c), "decision_depth D=-1 is out of range")) << make(c);
    c.geometry.depth = 0;
    c.geometry.training = 65537;
    EXPECT_TRUE(contains(make(c), "training_depth=65537 is out of range")) << make(c);
    c.geometry.training = 0;
    c.geometry.bits = -5;
    EXPECT_TRUE(contains(make(c), "segment_bits=-5 is out of range")) << make(c);
    c = {};
    EXPECT_TRUE(contains(make(c, "gpu"), "unknown backend 'gpu'")) << make(c, "gpu");
    if (have_cuda())
        EXPECT_EQ(make_viterbi_decoder(c, "cuda")->backend(), "cuda");
    else
        EXPECT_THROW(
            try { make_viterbi_decoder(c, "cuda"); } catch (const std::runtime_error& e) {
                EXPECT_TRUE(contains(e.what(), "backend 'cuda' is not available"))
                    << e.what();
                throw;
            },
            std::runtime_error);
    EXPECT_EQ(make_viterbi_decoder(c, "reference")->backend(), "reference");
    EXPECT_EQ(make_viterbi_decoder(c, "auto")->backend(), have_cuda() ? "cuda" : "cpu");
    c.devices = "0,,1";
    EXPECT_TRUE(contains(make(c), "devices='0,,1' is invalid")) << make(c);
    c = {};

    // Frame sizes: at least one bit, and a tail-biting frame no shorter than its state.
    const auto dec = make_viterbi_decoder(c, "reference");
    EXPECT_TRUE(contains(message_of([&] { dec->check_block(0); }),
                         "frame_bits=0 is out of range"));
    EXPECT_NO_THROW(dec->check_block(1));
    c.mode = termination::tail_biting;
    const auto tail_biting = make_viterbi_decoder(c, "reference");
    const std::string short_frame = message_of([&] { tail_biting->check_block(5); });
    EXPECT_TRUE(contains(short_frame,
                         "frame_bits=5 is shorter than the tail-biting "
                         "state of K-1=6 bits"))
        << short_frame;
    EXPECT_NO_THROW(tail_biting->check_block(6));
    std::vector<float> llrs(100, 1.0f);
    std::vector<std::uint8_t> out(100);
    EXPECT_THROW(tail_biting->decode(5, llrs.data(), 1, out.data(), nullptr),
                 std::invalid_argument);
    EXPECT_EQ(tail_biting->input_length(6), 12u);
    c.mode = termination::terminated;
    c.punctured = parse_puncturing("3/4", c.generator);
    EXPECT_EQ(make_viterbi_decoder(c, "reference")->input_length(10), 22u); // 16 steps
}
