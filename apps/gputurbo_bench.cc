/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-bench: decoder throughput in information bits per second over the cartesian
// product of the K, batch, iterations, algorithm, subblocks and guard axes.

#include "bench_pdcch.h"
#include "bench_transport.h"
#include "cli.h"
#include "record.h"

#include <gnuradio/gputurbo/engine/sim/channel.h>

#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace {

using namespace gputurbo;
using namespace gputurbo::core;
using namespace gputurbo::sim;
using namespace gputurbo::turbo;

const char* const program = "gputurbo-bench";

// Codewords per decode call, an axis of its own.
const core::parameter batch_parameter{
    "batch",
    core::parameter_kind::integer,
    "0",
    "codewords per decode call (automatic: about 50 Mbit of information bits, 8192 "
    "codewords of K = 6144, on CUDA; 64 codewords on the CPU)",
    1,
    cli::max_batch,
    false,
    "automatic"
};

std::vector<cli::option> options(const std::string& code)
{
    const bool conv = code == "conv";
    auto o = conv ? cli::conv_decoder_options() : cli::decoder_options(true);
    o.push_back(cli::parameter_option(batch_parameter, !conv));
    o.push_back(cli::section("Measurement"));
    o.push_back(
        { "mode",
          "MODE",
          "end-to-end",
          "end-to-end (host buffers in, bits out) or kernel (GPU kernels alone)" });
    if (conv)
        o.push_back({ "batches-in-flight",
                      "N",
                      "2",
                      "termination streaming: batches of segments decoding at once, 1 "
                      "... 4 (the stream decoder's set_batches_in_flight)" });
    o.push_back({ "host-memory",
                  "KIND",
                  "page-locked",
                  "host buffers of LLRs and bits: page-locked (host_buffer, moved by "
                  "DMA directly) or pageable (staged through the decoder's buffers)" });
    if (!conv)
        o.push_back({ "bits",
                      "FORMAT",
                      "unpacked",
                      "the decoded bits: unpacked (a byte per bit) or packed (8 a byte, "
                      "the first in the highest bit; the CUDA kernels pack them, 8 "
                      "times fewer bytes to copy back)" });
    const std::vector<cli::option> more = {
        { "ebn0", "DB", "1.0", "Eb/N0 of the noisy codewords fed to the decoder" },
        { "seconds", "S", "2", "minimum measuring time per configuration" },
        { "seed", "N", "1", "random seed of the codewords" },
        cli::section("Output (the table always goes to stdout)"),
        { "json",
          "FILE",
          "",
          "write the results as a record (JSON): a row a configuration" },
    };
    o.insert(o.end(), more.begin(), more.end());
    return o;
}

// --batch 0: on CUDA about cuda_bits information bits per call, which keep the largest
// GPUs busy end to end; on the CPU 64 codewords.
std::size_t automatic_batch(backend kind, int block, std::size_t cuda_bits)
{
    if (kind != backend::cuda)
        return 64;
    return std::clamp<std::size_t>(cuda_bits / block, 1, cli::max_batch);
}

// Turbo on CUDA: the information bits of 8192 codewords of K = 6144 per call.
constexpr std::size_t turbo_cuda_bits = 8192 * std::size_t(turbo::max_block_size);
// Viterbi on CUDA: 2^29 bits per call, 3.9 waves of segments on an H100 at 1024-bit
// frames (a thread decodes two segments at once, so the GPU needs hundreds of thousands
// of them), which the decoder cuts into chunks of one wave so that the copies overlap
// the kernels. Larger calls get larger chunks, whose kernels run faster (--batch).
constexpr std::size_t conv_cuda_bits = std::size_t(1) << 29;
// Frames generated for a benchmark at most; a larger batch repeats them.
constexpr std::size_t distinct_frames = 65536;

