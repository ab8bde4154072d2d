/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Long frames cut into segments, and continuous streams: every bit decided once and in
// its place, whatever the geometry and however the stream comes in; the exact stream
// decoder equals the exact decoder of the whole stream; the segmented decoders match the
// exact ones within statistical noise.

#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace gputurbo;
using namespace gputurbo::conv;
using namespace gputurbo::conv_test;

namespace {

// Bits no decoder writes: an unwritten output shows.
constexpr std::uint8_t unwritten = 7;

// A stream: its bits, and the LLRs of its sent coded bits (the puncturing pattern
// running on from start to end), noiseless or at an Eb/N0.
struct stream
{
    std::vector<std::uint8_t> bits;
    std::vector<float> llrs;
};

stream make_stream(const viterbi_config& c,
                   std::size_t length,
                   double ebn0_db,
                   std::mt19937_64& rng)
{
    std::mt19937 bit_rng{ unsigned(rng()) };
    viterbi_config whole = c;
    whole.mode = termination::streaming; // one frame of the whole stream
    stream s;
    s.bits = random_bits(length, bit_rng);
    const auto sent = sent_bits(whole, int(length), s.bits);
    if (std::isinf(ebn0_db)) {
        std::uniform_real_distribution<float> magnitude(0.5f, 4.0f);
        for (const std::uint8_t b : sent)
            s.llrs.push_back(b ? -magnitude(rng) : magnitude(rng));
    } else {
        s.llrs = awgn_llrs(sent, sigma_at(ebn0_db, double(length) / sent.size()), rng);
    }
    return s;
}

// The stream through a stream decoder in calls of random sizes (0 … most LLRs, an
// LLR-exact cut, so steps split between calls), with a wait() now and then while
// batches are in flight, then flushed. Checks the counters and the bound on each call's
// output. With \p soft (a decoder with soft output), the bits' LLRs go there.
template <class T>
std::vector<std::uint8_t> decode_in_pieces(stream_decoder& dec,
                                           const std::vector<T>& llrs,
                                           std::size_t most,
                                           std::mt19937_64& rng,
                                           std::vector<float>* soft = nullptr)
{
    std::vector<std::uint8_t> out;
    std::vector<std::uint8_t> piece;
    std::vector<float> soft_piece;
    if (soft)
        soft->clear();
    auto room = [&](std::size_t n) {
        piece.assign(n, unwritten);
        soft_piece.assign(soft ? n : 0, NAN);
        return soft ? soft_piece.data() : nullptr;
    };
    auto keep = [&](std::size_t written, std::uint64_t before) {
        EXPECT_LE(written, piece.size());
        EXPECT_EQ(dec.written_bits(), before + written);
        out.insert(out.end(), piece.begin(), piece.begin() + written);
        if (soft)
            soft->insert(soft->end(), soft_piece.begin(), soft_piece.begin() + written);
    };
    for (std::size_t at = 0; at < llrs.size();) {
        const std::size_t count =
            std::min<std::size_t>(rng() % (most + 1), llrs.size() - at);
        float* values = room(dec.output_bound(count));
        const std::uint64_t before = dec.written_bits();
        keep(dec.decode(llrs.data() + at, count, piece.data(), values), before);
        at += count;
        if (dec.batches_pending() > 0 && rng() % 4 == 0) {
            values = room(dec.output_bound(0));
            const std::uint64_t earlier = dec.written_bits();
            const std::size_t written = dec.wait(piece.data(), values);
            EXPECT_GT(written, 0u);
            keep(written, earlier);
        }
    }
    float* values = room(dec.output_bound(0));
    const std::size_t pending = dec.pending_bits();
    EXPECT_EQ(dec.flush(piece.data(), values), pending);
    EXPECT_EQ(dec.pending_bits(), 0u);
    EXPECT_EQ(dec.batches_pending(), 0u);
    out.insert(out.end(), piece.begin(), piece.begin() + pending);
    if (soft)
        soft->insert(soft->end(), soft_piece.begin(), soft_piece.begin() + pending);
    return out;
}

std::size_t errors(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b)
{
    std::size_t e = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        e += a[i] != b[i];
    return e;
}

// A streaming configuration of the preset code \p code, punctured as \p rate says
// (parse_puncturing: "" for none).
viterbi_config streaming(const std::string& code, const std::string& rate = "")
{
    viterbi_config c;
    c.generator = preset(code);
    c.mode = termination::streaming;
    c.punctured = parse_puncturing(rate, c.generator);
    return c;
}

// A small geometry, so that short test streams and frames have many segments.
segment_geometry small_geometry(const puncturing& p)
{
    const int period = p.period();
    return segment_geometry{ 20 * period, 9 * period, 12 * period };
}

class StreamBackend : public backend_test
{
};

// Noisy streams of several codes (K = 7 and 9, two and three outputs, punctured) on
// which CUDA and the CPU are compared.
const struct
{
    const char* preset;
    const char* puncture;
    double ebn0;
} cuda_stream_cases[] = { { "802.11", "", 2.0 },
                          { "ccsds", "3/4", 3.0 },
                          { "lte", "", 1.0 },
                          { "cdma-r2", "", 1.5 } };

} // namespace

