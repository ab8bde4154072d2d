/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Soft output of the Viterbi frame decoders (decode_soft, conv/decoder.h): each frame's
// values are bcjr()'s of its depunctured LLRs, bit for bit, and the bits their signs,
// on the reference backend, and on the cpu backend but for max-log's a-posteriori LLRs
// (the fast BCJR's: test_fast_bcjr.cc); max-log's signs are the exact Viterbi's
// decisions; extrinsic output and streams are refused. Fresh random inputs (seed
// printed).

#include "conv/bcjr.h"
#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::conv;
using namespace gputurbo::conv_test;

namespace {

class ViterbiSoft : public backend_test
{
};

const soft_algorithm algorithms[] = { soft_algorithm::max_log, soft_algorithm::log_map };

struct soft_run
{
    std::vector<float> values;
    std::vector<std::uint8_t> bits;
    std::vector<core::codeword_status> status;
};

template <class LLR>
soft_run decode_soft(core::batch_decoder& dec,
                     int frame_bits,
                     const std::vector<LLR>& llrs,
                     std::size_t frames)
{
    soft_run r;
    r.values.resize(frames * frame_bits);
    r.bits.resize(frames * frame_bits);
    r.status.resize(frames);
    dec.decode_soft(frame_bits,
                    llrs.data(),
                    frames,
                    { r.values.data(), core::soft_output::app },
                    r.bits.data(),
                    r.status.data());
    return r;
}

//! bcjr() of frame \p f of \p sent (float LLRs as they came), read as the decoders read
//! them: in the engine's sign, sanitised, depunctured; and the code-extrinsic values of
//! the sent code bits (engine sign); both within +-llr_limit.
struct reference_soft
{
    std::vector<float> info, code_extrinsic;
};
reference_soft
reference_app(const viterbi_config& c, int frame_bits, const float* sent, std::size_t f)
{
    const std::size_t length =
        punctured_length(c.generator, c.punctured, c.mode, frame_bits);
    std::vector<float> received(length);
    for (std::size_t i = 0; i < length; ++i)
        received[i] = core::sanitize_llr(sent[f * length + i], c.invert_llr);
    std::vector<float> llrs(coded_length(c.generator, c.mode, frame_bits));
    depuncture(
        c.generator, c.punctured, c.mode, frame_bits, received.data(), 1, llrs.data());
    const soft_frame app =
        bcjr(c.generator, c.mode, frame_bits, llrs.data(), c.soft_algorithm);
    const auto at = sent_positions(c.generator, c.punctured, c.mode, frame_bits);
    // Within +-llr_limit, as the decoders give them.
    auto bounded = [](float v) {
        return std::clamp(v, -core::llr_limit, core::llr_limit);
    };
    reference_soft r{ std::vector<float>(frame_bits), std::vector<float>(length) };
    for (int k = 0; k < frame_bits; ++k)
        r.info[k] = bounded(app.info[k]);
    for (std::size_t i = 0; i < length; ++i)
        r.code_extrinsic[i] = bounded(app.code[at[i]] - received[i]);
    return r;
}

} // namespace

