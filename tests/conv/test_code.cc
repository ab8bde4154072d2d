/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The convolutional code definition: presets, parsing, the encoder, puncturing.

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/sim/channel.h>

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <stdexcept>

using namespace gputurbo::conv;

namespace {

std::vector<std::uint8_t> random_bits(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> bits(n);
    for (auto& b : bits)
        b = rng() & 1;
    return bits;
}

std::string message_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

TEST(ConvCode, PresetsAreValidAndReadBack)
{
    for (const auto& name : preset_names()) {
        const code c = preset(name);
        EXPECT_NO_THROW(c.validate()) << name;
        const auto space = c.text().find(' ');
        const code again = parse_code(c.constraint, c.text().substr(space + 1));
        EXPECT_EQ(again.polynomials, c.polynomials) << name;
        EXPECT_EQ(again.inverted, c.inverted) << name;
    }
    EXPECT_EQ(preset("ccsds").text(), "K=7 171,-133");
    EXPECT_EQ(preset("lte").text(), "K=7 133,171,165");
    EXPECT_EQ(preset("cdma-r3").text(), "K=9 557,663,711");
    EXPECT_NE(message_of([] { preset("nasa"); }).find("ccsds, 802.11"),
              std::string::npos);
}

TEST(ConvCode, BadCodesHaveClearErrors)
{
    EXPECT_NE(
        message_of([] { parse_code(10, "1171,1133"); }).find("K=10 is out of range"),
        std::string::npos);
    EXPECT_NE(message_of([] { parse_code(7, "171"); }).find("n = 2 ... 4"),
              std::string::npos);
    EXPECT_NE(message_of([] { parse_code(5, "171,133"); }).find("wider than K=5"),
              std::string::npos);
    // Digits beyond 32 or 64 bits are refused as wide, not cut down or overflowed.
    const std::string wide = message_of([] { parse_code(7, "40000000171,133"); });
    EXPECT_NE(wide.find("polynomial 40000000171 (octal) is wider than K=7 bits"),
              std::string::npos)
        << wide;
    const std::string wider =
        message_of([] { parse_code(7, "133," + std::string(30, '7')); });
    EXPECT_NE(wider.find("is wider than K=7 bits"), std::string::npos) << wider;
    EXPECT_EQ(message_of([] { parse_code(9, "0000000753,561"); }), "(accepted)");
    EXPECT_NE(message_of([] { parse_code(7, "171,0"); }).find("taps nothing"),
              std::string::npos);
    EXPECT_NE(message_of([] { parse_code(7, "171,139"); }).find("not an octal"),
              std::string::npos);
    EXPECT_NE(message_of([] { parse_termination("wrapped"); }).find("tail-biting"),
              std::string::npos);
}

TEST(ConvEncoder, TextbookExample)
{
    // K=3 (7, 5): 1011 -> 11 10 00 01, then the tail 01 11.
    const code c = parse_code(3, "7,5");
    const std::vector<std::uint8_t> bits = { 1, 0, 1, 1 };
    std::vector<std::uint8_t> out(coded_length(c, termination::terminated, 4));
    encode(c, termination::terminated, 4, bits.data(), 1, out.data());
    EXPECT_EQ(out, (std::vector<std::uint8_t>{ 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1 }));
    out.resize(coded_length(c, termination::truncated, 4));
    encode(c, termination::truncated, 4, bits.data(), 1, out.data());
    EXPECT_EQ(out, (std::vector<std::uint8_t>{ 1, 1, 1, 0, 0, 0, 0, 1 }));
}

TEST(ConvEncoder, InvertedOutputIsTheComplement)
{
    const auto bits = random_bits(200, 1);
    const code plain = parse_code(7, "171,133"), ccsds = preset("ccsds");
    std::vector<std::uint8_t> a(coded_length(plain, termination::terminated, 200)),
        b(a.size());
    encode(plain, termination::terminated, 200, bits.data(), 1, a.data());
    encode(ccsds, termination::terminated, 200, bits.data(), 1, b.data());
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(b[i], i % 2 ? a[i] ^ 1 : a[i]) << i;
}

TEST(ConvEncoder, TailBitingStartsAndEndsInOneState)
{
    // A tail-biting frame is what a stream gives on the frame's second pass: the
    // encoder then starts in the state the frame's last K-1 bits leave.
    for (const auto& name : preset_names()) {
        const code c = preset(name);
        for (int frame : { c.constraint - 1, 13, 100 }) {
            const auto bits = random_bits(std::size_t(frame), unsigned(frame));
            std::vector<std::uint8_t> twice(bits);
            twice.insert(twice.end(), bits.begin(), bits.end());
            const std::size_t n = coded_length(c, termination::tail_biting, frame);
            std::vector<std::uint8_t> stream(2 * n), biting(n);
            encode(c, termination::streaming, frame, twice.data(), 2, stream.data());
            encode(c, termination::tail_biting, frame, bits.data(), 1, biting.data());
            EXPECT_TRUE(std::equal(biting.begin(), biting.end(), stream.begin() + n))
                << name << " frame " << frame;
        }
    }
    const code c = preset("802.11");
    std::vector<std::uint8_t> out(64);
    EXPECT_NE(message_of([&] {
                  encode(c, termination::tail_biting, 5, out.data(), 1, out.data());
              }).find("K-1=6 bits"),
              std::string::npos);
}

TEST(ConvEncoder, StreamingCarriesTheStateAcrossCalls)
{
    const code c = preset("gsm");
    const auto bits = random_bits(300, 3);
    std::vector<std::uint8_t> whole(coded_length(c, termination::streaming, 300)),
        parts(whole.size());
    encode(c, termination::streaming, 300, bits.data(), 1, whole.data());
    unsigned state = 0;
    encode(c, termination::streaming, 100, bits.data(), 2, parts.data(), &state);
    encode(
        c, termination::streaming, 100, bits.data() + 200, 1, parts.data() + 400, &state);
    EXPECT_EQ(parts, whole);
}

TEST(ConvPuncturing, NamedRatesFollowThe171And133Outputs)
{
    // DVB's X (171) and Y (133) rows, in whichever order the code has them.
    const puncturing p = parse_puncturing("3/4", preset("802.11")); // 133, 171
    EXPECT_EQ(p.keep,
              (std::vector<std::vector<std::uint8_t>>{ { 1, 1, 0 }, { 1, 0, 1 } }));
    const puncturing q = parse_puncturing("3/4", preset("ccsds")); // 171, -133
    EXPECT_EQ(q.keep,
              (std::vector<std::vector<std::uint8_t>>{ { 1, 0, 1 }, { 1, 1, 0 } }));
    for (const char* rate : { "2/3", "3/4", "5/6", "7/8" }) {
        const puncturing r = parse_puncturing(rate, preset("dvb"));
        const int k = rate[0] - '0', n = rate[2] - '0';
        // k information bits per period become n sent bits.
        EXPECT_EQ(r.period(), k) << rate;
        EXPECT_EQ(r.kept_per_period(2), n) << rate;
    }
    EXPECT_TRUE(parse_puncturing("", preset("gsm")).none());
    EXPECT_NE(
        message_of([] { parse_puncturing("3/4", preset("gsm")); }).find("171 and 133"),
        std::string::npos);
    EXPECT_NE(message_of([] {
                  parse_puncturing("000,000", preset("gsm"));
              }).find("sends no bit"),
              std::string::npos);
    EXPECT_NE(message_of([] {
                  parse_puncturing("11,1", preset("gsm"));
              }).find("differ in length"),
              std::string::npos);
    EXPECT_NE(message_of([] {
                  parse_puncturing("11", preset("lte"));
              }).find("1 pattern(s) for a code of 3 outputs"),
              std::string::npos);
    EXPECT_NE(
        message_of([] { parse_puncturing("12,11", preset("gsm")); }).find("0/1 pattern"),
        std::string::npos);
}

TEST(ConvPuncturing, DepunctureInvertsPuncture)
{
    const code c = preset("802.11");
    const auto t = termination::terminated;
    const int frame = 101, frames = 3;
    const puncturing p = parse_puncturing("3/4", c);
    const std::size_t n = coded_length(c, t, frame), m = punctured_length(c, p, t, frame);
    // 107 steps: 35 periods of 4 sent bits, then 2 steps of 3.
    EXPECT_EQ(m, std::size_t(35 * 4 + 3));
    const auto bits = random_bits(std::size_t(frame) * frames, 4);
    std::vector<std::uint8_t> coded(n * frames), sent(m * frames);
    encode(c, t, frame, bits.data(), frames, coded.data());
    puncture(c, p, t, frame, coded.data(), frames, sent.data());
    std::vector<float> received(sent.begin(), sent.end()), llrs(n * frames);
    for (auto& v : received)
        v = v ? -1.0f : 1.0f;
    depuncture(c, p, t, frame, received.data(), frames, llrs.data());
    std::size_t erased = 0;
    for (std::size_t i = 0; i < llrs.size(); ++i) {
        const std::size_t k = i % n / 2, o = i % 2;
        if (!p.keep[o][k % 3]) {
            EXPECT_EQ(llrs[i], 0.0f) << i;
            ++erased;
        } else
            EXPECT_EQ(llrs[i], coded[i] ? -1.0f : 1.0f) << i;
    }
    EXPECT_EQ(erased, (n - m) * frames);
}

TEST(ConvCode, FrameSizesAreChecked)
{
    const code c = preset("802.11");
    EXPECT_NO_THROW(check_frame_bits(c, termination::terminated, 1));
    EXPECT_NO_THROW(check_frame_bits(c, termination::tail_biting, 6));
    for (const int frame : { 0, -1 })
        EXPECT_NE(message_of([&] {
                      check_frame_bits(c, termination::truncated, frame);
                  }).find("is out of range: a frame has at least 1 bit"),
                  std::string::npos)
            << frame;
    EXPECT_NE(message_of([&] {
                  check_frame_bits(c, termination::tail_biting, 5);
              }).find("shorter than the tail-biting state of K-1=6 bits"),
              std::string::npos);
}

TEST(ConvCode, CatastrophicCodesAreRecognisedAndRefused)
{
    // (1 + D, 1 + D^2) share the factor 1 + D: the textbook catastrophic code. gsm's
    // code punctured by 110,101 sends the same bits on two paths that never merge
    // (found by search); by 111,100 it does not, nor do the named rates of the K=7 code.
    EXPECT_TRUE(catastrophic(parse_code(3, "6,5"), {}));
    EXPECT_FALSE(catastrophic(parse_code(3, "7,5"), {}));
    const code gsm = preset("gsm");
    EXPECT_TRUE(catastrophic(gsm, parse_puncturing("110,101", gsm)));
    EXPECT_TRUE(catastrophic(gsm, parse_puncturing("110,011", gsm)));
    EXPECT_FALSE(catastrophic(gsm, parse_puncturing("111,100", gsm)));
    for (const auto& name : preset_names())
        EXPECT_FALSE(catastrophic(preset(name), {})) << name;
    const code k7 = preset("ccsds");
    for (const char* rate : { "2/3", "3/4", "5/6", "7/8" })
        EXPECT_FALSE(catastrophic(k7, parse_puncturing(rate, k7))) << rate;
    viterbi_config c;
    c.generator = gsm;
    c.punctured = parse_puncturing("110,101", gsm);
    try {
        c.validate();
        ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()),
                  "puncturing 110,101 makes K=5 23,33 catastrophic: two paths from "
                  "different states send the same bits for ever, so no decoder can tell "
                  "them apart; choose another pattern");
    }
}

TEST(ConvCode, SimulatedLinkOfAConfigSendsWhatItsDecoderReads)
{
    viterbi_config c;
    c.generator = preset("ccsds");
    c.mode = termination::tail_biting;
    c.punctured = parse_puncturing("3/4", c.generator);
    const auto setup = gputurbo::sim::conv_setup::of(c, 96);
    EXPECT_EQ(setup.generator.text(), c.generator.text());
    EXPECT_EQ(setup.mode, c.mode);
    EXPECT_EQ(setup.frame_bits, 96);
    EXPECT_EQ(setup.sent_length(),
              punctured_length(c.generator, c.punctured, c.mode, 96));
}
