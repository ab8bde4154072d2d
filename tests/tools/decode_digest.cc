/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-digest: decodes the same noisy codewords under every configuration and prints
// one line per configuration with 64-bit digests of the hard bits and of the statuses.
// Two builds of the engine that print the same lines for the same seed decode alike, bit
// for bit (scripts/compare-builds, scripts/prebuilt-variants). The inputs come from a
// PRNG of this file alone, so that they do not depend on the engine being compared.
// Standard output holds only those deterministic lines; timing and the device go to
// standard error.

// --- Engine API shim: the only part that knows where the engine keeps its names. ------
#if __has_include(<gnuradio/gputurbo/engine/turbo/decoder.h>)
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>
namespace api {
using gputurbo::core::quantize_llrs;
#ifdef GPUTURBO_LTE_CRC_API // one enum for the four CRCs of 36.212
using gputurbo::lte::attach_crc;
constexpr auto crc24a = gputurbo::lte::crc::crc24a;
constexpr auto crc24b = gputurbo::lte::crc::crc24b;
#else
using gputurbo::lte::crc24;
inline void attach_crc(crc24 type, std::uint8_t* bits, std::size_t n)
{
    gputurbo::lte::attach_crc24(type, bits, n);
}
constexpr auto crc24a = crc24::a;
constexpr auto crc24b = crc24::b;
#endif
using gputurbo::turbo::codeword_length;
using gputurbo::turbo::codeword_status;
using gputurbo::turbo::decoder_config;
using gputurbo::turbo::encode;
using gputurbo::turbo::make_decoder;
using gputurbo::turbo::parse_algorithm;
using gputurbo::turbo::parse_arithmetic;
using gputurbo::turbo::parse_guard;
using gputurbo::turbo::parse_stop_rule;
//! The P a decoder runs at K (0 in its config means automatic).
inline int subblocks_of(const gputurbo::turbo::decoder& d, int K)
{
    return d.subblocks(K);
}
} // namespace api
#else
#include <gnuradio/gputurbo/engine/decoder.h>
namespace api {
using gputurbo::codeword_status;
using gputurbo::decoder_config;
using gputurbo::make_decoder;
using gputurbo::parse_algorithm;
using gputurbo::parse_arithmetic;
using gputurbo::parse_guard;
using gputurbo::parse_stop_rule;
using gputurbo::quantize_llrs;
using gputurbo::lte::codeword_length;
using gputurbo::lte::crc24;
using gputurbo::lte::encode;
inline void attach_crc(crc24 type, std::uint8_t* bits, std::size_t n)
{
    gputurbo::lte::attach_crc24(type, bits, n);
}
constexpr auto crc24a = crc24::a;
constexpr auto crc24b = crc24::b;
inline int subblocks_of(const gputurbo::decoder& d, int) { return d.config().subblocks; }
} // namespace api
#endif
// The convolutional codes (--code conv), where the engine has them.
#if __has_include(<gnuradio/gputurbo/engine/conv/decoder.h>)
#include <gnuradio/gputurbo/engine/conv/decoder.h>
#define GPUTURBO_DIGEST_CONV
#endif
// ---------------------------------------------------------------------------------------

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* const usage =
    "usage: gputurbo-digest [--backend cpu|cuda|reference] [--seed N] [--quick]\n"
    "                       [--arithmetic int16,float32] [--code turbo|conv]\n"
    "Decodes fresh noisy LTE turbo codewords (a pure function of --seed) under\n"
    "every algorithm x guard x early stop x arithmetic, for several K and\n"
    "sub-block counts, with float and (a subset) int8 input, and prints per\n"
    "configuration a digest of the hard bits and one of the statuses.\n"
    "  --quick       fewer sizes and codewords\n"
    "  --arithmetic  default int16,float32 on cuda, float32 elsewhere (the CPU\n"
    "                backends decode in float)\n"
    "  --code conv   Viterbi decoding instead: frames of every preset code,\n"
    "                termination and puncturing, short, one segment and cut into\n"
    "                segments, float, int8 and int4 input; and streams\n";