TEST(ViterbiSegments, DerivedGeometry)
{
    // depth = training = 5 K / (1 - R) in whole puncturing periods, bits = 32 depth.
    viterbi_config c;
    segment_geometry g = derived_geometry(c);
    EXPECT_EQ(g.depth, 70);
    EXPECT_EQ(g.training, 70);
    EXPECT_EQ(g.bits, 2240);
    c.punctured = parse_puncturing("3/4", c.generator);
    g = derived_geometry(c);
    EXPECT_EQ(g.depth, 141); // 140, to a period of 3
    EXPECT_EQ(g.depth % 3, 0);
    c.punctured = parse_puncturing("2/3", c.generator);
    EXPECT_EQ(derived_geometry(c).depth, 106); // 5 * 7 * 3 = 105, to a period of 2
    c.punctured = {};
    c.generator = preset("cdma-r3");
    EXPECT_EQ(derived_geometry(c).depth, 68); // 45 * 1.5 = 67.5
    c.geometry = { 500, 11, 33 };
    g = derived_geometry(c);
    EXPECT_EQ(g.bits, 500);
    EXPECT_EQ(g.training, 11);
    EXPECT_EQ(g.depth, 33);
}

TEST(ViterbiSegments, LongFramesNoiselessEveryTerminationAndPuncturing)
{
    // Frames of many segments (and the sizes around one segment's edge): every bit
    // decided, once, right; frames of a batch side by side.
    std::mt19937 rng(test::test_seed());
    for (const char* name : { "ccsds", "gsm", "cdma-r3" })
        for (const termination mode : frame_modes)
            for (const puncturing& p : puncturings_of(preset(name))) {
                viterbi_config c;
                c.generator = preset(name);
                c.mode = mode;
                c.punctured = p;
                c.geometry = small_geometry(p);
                const auto dec = make_viterbi_decoder(c, "cpu");
                const int full = c.geometry.bits + c.geometry.training + c.geometry.depth;
                for (const int frame_bits : { full - 7,
                                              full - 6,
                                              full - 5,
                                              full + 1,
                                              c.geometry.bits * 7 + 3,
                                              1500 }) {
                    const int frames = 3;
                    const auto bits = random_bits(std::size_t(frame_bits) * frames, rng);
                    const auto llrs = noiseless_llrs(c, frame_bits, bits, rng);
                    std::vector<std::uint8_t> out(bits.size(), unwritten);
                    std::vector<core::codeword_status> status(frames);
                    dec->decode(
                        frame_bits, llrs.data(), frames, out.data(), status.data());
                    EXPECT_EQ(out, bits) << name << " " << to_string(mode) << " "
                                         << pattern_text(p) << " " << frame_bits;
                    for (const auto& s : status)
                        EXPECT_TRUE(s.passed);
                }
            }
}

TEST(ViterbiSegments, LongFramesAgainstTheReferenceOnNoisyFrames)
{
    // Segments of the default geometry against full-length Viterbi on frames of about
    // twelve segments, near BER 1e-3 … 1e-4: the error counts agree within statistical
    // noise, unpunctured and at 3/4, terminated and tail-biting.
    std::mt19937_64 rng(test::test_seed());
    std::mt19937 bit_rng{ unsigned(rng()) };
    std::size_t all_ref_errors = 0;
    for (const char* rate : { "", "3/4" })
        for (const termination mode :
             { termination::terminated, termination::tail_biting }) {
            viterbi_config c;
            c.generator = preset("802.11");
            c.mode = mode;
            c.punctured = parse_puncturing(rate, c.generator);
            const int frame_bits = 12 * derived_geometry(c).bits + 17, frames = 8;
            const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
            const auto sent = sent_bits(c, frame_bits, bits);
            const double r = double(bits.size()) / sent.size();
            const auto llrs = awgn_llrs(sent, sigma_at(*rate ? 4.0 : 3.0, r), rng);
            std::vector<std::uint8_t> ref(bits.size()), seg(bits.size(), unwritten);
            make_viterbi_decoder(c, "reference")
                ->decode(frame_bits, llrs.data(), frames, ref.data(), nullptr);
            make_viterbi_decoder(c, "cpu")->decode(
                frame_bits, llrs.data(), frames, seg.data(), nullptr);
            const std::size_t ref_errors = errors(ref, bits),
                              seg_errors = errors(seg, bits);
            std::printf("  %s %s: %zu bit errors segmented, %zu full length, of %zu\n",
                        *rate ? rate : "1/2",
                        to_string(mode),
                        seg_errors,
                        ref_errors,
                        bits.size());
            // Each case noisy (about 85 errors on average, in bursts: a case of 18 was
            // seen), and the four together well inside the waterfall.
            EXPECT_GT(ref_errors, 0u);
            all_ref_errors += ref_errors;
            // Bit errors come in bursts of about 5: the bound allows 3 sigma of bursts.
            EXPECT_LE(std::fabs(double(seg_errors) - double(ref_errors)),
                      3.0 * std::sqrt(5.0 * double(ref_errors)) + 10.0);
        }
    EXPECT_GT(all_ref_errors, 150u);
}

TEST_P(StreamBackend, NoiselessRoundTripInPiecesEveryPuncturing)
{
    std::mt19937_64 rng(test::test_seed());
    for (const char* name : { "ccsds", "gsm", "lte" })
        for (const puncturing& p : puncturings_of(preset(name))) {
            viterbi_config c = streaming(name);
            c.punctured = p;
            c.geometry = small_geometry(p);
            const auto dec = make_stream_decoder(c, GetParam());
            const stream s = make_stream(c, 3001, INFINITY, rng);
            for (const std::size_t most :
                 { std::size_t(1), std::size_t(37), s.llrs.size() }) {
                const auto out = decode_in_pieces(*dec, s.llrs, most, rng);
                EXPECT_EQ(out, s.bits)
                    << name << " " << pattern_text(p) << " calls of " << most;
            }
        }
}

