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
#include <tuple>

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

namespace {

// gputurbo-bench --code lte's options but the transport blocks' own (transport_blocks),
// checked in the order they are read.
struct transport_settings
{
    lte::transport_config config;
    bool int8 = false;
    std::string backend;
    double ebn0 = 0.0, seconds = 0.0;
    double rate = 0.0; // of each transport block
    std::vector<int> sizes;
};

transport_settings parse_transport_settings(const args& a)
{
    transport_settings s;
    s.config.turbo = config_from(a, false);
    const std::string stop = a.get("block-crc-stop");
    if (stop != "yes" && stop != "no")
        throw usage_error("--block-crc-stop: use yes or no");
    s.config.early_stop = stop == "yes";
    // A HARQ process for each transport block of the call (their buffers are read back).
    s.config.max_harq_processes = std::numeric_limits<int>::max();
    s.int8 = int8_input(a);
    s.backend = a.get("backend");
    s.ebn0 = to_double("ebn0", a.get("ebn0"));
    s.seconds = to_double("seconds", a.get("seconds"));
    s.rate = to_double("rate", a.get("rate"));
    if (!(s.rate > 0.0 && s.rate < 1.0))
        throw usage_error("--rate: use 0 < R < 1");
    for (const auto& t : split_list("tbs", a.get("tbs")))
        s.sizes.push_back(int(to_count("tbs", t)));
    if (a.given("json"))
        check_output_path("json", a.get("json"));
    return s;
}

// Transport blocks per call: --transport-blocks, or (0) about 50 Mbit of data on CUDA
// and 16 on the CPU.
std::size_t transport_block_count(const args& a,
                                  const transport_settings& s,
                                  const lte::transport_decoder& decoder)
{
    std::size_t n = to_count("transport-blocks", a.get("transport-blocks"));
    if (n == 0) {
        double mean = 0.0;
        for (const int size : s.sizes)
            mean += double(size) / s.sizes.size();
        n = decoder.kind() == core::backend::cuda
                ? std::max<std::size_t>(1, std::size_t(50e6 / mean))
                : 16;
    }
    return n;
}

// The transport blocks of a call, their data, and the buffers of their LLRs.
struct transport_inputs
{
    std::vector<lte::transport_block> blocks;
    std::vector<std::vector<std::uint8_t>> sent;
    std::size_t total_G = 0, total_tbs = 0;
    core::host_buffer<float> llrs;
    core::host_buffer<std::int8_t> quantized;
};

// n transport blocks of the sizes in turn: random data, encoded, BPSK over AWGN, LLRs in
// the engine's sign (or GNU Radio's with --llr-sign positive-one).
void make_transport_blocks(const args& a,
                           const transport_settings& s,
                           std::size_t n,
                           transport_inputs& in)
{
    std::mt19937_64 rng(to_count("seed", a.get("seed")));
    std::normal_distribution<float> noise(0.0f, 1.0f);
    in.blocks.resize(n);
    in.sent.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        lte::transport_format& f = in.blocks[i].format;
        f.tbs = s.sizes[i % s.sizes.size()];
        f.Qm = int(to_count("qm", a.get("qm")));
        f.rv = int(to_count("rv", a.get("rv")));
        const int C = lte::segment(f.tbs + 24).C;
        f.G = f.Qm * std::max(C, int(std::ceil((f.tbs + 24) / s.rate / f.Qm)));
        in.total_G += std::size_t(f.G);
        in.total_tbs += std::size_t(f.tbs);
    }
    in.llrs = core::host_buffer<float>(s.int8 ? 0 : in.total_G);
    in.quantized = core::host_buffer<std::int8_t>(s.int8 ? in.total_G : 0);
    const float sigma =
        float(std::sqrt(1.0 / (2.0 * s.rate * std::pow(10.0, s.ebn0 / 10.0))));
    const float sign = s.config.turbo.invert_llr ? -1.0f : 1.0f;
    for (std::size_t i = 0, at = 0; i < n; ++i) {
        lte::transport_format& f = in.blocks[i].format;
        in.sent[i].resize(std::size_t(f.tbs));
        for (auto& b : in.sent[i])
            b = std::uint8_t(rng() & 1u);
        std::vector<std::uint8_t> e(std::size_t(f.G));
        lte::transport_encode(f, in.sent[i].data(), e.data());
        std::vector<float> l(e.size());
        for (std::size_t k = 0; k < e.size(); ++k)
            l[k] = sign * 2.0f * ((e[k] ? -1.0f : 1.0f) + sigma * noise(rng)) /
                   (sigma * sigma);
        if (s.int8) {
            core::quantize_llrs(
                l.data(), l.size(), in.quantized.data() + at, s.config.turbo.int8_scale);
            in.blocks[i].i8 = in.quantized.data() + at;
        } else {
            std::copy(l.begin(), l.end(), in.llrs.data() + at);
            in.blocks[i].f32 = in.llrs.data() + at;
        }
        at += std::size_t(f.G);
    }
}