struct usage_error : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Our own generator, so that both builds see the same inputs whatever engine helpers do.
class splitmix64
{
public:
    explicit splitmix64(std::uint64_t seed) : d_state(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (d_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // (0, 1]: never 0, so that log() is finite.
    double uniform() { return double((next() >> 11) + 1) * 0x1.0p-53; }

private:
    std::uint64_t d_state;
};

class fnv1a64
{
public:
    void add(const void* data, std::size_t n)
    {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i)
            d_hash = (d_hash ^ p[i]) * 0x100000001b3ULL;
    }
    void add_u32(std::uint32_t v) // little-endian, whatever the host
    {
        const unsigned char b[4] = { static_cast<unsigned char>(v),
                                     static_cast<unsigned char>(v >> 8),
                                     static_cast<unsigned char>(v >> 16),
                                     static_cast<unsigned char>(v >> 24) };
        add(b, 4);
    }
    std::uint64_t value() const { return d_hash; }

private:
    std::uint64_t d_hash = 0xcbf29ce484222325ULL;
};

// What the frames of an input set end with: no CRC, CRC-24A or CRC-24B.
enum class frame_crc { none, a, b };

struct input_set
{
    std::vector<std::uint8_t> sent; // n * K
    std::vector<float> llrs;        // n * (3K+12)
    std::vector<std::int8_t> llrs_i8;
};

constexpr float int8_scale = 8.0f;
constexpr double two_pi = 6.283185307179586476925286766559;

// Frames alternate over the Eb/N0 points, chosen per K around its waterfall at 8
// iterations, so that some frames fail and early stopping stops at varied iterations.
std::vector<double> ebn0_points(int K)
{
    if (K <= 40)
        return { 2.0, 3.0 };
    if (K <= 512)
        return { 1.0, 1.4 };
    if (K <= 1024)
        return { 0.7, 1.1 };
    return { 0.3, 0.7 };
}

input_set make_inputs(std::uint64_t seed, int K, frame_crc crc, std::size_t n)
{
    splitmix64 rng(seed ^
                   (std::uint64_t(K) << 8 | std::uint64_t(crc)) * 0xd1b54a32d192ed03ULL);
    input_set s;
    s.sent.resize(n * K);
    for (auto& b : s.sent)
        b = std::uint8_t(rng.next() >> 63);
    if (crc != frame_crc::none)
        for (std::size_t i = 0; i < n; ++i)
            api::attach_crc(crc == frame_crc::a ? api::crc24a : api::crc24b,
                            s.sent.data() + i * K,
                            std::size_t(K));

    const std::size_t N = api::codeword_length(K);
    std::vector<std::uint8_t> coded(n * N);
    api::encode(K, s.sent.data(), n, coded.data());

    // BPSK 0 -> +1, AWGN, L = 2y / sigma^2 (L > 0 means 0); Box-Muller uses both outputs.
    const auto points = ebn0_points(K);
    const double rate = double(K) / double(N);
    s.llrs.resize(n * N);
    for (std::size_t i = 0; i < n; ++i) {
        const double ebn0 = std::pow(10.0, points[i % points.size()] / 10.0);
        const double sigma = std::sqrt(1.0 / (2.0 * rate * ebn0));
        const double gain = 2.0 / (sigma * sigma);
        for (std::size_t j = 0; j < N; j += 2) {
            const double radius = sigma * std::sqrt(-2.0 * std::log(rng.uniform()));
            const double angle = two_pi * rng.uniform();
            const double noise[2] = { radius * std::cos(angle),
                                      radius * std::sin(angle) };
            for (std::size_t k = j; k < std::min(j + 2, N); ++k) {
                const double x = coded[i * N + k] ? -1.0 : 1.0;
                s.llrs[i * N + k] = float(gain * (x + noise[k - j]));
            }
        }
    }
    // Every 4th frame 30 times stronger: LLRs far beyond the int16 input's saturation,
    // so that branch metrics and extrinsic values reach their limits (the overflow
    // bounds of turbo/fixed_point.h).
    for (std::size_t i = 3; i < n; i += 4)
        for (std::size_t k = 0; k < N; ++k)
            s.llrs[i * N + k] *= 30.0f;
    s.llrs_i8.resize(s.llrs.size());
    api::quantize_llrs(s.llrs.data(), s.llrs.size(), s.llrs_i8.data(), int8_scale);
    return s;
}

// P of sub-blocks of about 32 bits (K / the smallest divisor of K in 32 … 128 that is a
// multiple of 8, else the smallest one >= 32), the CUDA backend's automatic choice
// (written out: the baseline of a comparison may choose otherwise); given explicitly to
// the CPU so that guarding matters.
int subblocks_of_32(int K)
{
    for (int w = 32; w <= std::min(K, 128); ++w)
        if (K % w == 0 && w % 8 == 0)
            return K / w;
    for (int w = 32; w < K; ++w)
        if (K % w == 0)
            return K / w;
    return 1;
}

struct shape
{
    int K;
    bool automatic; // subblocks = 0 on cuda (the engine's choice), subblocks_of_32
                    // elsewhere
    std::size_t n;  // codewords per configuration
};

std::vector<std::string> split(const std::string& list)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start)
            items.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

