/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-crc-audit: sends transport blocks of random formats through AWGN to the
// transport-block receiver and counts those delivered with crc_ok and wrong bits (the
// receiver's promise is none). Three kinds of data: of low weight (1 ... 10 ones, which
// a decoder that settles on the all-zero codeword would lose), random, and all zeros
// sent where they decode (these must pass: rv 0, rate <= 0.4, the whole mother codeword
// sent, >= 5 dB). Each block goes alone in one redundancy version, or in two or three
// combined in a HARQ process, and is counted after every transmission; SNR (Es/N0 of
// each bit) uniform in 0 ... 10 dB, or noiseless at |L| = 8. Formats: tbs log-uniform
// in 16 ... 12000, Qm 2, 4 or 6, code rate of a transmission log-uniform in 0.02 ...
// 0.95, a quarter with a limited soft buffer.
//
//   gputurbo-crc-audit [--backend cpu|cuda|reference] [--blocks N] [--seed S]
//                      [--batch B] [--llr-scale X] [--kinds K,...] [--list]
//                      [--json FILE]
//
// --llr-scale multiplies the LLRs of noisy transmissions (LLRs too confident, or not
// enough); refused_right counts the blocks decoded right but not passed, the check's
// cost (with the decoder's own failures: an iteration limit reached, or decisions
// without information); --list names each such block, and each wrong one, on standard
// error. --kinds: some of low_weight, random, zeros (each block's data, format and noise
// come from the seed, its kind and its number alone, so a block can be run again alone).
// --blocks: blocks of each of the low-weight and random kinds (zeros: a tenth). Exits
// with 1 when a wrong block was delivered, or a sent all-zero block did not pass.

#include "record.h"

#include <gnuradio/gputurbo/engine/lte/rate_matching.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gputurbo;

enum class kind { low_weight, random, zeros };
const char* const kind_names[] = { "low_weight", "random", "zeros" };

struct block
{
    std::mt19937_64 rng; // its own: the same blocks whatever the threads
    kind what;
    lte::transport_format format;
    std::vector<std::uint8_t> data;
    std::vector<int> rvs; // its transmissions
    double snr_db;        // NaN: noiseless
};

struct counts
{
    // right but not passed: the decision check refused a block whose bits were right
    // (every CRC of right bits checks), the cost of the check
    long transmissions = 0, passed = 0, wrong = 0, refused_right = 0;
};

block random_block(kind what, std::uint64_t seed)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    block b;
    b.rng.seed(seed);
    std::mt19937_64& rng = b.rng;
    b.what = what;
    lte::transport_format& f = b.format;
    static const int qms[] = { 2, 4, 6 };
    f.Qm = qms[rng() % 3];
    f.tbs = int(std::lround(std::exp(std::log(16.0) + unit(rng) * std::log(750.0))));
    if (what == kind::zeros) { // where they decode: rv 0, rate <= 0.4, >= 5 dB, and at
                               // least the whole mother codeword (3B + 12 bits) sent
        const double rate = 0.1 + 0.3 * unit(rng);
        const int C = lte::segment(f.tbs + 24).C;
        const double bits = std::max(f.tbs / rate, 3.0 * (f.tbs + 24) + 12.0);
        f.G = std::max(C, int(std::ceil(bits / f.Qm))) * f.Qm;
        b.rvs = { 0 };
        b.snr_db = 5.0 + 5.0 * unit(rng);
        b.data.assign(std::size_t(f.tbs), 0);
        return b;
    }
    const double rate = std::exp(std::log(0.02) + unit(rng) * std::log(0.95 / 0.02));
    const int C = lte::segment(f.tbs + 24).C;
    f.G = std::max(C, int(std::lround(f.tbs / rate / f.Qm))) * f.Qm;
    if (rng() % 4 == 0) // a UE category's soft buffer over 8 processes, or a tight one
        f.soft_buffer =
            rng() % 2 ? lte::soft_buffer_bits(250368, 1, 1, 8) : long(f.tbs + 24) * 2;
    const int transmissions = 1 + int(rng() % 3);
    for (int k = 0; k < transmissions; ++k)
        b.rvs.push_back(int(rng() % 4));
    b.snr_db = rng() % 10 == 0 ? std::nan("") : 10.0 * unit(rng);
    b.data.assign(std::size_t(f.tbs), 0);
    if (what == kind::random) {
        for (auto& bit : b.data)
            bit = std::uint8_t(rng() & 1u);
    } else {
        const int weight = 1 + int(rng() % 10);
        for (int k = 0; k < weight; ++k)
            b.data[std::size_t(rng() % std::uint64_t(f.tbs))] = 1;
    }
    return b;
}