// LLRs or bits in page-locked memory (host_buffer) or in ordinary memory.
template <class T>
class host_array
{
public:
    host_array(std::size_t count, bool page_locked)
        : d_locked(page_locked ? count : 0), d_plain(page_locked ? 0 : count)
    {
    }
    T* data() { return d_locked.size() ? d_locked.data() : d_plain.data(); }
    std::size_t size() const { return d_locked.size() + d_plain.size(); }
    T operator[](std::size_t i) const
    {
        return d_locked.size() ? d_locked[i] : d_plain[i];
    }
    bool page_locked() const { return d_locked.page_locked(); }

private:
    host_buffer<T> d_locked;
    std::vector<T> d_plain;
};

struct setup
{
    decoder_config config;
    std::size_t batch; // 0: automatic_batch()
};

// The cartesian product of the axes given as lists, the first axis outermost.
std::vector<setup> setups_of(const cli::args& a, const decoder_config& base)
{
    std::vector<setup> setups{ { base, 0 } };
    auto axes = cli::decoder_axes;
    axes.insert(axes.begin() + 1, batch_parameter.name); // K, batch, iterations, …
    for (const auto& axis : axes) {
        const std::string flag = cli::flag_of(axis);
        std::vector<setup> next;
        for (const auto& s : setups)
            for (const auto& item : cli::split_list(flag, a.get(flag))) {
                setup t = s;
                if (axis == batch_parameter.name)
                    t.batch = std::size_t(cli::number(batch_parameter, item));
                else
                    cli::set_value(t.config, axis, item);
                next.push_back(t);
            }
        setups = std::move(next);
    }
    return setups;
}

// --mode, checked: end-to-end or kernel.
std::string measuring_mode(const cli::args& a)
{
    const std::string mode = a.get("mode");
    if (mode != "end-to-end" && mode != "kernel")
        throw cli::usage_error("--mode: unknown mode '" + mode +
                               "': use end-to-end or kernel");
    return mode;
}

// --seconds, checked.
double measuring_seconds(const cli::args& a)
{
    const double seconds = cli::to_double("seconds", a.get("seconds"));
    if (seconds < 0.0 || seconds > 86400.0)
        throw cli::usage_error("--seconds: use 0 ... 86400");
    return seconds;
}

// --host-memory, checked: whether the host buffers are page-locked.
bool page_locked(const std::string& host_memory)
{
    if (host_memory != "page-locked" && host_memory != "pageable")
        throw cli::usage_error("--host-memory: unknown kind '" + host_memory +
                               "': use page-locked or pageable");
    return host_memory == "page-locked";
}

// --code conv: the options, checked in the order they are read.
struct conv_settings
{
    conv::viterbi_config config;
    int frame_bits = 0;
    std::string mode;
    bool int4 = false, int8 = false;
    std::string input;
    std::string output;
    core::soft_output soft_kind = core::soft_output::none;
    double ebn0 = 0.0, seconds = 0.0;
    std::uint64_t seed = 0;
    std::size_t batch_requested = 0;
    bool locked = false;
    bool streaming = false;
    int in_flight = 0;

    bool soft() const { return soft_kind != core::soft_output::none; }
};

conv_settings parse_conv_settings(const cli::args& a)
{
    conv_settings s;
    s.config = cli::conv_config_from(a);
    s.frame_bits = cli::frame_bits(a, s.config);
    conv::check_frame_bits(s.config.generator, s.config.mode, s.frame_bits);
    s.mode = measuring_mode(a);
    // --input int4 too: the int8 values saturated to +-7, two to a byte (frames).
    s.int4 = a.get("input-type") == "int4";
    s.int8 = s.int4 || cli::int8_input(a);
    s.input = s.int4 ? "int4" : s.int8 ? "int8" : "float";
    s.ebn0 = cli::to_double("ebn0", a.get("ebn0"));
    s.seconds = measuring_seconds(a);
    s.seed = cli::to_count("seed", a.get("seed"));
    if (a.given("json"))
        cli::check_output_path("json", a.get("json"));
    s.batch_requested = std::size_t(cli::number(a, batch_parameter));
    s.locked = page_locked(a.get("host-memory"));
    s.streaming = s.config.mode == conv::termination::streaming;
    if (s.int4 && s.streaming)
        throw cli::usage_error(
            "--input int4: frames only (a stream takes float or int8)");
    s.output = a.get("output");
    s.soft_kind = cli::soft_output_of(a, s.streaming);
    s.in_flight = int(cli::to_count("batches-in-flight", a.get("batches-in-flight")));
    return s;
}