// The run's last line (on stderr, apart from the digests): how many configurations, how
// long, on what. Returns the exit status.
int finish(std::chrono::steady_clock::time_point start,
           std::size_t configurations,
           const std::string& device)
{
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr,
                 "gputurbo-digest: %zu configurations in %.1f s on %s\n",
                 configurations,
                 seconds,
                 device.c_str());
    return 0;
}

#ifdef GPUTURBO_DIGEST_CONV
namespace conv = gputurbo::conv;

// Noisy LLRs of n frames' sent coded bits (count each): BPSK over AWGN, frames
// alternating between a noisy and a clean Eb/N0; every 4th frame 30 times stronger (the
// quantisation's clipping), every 5th with NaN and +-Inf among its LLRs, frame 6 erased.
std::vector<float> conv_llrs(splitmix64& rng,
                             const std::vector<std::uint8_t>& sent,
                             std::size_t n,
                             double rate)
{
    const std::size_t count = sent.size() / n;
    std::vector<float> llrs(sent.size());
    for (std::size_t i = 0; i < n; ++i) {
        const double ebn0 = std::pow(10.0, (i % 2 ? 3.0 : 1.0) / 10.0);
        const double sigma = std::sqrt(1.0 / (2.0 * rate * ebn0));
        const double gain = (i % 4 == 3 ? 30.0 : 1.0) * 2.0 / (sigma * sigma);
        for (std::size_t k = i * count; k < (i + 1) * count; ++k) {
            const double noise = sigma * std::sqrt(-2.0 * std::log(rng.uniform())) *
                                 std::cos(two_pi * rng.uniform());
            llrs[k] = float(gain * ((sent[k] ? -1.0 : 1.0) + noise));
            if (i % 5 == 4 && k % 7 == 0)
                llrs[k] = k % 3 == 0   ? NAN
                          : k % 3 == 1 ? INFINITY * (sent[k] ? -1.0f : 1.0f)
                                       : -INFINITY * (sent[k] ? -1.0f : 1.0f);
            if (i == 6)
                llrs[k] = 0.0f;
        }
    }
    return llrs;
}

struct code_case
{
    std::string name; // a preset, or "K=<k> <polys>"
    std::vector<std::string> puncturings;
};

std::vector<code_case> conv_code_cases()
{
    return {
        { "802.11", { "none", "3/4", "7/8" } },
        { "ccsds", { "none", "2/3" } },
        { "gsm", { "none" } },
        { "lte", { "none" } },
        { "cdma-r2", { "none", "110,011" } },
        { "cdma-r3", { "none" } },
        { "K=3 7,5,7,5", { "none" } },
    };
}

auto code_of(const std::string& name)
{
    if (name.rfind("K=", 0) != 0)
        return conv::preset(name);
    const std::size_t space = name.find(' ');
    return conv::parse_code(std::stoi(name.substr(2, space - 2)), name.substr(space + 1));
}

struct frame_shape
{
    int bits;
    std::size_t n;
    conv::segment_geometry geometry; // 0s: derived
};

// Short frames, frames of one segment, frames cut into segments, and the same frames
// under a geometry of short segments.
std::vector<frame_shape> conv_frame_shapes(bool quick)
{
    return quick ? std::vector<frame_shape>{ { 40, 40, {} }, { 2048, 33, {} } }
                 : std::vector<frame_shape>{ { 8, 70, {} },
                                             { 40, 70, {} },
                                             { 2048, 37, {} },
                                             { 9000, 7, {} },
                                             { 2048, 9, { 96, 40, 48 } } };
}