// Channel LLRs (engine sign: positive means 0) of the G bits of transmission rv, in
// noise times llr_scale (a receiver's LLRs too confident, or not enough).
std::vector<float> transmit(block& b, int rv, float llr_scale)
{
    lte::transport_format f = b.format;
    f.rv = rv;
    std::vector<std::uint8_t> e(std::size_t(f.G));
    lte::transport_encode(f, b.data.data(), e.data());
    std::vector<float> llrs(e.size());
    std::normal_distribution<float> noise(0.0f, 1.0f);
    const bool noiseless = std::isnan(b.snr_db);
    const float sigma =
        noiseless ? 0.0f : float(std::sqrt(0.5 / std::pow(10.0, b.snr_db / 10.0)));
    for (std::size_t k = 0; k < e.size(); ++k) {
        const float x = e[k] ? -1.0f : 1.0f;
        llrs[k] = noiseless
                      ? 8.0f * x
                      : llr_scale * 2.0f * (x + sigma * noise(b.rng)) / (sigma * sigma);
    }
    return llrs;
}

struct audit_options
{
    std::string backend = "cpu", json;
    long blocks = 1000, batch = 256;
    float llr_scale = 1.0f;
    bool list = false;
    std::string kinds = "low_weight,random,zeros";
    std::uint64_t seed = std::random_device{}();
};

// The command line's options; none after an unknown one, for which it prints the usage.
std::optional<audit_options> parse_options(int argc, char** argv)
{
    audit_options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--backend")
            o.backend = value();
        else if (a == "--blocks")
            o.blocks = std::stol(value());
        else if (a == "--seed")
            o.seed = std::stoull(value());
        else if (a == "--batch")
            o.batch = std::max(1L, std::stol(value()));
        else if (a == "--llr-scale")
            o.llr_scale = std::stof(value());
        else if (a == "--list")
            o.list = true;
        else if (a == "--kinds")
            o.kinds = value();
        else if (a == "--json")
            o.json = value();
        else {
            std::cerr
                << "usage: gputurbo-crc-audit [--backend B] [--blocks N] [--seed S] "
                   "[--batch B] [--llr-scale X] [--kinds K,...] [--list] [--json FILE]\n";
            return std::nullopt;
        }
    }
    return o;
}

// f(i) for i < n on every core.
template <class F>
void parallel(std::size_t n, const F& f)
{
    static const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < threads; ++w)
        pool.emplace_back([&, w] {
            for (std::size_t i = w; i < n; i += threads)
                f(i);
        });
    for (auto& t : pool)
        t.join();
}

// Blocks first ... first+size-1 of a kind; a seed per block: the seed, its kind and its
// number.
std::vector<block> make_group(kind what, long first, std::size_t size, std::uint64_t seed)
{
    std::vector<block> group(size);
    parallel(group.size(), [&](std::size_t i) {
        std::seed_seq s{ seed, std::uint64_t(what), std::uint64_t(first) + i };
        std::uint64_t block_seed;
        s.generate(reinterpret_cast<std::uint32_t*>(&block_seed),
                   reinterpret_cast<std::uint32_t*>(&block_seed) + 2);
        group[i] = random_block(what, block_seed);
    });
    return group;
}

// The counts by kind; and of the low-weight and random kinds, by mode, by first rv, by
// SNR.
struct audit_tally
{
    std::map<std::string, counts> by;
    long total = 0; // transmissions
};

// The keys a transmission counts under.
std::vector<std::string> keys_of(const block& b, std::size_t t)
{
    std::vector<std::string> keys = { std::string("kind:") + kind_names[int(b.what)] };
    if (b.what != kind::zeros) {
        keys.push_back(std::string("mode:") + (b.rvs.size() == 1 ? "alone" : "combined"));
        keys.push_back("rv:" + std::to_string(b.rvs[t]));
        keys.push_back(std::isnan(b.snr_db)
                           ? std::string("snr:noiseless")
                           : "snr:" + std::to_string(int(b.snr_db)) + "-" +
                                 std::to_string(int(b.snr_db) + 1));
    }
    return keys;
}

// --list: a block delivered wrong, or right but refused, on standard error.
void list_block(const block& b,
                long number,
                std::size_t t,
                bool ok,
                const lte::transport_result& result)
{
    std::cerr << (ok ? "wrong" : "refused_right") << ": " << kind_names[int(b.what)]
              << " block " << number << " tbs " << b.format.tbs << " G " << b.format.G
              << " Qm " << b.format.Qm << " soft_buffer " << b.format.soft_buffer
              << " snr " << b.snr_db << " transmission " << t << " of rvs";
    for (const int rv : b.rvs)
        std::cerr << " " << rv;
    std::cerr << "; code blocks (passed/iterations)";
    for (const auto& c : result.code_blocks)
        std::cerr << " " << c.passed << "/" << c.iterations;
    std::cerr << "\n";
}

