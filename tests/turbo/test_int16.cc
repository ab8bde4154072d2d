/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CPU's int16 kernels (arithmetic=int16: sub-blocks of one codeword in SIMD lanes),
// per instruction set: exact on noiseless input, the float reference's BER on noisy
// input, and the same decisions from every instruction set.

#include "test_util.h"

#include <algorithm>
#include <cstdlib>
#include <random>

using namespace gputurbo;
using namespace gputurbo::test; // and the namespaces it uses

namespace {

// An int16 decoder with the kernel of \p isa ("avx2", "avx512"), or null when this CPU
// has none.
std::unique_ptr<decoder> int16_decoder(decoder_config c, const std::string& isa)
{
    c.cuda_arithmetic = arithmetic::int16;
    ::setenv("GPUTURBO_CPU_KERNEL", isa.c_str(), 1);
    std::unique_ptr<decoder> dec;
    try {
        dec = make_decoder(c, "cpu");
    } catch (const std::runtime_error&) {
    }
    ::unsetenv("GPUTURBO_CPU_KERNEL");
    return dec;
}

#define INT16_DECODER_OR_SKIP(dec, config)                                               \
    auto dec = int16_decoder(config, GetParam());                                        \
    if (!dec)                                                                            \
        GTEST_SKIP() << "this CPU runs no " << GetParam() << " kernel";

class Int16 : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(Int16, NoiselessEveryBlockSizeEveryGuard)
{
    std::mt19937 rng(17);
    for (auto g : { guard::none, guard::pivi, guard::dstw, guard::pividstw }) {
        for (auto algo :
             { algorithm::log_map, algorithm::max_log, algorithm::scaled_max_log }) {
            for (const auto& row : turbo::qpp_table()) {
                decoder_config c;
                c.K = row.K;
                c.algo = algo;
                c.guarding = g;
                c.iterations = 2;
                INT16_DECODER_OR_SKIP(dec, c);
                // Weak LLRs and ones beyond the input's saturation.
                for (float magnitude : { 1.0f, 100.0f }) {
                    std::vector<std::uint8_t> bits(2 * row.K), out;
                    for (auto& b : bits)
                        b = rng() & 1;
                    dec->decode(noiseless_llrs(row.K, bits, magnitude), out);
                    ASSERT_EQ(out, bits)
                        << dec->device() << " " << to_string(algo) << " " << to_string(g)
                        << " K=" << row.K << " P=" << dec->subblocks(row.K);
                }
            }
        }
    }
}

TEST_P(Int16, AutomaticSubblocksAndLargerPIsAClearError)
{
    decoder_config c;
    INT16_DECODER_OR_SKIP(dec, c);
    const int lanes = GetParam() == "avx512" ? 32 : 16;
    EXPECT_EQ(dec->subblocks(6144), lanes);
    EXPECT_EQ(dec->subblocks(40), 1);   // sub-blocks of 64 stages at least
    EXPECT_EQ(dec->subblocks(1008), 8); // 1008 = 8 * 126 = 16 * 63
    c.subblocks = 2 * lanes;
    INT16_DECODER_OR_SKIP(wide, c);
    const auto b = make_batch(6144, 1.0, 1, 3);
    std::vector<std::uint8_t> out;
    EXPECT_THROW(wide->decode(b.llrs, out), std::invalid_argument);
}

// Where P is less than the lanes, several codewords share a register: each decodes as
// it does alone, stop rule and status included.
TEST_P(Int16, CodewordsSharingARegisterDecodeAsAlone)
{
    for (int K : { 40, 104, 512 }) {
        decoder_config c;
        c.K = K;
        c.subblocks = K == 512 ? 4 : 0;
        c.iterations = 8;
        c.early_stop = stop_rule::hard;
        INT16_DECODER_OR_SKIP(dec, c);
        const auto b = make_batch(K, 0.5, 37, 5 + K);
        std::vector<std::uint8_t> together, alone, one;
        std::vector<codeword_status> st, sa, s1;
        dec->decode(b.llrs, together, &st);
        const std::size_t n = codeword_length(K);
        for (std::size_t i = 0; i < 37; ++i) {
            const std::vector<float> llrs(b.llrs.begin() + i * n,
                                          b.llrs.begin() + (i + 1) * n);
            dec->decode(llrs, one, &s1);
            alone.insert(alone.end(), one.begin(), one.end());
            sa.push_back(s1[0]);
        }
        EXPECT_EQ(together, alone) << dec->device() << " K=" << K;
        for (std::size_t i = 0; i < st.size(); ++i) {
            EXPECT_EQ(st[i].iterations, sa[i].iterations) << "K=" << K << " #" << i;
            EXPECT_EQ(st[i].passed, sa[i].passed) << "K=" << K << " #" << i;
        }
    }
}

// Every instruction set computes the same integers: the same decisions and statuses as
// the AVX2 kernel at the same P, for every guard and stop rule.
TEST_P(Int16, EqualsTheAvx2KernelOnNoisyInput)
{
    struct setting
    {
        algorithm algo;
        guard g;
        int window;
        stop_rule rule;
    };
    const setting settings[] = {
        { algorithm::max_log, guard::none, 8, stop_rule::hard },
        { algorithm::scaled_max_log, guard::pivi, 8, stop_rule::min_llr },
        { algorithm::max_log, guard::dstw, 5, stop_rule::off },
        { algorithm::log_map, guard::pividstw, 8, stop_rule::crc24b },
        { algorithm::scaled_max_log, guard::pividstw, 8, stop_rule::crc24a },
        { algorithm::scaled_max_log, guard::pividstw, 64, stop_rule::mean_llr },
    };
    const std::uint64_t seed = test_seed();
    for (const auto& s : settings) {
        decoder_config c;
        c.K = 1024;
        c.iterations = 6;
        c.algo = s.algo;
        c.subblocks = 16;
        c.guarding = s.g;
        c.guard_window = s.window;
        c.early_stop = s.rule;
        c.stop_threshold = s.rule == stop_rule::min_llr ? 3.0f : 12.0f;
        INT16_DECODER_OR_SKIP(dec, c);
        auto avx2 = int16_decoder(c, "avx2");
        ASSERT_TRUE(avx2);
        const auto b =
            make_batch(c.K, 0.4, 21, seed, layout::interleaved, stop_crc(s.rule));
        std::vector<std::uint8_t> x, y;
        std::vector<codeword_status> sx, sy;
        dec->decode(b.llrs, x, &sx);
        avx2->decode(b.llrs, y, &sy);
        EXPECT_EQ(x, y) << dec->device() << " seed " << seed << " " << to_string(s.g);
        for (std::size_t i = 0; i < sx.size(); ++i) {
            EXPECT_EQ(sx[i].iterations, sy[i].iterations) << "seed " << seed;
            EXPECT_EQ(sx[i].passed, sy[i].passed) << "seed " << seed;
        }
    }
}

// The CUDA int16 kernel in the same units, limits and max*: the same decisions, iteration
// counts and stop results for the same P, guard and g, whatever the lanes hold.
TEST_P(Int16, EqualsCudaInt16OnNoisyInput)
{
    const auto have = available_backends();
    if (std::find(have.begin(), have.end(), "cuda") == have.end())
        GTEST_SKIP() << "backend 'cuda' is not available on this machine";
    const int lanes = GetParam() == "avx512" ? 32 : 16;
    struct setting
    {
        int K, P;
        algorithm algo;
        guard g;
        int window;
        stop_rule rule;
    };
    const setting settings[] = {
        { 40, 1, algorithm::scaled_max_log, guard::none, 8, stop_rule::off },
        { 1024, 4, algorithm::max_log, guard::none, 8, stop_rule::hard },
        { 1024, 16, algorithm::scaled_max_log, guard::pivi, 8, stop_rule::min_llr },
        { 1024, 16, algorithm::max_log, guard::dstw, 5, stop_rule::off },
        { 1024, 16, algorithm::log_map, guard::pividstw, 8, stop_rule::crc24b },
        { 6144, lanes, algorithm::scaled_max_log, guard::pividstw, 8, stop_rule::crc24a },
        { 6144, lanes, algorithm::log_map, guard::pividstw, 8, stop_rule::off },
        { 2048,
          lanes,
          algorithm::scaled_max_log,
          guard::pividstw,
          64,
          stop_rule::mean_llr },
    };
    const std::uint64_t seed = test_seed();
    for (const auto& s : settings) {
        decoder_config c;
        c.K = s.K;
        c.iterations = 6;
        c.algo = s.algo;
        c.subblocks = s.P;
        c.guarding = s.g;
        c.guard_window = s.window;
        c.early_stop = s.rule;
        c.stop_threshold = s.rule == stop_rule::min_llr ? 3.0f : 12.0f;
        INT16_DECODER_OR_SKIP(dec, c);
        c.cuda_arithmetic = arithmetic::int16;
        auto gpu = make_decoder(c, "cuda");
        const double ebn0 = s.K == 40 ? 1.5 : 0.4;
        const auto b =
            make_batch(c.K, ebn0, 45, seed, layout::interleaved, stop_crc(s.rule));
        std::vector<std::uint8_t> x, y;
        std::vector<codeword_status> sx, sy;
        dec->decode(b.llrs, x, &sx);
        gpu->decode(b.llrs, y, &sy);
        EXPECT_EQ(x, y) << dec->device() << " seed " << seed << " K=" << s.K
                        << " P=" << s.P << " " << to_string(s.algo) << " "
                        << to_string(s.g);
        for (std::size_t i = 0; i < sx.size(); ++i) {
            EXPECT_EQ(sx[i].iterations, sy[i].iterations)
                << "seed " << seed << " K=" << s.K;
            EXPECT_EQ(sx[i].passed, sy[i].passed) << "seed " << seed << " K=" << s.K;
        }
    }
}

// K = 6144, 6 iterations, at the int16 decoder's default P and guard against the float
// reference at P = 1, on the same frames (seed 1): the bit errors within a factor of
// each other at two points of the waterfall, where 0.1 dB changes them 5-fold (the
// int16 path at 1/16 LLR steps and +-40 extrinsic saturation loses a few hundredths of
// a dB at most; log-map's piecewise-linear correction, within 0.17 nat, about 0.03 dB).
// And int16 log-map beats int16 scaled max-log.
TEST_P(Int16, BerCloseToTheFloatReference)
{
    double errors_at_0_4_db[2] = { 0, 0 };
    for (auto algo : { algorithm::scaled_max_log, algorithm::log_map }) {
        const double factor = algo == algorithm::log_map ? 2.0 : 1.5;
        decoder_config c;
        c.K = 6144;
        c.iterations = 6;
        c.algo = algo;
        INT16_DECODER_OR_SKIP(dec, c);
        c.subblocks = 1;
        c.guarding = guard::none;
        c.cuda_arithmetic = arithmetic::float32;
        auto ref = make_decoder(c, "cpu");
        const double first = algo == algorithm::log_map ? 0.3 : 0.4;
        for (double ebn0 : { first, first + 0.1 }) {
            const auto b = make_batch(c.K, ebn0, 96, 1);
            std::vector<std::uint8_t> x, y;
            dec->decode(b.llrs, x);
            ref->decode(b.llrs, y);
            const double fixed = double(bit_errors(x, b.bits));
            const double reference = double(bit_errors(y, b.bits));
            std::printf("  %s %.2f dB: int16 %s %.0f bit errors, float P=1 %.0f\n",
                        to_string(algo),
                        ebn0,
                        dec->device().c_str(),
                        fixed,
                        reference);
            ASSERT_GT(reference, 100.0) << "the point must lie in the waterfall";
            EXPECT_LT(fixed, factor * reference + 50.0) << ebn0 << " dB";
            EXPECT_GT(fixed, reference / factor - 50.0) << ebn0 << " dB";
            if (ebn0 > 0.35 && ebn0 < 0.45)
                errors_at_0_4_db[algo == algorithm::log_map] = fixed;
        }
    }
    EXPECT_LT(2 * errors_at_0_4_db[1], errors_at_0_4_db[0]);
}

INSTANTIATE_TEST_SUITE_P(Kernels, Int16, ::testing::Values("avx2", "avx512"));

// arithmetic=auto on the CPU: int16 where a kernel of it runs and takes the configured
// P (the faster of avx512 and avx2, measured here), else float32; float32 by name.
TEST(CpuArithmetic, AutomaticIsInt16WhereItsKernelTakesTheConfiguration)
{
    decoder_config c;
    const auto have = [](const decoder_config& config) {
        return make_decoder(config, "cpu")->device();
    };
    const bool int16_here = __builtin_cpu_supports("avx2");
    EXPECT_EQ(have(c).find("-int16 kernel") != std::string::npos, int16_here) << have(c);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        EXPECT_NE(have(c).find("fastest here: avx512-int16"), std::string::npos)
            << "both int16 kernels measured: " << have(c);
    c.subblocks = 64; // more sub-blocks than any int16 kernel's lanes
    EXPECT_EQ(have(c).find("int16"), std::string::npos) << have(c);
    c.subblocks = 8;
    c.cuda_arithmetic = arithmetic::float32;
    EXPECT_EQ(have(c).find("int16"), std::string::npos) << have(c);
    ::setenv("GPUTURBO_CPU_KERNEL", "generic", 1); // names a float kernel: auto follows
    c.cuda_arithmetic = arithmetic::automatic;
    EXPECT_NE(have(c).find("generic kernel"), std::string::npos) << have(c);
    c.cuda_arithmetic = arithmetic::int16;
    EXPECT_THROW(have(c), std::runtime_error);
    ::unsetenv("GPUTURBO_CPU_KERNEL");
}