// The lines printed so far (which also seeds the next inputs) and the device decoding.
struct conv_tally
{
    std::size_t configurations = 0;
    std::string device;
};

// A configuration's line: what ran, then the bit errors against the bits sent and the
// digests of the decoded bits and of the statuses.
void print_conv_line(conv_tally& tally,
                     const std::string& what,
                     const std::vector<std::uint8_t>& sent_bits,
                     const std::vector<std::uint8_t>& bits,
                     const fnv1a64& status,
                     std::uint64_t passed)
{
    fnv1a64 bits_hash;
    bits_hash.add(bits.data(), bits.size());
    std::uint64_t errors = 0;
    for (std::size_t k = 0; k < bits.size(); ++k)
        errors += bits[k] != sent_bits[k];
    std::printf("%s bit_errors=%" PRIu64 " passed=%" PRIu64 " bits=%016" PRIx64
                " status=%016" PRIx64 "\n",
                what.c_str(),
                errors,
                passed,
                bits_hash.value(),
                status.value());
    ++tally.configurations;
}

// The n frames of a shape: their bits, and the LLRs of what was sent as float, int8 and
// int4 (packed).
struct conv_frames
{
    std::vector<std::uint8_t> bits;
    std::vector<float> llrs;
    std::vector<std::int8_t> int8;
    std::vector<gputurbo::core::int4_pair> int4;
};

conv_frames make_conv_frames(const conv::viterbi_config& c,
                             const frame_shape& sh,
                             std::uint64_t seed,
                             std::size_t configurations)
{
    const int F = sh.bits;
    const std::size_t n = sh.n;
    splitmix64 rng(
        seed ^ (std::uint64_t(F) << 20 | std::uint64_t(c.mode) << 8 | configurations) *
                   0xd1b54a32d192ed03ULL);
    conv_frames frames;
    frames.bits.resize(n * F);
    for (auto& b : frames.bits)
        b = std::uint8_t(rng.next() >> 63);
    std::vector<std::uint8_t> coded(n * conv::coded_length(c.generator, c.mode, F));
    conv::encode(c.generator, c.mode, F, frames.bits.data(), n, coded.data());
    const std::size_t len = conv::punctured_length(c.generator, c.punctured, c.mode, F);
    std::vector<std::uint8_t> sent(n * len);
    conv::puncture(c.generator, c.punctured, c.mode, F, coded.data(), n, sent.data());
    frames.llrs = conv_llrs(rng, sent, n, double(F) / double(len));
    const std::vector<float>& llrs = frames.llrs;
    std::vector<std::int8_t> q4(llrs.size());
    frames.int8.resize(llrs.size());
    api::quantize_llrs(llrs.data(), llrs.size(), frames.int8.data(), int8_scale);
    api::quantize_llrs(llrs.data(), llrs.size(), q4.data(), int8_scale, 4);
    frames.int4.resize(gputurbo::core::int4_bytes(q4.size()));
    gputurbo::core::pack_int4(q4.data(), q4.size(), frames.int4.data());
    return frames;
}

template <class T>
std::vector<T> negated(std::vector<T> values)
{
    for (auto& v : values)
        v = T(-v);
    return values;
}

// A digest of the statuses (iterations and passed of each), and how many passed.
std::pair<fnv1a64, std::uint64_t>
status_digest(const std::vector<gputurbo::core::codeword_status>& status)
{
    fnv1a64 status_hash;
    std::uint64_t passed = 0;
    for (const auto& st : status) {
        status_hash.add_u32(std::uint32_t(st.iterations));
        status_hash.add_u32(st.passed ? 1u : 0u);
        passed += st.passed;
    }
    return { status_hash, passed };
}

