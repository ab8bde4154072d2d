/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The single decoders (one frame, or one stream a frame at a time, the states in SIMD
// lanes) against the reference decoder, on every instruction set this CPU runs.

#include "../../lib/engine/conv/cpu/single_decoder.h"
#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace gputurbo::conv_test {
namespace {

using conv::cpu::single_frame_decoder;
using conv::cpu::single_stream_decoder;
using conv::cpu::state_kernel;
using core::cpu::isa;

// The state kernels this CPU runs.
std::vector<const state_kernel*> kernels()
{
    std::vector<const state_kernel*> all;
    for (const isa i : { isa::generic, isa::avx2, isa::avx512 })
        if (core::cpu::supported(i))
            all.push_back(&conv::cpu::state_kernel_for(i));
    return all;
}

// Codes of every K and rate: the presets (symmetric butterflies) and random generators
// (mostly not), none catastrophic.
std::vector<code> codes_of_every_shape(std::mt19937_64& rng)
{
    std::vector<code> all;
    for (const auto& name : preset_names())
        all.push_back(preset(name));
    for (int K = min_constraint; K <= max_constraint; ++K)
        for (int n = min_outputs; n <= max_outputs; ++n) {
            code c;
            c.constraint = K;
            do {
                c.polynomials.clear();
                c.inverted.clear();
                for (int o = 0; o < n; ++o) {
                    c.polynomials.push_back(1u + unsigned(rng() % ((1u << K) - 1)));
                    c.inverted.push_back(rng() % 4 == 0);
                }
            } while (catastrophic(c, puncturing{}));
            all.push_back(c);
        }
    return all;
}

// The puncturings of the round trip, and a random pattern of period 3 where it leaves
// the code usable.
std::vector<puncturing> some_puncturings(const code& c, std::mt19937_64& rng)
{
    std::vector<puncturing> all = puncturings_of(c);
    puncturing p;
    for (int o = 0; o < c.outputs(); ++o) {
        p.keep.push_back({ 1, std::uint8_t(rng() % 2), std::uint8_t(rng() % 2) });
        if (rng() % 2)
            std::swap(p.keep.back()[0], p.keep.back()[1]);
    }
    if (!catastrophic(c, p))
        all.push_back(p);
    return all;
}

// Integer metrics of noisy coded bits: the sign of the bit, magnitudes 0 ... spread,
// signs wrong now and then; small spreads make ties, which both decoders must break
// alike.
std::vector<std::int16_t>
integer_metrics(const std::vector<std::uint8_t>& coded, int spread, std::mt19937_64& rng)
{
    std::vector<std::int16_t> m(coded.size());
    for (std::size_t i = 0; i < m.size(); ++i) {
        const int magnitude = int(rng() % unsigned(spread + 1));
        const bool wrong = rng() % 5 == 0;
        m[i] = std::int16_t(coded[i] != wrong ? -magnitude : magnitude);
    }
    return m;
}

std::vector<std::uint8_t>
coded_bits(const viterbi_config& c, int frame_bits, const std::vector<std::uint8_t>& bits)
{
    std::vector<std::uint8_t> coded(coded_length(c.generator, c.mode, frame_bits));
    encode(c.generator, c.mode, frame_bits, bits.data(), 1, coded.data());
    return coded;
}

} // namespace

TEST(SingleDecoder, IntegerMetricsDecideAsTheReference)
{
    // Terminated and truncated frames of every K and rate, punctured or not, on integer
    // metrics (which float adds exactly): the bits and the end-state checks are the
    // reference decoder's, tie for tie, on every kernel. Frames of 1 ... 300 bits, so
    // that some end before every state is reached.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    std::size_t frames = 0, failed_checks = 0;
    for (const code& generator : codes_of_every_shape(rng))
        for (const termination mode : { termination::terminated, termination::truncated })
            for (const puncturing& p : some_puncturings(generator, rng))
                for (const int spread : { 2, 127 }) {
                    viterbi_config c;
                    c.generator = generator;
                    c.mode = mode;
                    c.punctured = p;
                    const int frame_bits = 1 + int(rng() % 300);
                    const auto bits = random_bits(std::size_t(frame_bits), bit_rng);
                    const auto metrics =
                        integer_metrics(coded_bits(c, frame_bits, bits), spread, rng);
                    // The reference reads the sent ones as LLRs; the single decoder the
                    // depunctured metrics, 0 where punctured.
                    std::vector<std::int16_t> depunctured(metrics.size(), 0);
                    std::vector<float> sent;
                    for (const std::uint32_t i :
                         sent_positions(c.generator, p, mode, frame_bits)) {
                        depunctured[i] = metrics[i];
                        sent.push_back(float(metrics[i]));
                    }
                    std::vector<std::uint8_t> want(bits.size());
                    core::codeword_status status;
                    make_viterbi_decoder(c, "reference")
                        ->decode(frame_bits, sent.data(), 1, want.data(), &status);
                    for (const state_kernel* k : kernels()) {
                        single_frame_decoder dec(c, *k);
                        std::vector<std::uint8_t> out(bits.size(), 7);
                        const bool ends_as_sent = dec.decode_metrics(
                            frame_bits, depunctured.data(), out.data());
                        const std::string what =
                            c.generator.text() + " " + to_string(mode) + " " +
                            pattern_text(p) + " " + std::to_string(frame_bits) +
                            " bits, spread " + std::to_string(spread) + ", " + k->isa;
                        ASSERT_EQ(out, want) << what;
                        // Every metric is 0 only when the spread gives none: then the
                        // reference fails the frame for its lack of information.
                        EXPECT_EQ(ends_as_sent, status.passed) << what;
                    }
                    ++frames;
                    failed_checks += !status.passed;
                }
    std::printf("%zu frames, %zu of them ending in another state than 0\n",
                frames,
                failed_checks);
    EXPECT_GT(failed_checks, 0u);
}

TEST(SingleDecoder, StreamFramesDecideAsTheReferenceOnThePrefix)
{
    // A stream a frame a call, each with lookahead steps after it (some calls with none,
    // as gr-fec's tagged decoder gives them): each frame's bits are those the reference
    // decoder gives for the stream so far as one truncated frame. Integer metrics, every
    // K and rate.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const code& generator : codes_of_every_shape(rng)) {
        viterbi_config c;
        c.generator = generator;
        c.mode = termination::streaming;
        const int n = generator.outputs();
        const std::size_t total = 1500;
        const auto bits = random_bits(total, bit_rng);
        std::vector<std::uint8_t> coded(total * std::size_t(n));
        encode(
            generator, termination::streaming, int(total), bits.data(), 1, coded.data());
        const auto metrics = integer_metrics(coded, 12, rng);
        viterbi_config truncated = c;
        truncated.mode = termination::truncated;
        const auto reference = make_viterbi_decoder(truncated, "reference");
        for (const state_kernel* k : kernels()) {
            single_stream_decoder dec(c, *k);
            std::size_t at = 0, newest = 0; // bits decided, steps run
            while (true) {
                const int frame = 1 + int(rng() % 120);
                const int ahead = rng() % 4 == 0 ? 0 : int(rng() % 80);
                if (at + std::size_t(frame + ahead) > total)
                    break;
                std::vector<std::uint8_t> out(std::size_t(frame), 7);
                dec.decode_metrics(frame, ahead, metrics.data() + at * n, out.data());
                newest = std::max(newest, at + std::size_t(frame + ahead));
                std::vector<float> prefix(metrics.begin(), metrics.begin() + newest * n);
                std::vector<std::uint8_t> want(newest);
                reference->decode(int(newest), prefix.data(), 1, want.data(), nullptr);
                ASSERT_EQ(out,
                          std::vector<std::uint8_t>(want.begin() + at,
                                                    want.begin() + at + frame))
                    << generator.text() << " " << k->isa << ": bits " << at << " ... "
                    << at + frame << ", ahead " << ahead;
                at += std::size_t(frame);
                EXPECT_EQ(dec.decided(), at);
            }
            dec.reset();
            EXPECT_EQ(dec.decided(), 0u);
        }
    }
}