// --code conv's decoder: of a stream (termination streaming) or of frames.
struct conv_decoders
{
    std::unique_ptr<core::batch_decoder> frames;
    std::unique_ptr<conv::stream_decoder> stream;

    std::string backend() const { return stream ? stream->backend() : frames->backend(); }
    std::string device() const { return stream ? stream->device() : frames->device(); }
};

conv_decoders make_conv_decoders(const conv_settings& s, const std::string& backend)
{
    conv_decoders d;
    if (s.streaming) {
        d.stream = conv::make_stream_decoder(s.config, backend);
        try {
            d.stream->set_batches_in_flight(s.in_flight);
        } catch (const std::invalid_argument& e) {
            throw cli::usage_error(std::string("--batches-in-flight: ") + e.what());
        }
    } else
        d.frames = conv::make_viterbi_decoder(s.config, backend);
    const std::string kind = d.backend();
    if (s.mode == "kernel" && (s.streaming || kind != "cuda"))
        throw std::invalid_argument(
            "--mode kernel: " +
            (s.streaming ? std::string("a stream decoder's")
                         : "backend '" + kind + "''s") +
            " kernels are not timed apart; use --mode end-to-end");
    return d;
}

// --code conv's link: the code, its frames, the Eb/N0 and the seed.
conv_setup conv_setup_of(const conv_settings& s)
{
    conv_setup setup = conv_setup::of(s.config, s.frame_bits);
    setup.ebn0_db = s.ebn0;
    setup.seed = s.seed;
    return setup;
}

// --code conv's frames and the buffers of a decode call (len LLRs a frame; soft_len
// soft values a frame with soft output).
struct conv_buffers
{
    std::vector<std::uint8_t> sent;
    host_array<std::uint8_t> bits;
    host_array<float> llrs;
    host_array<std::int8_t> quantized;
    host_array<int4_pair> packed;
    std::vector<codeword_status> status;
    std::vector<float> soft_values;
    std::vector<std::uint8_t> code_bits; // sent, what code-extrinsic values are of

    conv_buffers(const conv_settings& s,
                 std::size_t batch,
                 std::size_t len,
                 std::size_t soft_len)
        : sent(batch * s.frame_bits),
          bits(batch * s.frame_bits, s.locked),
          llrs(batch * len, s.locked && !s.int8),
          quantized(s.int8 ? llrs.size() : 0, s.locked && !s.int4),
          packed(s.int4 ? int4_bytes(llrs.size()) : 0, s.locked),
          status(batch),
          soft_values(batch * soft_len),
          code_bits(s.soft_kind == core::soft_output::code_extrinsic ? batch * len : 0)
    {
    }

    //! The bits the soft values are of.
    const std::uint8_t* soft_truth() const
    {
        return code_bits.empty() ? sent.data() : code_bits.data();
    }

    bool input_page_locked(const conv_settings& s) const
    {
        return s.int4   ? packed.page_locked()
               : s.int8 ? quantized.page_locked()
                        : llrs.page_locked();
    }
};

