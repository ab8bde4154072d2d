/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/thread_pool.h"

#include <gnuradio/gputurbo/engine/sim/channel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::sim {
namespace {

std::uint64_t splitmix64(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// xoshiro256**, seeded per frame from (seed, frame index) through splitmix64.
class frame_rng
{
public:
    frame_rng(std::uint64_t seed, std::uint64_t frame)
    {
        std::uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (frame + 1));
        for (auto& w : d_s)
            w = splitmix64(x);
    }
    std::uint64_t next()
    {
        const std::uint64_t result = rotl(d_s[1] * 5, 7) * 9;
        const std::uint64_t t = d_s[1] << 17;
        d_s[2] ^= d_s[0];
        d_s[3] ^= d_s[1];
        d_s[1] ^= d_s[2];
        d_s[0] ^= d_s[3];
        d_s[2] ^= t;
        d_s[3] = rotl(d_s[3], 45);
        return result;
    }
    //! Uniform in (0, 1].
    double uniform() { return double((next() >> 11) + 1) * 0x1.0p-53; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k)
    {
        return (x << k) | (x >> (64 - k));
    }
    std::uint64_t d_s[4];
};

// BPSK (0 -> +1) of n coded bits with white Gaussian noise of sigma, as LLRs 2y/sigma^2.
void add_noise(
    frame_rng& rng, const std::uint8_t* coded, std::size_t n, double sigma, float* llrs)
{
    const float gain = float(2.0 / (sigma * sigma));
    for (std::size_t i = 0; i < n; i += 2) { // Box-Muller: two samples per draw
        const double radius = sigma * std::sqrt(-2.0 * std::log(rng.uniform()));
        const double angle = 2.0 * M_PI * rng.uniform();
        const double noise[2] = { radius * std::cos(angle), radius * std::sin(angle) };
        for (std::size_t j = 0; j < 2 && i + j < n; ++j) {
            const double y = (coded[i + j] ? -1.0 : 1.0) + noise[j];
            llrs[i + j] = gain * float(y);
        }
    }
}

void make_frame(const channel_setup& setup,
                std::uint64_t frame,
                std::uint8_t* bits,
                float* llrs,
                std::uint8_t* code_bits,
                std::vector<std::uint8_t>& codeword)
{
    const int K = setup.K;
    frame_rng rng(setup.seed, frame);
    for (int k = 0; k < K; k += 64) {
        const std::uint64_t r = rng.next();
        for (int j = 0; j < 64 && k + j < K; ++j)
            bits[k + j] = std::uint8_t((r >> j) & 1u);
    }
    if (setup.crc)
        core::attach_crc(*setup.crc, bits, K);
    turbo::encode(K, bits, 1, codeword.data(), setup.out_layout);
    add_noise(rng, codeword.data(), codeword.size(), noise_sigma(K, setup.ebn0_db), llrs);
    if (code_bits)
        std::copy(codeword.begin(), codeword.end(), code_bits);
}

// A conv frame's information bits, the first draws of its generator.
void draw_bits(frame_rng& rng, int frame_bits, std::uint8_t* bits)
{
    for (int k = 0; k < frame_bits; k += 64) {
        const std::uint64_t r = rng.next();
        for (int j = 0; j < 64 && k + j < frame_bits; ++j)
            bits[k + j] = std::uint8_t((r >> j) & 1u);
    }
}

// The encoder state at the start of a streaming frame: the last K-1 bits of the frames
// before it, the newest at bit K-2 (0 before the stream).
unsigned stream_state(const conv_setup& setup, std::uint64_t frame)
{
    const int memory = setup.generator.constraint - 1;
    std::vector<std::uint8_t> bits(setup.frame_bits);
    unsigned state = 0;
    int have = 0;
    for (std::uint64_t f = frame; f-- > 0 && have < memory;) {
        frame_rng rng(setup.seed, f);
        draw_bits(rng, setup.frame_bits, bits.data());
        for (int i = setup.frame_bits - 1; i >= 0 && have < memory; --i, ++have)
            state |= unsigned(bits[i]) << (memory - 1 - have);
    }
    return state;
}

void make_conv_frame(const conv_setup& setup,
                     std::uint64_t frame,
                     std::uint8_t* bits,
                     float* llrs,
                     std::uint8_t* code_bits,
                     std::vector<std::uint8_t>& coded,
                     std::vector<std::uint8_t>& sent)
{
    frame_rng rng(setup.seed, frame);
    draw_bits(rng, setup.frame_bits, bits);
    unsigned state =
        setup.mode == conv::termination::streaming ? stream_state(setup, frame) : 0;
    conv::encode(
        setup.generator, setup.mode, setup.frame_bits, bits, 1, coded.data(), &state);
    conv::puncture(setup.generator,
                   setup.punctured,
                   setup.mode,
                   setup.frame_bits,
                   coded.data(),
                   1,
                   sent.data());
    const double ebn0 = std::pow(10.0, setup.ebn0_db / 10.0);
    add_noise(rng,
              sent.data(),
              sent.size(),
              std::sqrt(1.0 / (2.0 * setup.code_rate() * ebn0)),
              llrs);
    if (code_bits)
        std::copy(sent.begin(), sent.end(), code_bits);
}

// Frames first … first+n-1 on the shared pool; make(frame, i) makes frame first+i.
template <class Make>
void make_in_parallel(std::size_t n, int threads, const Make& make)
{
    const int workers = int(std::min<std::size_t>(core::thread_count(threads), n));
    core::thread_pool::shared().run(workers, [&](int worker) {
        for (std::size_t i = worker; i < n; i += workers)
            make(i);
    });
}

// Frames first … first+n-1: their bits, LLRs and, where not nullptr, code bits.
using frame_maker = std::function<void(
    std::uint64_t first, std::size_t n, std::uint8_t*, float*, std::uint8_t*)>;

/*
 * The loop of measure_ber: frames of \p block bits and \p len LLRs from make(), decoded
 * in batches until a stop condition holds.
 */
ber_point measure(core::batch_decoder& dec,
                  int block,
                  std::size_t len,
                  float int8_scale,
                  const ber_run& run,
                  const frame_maker& make,
                  const std::function<void(const ber_point&)>& progress)
{
    const std::size_t batch = run.batch ? run.batch : default_batch(block);
    const std::size_t K = std::size_t(block);
    std::vector<std::uint8_t> sent(batch * K), decoded(batch * K);
    std::vector<float> llrs(batch * len);
    std::vector<std::int8_t> quantized(run.int8 ? batch * len : 0);
    std::vector<core::codeword_status> status(batch);
    // Soft output: its values, and the code bits sent where they are of those.
    const bool soft = run.output != core::soft_output::none;
    const bool of_code_bits = run.output == core::soft_output::code_extrinsic;
    const std::size_t soft_len = soft ? dec.soft_length(block, run.output) : 0;
    std::vector<float> soft_values(batch * soft_len);
    std::vector<std::uint8_t> code_bits(of_code_bits ? batch * len : 0);
    const core::soft_values out{ soft_values.data(), run.output };
    ber_point point;
    point.ebn0_db = run.ebn0_db;
    while (point.frames < run.max_frames && point.frame_errors < run.min_frame_errors) {
        const std::size_t n =
            std::min<std::uint64_t>(batch, run.max_frames - point.frames);
        make(point.frames,
             n,
             sent.data(),
             llrs.data(),
             of_code_bits ? code_bits.data() : nullptr);
        if (run.int8)
            core::quantize_llrs(
                llrs.data(), n * len, quantized.data(), int8_scale, run.llr_bits);
        const auto start = std::chrono::steady_clock::now();
        if (run.int8 && soft)
            dec.decode_soft(
                block, quantized.data(), n, out, decoded.data(), status.data());
        else if (soft)
            dec.decode_soft(block, llrs.data(), n, out, decoded.data(), status.data());
        else if (run.int8)
            dec.decode(block, quantized.data(), n, decoded.data(), status.data());
        else
            dec.decode(block, llrs.data(), n, decoded.data(), status.data());
        point.decode_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count();
        if (soft) {
            point.soft.add(soft_values.data(),
                           of_code_bits ? code_bits.data() : sent.data(),
                           n * soft_len);
            point.soft.add_channel(llrs.data(), n * len);
        }
        for (std::size_t f = 0; f < n; ++f) {
            std::uint64_t errors = 0;
            for (std::size_t k = 0; k < K; ++k)
                errors += (sent[f * K + k] ^ decoded[f * K + k]) & 1u;
            point.bit_errors += errors;
            point.frame_errors += errors ? 1 : 0;
            point.iterations += status[f].iterations;
        }
        point.frames += n;
        point.bits += n * std::uint64_t(K);
        if (progress)
            progress(point);
    }
    return point;
}

} // namespace

