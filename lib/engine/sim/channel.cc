/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../core/thread_pool.h"

#include <gnuradio/gputurbo/engine/sim/channel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
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

void make_frame(const channel_setup& setup,
                std::uint64_t frame,
                std::uint8_t* bits,
                float* llrs,
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
        lte::attach_crc24(*setup.crc, bits, K);
    turbo::encode(K, bits, 1, codeword.data(), setup.out_layout);
    const double sigma = noise_sigma(K, setup.ebn0_db);
    const float gain = float(2.0 / (sigma * sigma));
    const std::size_t n = codeword.size();
    for (std::size_t i = 0; i < n; i += 2) { // Box-Muller: two samples per draw
        const double radius = sigma * std::sqrt(-2.0 * std::log(rng.uniform()));
        const double angle = 2.0 * M_PI * rng.uniform();
        const double noise[2] = { radius * std::cos(angle), radius * std::sin(angle) };
        for (std::size_t j = 0; j < 2 && i + j < n; ++j) {
            const double y = (codeword[i + j] ? -1.0 : 1.0) + noise[j];
            llrs[i + j] = gain * float(y);
        }
    }
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
                       int threads)
{
    turbo::qpp(setup.K); // validates K
    const std::size_t len = turbo::codeword_length(setup.K);
    const int workers = int(std::min<std::size_t>(core::thread_count(threads), n));
    core::thread_pool::shared().run(workers, [&](int worker) {
        std::vector<std::uint8_t> codeword(len);
        for (std::size_t i = worker; i < n; i += workers)
            make_frame(
                setup, first_frame + i, bits + i * setup.K, llrs + i * len, codeword);
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

    const std::size_t batch = run.batch ? run.batch : default_batch(c.K);
    const std::size_t len = turbo::codeword_length(c.K);
    std::vector<std::uint8_t> sent(batch * c.K), decoded(batch * c.K);
    std::vector<float> llrs(batch * len);
    std::vector<std::int8_t> quantized(run.int8 ? batch * len : 0);
    std::vector<core::codeword_status> status(batch);

    ber_point point;
    point.ebn0_db = run.ebn0_db;
    while (point.frames < run.max_frames && point.frame_errors < run.min_frame_errors) {
        const std::size_t n =
            std::min<std::uint64_t>(batch, run.max_frames - point.frames);
        make_noisy_frames(setup, point.frames, n, sent.data(), llrs.data(), c.threads);
        if (run.int8)
            core::quantize_llrs(llrs.data(), n * len, quantized.data(), c.int8_scale);
        const auto start = std::chrono::steady_clock::now();
        if (run.int8)
            dec.decode(quantized.data(), n, decoded.data(), status.data());
        else
            dec.decode(llrs.data(), n, decoded.data(), status.data());
        point.decode_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count();
        for (std::size_t f = 0; f < n; ++f) {
            std::uint64_t errors = 0;
            for (int k = 0; k < c.K; ++k)
                errors += (sent[f * c.K + k] ^ decoded[f * c.K + k]) & 1u;
            point.bit_errors += errors;
            point.frame_errors += errors ? 1 : 0;
            point.iterations += status[f].iterations;
        }
        point.frames += n;
        point.bits += n * std::uint64_t(c.K);
        if (progress)
            progress(point);
    }
    return point;
}

} // namespace gputurbo::sim