TEST_P(StreamBackend, OutputDoesNotDependOnHowTheStreamComesIn)
{
    // Noisy streams with errors, float and int8: the same bits whether they come in one
    // call or in pieces of any size, one batch at a time or up to four in flight
    // (batches gathered while others run, wait() between calls).
    std::mt19937_64 rng(test::test_seed());
    for (const char* rate : { "", "3/4" }) {
        viterbi_config c = streaming("ccsds", rate);
        c.geometry = small_geometry(c.punctured);
        const auto dec = make_stream_decoder(c, GetParam());
        const stream s = make_stream(c, 20000, *rate ? 3.0 : 2.0, rng);
        std::vector<std::int8_t> q(s.llrs.size());
        core::quantize_llrs(s.llrs.data(), q.size(), q.data(), c.int8_scale);
        const auto whole = decode_in_pieces(*dec, s.llrs, s.llrs.size(), rng);
        const auto whole_int8 = decode_in_pieces(*dec, q, q.size(), rng);
        EXPECT_GT(errors(whole, s.bits), 0u);
        for (const int in_flight : { 1, 2, 4 }) {
            dec->set_batches_in_flight(in_flight);
            for (const std::size_t most :
                 { std::size_t(3), std::size_t(500), std::size_t(7777) }) {
                EXPECT_EQ(decode_in_pieces(*dec, s.llrs, most, rng), whole)
                    << (*rate ? rate : "1/2") << ", calls of up to " << most << " LLRs, "
                    << in_flight << " in flight";
                EXPECT_EQ(decode_in_pieces(*dec, q, most, rng), whole_int8)
                    << (*rate ? rate : "1/2") << ", int8, calls of up to " << most
                    << " LLRs, " << in_flight << " in flight";
            }
        }
    }
}

TEST_P(StreamBackend, ShortStreamsEndAsInOneCall)
{
    // Many short noisy streams in small calls with two batches in flight: on a GPU the
    // last call often comes while both still run and is only gathered, and flush() must
    // then decide its segments as any other call would, the bits of one call.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("ccsds");
    c.geometry = small_geometry(c.punctured);
    const auto dec = make_stream_decoder(c, GetParam());
    for (int i = 0; i < 40; ++i) {
        const stream s = make_stream(c, 2000, 1.0, rng);
        dec->set_batches_in_flight(1);
        const auto whole = decode_in_pieces(*dec, s.llrs, s.llrs.size(), rng);
        dec->set_batches_in_flight(2);
        EXPECT_EQ(decode_in_pieces(*dec, s.llrs, 300, rng), whole) << "stream " << i;
    }
}

TEST_P(StreamBackend, Int8InputAndTheOtherSign)
{
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("802.11");
    c.invert_llr = true;
    c.int8_scale = 4.0f;
    const auto dec = make_stream_decoder(c, GetParam());
    const stream s = make_stream(c, 5000, INFINITY, rng);
    std::vector<std::int8_t> q(s.llrs.size());
    for (std::size_t i = 0; i < q.size(); ++i)
        q[i] = std::int8_t(s.llrs[i] > 0 ? -20 : 20);
    std::vector<std::uint8_t> out(dec->output_bound(q.size()) + dec->output_bound(0));
    std::size_t written = dec->decode(q.data(), q.size(), out.data());
    written += dec->flush(out.data() + written);
    out.resize(written);
    EXPECT_EQ(out, s.bits);
}

TEST_P(StreamBackend, FlushStartsANewStreamAndResetForgets)
{
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("gsm", "111,100"); // rate 3/4, odd phase
    const auto dec = make_stream_decoder(c, GetParam());
    const stream a = make_stream(c, 4000, INFINITY, rng),
                 b = make_stream(c, 300, INFINITY, rng);
    std::vector<std::uint8_t> out(dec->output_bound(a.llrs.size()));
    dec->decode(a.llrs.data(), a.llrs.size() / 2 + 1, out.data()); // half a stream …
    dec->reset();                                                  // … forgotten
    EXPECT_EQ(dec->pending_bits(), 0u);
    EXPECT_EQ(dec->written_bits(), 0u);
    EXPECT_EQ(decode_in_pieces(*dec, b.llrs, 50, rng), b.bits);
    EXPECT_EQ(decode_in_pieces(*dec, a.llrs, 999, rng), a.bits);
    EXPECT_EQ(dec->flush(nullptr), 0u); // nothing pending
}

// The stream in one call, flushed.
std::vector<std::uint8_t> decode_whole(stream_decoder& dec,
                                       const std::vector<float>& llrs)
{
    std::vector<std::uint8_t> out(dec.output_bound(llrs.size()) + dec.output_bound(0));
    std::size_t written = dec.decode(llrs.data(), llrs.size(), out.data());
    written += dec.flush(out.data() + written);
    out.resize(written);
    return out;
}