// The batch's frames, and their LLRs as the decoder takes them. At most distinct_frames
// different frames, repeated to fill the batch: a GPU's batches are large, and what the
// frames hold does not change the speed. A stream's frames are consecutive pieces of it,
// all different.
void make_conv_frames(const conv_settings& s,
                      const conv_setup& setup,
                      std::size_t batch,
                      conv_buffers& b)
{
    const int frame_bits = s.frame_bits;
    const std::size_t len = setup.sent_length();
    const std::size_t distinct = s.streaming ? batch : std::min(batch, distinct_frames);
    std::uint8_t* code_bits = b.code_bits.empty() ? nullptr : b.code_bits.data();
    make_noisy_frames(
        setup, 0, distinct, b.sent.data(), b.llrs.data(), s.config.threads, code_bits);
    for (std::size_t f = distinct; f < batch; ++f) {
        std::copy_n(b.sent.data() + (f % distinct) * frame_bits,
                    frame_bits,
                    b.sent.data() + f * frame_bits);
        std::copy_n(b.llrs.data() + (f % distinct) * len, len, b.llrs.data() + f * len);
        if (code_bits)
            std::copy_n(code_bits + (f % distinct) * len, len, code_bits + f * len);
    }
    if (s.int8)
        quantize_llrs(b.llrs.data(),
                      b.llrs.size(),
                      b.quantized.data(),
                      s.config.int8_scale,
                      s.int4 ? 4 : 8);
    if (s.int4)
        pack_int4(b.quantized.data(), b.quantized.size(), b.packed.data());
}

// The batch's LLRs fed to the stream once more: the bits that came out, written to `to`.
std::size_t feed_stream(conv::stream_decoder& stream,
                        const conv_settings& s,
                        conv_buffers& b,
                        std::uint8_t* to)
{
    return s.int8 ? stream.decode(b.quantized.data(), b.quantized.size(), to)
                  : stream.decode(b.llrs.data(), b.llrs.size(), to);
}

// The frames decoded once from the input type of the settings, with their output.
void decode_conv_frames(core::batch_decoder& dec,
                        const conv_settings& s,
                        std::size_t batch,
                        conv_buffers& b)
{
    const core::soft_values out{ b.soft_values.data(), s.soft_kind };
    auto decode = [&](const auto* llrs) {
        if (s.soft())
            dec.decode_soft(
                s.frame_bits, llrs, batch, out, b.bits.data(), b.status.data());
        else
            dec.decode(s.frame_bits, llrs, batch, b.bits.data(), b.status.data());
    };
    if (s.int4)
        decode(b.packed.data());
    else if (s.int8)
        decode(b.quantized.data());
    else
        decode(b.llrs.data());
}

// The warm-up, which also counts the bit errors: the frames decoded once, or the stream
// fed once and flushed.
std::uint64_t
conv_warm_up(conv_decoders& d, const conv_settings& s, std::size_t batch, conv_buffers& b)
{
    if (d.stream) {
        std::size_t written = feed_stream(*d.stream, s, b, b.bits.data()); // all fits

        written += d.stream->flush(b.bits.data() + written);
        if (written != b.bits.size())
            throw std::logic_error("the stream decoder gave " + std::to_string(written) +
                                   " bits for " + std::to_string(b.bits.size()));
    } else {
        decode_conv_frames(*d.frames, s, batch, b);
    }
    std::uint64_t bit_errors = 0;
    for (std::size_t k = 0; k < b.sent.size(); ++k)
        bit_errors += (b.sent[k] ^ b.bits[k]) & 1u;
    return bit_errors;
}

// What a run measured.
struct measurement
{
    std::size_t batch = 0;
    std::uint64_t bit_errors = 0, calls = 0;
    double seconds = 0.0; // of the calls, or of their kernels with --mode kernel
    double rate = 0.0;    // information bits per second
};

// --code conv's table, on stdout after a line of what ran.
void print_conv_table(const conv_settings& s,
                      const std::string& backend,
                      const std::string& device,
                      const measurement& m)
{
    const conv::viterbi_config& config = s.config;
    std::cout << "# gputurbo-bench: backend " << backend << ": " << device << "; "
              << cli::geometry_text(config) << "; mode " << s.mode << ", input "
              << s.input << ", output " << s.output << ", Eb/N0 " << s.ebn0
              << " dB; commit " << cli::source_commit() << "\n";
    cli::print_table(
        std::cout,
        { "code",
          "termination",
          "puncture",
          "frame bits",
          "batch",
          "bit errors",
          "calls",
          "seconds",
          "Mbit/s" },
        { { config.generator.text(),
            conv::to_string(config.mode),
            config.punctured.none() ? "none" : conv::puncture_text(config.punctured),
            std::to_string(s.frame_bits),
            std::to_string(m.batch),
            std::to_string(m.bit_errors),
            std::to_string(m.calls),
            cli::format("%.2f", m.seconds),
            cli::format("%.2f", m.rate / 1e6) } });
    std::cout << std::flush;
}