std::string frame_line(const conv::viterbi_config& c,
                       const std::string& punct,
                       const frame_shape& sh,
                       bool invert,
                       const char* input)
{
    const auto g = conv::derived_geometry(c);
    char what[256];
    std::snprintf(what,
                  sizeof what,
                  "code=\"%s\" puncture=%s mode=%s frame_bits=%d "
                  "n=%zu geometry=%d/%d/%d invert=%d input=%s",
                  c.generator.text().c_str(),
                  punct.c_str(),
                  conv::to_string(c.mode),
                  sh.bits,
                  sh.n,
                  g.bits,
                  g.training,
                  g.depth,
                  int(invert),
                  input);
    return what;
}

// The frames of a shape decoded from each input type, in the engine's LLR convention
// and (frames of 2048 bits) in the other, float and int8; a line each.
void digest_conv_frames(conv::viterbi_config c,
                        const std::string& backend,
                        const std::string& punct,
                        const frame_shape& sh,
                        std::uint64_t seed,
                        conv_tally& tally)
{
    const int F = sh.bits;
    const std::size_t n = sh.n;
    const conv_frames in = make_conv_frames(c, sh, seed, tally.configurations);
    for (const bool invert : { false, true }) {
        if (invert && F != 2048)
            continue;
        c.invert_llr = invert;
        auto dec = conv::make_viterbi_decoder(c, backend);
        tally.device = dec->device();
        // inverted: the same values in the other convention
        const std::vector<float> llrs = invert ? negated(in.llrs) : in.llrs;
        const std::vector<std::int8_t> q = invert ? negated(in.int8) : in.int8;
        for (const char* input : { "float", "int8", "int4" }) {
            if (invert && input == std::string("int4"))
                continue;
            std::vector<std::uint8_t> out(n * F, 0xff);
            std::vector<gputurbo::core::codeword_status> status(n);
            if (input == std::string("float"))
                dec->decode(F, llrs.data(), n, out.data(), status.data());
            else if (input == std::string("int8"))
                dec->decode(F, q.data(), n, out.data(), status.data());
            else
                dec->decode(F, in.int4.data(), n, out.data(), status.data());
            const auto [status_hash, passed] = status_digest(status);
            print_conv_line(tally,
                            frame_line(c, punct, sh, invert, input),
                            in.bits,
                            out,
                            status_hash,
                            passed);
        }
    }
}

// A stream of total bits of the code: the bits, and the LLRs of what was sent, float
// and int8.
struct conv_stream
{
    std::vector<std::uint8_t> bits;
    std::vector<float> llrs;
    std::vector<std::int8_t> int8;
};

conv_stream make_conv_stream(const conv::viterbi_config& c,
                             std::size_t total,
                             std::uint64_t seed,
                             std::size_t configurations)
{
    splitmix64 rng(seed ^ (total + configurations) * 0x9e3779b97f4a7c15ULL);
    conv_stream s;
    s.bits.resize(total);
    for (auto& b : s.bits)
        b = std::uint8_t(rng.next() >> 63);
    std::vector<std::uint8_t> coded(conv::coded_length(c.generator, c.mode, int(total)));
    conv::encode(c.generator, c.mode, int(total), s.bits.data(), 1, coded.data());
    const std::size_t len =
        conv::punctured_length(c.generator, c.punctured, c.mode, int(total));
    std::vector<std::uint8_t> sent(len);
    conv::puncture(
        c.generator, c.punctured, c.mode, int(total), coded.data(), 1, sent.data());
    // 8 pieces alternating in noise, one of them 30 times stronger.
    for (std::size_t piece = 0; piece < 8; ++piece) {
        const std::size_t from = len * piece / 8, to = len * (piece + 1) / 8;
        std::vector<std::uint8_t> part(sent.begin() + from, sent.begin() + to);
        const auto l = conv_llrs(rng, part, 1, double(total) / double(len));
        for (float v : l)
            s.llrs.push_back(piece == 3 ? 30.0f * v : v);
    }
    s.int8.resize(s.llrs.size());
    api::quantize_llrs(s.llrs.data(), s.llrs.size(), s.int8.data(), int8_scale);
    return s;
}