TEST_P(StreamBackend, NodeSyncFindsThePhaseAndTheInversion)
{
    // A stream joined one LLR into a step, negated (a 180 degree phase), or both: found
    // in the first window, which no bit precedes, and decoded with the errors of the
    // aligned stream. CCSDS's code is transparent: a negated stream is another code
    // sequence, which decodes to the complements; GSM's is not, and its inversion is
    // found.
    std::mt19937_64 rng(test::test_seed());
    for (const char* name : { "ccsds", "gsm" }) {
        viterbi_config c = streaming(name);
        const stream s = make_stream(c, 30000, 2.0, rng);
        const std::size_t aligned =
            errors(decode_whole(*make_stream_decoder(c, GetParam()), s.llrs), s.bits);
        EXPECT_GT(aligned, 5u) << name;
        c.node_sync = true;
        const auto dec = make_stream_decoder(c, GetParam());
        const bool see_inversion = name != std::string("ccsds");
        std::vector<float> negated(s.llrs.size());
        std::transform(
            s.llrs.begin(), s.llrs.end(), negated.begin(), [](float v) { return -v; });
        for (const bool negate : { false, true })
            for (const int offset : { 0, 1 }) {
                std::vector<float> llrs = negate ? negated : s.llrs;
                llrs.insert(llrs.begin(), std::size_t(offset), 0.7f); // joined mid-step
                std::vector<std::uint8_t> bits = decode_whole(*dec, llrs);
                const auto changes = dec->take_sync_changes();
                const std::string what = std::string(name) + (negate ? " negated" : "") +
                                         ", offset " + std::to_string(offset);
                ASSERT_EQ(changes.size(), 1u) << what;
                EXPECT_EQ(changes[0].bit, 0u) << what;
                EXPECT_EQ(changes[0].llr, std::uint64_t(offset)) << what;
                EXPECT_EQ(changes[0].offset, offset) << what;
                EXPECT_EQ(changes[0].inverted, negate && see_inversion) << what;
                if (negate && !see_inversion)
                    for (auto& b : bits)
                        b ^= 1;
                EXPECT_EQ(bits.size(), s.bits.size()) << what;
                // Error events (a few bits each) come and go where the decoders
                // differ: the aligned one starts in state 0, these in any state, and
                // their segments lie elsewhere in the stream.
                EXPECT_NEAR(double(errors(bits, s.bits)),
                            double(aligned),
                            12.0 + 3.0 * std::sqrt(double(aligned)))
                    << what;
            }
    }
}

TEST_P(StreamBackend, NodeSyncFollowsASlip)
{
    // One LLR lost in mid-stream (a symbol slip): the steps after it start at odd LLRs.
    // The check after it finds them, ends the stream there and starts another at the
    // new phase; before the slip and after the check the bits are the aligned stream's.
    // In pieces of any size the output is the same: the checks lie on the LLRs' grid.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("ccsds");
    const std::size_t length = std::size_t(node_sync_interval) + 14000;
    const stream s = make_stream(c, length, 2.0, rng);
    const auto aligned = decode_whole(*make_stream_decoder(c, GetParam()), s.llrs);
    const std::size_t slip = 40000; // the step whose second LLR is lost
    std::vector<float> llrs = s.llrs;
    llrs.erase(llrs.begin() + 2 * slip + 1);
    c.node_sync = true;
    const auto dec = make_stream_decoder(c, GetParam());
    const auto bits = decode_whole(*dec, llrs);
    const auto changes = dec->take_sync_changes();
    // The first check after the slip, at step node_sync_interval: the new stream starts
    // at the next LLR, the first of the aligned stream's step node_sync_interval + 1.
    const std::uint64_t at = std::uint64_t(node_sync_interval);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].bit, 0u);
    EXPECT_EQ(changes[0].offset, 0);
    EXPECT_EQ(changes[1].bit, at);
    EXPECT_EQ(changes[1].llr, 2 * at + 1);
    EXPECT_EQ(changes[1].offset, 1);
    EXPECT_FALSE(changes[1].inverted);
    ASSERT_EQ(bits.size(), length - 1);
    auto errors_in = [](const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
        std::size_t e = 0;
        for (std::size_t i = 0; i < n; ++i)
            e += a[i] != b[i];
        return e;
    };
    const std::size_t before = slip - 100, after = length - at - 1 - 100;
    // As many errors as the aligned stream, give or take the error events that come
    // and go with another start state and other segments.
    auto near = [](std::size_t a, std::size_t b) {
        EXPECT_NEAR(double(a), double(b), 12.0 + 3.0 * std::sqrt(double(b)));
    };
    near(errors_in(bits.data(), s.bits.data(), before),
         errors_in(aligned.data(), s.bits.data(), before));
    near(errors_in(bits.data() + at + 100, s.bits.data() + at + 101, after),
         errors_in(aligned.data() + at + 101, s.bits.data() + at + 101, after));
    // Out of sync between the slip and the check: about half the bits are wrong.
    EXPECT_GT(errors_in(bits.data() + slip + 100, s.bits.data() + slip + 101, 10000),
              3000u);
    for (const std::size_t most : { std::size_t(999), std::size_t(70001) })
        EXPECT_EQ(decode_in_pieces(*dec, llrs, most, rng), bits) << "calls of " << most;
}

TEST_P(StreamBackend, NodeSyncOfShortStreamsAndInt8)
{
    // A stream shorter than a window is weighed on what came; int8 LLRs as float ones.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("ccsds");
    c.node_sync = true;
    const auto dec = make_stream_decoder(c, GetParam());
    for (const std::size_t length :
         { std::size_t(1), std::size_t(40), std::size_t(700) }) {
        const stream s = make_stream(c, length, INFINITY, rng);
        std::vector<float> llrs = s.llrs;
        llrs.insert(llrs.begin(), 0.5f); // steps start at LLR 1
        std::vector<std::int8_t> q(llrs.size());
        core::quantize_llrs(llrs.data(), q.size(), q.data(), c.int8_scale);
        for (const bool int8 : { false, true }) {
            std::vector<std::uint8_t> out(dec->output_bound(llrs.size()) +
                                          dec->output_bound(0));
            std::size_t written = int8
                                      ? dec->decode(q.data(), q.size(), out.data())
                                      : dec->decode(llrs.data(), llrs.size(), out.data());
            if (length >= 40) // enough to tell the phase: no LLR left over
                EXPECT_EQ(dec->partial_llrs(), 0u) << length;
            written += dec->flush(out.data() + written);
            out.resize(written);
            const auto changes = dec->take_sync_changes();
            ASSERT_EQ(changes.size(), 1u) << length;
            if (length >= 40) {
                EXPECT_EQ(changes[0].offset, 1) << length;
                EXPECT_EQ(out, s.bits) << length << (int8 ? " int8" : "");
            }
        }
    }
    // One LLR: no step.
    std::vector<std::uint8_t> out(dec->output_bound(1));
    const float one = 1.0f;
    EXPECT_EQ(dec->decode(&one, 1, out.data()), 0u);
    EXPECT_EQ(dec->partial_llrs(), 1u);
    EXPECT_EQ(dec->flush(out.data()), 0u);
    c.mode = termination::terminated;
    EXPECT_EQ(message_of([&] { make_stream_decoder(c, GetParam()); }),
              "node_sync synchronises a stream: it needs termination streaming, not "
              "terminated");
}