// --code conv: one configuration, end to end.
int conv_bench(const cli::args& a)
{
    const conv_settings s = parse_conv_settings(a);
    conv_decoders d = make_conv_decoders(s, a.get("backend"));
    const std::string backend = d.backend();
    const std::string device = d.device();
    // A stream's calls are cut into segments that share the lanes and cores: give them
    // many (a million bits).
    measurement m;
    m.batch = s.batch_requested ? s.batch_requested
              : s.streaming
                  ? 1024
                  : automatic_batch(d.frames->kind(), s.frame_bits, conv_cuda_bits);
    const conv_setup setup = conv_setup_of(s);
    conv_buffers b(s,
                   m.batch,
                   setup.sent_length(),
                   s.soft() ? d.frames->soft_length(s.frame_bits, s.soft_kind) : 0);
    make_conv_frames(s, setup, m.batch, b);
    // A stream: the batch's frames are a piece of it; the timed calls feed that piece
    // again and again as the stream goes on, and count the bits that come out.
    std::uint64_t stream_bits = 0;
    std::vector<std::uint8_t> out;
    auto decode = [&] {
        if (d.stream) {
            out.resize(d.stream->output_bound(b.llrs.size()));
            stream_bits += feed_stream(*d.stream, s, b, out.data());
        } else
            decode_conv_frames(*d.frames, s, m.batch, b);
    };
    m.bit_errors = conv_warm_up(d, s, m.batch, b);
    sim::soft_statistics soft; // of the warm-up's soft values
    if (s.soft()) {
        soft.add(b.soft_values.data(), b.soft_truth(), b.soft_values.size());
        soft.add_channel(b.llrs.data(), b.llrs.size());
    }
    // end-to-end: wall time of the calls; kernel: the device time of their kernels alone
    double kernel_time = 0.0;
    const auto [calls, elapsed] = cli::time_calls(s.seconds, [&] {
        decode();
        if (d.frames)
            kernel_time += d.frames->device_seconds();
    });
    m.calls = calls;
    m.seconds = elapsed;
    m.rate =
        (s.streaming ? double(stream_bits) : double(s.frame_bits) * m.batch * calls) /
        (s.mode == "kernel" ? kernel_time : elapsed);

    auto r = cli::json::object();
    r.set("backend", backend)
        .set("mode", s.mode)
        .set("host_memory",
             b.input_page_locked(s) && b.bits.page_locked() ? "page-locked" : "pageable");
    cli::add_parameters(r, a, s.config, s.frame_bits, s.int8);
    r.set("input_type", s.input)
        .set("output", s.output)
        .set(batch_parameter.name, m.batch)
        .set(std::string(batch_parameter.name) + "_requested", s.batch_requested)
        .set("batches_in_flight", s.streaming ? s.in_flight : 0)
        .set("ebn0_db", s.ebn0)
        .set("bit_errors", m.bit_errors)
        .set("calls", m.calls)
        .set("seconds", elapsed)
        .set("info_bits_per_second", m.rate);
    if (s.soft())
        r.set("llr_statistics", cli::llr_statistics(soft));

    print_conv_table(s, backend, device, m);
    if (a.given("json"))
        cli::write_text_file(a.get("json"),
                             cli::record("gputurbo-bench",
                                         device,
                                         cli::json::object(),
                                         cli::json::array().push(std::move(r)))
                                 .dump());
    return 0;
}