// The bits a stream decoder gives for the stream fed in calls of uneven sizes (a step's
// LLRs split between calls too), then flushed.
template <class stream_decoder>
std::vector<std::uint8_t>
decode_stream(stream_decoder& dec, const conv_stream& s, bool int8)
{
    std::vector<std::uint8_t> out(s.bits.size() + dec.output_bound(0));
    std::size_t written = 0;
    for (std::size_t at = 0, call = 0; at < s.llrs.size(); ++call) {
        const std::size_t count =
            std::min(s.llrs.size() - at, std::size_t(1 + (call * 7919) % 9001));
        std::vector<std::uint8_t> part(dec.output_bound(count));
        const std::size_t got = int8 ? dec.decode(s.int8.data() + at, count, part.data())
                                     : dec.decode(s.llrs.data() + at, count, part.data());
        std::copy_n(part.begin(), got, out.begin() + written);
        written += got;
        at += count;
    }
    std::vector<std::uint8_t> rest(dec.output_bound(0));
    const std::size_t got = dec.flush(rest.data());
    std::copy_n(rest.begin(), got, out.begin() + written);
    written += got;
    out.resize(written);
    return out;
}

// A stream of the code (c.mode streaming), float and int8; a line each.
void digest_conv_stream(const conv::viterbi_config& c,
                        const std::string& backend,
                        const std::string& punct,
                        std::size_t total,
                        std::uint64_t seed,
                        conv_tally& tally)
{
    const conv_stream s = make_conv_stream(c, total, seed, tally.configurations);
    for (const bool int8 : { false, true }) {
        auto dec = conv::make_stream_decoder(c, backend);
        std::vector<std::uint8_t> out = decode_stream(*dec, s, int8);
        const std::size_t written = out.size();
        const auto g = conv::derived_geometry(c);
        char what[256];
        std::snprintf(what,
                      sizeof what,
                      "code=\"%s\" puncture=%s mode=streaming bits=%zu "
                      "geometry=%d/%d/%d input=%s written=%zu",
                      c.generator.text().c_str(),
                      punct.c_str(),
                      total,
                      g.bits,
                      g.training,
                      g.depth,
                      int8 ? "int8" : "float",
                      written);
        out.resize(std::min(out.size(), s.bits.size()));
        print_conv_line(tally, what, s.bits, out, fnv1a64{}, 0);
    }
}

// --code conv: frames of every preset code, termination and puncturing (a shape each:
// short frames, frames of one segment, frames cut into segments, and the same frames
// under a geometry of short segments), float, int8 and int4 input; then streams, float
// and int8, fed in calls of uneven sizes.
int conv_digest(const std::string& backend, std::uint64_t seed, bool quick)
{
    const std::vector<frame_shape> shapes = conv_frame_shapes(quick);
    const std::vector<conv::termination> modes = { conv::termination::terminated,
                                                   conv::termination::truncated,
                                                   conv::termination::tail_biting };
    std::cout << "# gputurbo-digest code=conv backend=" << backend << " seed=" << seed
              << (quick ? " quick" : "") << "\n";
    const auto start = std::chrono::steady_clock::now();
    conv_tally tally;
    for (const code_case& cc : conv_code_cases())
        for (const std::string& punct : cc.puncturings) {
            conv::viterbi_config c;
            c.generator = code_of(cc.name);
            c.punctured = conv::parse_puncturing(punct, c.generator);
            c.int8_scale = int8_scale;
            for (const conv::termination mode : modes)
                for (const frame_shape& sh : shapes) {
                    c.mode = mode;
                    c.geometry = sh.geometry;
                    digest_conv_frames(c, backend, punct, sh, seed, tally);
                }
            std::fflush(stdout);

            c.mode = conv::termination::streaming;
            c.invert_llr = false;
            for (const conv::segment_geometry& geometry :
                 { conv::segment_geometry{}, conv::segment_geometry{ 96, 40, 48 } }) {
                c.geometry = geometry;
                digest_conv_stream(c, backend, punct, quick ? 20000 : 60000, seed, tally);
            }
            std::fflush(stdout);
        }
    return finish(start, tally.configurations, tally.device);
}
#endif

struct digest_options
{
    std::string backend = "cpu";
    std::uint64_t seed = 1;
    bool quick = false;
    std::optional<std::string> arithmetics;
    std::string code = "turbo";
};