INSTANTIATE_TEST_SUITE_P(ConvStreams,
                         StreamBackend,
                         ::testing::Values("reference", "cpu", "cuda"),
                         [](const auto& info) { return info.param; });

TEST(ViterbiStream, CudaDecidesAsTheCpuBitForBit)
{
    // The CUDA stream decoder runs the CPU's segments in the CPU's arithmetic: noisy
    // streams of several codes in random pieces decode to the same bits.
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937_64 rng(test::test_seed());
    for (const auto& k : cuda_stream_cases) {
        viterbi_config c = streaming(k.preset, k.puncture);
        const stream s = make_stream(c, 30000, k.ebn0, rng);
        std::vector<std::int8_t> q(s.llrs.size());
        core::quantize_llrs(s.llrs.data(), q.size(), q.data(), c.int8_scale);
        for (const int in_flight : { 1, 3 }) {
            const std::uint64_t seed = rng();
            std::mt19937_64 cut_cpu(seed), cut_cuda(seed); // the same pieces
            const auto cpu_dec = make_stream_decoder(c, "cpu");
            const auto gpu_dec = make_stream_decoder(c, "cuda");
            gpu_dec->set_batches_in_flight(in_flight);
            const auto cpu = decode_in_pieces(*cpu_dec, s.llrs, 9000, cut_cpu);
            const auto gpu = decode_in_pieces(*gpu_dec, s.llrs, 9000, cut_cuda);
            EXPECT_GT(errors(cpu, s.bits), 0u) << k.preset;
            EXPECT_EQ(gpu, cpu)
                << k.preset << " " << k.puncture << ", " << in_flight << " in flight";
            const auto cpu_int8 = decode_in_pieces(*cpu_dec, q, 9000, cut_cpu);
            const auto gpu_int8 = decode_in_pieces(*gpu_dec, q, 9000, cut_cuda);
            EXPECT_EQ(gpu_int8, cpu_int8) << k.preset << " " << k.puncture << ", int8, "
                                          << in_flight << " in flight";
        }
    }
}

TEST(ViterbiStream, ReferenceEqualsTheReferenceOnTheWholeStream)
{
    // Survivors merge and release bits; the result is exactly full-length Viterbi over
    // the whole stream as one truncated frame, noisy or not, in pieces or not.
    std::mt19937_64 rng(test::test_seed());
    for (const char* rate : { "", "2/3" }) {
        viterbi_config c = streaming("802.11", rate);
        const stream s = make_stream(c, 30000, 1.5, rng);
        viterbi_config frame = c;
        frame.mode = termination::truncated;
        std::vector<std::uint8_t> whole(s.bits.size());
        make_viterbi_decoder(frame, "reference")
            ->decode(int(s.bits.size()), s.llrs.data(), 1, whole.data(), nullptr);
        const auto dec = make_stream_decoder(c, "reference");
        const auto out = decode_in_pieces(*dec, s.llrs, 1000, rng);
        EXPECT_GT(errors(whole, s.bits), 100u);
        EXPECT_EQ(out, whole) << (*rate ? rate : "1/2");
    }
}

TEST(ViterbiStream, SegmentedAgainstTheExactDecoderOnNoisyStreams)
{
    // The default geometry against the exact stream decoder near BER 1e-3 … 1e-4: the
    // error counts agree within statistical noise.
    std::mt19937_64 rng(test::test_seed());
    for (const char* rate : { "", "3/4" }) {
        viterbi_config c = streaming("802.11", rate);
        const stream s = make_stream(c, 300000, *rate ? 4.0 : 3.0, rng);
        const auto exact =
            decode_in_pieces(*make_stream_decoder(c, "reference"), s.llrs, 100000, rng);
        const auto fast =
            decode_in_pieces(*make_stream_decoder(c, "cpu"), s.llrs, 100000, rng);
        const std::size_t exact_errors = errors(exact, s.bits),
                          fast_errors = errors(fast, s.bits);
        std::printf("  %s: %zu bit errors segmented, %zu exact, of %zu\n",
                    *rate ? rate : "1/2",
                    fast_errors,
                    exact_errors,
                    s.bits.size());
        EXPECT_GT(exact_errors, 20u);
        EXPECT_LE(std::fabs(double(fast_errors) - double(exact_errors)),
                  3.0 * std::sqrt(5.0 * double(exact_errors)) + 10.0);
    }
}

TEST(ViterbiStream, BitsAreReleasedWithinOneRunOfTheNewest)
{
    // The segmented decoder holds no bit longer than a segment's run: after each call,
    // every bit more than bits + training + depth steps behind the newest is out.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c;
    c.mode = termination::streaming;
    c.geometry = { 100, 30, 40 };
    const auto dec = make_stream_decoder(c, "cpu");
    const stream s = make_stream(c, 5000, INFINITY, rng);
    std::vector<std::uint8_t> out(dec->output_bound(s.llrs.size()));
    for (std::size_t at = 0; at < s.llrs.size(); at += 33) {
        const std::size_t count = std::min<std::size_t>(33, s.llrs.size() - at);
        dec->decode(s.llrs.data() + at, count, out.data());
        const std::uint64_t received = (at + count) / 2;
        EXPECT_LE(dec->pending_bits(), std::min<std::uint64_t>(received, 170));
    }
}