// --code turbo: the options but the axes (setups_of), checked in the order they are read.
struct turbo_settings
{
    decoder_config base;
    std::string mode;
    std::string host_memory;
    bool locked = false;
    std::string bits_format;
    bit_format format = bit_format::unpacked;
    std::string output;
    core::soft_output soft_kind = core::soft_output::none;
    bool soft = false;
    bool int8 = false;
    std::string input;
    double ebn0 = 0.0, seconds = 0.0;
    std::uint64_t seed = 0;
    std::string backend;
};

turbo_settings parse_turbo_settings(const cli::args& a)
{
    turbo_settings s;
    s.base = cli::config_from(a, true);
    s.mode = measuring_mode(a);
    s.host_memory = a.get("host-memory");
    s.locked = page_locked(s.host_memory);
    s.bits_format = a.get("bits");
    if (s.bits_format != "unpacked" && s.bits_format != "packed")
        throw cli::usage_error("--bits: unknown format '" + s.bits_format +
                               "': use unpacked or packed");
    s.format = s.bits_format == "packed" ? bit_format::packed : bit_format::unpacked;
    s.output = a.get("output");
    s.soft_kind = cli::soft_output_of(a);
    s.soft = s.soft_kind != core::soft_output::none;
    if (s.soft && s.format == bit_format::packed)
        throw cli::usage_error("--bits packed goes with --output bits only");
    s.int8 = cli::int8_input(a);
    s.input = s.int8 ? "int8" : "float";
    s.ebn0 = cli::to_double("ebn0", a.get("ebn0"));
    s.seconds = measuring_seconds(a);
    s.seed = cli::to_count("seed", a.get("seed"));
    s.backend = a.get("backend");
    if (a.given("json"))
        cli::check_output_path("json", a.get("json"));
    return s;
}

// A setup's noisy codewords and the buffers of a decode call.
struct turbo_buffers
{
    std::vector<std::uint8_t> sent;
    host_array<std::uint8_t> bits;
    host_array<float> llrs;
    std::vector<codeword_status> status;
    host_array<float> soft_values; // soft output: 4 bytes a bit more to bring back
    host_array<std::int8_t> quantized;

    turbo_buffers(const turbo_settings& s, const decoder_config& c, std::size_t batch)
        : sent(batch * c.K),
          bits(batch * output_bytes(s.format, c.K), s.locked),
          llrs(batch * turbo::codeword_length(c.K), s.locked && !s.int8),
          status(batch),
          soft_values(s.soft ? batch * std::size_t(c.K) : 0, s.locked),
          quantized(s.int8 ? llrs.size() : 0, s.locked)
    {
        channel_setup ch;
        ch.K = c.K;
        ch.ebn0_db = s.ebn0;
        ch.seed = s.seed;
        ch.out_layout = c.input_layout;
        // CRC stop rules only stop early on frames that carry that CRC.
        ch.crc = stop_crc(c.early_stop);
        make_noisy_frames(ch, 0, batch, sent.data(), llrs.data(), c.threads);
        if (s.int8)
            quantize_llrs(llrs.data(), llrs.size(), quantized.data(), c.int8_scale);
    }

    bool input_page_locked(const turbo_settings& s) const
    {
        return s.int8 ? quantized.page_locked() : llrs.page_locked();
    }
};

// The batch decoded once, with the output of the settings.
void decode_turbo(turbo::decoder& dec,
                  const turbo_settings& s,
                  int K,
                  std::size_t batch,
                  turbo_buffers& b)
{
    const core::soft_values out{ b.soft_values.data(), s.soft_kind };
    if (s.int8 && s.soft)
        dec.decode_soft(
            K, b.quantized.data(), batch, out, b.bits.data(), b.status.data());
    else if (s.soft)
        dec.decode_soft(K, b.llrs.data(), batch, out, b.bits.data(), b.status.data());
    else if (s.int8)
        dec.decode(b.quantized.data(), batch, b.bits.data(), b.status.data(), s.format);
    else
        dec.decode(b.llrs.data(), batch, b.bits.data(), b.status.data(), s.format);
}