TEST_P(ViterbiSoft, ValuesAreTheBcjrsAndBitsTheirSigns)
{
    // Every termination and algorithm, unpunctured and 3/4, float and int8 input (q as
    // q / int8_scale), both signs, erasures and infinities among noisy LLRs at a random
    // Eb/N0: each value is bcjr()'s in the input's sign, exactly; each bit its sign.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    for (const termination mode : frame_modes)
        for (const soft_algorithm a : algorithms)
            for (const char* pattern : { "none", "3/4" })
                for (const bool int8 : { false, true })
                    for (const bool invert : { false, true }) {
                        viterbi_config c;
                        c.generator = preset(rng() % 2 ? "ccsds" : "802.11");
                        c.mode = mode;
                        c.punctured = parse_puncturing(pattern, c.generator);
                        c.soft_algorithm = a;
                        c.invert_llr = invert;
                        c.int8_scale = int8 ? 4.0f : 8.0f;
                        // Tail-biting runs the BCJR from every start state: shorter.
                        const int frame_bits = mode == termination::tail_biting
                                                   ? 6 + int(rng() % 60)
                                                   : 1 + int(rng() % 300);
                        const std::size_t frames = 1 + rng() % 4;
                        const auto bits = random_bits(frames * frame_bits, bit_rng);
                        auto llrs =
                            noisy_llrs(c, frame_bits, bits, 0.5 * double(rng() % 8), rng);
                        add_special_values(llrs, invert);
                        // The float LLRs the decoder reads: int8 ones as q / int8_scale.
                        std::vector<std::int8_t> q(llrs.size());
                        core::quantize_llrs(llrs.data(), llrs.size(), q.data(), 4.0f);
                        if (int8)
                            core::dequantize_llrs(
                                q.data(), q.size(), llrs.data(), c.int8_scale);
                        const auto dec = make_viterbi_decoder(c, GetParam());
                        ASSERT_TRUE(dec->gives_soft(core::soft_output::app));
                        ASSERT_TRUE(dec->gives_soft(core::soft_output::code_extrinsic));
                        const soft_run r =
                            int8 ? decode_soft(*dec, frame_bits, q, frames)
                                 : decode_soft(*dec, frame_bits, llrs, frames);
                        const std::string what =
                            std::string(to_string(mode)) + " " + to_string(a) + " " +
                            pattern + (int8 ? " int8" : " float") +
                            (invert ? " inverted" : "") +
                            " frame_bits=" + std::to_string(frame_bits);
                        // Each sent code bit's a-posteriori LLR less its input.
                        const std::size_t sent = dec->input_length(frame_bits);
                        std::vector<float> code(frames * sent);
                        const core::soft_values out{ code.data(),
                                                     core::soft_output::code_extrinsic };
                        if (int8)
                            dec->decode_soft(frame_bits, q.data(), frames, out);
                        else
                            dec->decode_soft(frame_bits, llrs.data(), frames, out);
                        for (std::size_t f = 0; f < frames; ++f) {
                            const auto ref = reference_app(c, frame_bits, llrs.data(), f);
                            const auto& app = ref.info;
                            for (std::size_t i = 0; i < sent; ++i) {
                                const float e = ref.code_extrinsic[i];
                                ASSERT_EQ(code[f * sent + i], invert ? -e : e)
                                    << what << " frame " << f << " code bit " << i;
                            }
                            // The cpu backend's max-log is the fast BCJR's.
                            const bool fast =
                                GetParam() == "cpu" && a == soft_algorithm::max_log;
                            for (int k = 0; !fast && k < frame_bits; ++k) {
                                const std::size_t i = f * frame_bits + k;
                                ASSERT_EQ(r.values[i], invert ? -app[k] : app[k])
                                    << what << " frame " << f << " bit " << k;
                                ASSERT_EQ(r.bits[i], app[k] < 0.0f ? 1 : 0)
                                    << what << " frame " << f << " bit " << k;
                            }
                        }
                    }
}

TEST_P(ViterbiSoft, MaxLogSignsAreTheViterbiDecisionsAndTheStatusDecodes)
{
    // Noisy frames (continuous noise: paths tie with probability 0), terminated and
    // truncated, unpunctured and 3/4: the signs of the reference's max-log values are
    // the exact Viterbi decoder's decisions, bit for bit, and the cpu backend's bits its
    // own decisions (fast_bcjr.h); the status is decode()'s. The cpu backend's decisions
    // come from int16 metrics (cpu_decoder.h), which differ from the exact ones where
    // paths nearly tie, in a frame or two here (the subject of
    // Viterbi.SimdDecoderAgainstTheReferenceOnNoisyFrames): counted, not compared.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    std::size_t compared = 0, errors = 0, own_differ = 0;
    for (const termination mode : { termination::terminated, termination::truncated })
        for (const char* pattern : { "none", "3/4" }) {
            viterbi_config c;
            c.generator = preset(rng() % 2 ? "ccsds" : "802.11");
            c.mode = mode;
            c.punctured = parse_puncturing(pattern, c.generator);
            const int frame_bits = 200, frames = 16;
            const auto bits = random_bits(frames * frame_bits, bit_rng);
            const auto llrs =
                noisy_llrs(c, frame_bits, bits, pattern[0] == 'n' ? 1.5 : 3.0, rng);
            std::vector<std::uint8_t> exact(bits.size()), own(bits.size());
            std::vector<core::codeword_status> status(frames);
            make_viterbi_decoder(c, "reference")
                ->decode(frame_bits, llrs.data(), frames, exact.data(), nullptr);
            const auto dec = make_viterbi_decoder(c, GetParam());
            dec->decode(frame_bits, llrs.data(), frames, own.data(), status.data());
            const soft_run r = decode_soft(*dec, frame_bits, llrs, frames);
            const std::string what = std::string(to_string(mode)) + " " + pattern;
            for (std::size_t i = 0; i < bits.size(); ++i) {
                if (GetParam() == "reference")
                    ASSERT_EQ(r.bits[i], exact[i]) << what << " bit " << i;
                own_differ += own[i] != exact[i];
                errors += exact[i] != bits[i];
            }
            EXPECT_EQ(r.bits, own) << what;
            for (int f = 0; f < frames; ++f) {
                EXPECT_EQ(r.status[f].iterations, 0) << what;
                EXPECT_EQ(r.status[f].passed, status[f].passed) << what << " frame " << f;
            }
            compared += bits.size();
        }
    std::printf("max-log signs against the exact Viterbi's: %zu bits, %zu of them wrong; "
                "the backend's own decisions differ in %zu\n",
                compared,
                errors,
                own_differ);
    EXPECT_GT(errors, 0u); // the noise mattered
}