TEST(ViterbiStream, ACallLongerThanABatchGoesInSeveral)
{
    // One call of more steps than a batch's window holds: its segments go in several
    // batches, which decide what calls of a thousandth of its size decide.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("ccsds");
    const std::size_t bits = stream_decoder::batch_steps + 300000;
    const stream s = make_stream(c, bits, 3.0, rng);
    for (const char* backend : { "cpu", "cuda" }) {
        if (backend == std::string("cuda") && !have_cuda())
            continue;
        const auto dec = make_stream_decoder(c, backend);
        const auto whole = decode_in_pieces(*dec, s.llrs, s.llrs.size(), rng);
        ASSERT_EQ(whole.size(), bits) << backend;
        EXPECT_LT(errors(whole, s.bits), bits / 1000) << backend;
        EXPECT_EQ(decode_in_pieces(*dec, s.llrs, s.llrs.size() / 1000, rng), whole)
            << backend;
    }
}

TEST(ViterbiStream, BadConfigurationsHaveClearErrors)
{
    viterbi_config c;
    EXPECT_EQ(message_of([&] { make_stream_decoder(c, "cpu"); }),
              "a stream decoder needs termination streaming, not terminated: use "
              "make_viterbi_decoder()");
    c.mode = termination::streaming;
    EXPECT_NE(
        message_of([&] { make_stream_decoder(c, "gpu"); }).find("unknown backend 'gpu'"),
        std::string::npos);
    EXPECT_EQ(make_stream_decoder(c, "auto")->backend(), have_cuda() ? "cuda" : "cpu");
    EXPECT_EQ(make_stream_decoder(c, "reference")->backend(), "reference");
    std::vector<float> llrs(10, 1.0f);
    EXPECT_THROW(make_stream_decoder(c, "cpu")->decode(llrs.data(), 10, nullptr),
                 std::invalid_argument);
    // A stream's LLRs keep their type; a new stream may change it.
    const auto dec = make_stream_decoder(c, "cpu");
    std::vector<std::uint8_t> out(dec->output_bound(10));
    std::vector<std::int8_t> q(10, 1);
    dec->decode(llrs.data(), 10, out.data());
    EXPECT_EQ(
        message_of([&] { dec->decode(q.data(), 10, out.data()); }),
        "stream_decoder::decode: this stream's LLRs are float, not int8 (flush() or "
        "reset() starts a new stream)");
    dec->reset();
    EXPECT_EQ(dec->decode(q.data(), 10, out.data()), 0u);
    for (const int n : { 0, 5 })
        EXPECT_EQ(message_of([&] { dec->set_batches_in_flight(n); }),
                  "stream_decoder: batches in flight " + std::to_string(n) +
                      ": use 1 ... 4");
}

TEST(ViterbiBer, SegmentsAndInt8WithinTheirMarginsOfTheExactDecoder)
{
    // The bars at BER 1e-5: segmented decoding (default geometry) within 0.05 dB of the
    // exact decoder, int8 input within 0.1 dB. Checked here a little below that BER,
    // where a short traceback costs more, on the same noisy bits for every decoder (so
    // the comparison is paired): a gap of g dB shows as an error ratio of 10^(g s), s
    // the curve's slope, 1.5 decades per dB for both codes there (docs/journal.md,
    // scripts/viterbi-ber-gap). Fixed seed; about 4 million bits per case.
    const double slope = 1.5;
    struct bar
    {
        const char* rate;
        double ebn0_db;
    };
    for (const bar b : { bar{ "", 3.5 }, bar{ "3/4", 4.5 } }) {
        std::mt19937_64 rng(2026);
        viterbi_config c;
        c.generator = preset("802.11");
        c.punctured = parse_puncturing(b.rate, c.generator);
        const std::string rate = *b.rate ? b.rate : "1/2";
        auto gap = [&](std::size_t errors, std::size_t exact) {
            return std::log10(double(errors) / double(exact)) / slope;
        };
        // A stream: exact, segmented, int8 (the engine's default scale) segmented.
        c.mode = termination::streaming;
        const stream s = make_stream(c, 1 << 22, b.ebn0_db, rng);
        std::vector<std::int8_t> q(s.llrs.size());
        core::quantize_llrs(s.llrs.data(), q.size(), q.data(), c.int8_scale);
        const auto exact =
            decode_in_pieces(*make_stream_decoder(c, "reference"), s.llrs, 1 << 20, rng);
        const auto cpu = make_stream_decoder(c, "cpu");
        const auto fast = decode_in_pieces(*cpu, s.llrs, 1 << 20, rng);
        std::vector<std::uint8_t> int8(s.bits.size() + cpu->output_bound(q.size()));
        std::size_t written = cpu->decode(q.data(), q.size(), int8.data());
        written += cpu->flush(int8.data() + written);
        int8.resize(written);
        const std::size_t e_exact = errors(exact, s.bits), e_fast = errors(fast, s.bits),
                          e_int8 = errors(int8, s.bits);
        std::printf("  %s stream at %.2f dB: bit errors exact %zu, segmented %zu (%+.3f "
                    "dB), int8 %zu (%+.3f dB)\n",
                    rate.c_str(),
                    b.ebn0_db,
                    e_exact,
                    e_fast,
                    gap(e_fast, e_exact),
                    e_int8,
                    gap(e_int8, e_exact));
        ASSERT_GT(e_exact, 150u);
        EXPECT_LE(gap(e_fast, e_exact), 0.05) << rate;
        EXPECT_LE(gap(e_int8, e_exact), 0.1) << rate;
        // No decoder beats maximum likelihood by more than the noise of a few events.
        EXPECT_GE(gap(e_fast, e_exact), -0.05) << rate;
        EXPECT_GE(gap(e_int8, e_exact), -0.05) << rate;

        // Long terminated frames of about 29 segments: exact against segmented.
        c.mode = termination::terminated;
        const int frame_bits = 65536, frames = 64;
        std::mt19937 bit_rng{ unsigned(rng()) };
        const auto bits = random_bits(std::size_t(frame_bits) * frames, bit_rng);
        const auto sent = sent_bits(c, frame_bits, bits);
        const auto llrs =
            awgn_llrs(sent, sigma_at(b.ebn0_db, double(bits.size()) / sent.size()), rng);
        std::vector<std::uint8_t> ref(bits.size()), seg(bits.size());
        make_viterbi_decoder(c, "reference")
            ->decode(frame_bits, llrs.data(), frames, ref.data(), nullptr);
        make_viterbi_decoder(c, "cpu")->decode(
            frame_bits, llrs.data(), frames, seg.data(), nullptr);
        const std::size_t f_exact = errors(ref, bits), f_seg = errors(seg, bits);
        std::printf("  %s frames of %d bits: bit errors exact %zu, segmented %zu (%+.3f "
                    "dB)\n",
                    rate.c_str(),
                    frame_bits,
                    f_exact,
                    f_seg,
                    gap(f_seg, f_exact));
        ASSERT_GT(f_exact, 150u);
        EXPECT_LE(gap(f_seg, f_exact), 0.05) << rate;
        EXPECT_GE(gap(f_seg, f_exact), -0.05) << rate;
    }
}