std::uint64_t turbo_bit_errors(const turbo_settings& s, const turbo_buffers& b)
{
    std::uint64_t bit_errors = 0;
    for (std::size_t k = 0; k < b.sent.size(); ++k) {
        const std::uint8_t bit = s.format == bit_format::packed
                                     ? b.bits[k / 8] >> (7 - k % 8) // K % 8 == 0
                                     : b.bits[k];
        bit_errors += (b.sent[k] ^ bit) & 1u;
    }
    return bit_errors;
}

// On a terminal, the setup running, over the previous one.
void print_progress(
    std::size_t i, std::size_t count, const decoder_config& c, std::size_t batch, int P)
{
    std::cerr << cli::format("\r[%zu/%zu] K=%d batch=%zu iterations=%d %s P=%d %s\033[K",
                             i + 1,
                             count,
                             c.K,
                             batch,
                             c.iterations,
                             to_string(c.algo),
                             P,
                             to_string(c.guarding))
              << std::flush;
}

// What a setup's run gives: a row of the record and one of the table.
struct setup_result
{
    cli::json record;
    std::vector<std::string> row;
    std::string device;      // the decoder's
    std::string device_line; // its backend and device
};

// Measures one setup: its codewords decoded once to warm up (counting the bit errors and
// iterations), then again and again for --seconds.
setup_result bench_turbo_setup(const turbo_settings& s,
                               const setup& su,
                               std::size_t i,
                               std::size_t count)
{
    const decoder_config& c = su.config;
    const auto dec = make_decoder(c, s.backend);
    if (s.mode == "kernel" && dec->backend() != "cuda")
        throw std::invalid_argument("--mode kernel: backend '" + dec->backend() +
                                    "' has no device kernels to time apart; use --mode "
                                    "end-to-end");
    dec->check_block(c.K); // an automatic P against g
    const int P = dec->subblocks(c.K);
    measurement m;
    m.batch = su.batch ? su.batch : automatic_batch(dec->kind(), c.K, turbo_cuda_bits);
    if (cli::stderr_is_terminal())
        print_progress(i, count, c, m.batch, P);

    turbo_buffers b(s, c, m.batch);
    decode_turbo(*dec, s, c.K, m.batch, b); // warm-up
    m.bit_errors = turbo_bit_errors(s, b);
    sim::soft_statistics soft; // of the warm-up's soft values
    if (s.soft) {
        soft.add(b.soft_values.data(), b.sent.data(), b.soft_values.size());
        soft.add_channel(b.llrs.data(), b.llrs.size());
    }
    std::uint64_t iteration_sum = 0;
    for (const auto& st : b.status)
        iteration_sum += st.iterations;

    // end-to-end: wall time of decode() calls; kernel: the device time of their
    // kernels alone (data already on the device, transfers excluded).
    double kernel_time = 0.0;
    const auto [calls, elapsed] = cli::time_calls(s.seconds, [&] {
        decode_turbo(*dec, s, c.K, m.batch, b);
        kernel_time += dec->device_seconds();
    });
    m.calls = calls;
    m.seconds = s.mode == "kernel" ? kernel_time : elapsed;
    m.rate = double(c.K) * m.batch * m.calls / m.seconds;
    const double avg_iterations = double(iteration_sum) / m.batch;

    auto r = cli::json::object();
    r.set("backend", dec->backend())
        .set("device", dec->device())
        .set("mode", s.mode)
        .set("host_memory",
             b.input_page_locked(s) && b.bits.page_locked() ? "page-locked" : "pageable")
        .set("bit_format", s.bits_format)
        .set("output", s.output);
    cli::add_parameters(r, *dec, c.K, s.int8);
    r.set(batch_parameter.name, m.batch)
        .set(std::string(batch_parameter.name) + "_requested", su.batch)
        .set("ebn0_db", s.ebn0)
        .set("avg_iterations", avg_iterations)
        .set("bit_errors", m.bit_errors)
        .set("calls", m.calls)
        .set("seconds", m.seconds)
        .set("info_bits_per_second", m.rate);
    if (s.soft)
        r.set("llr_statistics", cli::llr_statistics(soft));
    return { std::move(r),
             { std::to_string(c.K),
               std::to_string(m.batch),
               std::to_string(c.iterations),
               to_string(c.algo),
               std::to_string(P),
               to_string(c.guarding),
               cli::format("%.2f", avg_iterations),
               std::to_string(m.bit_errors),
               std::to_string(m.calls),
               cli::format("%.2f", m.seconds),
               cli::format("%.2f", m.rate / 1e6) },
             dec->device(),
             dec->backend() + ": " + dec->device() };
}