std::size_t default_batch(int K)
{
    return std::clamp<std::size_t>(393216 / std::max(K, 1), 64, 1024);
}

double code_rate(int K) { return double(K) / double(turbo::codeword_length(K)); }

double noise_sigma(int K, double ebn0_db)
{
    const double ebn0 = std::pow(10.0, ebn0_db / 10.0);
    return std::sqrt(1.0 / (2.0 * code_rate(K) * ebn0));
}

void make_noisy_frames(const channel_setup& setup,
                       std::uint64_t first_frame,
                       std::size_t n,
                       std::uint8_t* bits,
                       float* llrs,
                       int threads,
                       std::uint8_t* code_bits)
{
    turbo::qpp(setup.K); // validates K
    const std::size_t len = turbo::codeword_length(setup.K);
    make_in_parallel(n, threads, [&](std::size_t i) {
        thread_local std::vector<std::uint8_t> codeword;
        codeword.resize(len);
        make_frame(setup,
                   first_frame + i,
                   bits + i * setup.K,
                   llrs + i * len,
                   code_bits ? code_bits + i * len : nullptr,
                   codeword);
    });
}

ber_point measure_ber(turbo::decoder& dec,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress)
{
    const turbo::decoder_config& c = dec.config();
    channel_setup setup;
    setup.K = c.K;
    setup.ebn0_db = run.ebn0_db;
    setup.seed = run.seed;
    setup.out_layout = c.input_layout;
    setup.crc = turbo::stop_crc(c.early_stop);
    return measure(
        dec,
        c.K,
        turbo::codeword_length(c.K),
        c.int8_scale,
        run,
        [&](std::uint64_t first,
            std::size_t n,
            std::uint8_t* bits,
            float* llrs,
            std::uint8_t* code_bits) {
            make_noisy_frames(setup, first, n, bits, llrs, c.threads, code_bits);
        },
        progress);
}