TEST(ViterbiStreamSoft, LlrsDoNotDependOnHowTheStreamComesInAndTheirSignsAreTheBits)
{
    // The cpu backend's soft output of noisy streams (the fast BCJR over the stream's
    // segments): the bits are those without soft output; the LLRs the same whether the
    // stream comes in one call or in pieces, one batch or several in flight; each one's
    // sign is its bit where it is not 0 (a tie), and within the bound.
    std::mt19937_64 rng(test::test_seed());
    for (const char* rate : { "", "3/4" }) {
        viterbi_config c = streaming("ccsds", rate);
        c.geometry = small_geometry(c.punctured);
        const auto hard = make_stream_decoder(c, "cpu");
        const auto dec = make_stream_decoder(c, "cpu");
        EXPECT_TRUE(dec->gives_soft());
        dec->set_soft_output(true);
        const stream s = make_stream(c, 20000, *rate ? 3.0 : 2.0, rng);
        std::vector<float> whole;
        const auto bits = decode_in_pieces(*dec, s.llrs, s.llrs.size(), rng, &whole);
        EXPECT_EQ(bits, decode_in_pieces(*hard, s.llrs, s.llrs.size(), rng));
        ASSERT_EQ(whole.size(), bits.size());
        std::size_t ties = 0;
        for (std::size_t i = 0; i < whole.size(); ++i) {
            ASSERT_TRUE(std::fabs(whole[i]) <= core::llr_limit) << whole[i];
            ties += whole[i] == 0.0f;
            if (whole[i] != 0.0f)
                ASSERT_EQ(whole[i] < 0.0f, bits[i] == 1) << rate << " bit " << i;
        }
        EXPECT_LT(ties, whole.size() / 50) << rate;
        for (const int in_flight : { 1, 3 }) {
            dec->set_batches_in_flight(in_flight);
            for (const std::size_t most : { std::size_t(5), std::size_t(3001) }) {
                std::vector<float> soft;
                EXPECT_EQ(decode_in_pieces(*dec, s.llrs, most, rng, &soft), bits);
                EXPECT_EQ(soft, whole) << (*rate ? rate : "1/2") << ", calls of up to "
                                       << most << " LLRs, " << in_flight << " in flight";
            }
        }
    }
}

TEST(ViterbiStreamSoft, AShortStreamIsATruncatedFrame)
{
    // A stream shorter than a run, started in state 0 and flushed, is decided as a
    // truncated frame of its bits: the same LLRs as the frame decoder's, bit for bit.
    std::mt19937_64 rng(test::test_seed());
    for (const char* rate : { "", "2/3" }) {
        viterbi_config c = streaming("802.11", rate);
        const int length = 120 + int(rng() % 300) / 6 * 6;
        const stream s = make_stream(c, std::size_t(length), 2.0, rng);
        const auto dec = make_stream_decoder(c, "cpu");
        dec->set_soft_output(true);
        std::vector<float> soft;
        decode_in_pieces(*dec, s.llrs, 97, rng, &soft);
        viterbi_config frames = c;
        frames.mode = termination::truncated;
        const auto frame = make_viterbi_decoder(frames, "cpu");
        ASSERT_EQ(frame->input_length(length), s.llrs.size());
        std::vector<float> want(static_cast<std::size_t>(length));
        frame->decode_soft(
            length, s.llrs.data(), 1, { want.data(), core::soft_output::app });
        EXPECT_EQ(soft, want) << (*rate ? rate : "1/2") << ", " << length << " bits";
    }
}