// Transmission t of each block of the group that has one (blocks first ...), decoded in
// one call and counted. False when no block has one.
bool transmit_group(lte::transport_decoder& decoder,
                    const audit_options& o,
                    std::vector<block>& group,
                    long first,
                    std::size_t t,
                    audit_tally& tally)
{
    std::vector<std::size_t> who;
    for (std::size_t i = 0; i < group.size(); ++i)
        if (t < group[i].rvs.size())
            who.push_back(i);
    std::vector<std::vector<float>> llrs(who.size());
    parallel(who.size(), [&](std::size_t k) {
        llrs[k] = transmit(group[who[k]], group[who[k]].rvs[t], o.llr_scale);
    });
    if (who.empty())
        return false;
    std::vector<lte::transport_block> calls;
    std::size_t bits = 0;
    for (std::size_t k = 0; k < who.size(); ++k) {
        const block& b = group[who[k]];
        lte::transport_block tb;
        tb.format = b.format;
        tb.format.rv = b.rvs[t];
        tb.f32 = llrs[k].data();
        tb.harq_process = b.rvs.size() > 1 ? int(who[k]) : lte::no_harq;
        tb.new_data = t == 0;
        calls.push_back(tb);
        bits += std::size_t(b.format.tbs);
    }
    std::vector<std::uint8_t> out(bits);
    std::vector<lte::transport_result> results(calls.size());
    decoder.decode(calls.data(), calls.size(), out.data(), results.data());
    std::size_t at = 0;
    for (std::size_t k = 0; k < who.size(); ++k) {
        const block& b = group[who[k]];
        const bool right =
            std::equal(b.data.begin(), b.data.end(), out.begin() + long(at));
        at += b.data.size();
        const bool ok = results[k].crc_ok;
        if (o.list && ok != right) // wrong, or right but refused
            list_block(b, first + long(who[k]), t, ok, results[k]);
        for (const auto& key : keys_of(b, t)) {
            counts& c = tally.by[key];
            ++c.transmissions;
            c.passed += ok && right;
            c.wrong += ok && !right;
            c.refused_right += !ok && right;
        }
        ++tally.total;
    }
    return true;
}

// The record (JSON) of the run, on standard output and in --json's file. Returns the
// exit status: 1 when a wrong block was delivered or a sent all-zero block did not pass.
int report(const lte::transport_decoder& decoder,
           const audit_options& o,
           audit_tally& tally,
           double seconds)
{
    const counts& zeros = tally.by["kind:zeros"];
    long wrong = 0;
    for (const char* k : kind_names)
        wrong += tally.by[std::string("kind:") + k].wrong;
    auto by = cli::json::object();
    for (const auto& [key, c] : tally.by)
        by.set(key,
               cli::json::object()
                   .set("transmissions", c.transmissions)
                   .set("passed", c.passed)
                   .set("wrong", c.wrong)
                   .set("refused_right", c.refused_right));
    const auto out =
        cli::record("gputurbo-crc-audit",
                    decoder.device(),
                    cli::json::object()
                        .set("backend", decoder.backend())
                        .set("seed", o.seed)
                        .set("llr_scale", o.llr_scale)
                        .set("blocks_per_kind", o.blocks),
                    cli::json::array().push(cli::json::object()
                                                .set("transmissions", tally.total)
                                                .set("delivered_wrong", wrong)
                                                .set("seconds", seconds)
                                                .set("by", std::move(by))))
            .dump();
    std::cout << out;
    if (!o.json.empty())
        std::ofstream(o.json) << out;
    const bool zeros_pass = zeros.passed == zeros.transmissions;
    if (!zeros_pass)
        std::cerr << "gputurbo-crc-audit: " << zeros.transmissions - zeros.passed
                  << " all-zero blocks sent did not pass\n";
    return wrong == 0 && zeros_pass ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    const std::optional<audit_options> o = parse_options(argc, argv);
    if (!o)
        return 2;
    auto decoder = lte::make_transport_decoder({}, o->backend);
    const auto t0 = std::chrono::steady_clock::now();

    audit_tally tally;
    const std::vector<std::pair<kind, long>> plan = { { kind::low_weight, o->blocks },
                                                      { kind::random, o->blocks },
                                                      { kind::zeros, o->blocks / 10 } };
    for (const auto& [what, count] : plan)
        for (long first = 0;
             o->kinds.find(kind_names[int(what)]) != std::string::npos && first < count;
             first += o->batch) {
            std::vector<block> group =
                make_group(what,
                           first,
                           std::size_t(std::min(count, first + o->batch) - first),
                           o->seed);
            for (std::size_t t = 0; t < 3; ++t) // transmission t of each block
                if (!transmit_group(*decoder, *o, group, first, t, tally))
                    break;
            for (std::size_t i = 0; i < group.size(); ++i)
                decoder->release(int(i));
        }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report(*decoder, *o, tally, seconds);
}