std::size_t conv_setup::sent_length() const
{
    return conv::punctured_length(generator, punctured, mode, frame_bits);
}

double conv_setup::code_rate() const
{
    return double(frame_bits) / double(sent_length());
}

conv_setup conv_setup::of(const conv::viterbi_config& config, int frame_bits)
{
    conv_setup setup;
    setup.generator = config.generator;
    setup.mode = config.mode;
    setup.punctured = config.punctured;
    setup.frame_bits = frame_bits;
    return setup;
}

void make_noisy_frames(const conv_setup& setup,
                       std::uint64_t first_frame,
                       std::size_t n,
                       std::uint8_t* bits,
                       float* llrs,
                       int threads,
                       std::uint8_t* code_bits)
{
    conv::check_frame_bits(setup.generator, setup.mode, setup.frame_bits);
    // Each frame restarts the pattern, which a stream's must not.
    if (setup.mode == conv::termination::streaming &&
        setup.frame_bits % setup.punctured.period() != 0)
        throw std::invalid_argument(
            "a punctured stream is made of frames of whole puncturing periods: use a "
            "frame_bits that is a multiple of " +
            std::to_string(setup.punctured.period()));
    const std::size_t coded_len =
        conv::coded_length(setup.generator, setup.mode, setup.frame_bits);
    const std::size_t len = setup.sent_length();
    make_in_parallel(n, threads, [&](std::size_t i) {
        thread_local std::vector<std::uint8_t> coded, sent;
        coded.resize(coded_len);
        sent.resize(len);
        make_conv_frame(setup,
                        first_frame + i,
                        bits + i * std::size_t(setup.frame_bits),
                        llrs + i * len,
                        code_bits ? code_bits + i * len : nullptr,
                        coded,
                        sent);
    });
}