// What the receiver's run gave: the blocks received and the bits wrong (of its first
// call), and its timed calls.
struct pipeline_run
{
    std::size_t passed = 0, bit_errors = 0;
    std::uint64_t calls = 0;
    double elapsed = 0.0;
};

// The receiver: once with HARQ processes, whose soft buffers hold the code blocks' LLRs
// for the turbo decoder alone afterwards; then timed as a first transmission of each.
pipeline_run
time_pipeline(lte::transport_decoder& decoder, transport_inputs& in, double seconds)
{
    const std::size_t n = in.blocks.size();
    core::host_buffer<std::uint8_t> data(in.total_tbs);
    std::vector<lte::transport_result> results(n);
    for (std::size_t i = 0; i < n; ++i)
        in.blocks[i].harq_process = int(i);
    decoder.decode(in.blocks.data(), n, data.data(), results.data());
    pipeline_run run;
    for (std::size_t i = 0, at = 0; i < n; ++i) {
        run.passed += results[i].crc_ok;
        for (std::size_t k = 0; k < in.sent[i].size(); ++k)
            run.bit_errors += in.sent[i][k] != data[at + k];
        at += in.sent[i].size();
    }
    auto decode = [&] {
        decoder.decode(in.blocks.data(), n, data.data(), results.data());
    };
    decode(); // warm-up
    std::tie(run.calls, run.elapsed) = time_calls(seconds, decode);
    return run;
}

// Code blocks of one K and stop rule, a batch for the turbo decoder alone.
struct code_block_group
{
    std::vector<std::int8_t> llrs;
    std::size_t count = 0;
};
using code_block_groups =
    std::map<std::pair<int, bool>, code_block_group>; // (K, several)

// The code blocks of the soft buffers that time_pipeline() left, grouped (the buffers
// released); code_block_bits counts their information bits.
code_block_groups group_code_blocks(lte::transport_decoder& decoder,
                                    transport_inputs& in,
                                    std::size_t& code_block_bits)
{
    code_block_groups groups;
    code_block_bits = 0;
    for (std::size_t i = 0; i < in.blocks.size(); ++i) {
        const lte::segmentation s = lte::segment(in.blocks[i].format.tbs + 24);
        const std::vector<std::int8_t> buffer = decoder.soft_buffer(int(i));
        std::size_t at = 0;
        for (int r = 0; r < s.C; ++r) {
            const int K = s.block_size(r);
            code_block_group& g = groups[{ K, s.C > 1 }];
            const std::size_t len = turbo::codeword_length(K);
            g.llrs.insert(g.llrs.end(),
                          buffer.begin() + std::ptrdiff_t(at),
                          buffer.begin() + std::ptrdiff_t(at + len));
            ++g.count;
            at += len;
            code_block_bits += std::size_t(K);
        }
        decoder.release(int(i));
    }
    for (auto& b : in.blocks)
        b.harq_process = lte::no_harq;
    return groups;
}