TEST(SingleDecoder, TailBitingFramesDecideAsWrapAroundViterbi)
{
    // Tail-biting: the frame extended round itself by the geometry's training and depth
    // steps, from every state alike, traced back from the best state: the reference
    // stream decoder, started in every state alike, gives those bits for that run.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const code& generator : codes_of_every_shape(rng)) {
        viterbi_config c;
        c.generator = generator;
        c.mode = termination::tail_biting;
        const segment_geometry g = derived_geometry(c);
        const int n = generator.outputs();
        const int frame_bits = generator.constraint - 1 + int(rng() % 200);
        const auto bits = random_bits(std::size_t(frame_bits), bit_rng);
        const auto metrics = integer_metrics(coded_bits(c, frame_bits, bits), 20, rng);
        const std::size_t frame = metrics.size(), training = std::size_t(g.training) * n;
        std::vector<float> run;
        for (std::size_t i = 0; i < frame + training + std::size_t(g.depth) * n; ++i)
            run.push_back(float(metrics[(i + frame - training % frame) % frame]));
        viterbi_config stream = c;
        stream.mode = termination::streaming;
        const auto reference = make_stream_decoder(stream, "reference");
        reference->set_start_known(false);
        reference->reset();
        std::vector<std::uint8_t> all(run.size() / n + 1);
        std::size_t got = reference->decode(run.data(), run.size(), all.data());
        got += reference->flush(all.data() + got);
        ASSERT_EQ(got, run.size() / n);
        const std::vector<std::uint8_t> want(all.begin() + g.training,
                                             all.begin() + g.training + frame_bits);
        for (const state_kernel* k : kernels()) {
            single_frame_decoder dec(c, *k);
            std::vector<std::uint8_t> out(std::size_t(frame_bits), 7);
            dec.decode_metrics(frame_bits, metrics.data(), out.data());
            ASSERT_EQ(out, want)
                << generator.text() << " " << frame_bits << " bits, " << k->isa;
        }
    }
}