// The command line's options; none after --help, which prints the usage.
std::optional<digest_options> parse_options(int argc, char** argv)
{
    digest_options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw usage_error(flag + " needs a value");
            return argv[++i];
        };
        if (flag == "--help" || flag == "-h") {
            std::cout << usage;
            return std::nullopt;
        } else if (flag == "--backend")
            o.backend = value();
        else if (flag == "--seed") {
            const std::string v = value();
            char* end = nullptr;
            o.seed = std::strtoull(v.c_str(), &end, 0);
            if (v.empty() || *end != '\0')
                throw usage_error("--seed: not a number: '" + v + "'");
        } else if (flag == "--quick")
            o.quick = true;
        else if (flag == "--arithmetic")
            o.arithmetics = value();
        else if (flag == "--code")
            o.code = value();
        else
            throw usage_error("unknown option " + flag);
    }
    return o;
}

std::vector<shape> turbo_shapes(bool quick)
{
    return quick ? std::vector<shape>{ { 40, true, 32 }, { 1024, true, 16 } }
                 : std::vector<shape>{ { 40, true, 256 },  { 104, true, 128 },
                                       { 512, true, 128 }, { 1024, true, 128 },
                                       { 1008, true, 64 }, { 1024, false, 128 },
                                       { 6144, true, 48 } };
}

// One configuration of the turbo decoder.
struct turbo_case
{
    std::string algo, guard, stop, arith;
    bool int8;
};

// Every algorithm x guard x early stop x arithmetic with float input, then with int8
// input a subset, since it shares everything past the conversion.
std::vector<turbo_case> turbo_cases(const std::vector<std::string>& arith)
{
    const std::vector<std::string> algorithms = { "log-map",
                                                  "max-log",
                                                  "scaled-max-log" };
    const std::vector<std::string> guards = { "none", "pivi", "dstw", "pividstw" };
    const std::vector<std::string> stops = { "off",      "crc24a",  "crc24b",
                                             "mean-llr", "min-llr", "hard" };
    const std::vector<std::string> int8_guards = { "none", "pividstw" };
    const std::vector<std::string> int8_stops = { "off", "crc24a", "hard" };
    std::vector<turbo_case> cases;
    for (const bool int8 : { false, true })
        for (const auto& ar : arith)
            for (const auto& algo : algorithms)
                for (const auto& guard : int8 ? int8_guards : guards)
                    for (const auto& stop : int8 ? int8_stops : stops)
                        cases.push_back({ algo, guard, stop, ar, int8 });
    return cases;
}

// A shape's inputs, without a CRC and with each; their digests printed too: they go
// through the engine's encoder, CRC and int8 conversion, so a difference there shows
// here first.
std::map<frame_crc, input_set> make_input_sets(std::uint64_t seed, const shape& sh)
{
    std::map<frame_crc, input_set> inputs;
    for (const frame_crc c : { frame_crc::none, frame_crc::a, frame_crc::b }) {
        const input_set& in =
            inputs.emplace(c, make_inputs(seed, sh.K, c, sh.n)).first->second;
        fnv1a64 sent, llrs, llrs_i8;
        sent.add(in.sent.data(), in.sent.size());
        llrs.add(in.llrs.data(), in.llrs.size() * sizeof(float));
        llrs_i8.add(in.llrs_i8.data(), in.llrs_i8.size());
        std::printf("# inputs K=%d crc=%s n=%zu sent=%016" PRIx64 " llrs=%016" PRIx64
                    " int8=%016" PRIx64 "\n",
                    sh.K,
                    c == frame_crc::none ? "none"
                    : c == frame_crc::a  ? "24a"
                                         : "24b",
                    sh.n,
                    sent.value(),
                    llrs.value(),
                    llrs_i8.value());
    }
    return inputs;
}

api::decoder_config turbo_config_of(const turbo_case& t, const shape& sh, bool cuda)
{
    api::decoder_config c;
    c.K = sh.K;
    c.algo = api::parse_algorithm(t.algo);
    c.scaling = 0.75f;
    c.iterations = 8;
    c.subblocks = !sh.automatic ? 1 : cuda ? 0 : subblocks_of_32(sh.K);
    c.guarding = api::parse_guard(t.guard);
    c.guard_window = 8; // <= K/P for every shape here
    c.early_stop = api::parse_stop_rule(t.stop);
    c.stop_threshold = t.stop == "min-llr" ? 10.0f : 40.0f;
    c.int8_scale = int8_scale;
    c.threads = 0;
    c.devices = "0";
    c.cuda_arithmetic = api::parse_arithmetic(t.arith);
    return c;
}