// The turbo decoder alone on the groups, with the receiver's rule of each: its calls and
// their time.
std::pair<std::uint64_t, double> time_turbo_alone(const transport_settings& s,
                                                  const code_block_groups& groups)
{
    std::map<bool, std::unique_ptr<turbo::decoder>> turbo_decoders;
    for (const bool several : { false, true }) {
        turbo::decoder_config c = s.config.turbo;
        c.K = 0;
        c.invert_llr = false; // the soft buffers hold the engine's sign
        c.early_stop = !s.config.early_stop ? turbo::stop_rule::off
                       : several            ? turbo::stop_rule::crc24b
                                            : turbo::stop_rule::crc24a;
        turbo_decoders[several] = turbo::make_decoder(c, s.backend);
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
    return time_calls(s.seconds, decode_alone);
}

// What a run measured: the receiver's run and the turbo decoder's alone.
struct transport_measurement
{
    std::size_t transport_blocks = 0, total_tbs = 0, code_block_bits = 0;
    pipeline_run pipeline;
    std::uint64_t turbo_calls = 0;
    double turbo_elapsed = 0.0;

    double pipeline_rate() const
    {
        return double(total_tbs) * pipeline.calls / pipeline.elapsed;
    }
    double pipeline_blocks() const
    {
        return double(code_block_bits) * pipeline.calls / pipeline.elapsed;
    }
    double turbo_rate() const
    {
        return double(code_block_bits) * turbo_calls / turbo_elapsed;
    }
};

json transport_record(const args& a,
                      const transport_settings& s,
                      const lte::transport_decoder& decoder,
                      const lte::transport_format& first,
                      const transport_measurement& m)
{
    auto r = json::object();
    r.set("code", "lte-transport")
        .set("backend", decoder.backend())
        .set("input_type", s.int8 ? "int8" : "float")
        .set("iterations", s.config.turbo.iterations)
        .set("algorithm", turbo::to_string(s.config.turbo.algo))
        .set("block_crc_stop", s.config.early_stop)
        .set("qm", first.Qm)
        .set("rate", s.rate)
        .set("rv", first.rv)
        .set("tbs", a.get("tbs"))
        .set("transport_blocks", m.transport_blocks)
        .set("code_blocks_bits", m.code_block_bits)
        .set("ebn0_db", s.ebn0)
        .set("crc_passed", m.pipeline.passed)
        .set("bit_errors", m.pipeline.bit_errors)
        .set("calls", m.pipeline.calls)
        .set("seconds", m.pipeline.elapsed)
        .set("info_bits_per_second", m.pipeline_rate())
        .set("code_block_bits_per_second", m.pipeline_blocks())
        .set("turbo_calls", m.turbo_calls)
        .set("turbo_seconds", m.turbo_elapsed)
        .set("turbo_code_block_bits_per_second", m.turbo_rate())
        .set("pipeline_over_turbo", m.pipeline_blocks() / m.turbo_rate());
    return r;
}

// The table, on stdout after a line of what ran.
void print_transport_table(const args& a,
                           const transport_settings& s,
                           const lte::transport_decoder& decoder,
                           const lte::transport_format& first,
                           const transport_measurement& m)
{
    std::cout << "# gputurbo-bench --code lte: backend " << decoder.backend() << ": "
              << decoder.device() << "; input " << (s.int8 ? "int8" : "float") << ", Qm "
              << first.Qm << ", rate " << s.rate << ", Eb/N0 " << s.ebn0 << " dB; commit "
              << source_commit() << "\n";
    print_table(std::cout,
                { "tbs",
                  "transport blocks",
                  "crc passed",
                  "pipeline Mbit/s",
                  "code-block Mbit/s",
                  "turbo alone Mbit/s",
                  "ratio" },
                { { a.get("tbs"),
                    std::to_string(m.transport_blocks),
                    std::to_string(m.pipeline.passed),
                    format("%.2f", m.pipeline_rate() / 1e6),
                    format("%.2f", m.pipeline_blocks() / 1e6),
                    format("%.2f", m.turbo_rate() / 1e6),
                    format("%.3f", m.pipeline_blocks() / m.turbo_rate()) } });
    std::cout << std::flush;
}

} // namespace

int transport_bench(const args& a)
{
    const transport_settings s = parse_transport_settings(a);
    const auto decoder = lte::make_transport_decoder(s.config, s.backend);
    transport_measurement m;
    m.transport_blocks = transport_block_count(a, s, *decoder);
    transport_inputs in;
    make_transport_blocks(a, s, m.transport_blocks, in);
    m.total_tbs = in.total_tbs;
    m.pipeline = time_pipeline(*decoder, in, s.seconds);
    const code_block_groups groups = group_code_blocks(*decoder, in, m.code_block_bits);
    std::tie(m.turbo_calls, m.turbo_elapsed) = time_turbo_alone(s, groups);

    const lte::transport_format& first = in.blocks.front().format;
    print_transport_table(a, s, *decoder, first, m);
    if (a.given("json"))
        write_text_file(
            a.get("json"),
            record("gputurbo-bench",
                   decoder->device(),
                   json::object(),
                   json::array().push(transport_record(a, s, *decoder, first, m)))
                .dump());
    return 0;
}

} // namespace gputurbo::cli