// --code turbo's table, on stdout after a line of what ran.
void print_turbo_table(const turbo_settings& s,
                       const std::string& device_line,
                       const std::vector<std::vector<std::string>>& rows)
{
    std::cout << "# gputurbo-bench: backend " << device_line << "; mode " << s.mode
              << ", input " << s.input << " (" << s.host_memory << "), bits "
              << s.bits_format << ", output " << s.output << ", Eb/N0 " << s.ebn0
              << " dB; commit " << cli::source_commit() << "\n";
    cli::print_table(std::cout,
                     { "K",
                       "batch",
                       "iter",
                       "algorithm",
                       "P",
                       "guard",
                       "avg iter",
                       "bit errors",
                       "calls",
                       "seconds",
                       "Mbit/s" },
                     rows);
    std::cout << std::flush;
}

// --code turbo: every combination of the axes' values.
int turbo_bench(const cli::args& a)
{
    const turbo_settings s = parse_turbo_settings(a);
    // Every configuration is checked before the first one runs (an automatic P when
    // its decoder is made).
    const std::vector<setup> setups = setups_of(a, s.base);
    for (const auto& su : setups)
        su.config.validate();

    auto records = cli::json::array(); // a row a configuration
    std::string first_device;          // the record's; each row names its own
    std::vector<std::vector<std::string>> rows;
    std::string device_line;
    for (std::size_t i = 0; i < setups.size(); ++i) {
        setup_result result = bench_turbo_setup(s, setups[i], i, setups.size());
        if (i == 0)
            first_device = result.device;
        records.push(std::move(result.record));
        rows.push_back(std::move(result.row));
        device_line = result.device_line;
    }
    if (cli::stderr_is_terminal())
        std::cerr << "\r\033[K" << std::flush;

    print_turbo_table(s, device_line, rows);
    if (a.given("json"))
        cli::write_text_file(
            a.get("json"),
            cli::record(
                "gputurbo-bench", first_device, cli::json::object(), std::move(records))
                .dump());
    return 0;
}

int bench_main(int argc, char** argv)
{
    const std::string code = cli::code_family(argc, argv, true);
    cli::args a(
        program,
        "Measures the throughput of the LTE turbo decoder: `batch` noisy codewords "
        "are made once,\ndecoded once to warm up, then decoded again and again for "
        "--seconds. Throughput is\nK * batch * calls / elapsed information bits "
        "per second.\nK, batch, iterations, algorithm, subblocks and guard take "
        "comma-separated "
        "lists;\nevery combination runs. crc24a/crc24b stop rules get frames that carry "
        "that CRC.\nWith --code conv: one configuration of a Viterbi decoder, frame_bits "
        "* batch * calls /\nelapsed.\nWith --code lte: transport blocks through the "
        "whole "
        "receiver, and the turbo decoder\nalone on the same code blocks.\nWith --code "
        "pdcch: the PDCCH's blind search of LTE subframes, subframes per second.",
        code == "lte"     ? cli::transport_options()
        : code == "pdcch" ? cli::pdcch_options()
                          : options(code));
    a.parse(argc, argv);
    if (a.print_info())
        return 0;
    if (code == "conv")
        return conv_bench(a);
    if (code == "lte")
        return cli::transport_bench(a);
    if (code == "pdcch")
        return cli::pdcch_bench(a);
    return turbo_bench(a);
}

} // namespace

int main(int argc, char** argv)
{
    return gputurbo::cli::run_main(
        program, [&] { return bench_main(argc, argv); }, "try a smaller --batch");
}