// Decodes a shape's inputs (those with the CRC its stop rule checks) under one
// configuration and prints its line. Returns the device it ran on.
std::string digest_turbo_case(const turbo_case& t,
                              const shape& sh,
                              const std::string& backend,
                              const std::map<frame_crc, input_set>& inputs)
{
    const int K = sh.K;
    const std::size_t n = sh.n;
    auto dec = api::make_decoder(turbo_config_of(t, sh, backend == "cuda"), backend);
    const input_set& in = inputs.at(t.stop == "crc24a"   ? frame_crc::a
                                    : t.stop == "crc24b" ? frame_crc::b
                                                         : frame_crc::none);
    std::vector<std::uint8_t> bits(n * K, 0xff);
    std::vector<api::codeword_status> status(n);
    if (t.int8)
        dec->decode(in.llrs_i8.data(), n, bits.data(), status.data());
    else
        dec->decode(in.llrs.data(), n, bits.data(), status.data());

    fnv1a64 bits_hash, status_hash;
    bits_hash.add(bits.data(), bits.size());
    std::uint64_t bit_errors = 0, frame_errors = 0, iterations = 0, passed = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t e = 0;
        for (std::size_t k = i * K; k < (i + 1) * K; ++k)
            e += (bits[k] ^ in.sent[k]) != 0;
        bit_errors += e;
        frame_errors += e != 0;
        iterations += std::uint64_t(status[i].iterations);
        passed += status[i].passed;
        status_hash.add_u32(std::uint32_t(status[i].iterations));
        status_hash.add_u32(status[i].passed ? 1u : 0u);
    }
    std::printf("K=%d P=%s:%d algo=%s guard=%s stop=%s arith=%s input=%s n=%zu "
                "bit_errors=%" PRIu64 " frame_errors=%" PRIu64 " iterations=%" PRIu64
                " passed=%" PRIu64 " bits=%016" PRIx64 " status=%016" PRIx64 "\n",
                K,
                sh.automatic ? "auto" : "fixed",
                api::subblocks_of(*dec, K),
                t.algo.c_str(),
                t.guard.c_str(),
                t.stop.c_str(),
                t.arith.c_str(),
                t.int8 ? "int8" : "float",
                n,
                bit_errors,
                frame_errors,
                iterations,
                passed,
                bits_hash.value(),
                status_hash.value());
    return dec->device();
}

// --code turbo: every configuration on every shape's inputs.
int turbo_digest(const digest_options& o)
{
    const bool cuda = o.backend == "cuda";
    const std::vector<turbo_case> cases =
        turbo_cases(split(o.arithmetics.value_or(cuda ? "int16,float32" : "float32")));
    std::cout << "# gputurbo-digest backend=" << o.backend << " seed=" << o.seed
              << (o.quick ? " quick" : "") << "\n";
    const auto start = std::chrono::steady_clock::now();
    std::size_t configurations = 0;
    std::string device;
    for (const shape& sh : turbo_shapes(o.quick)) {
        const std::map<frame_crc, input_set> inputs = make_input_sets(o.seed, sh);
        for (const turbo_case& t : cases) {
            device = digest_turbo_case(t, sh, o.backend, inputs);
            ++configurations;
        }
        std::fflush(stdout);
    }
    return finish(start, configurations, device);
}

int digest_main(int argc, char** argv)
{
    const std::optional<digest_options> o = parse_options(argc, argv);
    if (!o)
        return 0;
    if (o->code == "conv") {
#ifdef GPUTURBO_DIGEST_CONV
        return conv_digest(o->backend, o->seed, o->quick);
#else
        throw usage_error("--code conv: this engine has no convolutional codes");
#endif
    }
    if (o->code != "turbo")
        throw usage_error("--code: unknown code family '" + o->code +
                          "': use turbo or conv");
    return turbo_digest(*o);
}

} // namespace

int main(int argc, char** argv)
{
    try {
        return digest_main(argc, argv);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "gputurbo-digest: %s\n%s", e.what(), usage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gputurbo-digest: %s\n", e.what());
        return 1;
    }
}