TEST(SingleDecoder, FloatFramesDecideAsTheBatchCpuDecoder)
{
    // Float LLRs (erasures, infinities, zeros of either sign, either sign convention) are
    // sanitised and quantised as the CPU batch decoder quantises a segment: for frames
    // it decodes in one segment, the bits and statuses are its own. Every preset, every
    // termination, every puncturing; frames of 1 ... 600 bits.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const auto& name : preset_names())
        for (const termination mode : frame_modes)
            for (const puncturing& p : puncturings_of(preset(name)))
                for (const bool invert : { false, true }) {
                    viterbi_config c;
                    c.generator = preset(name);
                    c.mode = mode;
                    c.punctured = p;
                    c.invert_llr = invert;
                    const int shortest =
                        mode == termination::tail_biting ? c.generator.constraint - 1 : 1;
                    const int frame_bits = shortest + int(rng() % 600);
                    const auto bits = random_bits(std::size_t(frame_bits), bit_rng);
                    auto llrs = noisy_llrs(c, frame_bits, bits, 2.0, rng);
                    add_special_values(llrs, invert);
                    std::vector<std::uint8_t> want(bits.size());
                    core::codeword_status status;
                    make_viterbi_decoder(c, "cpu")->decode(
                        frame_bits, llrs.data(), 1, want.data(), &status);
                    for (const state_kernel* k : kernels()) {
                        single_frame_decoder dec(c, *k);
                        ASSERT_EQ(dec.input_length(frame_bits), llrs.size());
                        std::vector<std::uint8_t> out(bits.size(), 7);
                        const bool passed =
                            dec.decode(frame_bits, llrs.data(), out.data());
                        const std::string what = name + " " + to_string(mode) + " " +
                                                 pattern_text(p) + " " +
                                                 std::to_string(frame_bits) + " bits" +
                                                 (invert ? " inverted " : " ") + k->isa;
                        EXPECT_EQ(out, want) << what;
                        EXPECT_EQ(passed, status.passed) << what;
                    }
                }
    // A frame without information fails and decodes to zeros; the buffers serve frames
    // of another size after it.
    viterbi_config c;
    single_frame_decoder dec(c);
    std::vector<float> zeros(dec.input_length(40), 0.0f);
    std::vector<std::uint8_t> out(40, 7);
    EXPECT_FALSE(dec.decode(40, zeros.data(), out.data()));
    EXPECT_EQ(out, std::vector<std::uint8_t>(40, 0));
    const auto bits = random_bits(500, bit_rng);
    std::mt19937 magnitudes(1);
    const auto clean = noiseless_llrs(c, 500, bits, magnitudes);
    out.assign(500, 7);
    EXPECT_TRUE(dec.decode(500, clean.data(), out.data()));
    EXPECT_EQ(out, bits);
}