TEST(ViterbiStreamSoft, CudaGivesTheCpusLlrsBitForBit)
{
    // The CUDA stream decoder's BCJR runs the CPU's over the same segments in the same
    // arithmetic: noisy streams of several codes, float and int8, in random pieces, one
    // batch or several in flight, give the same LLRs.
    if (!have_cuda())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    std::mt19937_64 rng(test::test_seed());
    for (const auto& k : cuda_stream_cases) {
        viterbi_config c = streaming(k.preset, k.puncture);
        const stream s = make_stream(c, 30000, k.ebn0, rng);
        std::vector<std::int8_t> q(s.llrs.size());
        core::quantize_llrs(s.llrs.data(), q.size(), q.data(), c.int8_scale);
        const auto cpu_dec = make_stream_decoder(c, "cpu");
        const auto gpu_dec = make_stream_decoder(c, "cuda");
        ASSERT_TRUE(gpu_dec->gives_soft()) << k.preset;
        cpu_dec->set_soft_output(true);
        gpu_dec->set_soft_output(true);
        for (const int in_flight : { 1, 3 }) {
            const std::uint64_t seed = rng();
            std::mt19937_64 cut_cpu(seed), cut_cuda(seed); // the same pieces
            gpu_dec->set_batches_in_flight(in_flight);
            std::vector<float> cpu, gpu;
            EXPECT_EQ(decode_in_pieces(*gpu_dec, s.llrs, 9000, cut_cuda, &gpu),
                      decode_in_pieces(*cpu_dec, s.llrs, 9000, cut_cpu, &cpu));
            EXPECT_EQ(gpu, cpu)
                << k.preset << " " << k.puncture << ", " << in_flight << " in flight";
            EXPECT_EQ(decode_in_pieces(*gpu_dec, q, 9000, cut_cuda, &gpu),
                      decode_in_pieces(*cpu_dec, q, 9000, cut_cpu, &cpu));
            EXPECT_EQ(gpu, cpu) << k.preset << " " << k.puncture << ", int8, "
                                << in_flight << " in flight";
        }
    }
}

namespace {
class StreamSoftBackend : public backend_test
{
};
} // namespace

TEST_P(StreamSoftBackend, NodeSyncGivesTheLlrsOfItsBitsInTheStreamsSign)
{
    // A stream joined one LLR late and negated: GSM's code is not transparent, so
    // node synchronisation finds the inverted phase and decodes with the LLRs negated.
    // Its LLRs are still in the sign of the stream's: each one's sign is its bit but
    // for ties; the bits are those without soft output.
    std::mt19937_64 rng(test::test_seed());
    viterbi_config c = streaming("gsm");
    c.node_sync = true;
    const stream s = make_stream(c, 20000, 3.0, rng);
    std::vector<float> received(s.llrs.size() + 1, 0.5f);
    for (std::size_t i = 0; i < s.llrs.size(); ++i)
        received[i + 1] = -s.llrs[i];
    const auto hard = make_stream_decoder(c, GetParam());
    const auto dec = make_stream_decoder(c, GetParam());
    ASSERT_TRUE(dec->gives_soft());
    dec->set_soft_output(true);
    std::vector<std::uint8_t> none(dec->output_bound(0));
    std::vector<float> no_values(none.size());
    EXPECT_EQ(dec->wait(none.data(), no_values.data()), 0u); // nothing in flight yet
    std::vector<float> soft;
    const auto bits = decode_in_pieces(*dec, received, 5000, rng, &soft);
    EXPECT_EQ(bits, decode_in_pieces(*hard, received, 5000, rng));
    const std::vector<sync_change> changes = dec->take_sync_changes();
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_TRUE(changes[0].inverted);
    ASSERT_EQ(bits.size(), s.bits.size());
    EXPECT_LT(errors(bits, s.bits), s.bits.size() / 100);
    ASSERT_EQ(soft.size(), bits.size());
    std::size_t ties = 0;
    for (std::size_t i = 0; i < soft.size(); ++i) {
        ties += soft[i] == 0.0f;
        if (soft[i] != 0.0f)
            ASSERT_EQ(soft[i] < 0.0f, bits[i] == 1) << "bit " << i;
    }
    EXPECT_LT(ties, soft.size() / 50);
}

INSTANTIATE_TEST_SUITE_P(ConvStreams,
                         StreamSoftBackend,
                         ::testing::Values("cpu", "cuda"),
                         [](const auto& info) { return info.param; });

TEST(ViterbiStreamSoft, WhereItIsNotGivenOrNotAskedForClearErrors)
{
    viterbi_config c = streaming("ccsds");
    for (const char* backend : { "reference" }) {
        const auto dec = make_stream_decoder(c, backend);
        EXPECT_FALSE(dec->gives_soft());
        EXPECT_EQ(message_of([&] { dec->set_soft_output(true); }),
                  "stream_decoder: soft output is not given by this decoder (reference "
                  "backend): the cpu and cuda backends give it, with soft_algorithm "
                  "max-log, for every code but K = 9 with four outputs");
    }
    viterbi_config log_map = c;
    log_map.soft_algorithm = soft_algorithm::log_map;
    EXPECT_FALSE(make_stream_decoder(log_map, "cpu")->gives_soft());
    const auto dec = make_stream_decoder(c, "cpu");
    std::vector<float> llrs(400, 1.0f), soft(dec->output_bound(400));
    std::vector<std::uint8_t> bits(dec->output_bound(400));
    EXPECT_EQ(
        message_of([&] { dec->decode(llrs.data(), 400, bits.data(), soft.data()); }),
        "stream_decoder::decode: soft values without soft output "
        "(set_soft_output())");
    dec->set_soft_output(true);
    EXPECT_EQ(message_of([&] { dec->decode(llrs.data(), 400, bits.data()); }),
              "stream_decoder::decode: soft is null, and the stream has soft output");
    dec->decode(llrs.data(), 400, bits.data(), soft.data());
    EXPECT_THROW(dec->set_soft_output(false), std::logic_error);
    dec->reset();
    dec->set_soft_output(false);
    dec->decode(llrs.data(), 400, bits.data());
}