ber_point measure_ber(core::batch_decoder& dec,
                      conv_setup setup,
                      float int8_scale,
                      int threads,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress)
{
    setup.ebn0_db = run.ebn0_db;
    setup.seed = run.seed;
    return measure(
        dec,
        setup.frame_bits,
        setup.sent_length(),
        int8_scale,
        run,
        [&](std::uint64_t first,
            std::size_t n,
            std::uint8_t* bits,
            float* llrs,
            std::uint8_t* code_bits) {
            make_noisy_frames(setup, first, n, bits, llrs, threads, code_bits);
        },
        progress);
}

ber_point measure_ber(conv::stream_decoder& dec,
                      conv_setup setup,
                      float int8_scale,
                      int threads,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress)
{
    if (run.output != core::soft_output::none)
        throw std::invalid_argument(std::string("output=") + core::to_string(run.output) +
                                    ": a stream decoder gives bits only");
    setup.ebn0_db = run.ebn0_db;
    setup.seed = run.seed;
    setup.mode = conv::termination::streaming;
    const std::size_t batch = run.batch ? run.batch : default_batch(setup.frame_bits);
    const std::size_t frame = std::size_t(setup.frame_bits), len = setup.sent_length();
    std::vector<std::uint8_t> sent(batch * frame);
    std::vector<std::uint8_t> truth; // sent bits not yet compared
    std::vector<float> llrs(batch * len);
    std::vector<std::int8_t> quantized(run.int8 ? batch * len : 0);
    std::vector<std::uint8_t> decoded;
    ber_point counted; // the frames whose bits are all out
    counted.ebn0_db = run.ebn0_db;
    std::uint64_t sent_frames = 0, compared = 0;
    bool frame_wrong = false;
    auto time = [&](const auto& call) {
        const auto start = std::chrono::steady_clock::now();
        const std::size_t written = call();
        counted.decode_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count();
        return written;
    };
    // The bits out so far against the sent ones, a frame at a time.
    auto compare = [&](std::size_t written) {
        for (std::size_t i = 0; i < written; ++i) {
            const bool wrong = ((decoded[i] ^ truth[i]) & 1u) != 0;
            counted.bit_errors += wrong;
            frame_wrong = frame_wrong || wrong;
            if (++compared % frame == 0) {
                ++counted.frames;
                counted.frame_errors += frame_wrong;
                frame_wrong = false;
            }
        }
        truth.erase(truth.begin(), truth.begin() + written);
        counted.bits = counted.frames * frame;
    };
    dec.reset();
    while (sent_frames < run.max_frames && counted.frame_errors < run.min_frame_errors) {
        const std::size_t n =
            std::min<std::uint64_t>(batch, run.max_frames - sent_frames);
        make_noisy_frames(setup, sent_frames, n, sent.data(), llrs.data(), threads);
        truth.insert(truth.end(), sent.begin(), sent.begin() + n * frame);
        if (run.int8)
            core::quantize_llrs(
                llrs.data(), n * len, quantized.data(), int8_scale, run.llr_bits);
        decoded.resize(dec.output_bound(n * len));
        const std::size_t written = time([&] {
            return run.int8 ? dec.decode(quantized.data(), n * len, decoded.data())
                            : dec.decode(llrs.data(), n * len, decoded.data());
        });
        sent_frames += n;
        compare(written);
        if (progress)
            progress(counted);
    }
    decoded.resize(dec.output_bound(0));
    compare(time([&] { return dec.flush(decoded.data()); }));
    if (progress)
        progress(counted);
    return counted;
}

} // namespace gputurbo::sim