TEST(SingleDecoder, NoisyStreamsErrAsTheReferenceStreamDecoder)
{
    // Float streams through noise: frames of 80 bits with the decision depth after each,
    // the scale following the stream. Frames in error (bit errors come in bursts, frames
    // nearly independently) as the exact whole-stream Viterbi's, within the noise of the
    // count.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    const std::pair<const char*, double> cases[] = { { "ccsds", 1.5 },
                                                     { "gsm", 2.0 },
                                                     { "cdma-r3", 0.5 } };
    for (const auto& [name, ebn0_db] : cases) {
        viterbi_config c;
        c.generator = preset(name);
        c.mode = termination::streaming;
        const int n = c.generator.outputs(), frame = 80, frames = 500;
        const int ahead = derived_geometry(c).depth;
        const std::size_t total = std::size_t(frames) * frame + std::size_t(ahead);
        const auto bits = random_bits(total, bit_rng);
        std::vector<std::uint8_t> coded(total * std::size_t(n));
        encode(c.generator,
               termination::streaming,
               int(total),
               bits.data(),
               1,
               coded.data());
        const auto llrs = awgn_llrs(coded, sigma_at(ebn0_db, 1.0 / n), rng);
        std::vector<std::uint8_t> ours(std::size_t(frames) * frame), exact(total);
        single_stream_decoder dec(c);
        for (std::size_t at = 0; at < ours.size(); at += frame)
            dec.decode(frame, ahead, llrs.data() + at * n, ours.data() + at);
        const auto reference = make_stream_decoder(c, "reference");
        std::size_t got = reference->decode(llrs.data(), llrs.size(), exact.data());
        got += reference->flush(exact.data() + got);
        std::size_t our_errors = 0, exact_errors = 0;
        for (int f = 0; f < frames; ++f) {
            bool our_wrong = false, exact_wrong = false;
            for (int i = f * frame; i < (f + 1) * frame; ++i) {
                our_wrong = our_wrong || ours[i] != bits[i];
                exact_wrong = exact_wrong || exact[i] != bits[i];
            }
            our_errors += our_wrong;
            exact_errors += exact_wrong;
        }
        std::printf("%s: %zu frames wrong of %d, the reference %zu\n",
                    name,
                    our_errors,
                    frames,
                    exact_errors);
        EXPECT_GT(exact_errors, 20u) << name;
        EXPECT_LE(std::fabs(double(our_errors) - double(exact_errors)),
                  3.0 * std::sqrt(double(exact_errors)) + 3.0)
            << name;
    }
}

TEST(SingleDecoder, BadConfigurationsHaveClearErrors)
{
    viterbi_config c;
    c.mode = termination::streaming;
    EXPECT_NE(message_of([&] { single_frame_decoder{ c }; }).find("streaming"),
              std::string::npos);
    c.punctured = parse_puncturing("3/4", c.generator);
    EXPECT_NE(message_of([&] { single_stream_decoder{ c }; }).find("depuncture"),
              std::string::npos);
    c.mode = termination::terminated;
    EXPECT_NE(message_of([&] { single_stream_decoder{ c }; }).find("terminated"),
              std::string::npos);
    single_frame_decoder dec(c);
    EXPECT_NE(message_of([&] { dec.decode(0, nullptr, nullptr); }).find("frame_bits"),
              std::string::npos);
}

} // namespace gputurbo::conv_test
