/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-bench --code lte: the transport-block receiver (descrambling, de-rate
// matching, HARQ combining, turbo decoding, CRCs) against the turbo decoder alone on the
// same code blocks, in one run.

#include "bench_transport.h"
#include "record.h"

#include <gnuradio/gputurbo/engine/core/host_memory.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <random>

namespace gputurbo::cli {
std::vector<option> transport_options()
{
    auto o = decoder_options(false);
    const std::vector<option> more = {
        section("Transport blocks"),
        { "tbs",
          "LIST",
          "75376",
          "transport block sizes; several make one mixed batch, the sizes in turn" },
        { "qm", "Q", "6", "bits per modulation symbol: 2, 4, 6 or 8" },
        { "rate",
          "R",
          "0.89",
          "code rate of each transport block: G is (tbs + 24) / R, whole symbols" },
        { "rv", "RV", "0", "redundancy version, 0 ... 3" },
        { "transport-blocks",
          "N",
          "0",
          "transport blocks per decode call (0: about 50 Mbit of data on CUDA, 16 on "
          "the CPU)" },
        { "block-crc-stop",
          "yes|no",
          "yes",
          "each code block stops once its CRC checks (the transport decoder's "
          "early_stop; the turbo decoder alone gets the same rule)" },
        section("Measurement"),
        { "ebn0", "DB", "4.0", "Eb/N0 of the BPSK/AWGN LLRs fed to the decoders" },
        { "seconds", "S", "2", "minimum measuring time of each decoder" },
        { "seed", "N", "1", "random seed" },
        section("Output (the table always goes to stdout)"),
        { "json", "FILE", "", "write the results as a record (JSON)" },
    };
    o.insert(o.end(), more.begin(), more.end());
    return o;
}

int transport_bench(const args& a)
{
    lte::transport_config config;
    config.turbo = config_from(a, false);
    const std::string stop = a.get("block-crc-stop");
    if (stop != "yes" && stop != "no")
        throw usage_error("--block-crc-stop: use yes or no");
    config.early_stop = stop == "yes";
    // A HARQ process for each transport block of the call (their buffers are read back).
    config.max_harq_processes = std::numeric_limits<int>::max();
    const bool int8 = int8_input(a);
    const std::string backend = a.get("backend");
    const double ebn0 = to_double("ebn0", a.get("ebn0"));
    const double seconds = to_double("seconds", a.get("seconds"));
    const double rate = to_double("rate", a.get("rate"));
    if (!(rate > 0.0 && rate < 1.0))
        throw usage_error("--rate: use 0 < R < 1");
    std::vector<int> sizes;
    for (const auto& t : split_list("tbs", a.get("tbs")))
        sizes.push_back(int(to_count("tbs", t)));
    if (a.given("json"))
        check_output_path("json", a.get("json"));

    const auto decoder = lte::make_transport_decoder(config, backend);
    std::size_t n = to_count("transport-blocks", a.get("transport-blocks"));
    if (n == 0) {
        double mean = 0.0;
        for (const int s : sizes)
            mean += double(s) / sizes.size();
        n = decoder->kind() == core::backend::cuda
                ? std::max<std::size_t>(1, std::size_t(50e6 / mean))
                : 16;
    }

    // The transport blocks: random data, encoded, BPSK over AWGN, LLRs in the engine's
    // sign (or GNU Radio's with --llr-sign positive-one).
    std::mt19937_64 rng(to_count("seed", a.get("seed")));
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<lte::transport_block> blocks(n);
    std::vector<std::vector<std::uint8_t>> sent(n);
    std::size_t total_G = 0, total_tbs = 0;
    for (std::size_t i = 0; i < n; ++i) {
        lte::transport_format& f = blocks[i].format;
        f.tbs = sizes[i % sizes.size()];
        f.Qm = int(to_count("qm", a.get("qm")));
        f.rv = int(to_count("rv", a.get("rv")));
        const int C = lte::segment(f.tbs + 24).C;
        f.G = f.Qm * std::max(C, int(std::ceil((f.tbs + 24) / rate / f.Qm)));
        total_G += std::size_t(f.G);
        total_tbs += std::size_t(f.tbs);
    }
    core::host_buffer<float> llrs(int8 ? 0 : total_G);
    core::host_buffer<std::int8_t> quantized(int8 ? total_G : 0);
    const float sigma =
        float(std::sqrt(1.0 / (2.0 * rate * std::pow(10.0, ebn0 / 10.0))));
    const float sign = config.turbo.invert_llr ? -1.0f : 1.0f;
    for (std::size_t i = 0, at = 0; i < n; ++i) {
        lte::transport_format& f = blocks[i].format;
        sent[i].resize(std::size_t(f.tbs));
        for (auto& b : sent[i])
            b = std::uint8_t(rng() & 1u);
        std::vector<std::uint8_t> e(std::size_t(f.G));
        lte::transport_encode(f, sent[i].data(), e.data());
        std::vector<float> l(e.size());
        for (std::size_t k = 0; k < e.size(); ++k)
            l[k] = sign * 2.0f * ((e[k] ? -1.0f : 1.0f) + sigma * noise(rng)) /
                   (sigma * sigma);
        if (int8) {
            core::quantize_llrs(
                l.data(), l.size(), quantized.data() + at, config.turbo.int8_scale);
            blocks[i].i8 = quantized.data() + at;
        } else {
            std::copy(l.begin(), l.end(), llrs.data() + at);
            blocks[i].f32 = llrs.data() + at;
        }
        at += std::size_t(f.G);
    }
    core::host_buffer<std::uint8_t> data(total_tbs);
    std::vector<lte::transport_result> results(n);

    // Once with HARQ processes, to read the code blocks' LLRs back for the turbo
    // decoder alone; then timed as a first transmission of each.
    for (std::size_t i = 0; i < n; ++i)
        blocks[i].harq_process = int(i);
    decoder->decode(blocks.data(), n, data.data(), results.data());
    std::size_t passed = 0, bit_errors = 0;
    for (std::size_t i = 0, at = 0; i < n; ++i) {
        passed += results[i].crc_ok;
        for (std::size_t k = 0; k < sent[i].size(); ++k)
            bit_errors += sent[i][k] != data[at + k];
        at += sent[i].size();
    }
    auto decode = [&] { decoder->decode(blocks.data(), n, data.data(), results.data()); };
    decode(); // warm-up
    const auto [calls, elapsed] = time_calls(seconds, decode);

    // The same code blocks for the turbo decoder alone: batches of one K and stop rule.
    struct group
    {
        std::vector<std::int8_t> llrs;
        std::size_t count = 0;
    };
    std::map<std::pair<int, bool>, group> groups; // (K, several blocks)
    std::size_t code_block_bits = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const lte::segmentation s = lte::segment(blocks[i].format.tbs + 24);
        const std::vector<std::int8_t> buffer = decoder->soft_buffer(int(i));
        std::size_t at = 0;
        for (int r = 0; r < s.C; ++r) {
            const int K = s.block_size(r);
            group& g = groups[{ K, s.C > 1 }];
            const std::size_t len = turbo::codeword_length(K);
            g.llrs.insert(g.llrs.end(),
                          buffer.begin() + std::ptrdiff_t(at),
                          buffer.begin() + std::ptrdiff_t(at + len));
            ++g.count;
            at += len;
            code_block_bits += std::size_t(K);
        }
        decoder->release(int(i));
    }
    for (auto& b : blocks)
        b.harq_process = lte::no_harq;
    std::map<bool, std::unique_ptr<turbo::decoder>> turbo_decoders;
    for (const bool several : { false, true }) {
        turbo::decoder_config c = config.turbo;
        c.K = 0;
        c.invert_llr = false; // the soft buffers hold the engine's sign
        c.early_stop = !config.early_stop ? turbo::stop_rule::off
                       : several          ? turbo::stop_rule::crc24b
                                          : turbo::stop_rule::crc24a;
        turbo_decoders[several] = turbo::make_decoder(c, backend);
    }
    std::vector<core::host_buffer<std::int8_t>> group_llrs;
    std::vector<core::host_buffer<std::uint8_t>> group_bits;
    for (const auto& [key, g] : groups) {
        group_llrs.emplace_back(g.llrs.size());
        std::copy(g.llrs.begin(), g.llrs.end(), group_llrs.back().data());
        group_bits.emplace_back(g.count * std::size_t(key.first));
    }
    auto decode_alone = [&] {
        std::size_t k = 0;
        for (const auto& [key, g] : groups) {
            turbo_decoders[key.second]->decode(
                key.first, group_llrs[k].data(), g.count, group_bits[k].data(), nullptr);
            ++k;
        }
    };
    decode_alone(); // warm-up
    const auto [turbo_calls, turbo_elapsed] = time_calls(seconds, decode_alone);

    const double pipeline_rate = double(total_tbs) * calls / elapsed;
    const double pipeline_blocks = double(code_block_bits) * calls / elapsed;
    const double turbo_rate = double(code_block_bits) * turbo_calls / turbo_elapsed;
    auto r = json::object();
    r.set("code", "lte-transport")
        .set("backend", decoder->backend())
        .set("input_type", int8 ? "int8" : "float")
        .set("iterations", config.turbo.iterations)
        .set("algorithm", turbo::to_string(config.turbo.algo))
        .set("block_crc_stop", config.early_stop)
        .set("qm", blocks.front().format.Qm)
        .set("rate", rate)
        .set("rv", blocks.front().format.rv)
        .set("tbs", a.get("tbs"))
        .set("transport_blocks", n)
        .set("code_blocks_bits", code_block_bits)
        .set("ebn0_db", ebn0)
        .set("crc_passed", passed)
        .set("bit_errors", bit_errors)
        .set("calls", calls)
        .set("seconds", elapsed)
        .set("info_bits_per_second", pipeline_rate)
        .set("code_block_bits_per_second", pipeline_blocks)
        .set("turbo_calls", turbo_calls)
        .set("turbo_seconds", turbo_elapsed)
        .set("turbo_code_block_bits_per_second", turbo_rate)
        .set("pipeline_over_turbo", pipeline_blocks / turbo_rate);

    std::cout << "# gputurbo-bench --code lte: backend " << decoder->backend() << ": "
              << decoder->device() << "; input " << (int8 ? "int8" : "float") << ", Qm "
              << blocks.front().format.Qm << ", rate " << rate << ", Eb/N0 " << ebn0
              << " dB; commit " << source_commit() << "\n";
    print_table(std::cout,
                { "tbs",
                  "transport blocks",
                  "crc passed",
                  "pipeline Mbit/s",
                  "code-block Mbit/s",
                  "turbo alone Mbit/s",
                  "ratio" },
                { { a.get("tbs"),
                    std::to_string(n),
                    std::to_string(passed),
                    format("%.2f", pipeline_rate / 1e6),
                    format("%.2f", pipeline_blocks / 1e6),
                    format("%.2f", turbo_rate / 1e6),
                    format("%.3f", pipeline_blocks / turbo_rate) } });
    std::cout << std::flush;
    if (a.given("json"))
        write_text_file(a.get("json"),
                        record("gputurbo-bench",
                               decoder->device(),
                               json::object(),
                               json::array().push(std::move(r)))
                            .dump());
    return 0;
}

} // namespace gputurbo::cli