TEST_P(ViterbiSoft, BitsThatEveryPathSetsAlikeHaveFiniteValues)
{
    // The generator 4 taps only the oldest input: a terminated frame's first K-1 bits of
    // it are 0 on every path, whose a-posteriori LLR is infinite; the output stays
    // within +-llr_limit, so that an equaliser can take its input away again.
    viterbi_config c;
    c.generator = parse_code(3, "7,4");
    const int frame_bits = 16;
    const auto dec = make_viterbi_decoder(c, GetParam());
    const std::size_t sent = dec->input_length(frame_bits);
    std::vector<float> llrs(sent, 2.0f), code(sent), info(frame_bits);
    dec->decode_soft(
        frame_bits, llrs.data(), 1, { code.data(), core::soft_output::code_extrinsic });
    dec->decode_soft(frame_bits, llrs.data(), 1, { info.data(), core::soft_output::app });
    for (float v : code)
        ASSERT_TRUE(std::isfinite(v) && std::fabs(v) <= core::llr_limit) << v;
    for (float v : info)
        ASSERT_TRUE(std::isfinite(v) && std::fabs(v) <= core::llr_limit) << v;
    // The tail's "4" outputs (input 0 on every path) were infinite: now at the bound.
    EXPECT_EQ(std::fabs(code[sent - 1]), core::llr_limit);
}

TEST_P(ViterbiSoft, ExtrinsicIsRefused)
{
    viterbi_config c;
    const auto dec = make_viterbi_decoder(c, GetParam());
    std::vector<float> llrs(dec->input_length(20), 1.0f), out(20);
    EXPECT_EQ(message_of([&] {
                  dec->decode_soft(
                      20, llrs.data(), 1, { out.data(), core::soft_output::extrinsic });
              }),
              "output=extrinsic is not given by this decoder (" + GetParam() +
                  " backend): use bits, llr, code-extrinsic");
    EXPECT_FALSE(dec->gives_soft(core::soft_output::extrinsic));
}

INSTANTIATE_TEST_SUITE_P(ConvBackends,
                         ViterbiSoft,
                         ::testing::Values("reference", "cpu"),
                         [](const auto& info) { return std::string(info.param); });

TEST(ViterbiSoftOutput, StreamsGiveHardBitsOnlyAndCudaLlrsOnly)
{
    viterbi_config c;
    c.mode = termination::streaming;
    // A stream decoder has no soft output; a frame decoder takes no stream.
    EXPECT_NE(message_of([&] {
                  make_viterbi_decoder(c, "reference");
              }).find("use make_stream_decoder()"),
              std::string::npos);
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    c.mode = termination::terminated;
    const auto dec = make_viterbi_decoder(c, "cuda");
    EXPECT_TRUE(dec->gives_soft(core::soft_output::app));
    EXPECT_FALSE(dec->gives_soft(core::soft_output::code_extrinsic));
    std::vector<float> llrs(dec->input_length(20), 1.0f), out(dec->input_length(20));
    EXPECT_EQ(message_of([&] {
                  dec->decode_soft(20,
                                   llrs.data(),
                                   1,
                                   { out.data(), core::soft_output::code_extrinsic });
              }),
              "output=code-extrinsic is not given by this decoder (cuda backend): use "
              "bits, llr");
}

TEST(ViterbiSoftOutput, SoftAlgorithmIsAParameter)
{
    EXPECT_EQ(viterbi_config{}.soft_algorithm, soft_algorithm::max_log);
    EXPECT_EQ(config_from({ { "soft_algorithm", "log-map" } }).soft_algorithm,
              soft_algorithm::log_map);
    EXPECT_EQ(config_from({ { "soft_algorithm", "max-log" } }).soft_algorithm,
              soft_algorithm::max_log);
    EXPECT_EQ(message_of([] {
                  config_from({ { "soft_algorithm", "exact" } });
              }),
              "unknown soft_algorithm 'exact': use one of max-log, log-map");
    viterbi_config c;
    c.soft_algorithm = soft_algorithm(7);
    EXPECT_EQ(message_of([&] { c.validate(); }),
              "soft_algorithm 7 is unknown: use one of max-log, log-map");
}
