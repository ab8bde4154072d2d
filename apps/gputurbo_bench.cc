/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-bench: decoder throughput in information bits per second over the cartesian
// product of the K, batch, iterations, algorithm, subblocks and guard axes.

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
        o.push_back(cli::parameter_option(
            core::find_parameter(core::block_parameters(), "output")));
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

// --code conv: one configuration, end to end.
int conv_bench(const cli::args& a)
{
    const conv::viterbi_config config = cli::conv_config_from(a);
    const int frame_bits = cli::frame_bits(a, config);
    conv::check_frame_bits(config.generator, config.mode, frame_bits);
    const std::string mode = a.get("mode");
    if (mode != "end-to-end" && mode != "kernel")
        throw cli::usage_error("--mode: unknown mode '" + mode +
                               "': use end-to-end or kernel");
    // --input int4 too: the int8 values saturated to +-7, two to a byte (frames).
    const bool int4 = a.get("input-type") == "int4";
    const bool int8 = int4 || cli::int8_input(a);
    const std::string input = int4 ? "int4" : int8 ? "int8" : "float";
    const double ebn0 = cli::to_double("ebn0", a.get("ebn0"));
    const double seconds = cli::to_double("seconds", a.get("seconds"));
    if (seconds < 0.0 || seconds > 86400.0)
        throw cli::usage_error("--seconds: use 0 ... 86400");
    const std::uint64_t seed = cli::to_count("seed", a.get("seed"));
    if (a.given("json"))
        cli::check_output_path("json", a.get("json"));
    const std::size_t batch_requested = std::size_t(cli::number(a, batch_parameter));
    const std::string host_memory = a.get("host-memory");
    if (host_memory != "page-locked" && host_memory != "pageable")
        throw cli::usage_error("--host-memory: unknown kind '" + host_memory +
                               "': use page-locked or pageable");
    const bool locked = host_memory == "page-locked";

    const bool streaming = config.mode == conv::termination::streaming;
    if (int4 && streaming)
        throw cli::usage_error(
            "--input int4: frames only (a stream takes float or int8)");
    std::unique_ptr<core::batch_decoder> dec;
    std::unique_ptr<conv::stream_decoder> stream;
    const int in_flight =
        int(cli::to_count("batches-in-flight", a.get("batches-in-flight")));
    if (streaming) {
        stream = conv::make_stream_decoder(config, a.get("backend"));
        try {
            stream->set_batches_in_flight(in_flight);
        } catch (const std::invalid_argument& e) {
            throw cli::usage_error(std::string("--batches-in-flight: ") + e.what());
        }
    } else
        dec = conv::make_viterbi_decoder(config, a.get("backend"));
    const std::string backend = streaming ? stream->backend() : dec->backend();
    const std::string device = streaming ? stream->device() : dec->device();
    if (mode == "kernel" && (streaming || backend != "cuda"))
        throw std::invalid_argument(
            "--mode kernel: " +
            (streaming ? std::string("a stream decoder's")
                       : "backend '" + backend + "''s") +
            " kernels are not timed apart; use --mode end-to-end");
    // A stream's calls are cut into segments that share the lanes and cores: give them
    // many (a million bits).
    const std::size_t batch =
        batch_requested ? batch_requested
        : streaming     ? 1024
                        : automatic_batch(dec->kind(), frame_bits, conv_cuda_bits);
    conv_setup setup = conv_setup::of(config, frame_bits);
    setup.ebn0_db = ebn0;
    setup.seed = seed;
    const std::size_t len = setup.sent_length();
    std::vector<std::uint8_t> sent(batch * frame_bits);
    host_array<std::uint8_t> bits(batch * frame_bits, locked);
    host_array<float> llrs(batch * len, locked && !int8);
    host_array<std::int8_t> quantized(int8 ? llrs.size() : 0, locked && !int4);
    host_array<int4_pair> packed(int4 ? int4_bytes(llrs.size()) : 0, locked);
    const bool input_locked = int4   ? packed.page_locked()
                              : int8 ? quantized.page_locked()
                                     : llrs.page_locked();
    std::vector<codeword_status> status(batch);
    // At most distinct_frames different frames, repeated to fill the batch: a GPU's
    // batches are large, and what the frames hold does not change the speed. A stream's
    // frames are consecutive pieces of it, all different.
    const std::size_t distinct = streaming ? batch : std::min(batch, distinct_frames);
    make_noisy_frames(setup, 0, distinct, sent.data(), llrs.data(), config.threads);
    for (std::size_t f = distinct; f < batch; ++f) {
        std::copy_n(sent.data() + (f % distinct) * frame_bits,
                    frame_bits,
                    sent.data() + f * frame_bits);
        std::copy_n(llrs.data() + (f % distinct) * len, len, llrs.data() + f * len);
    }
    if (int8)
        quantize_llrs(
            llrs.data(), llrs.size(), quantized.data(), config.int8_scale, int4 ? 4 : 8);
    if (int4)
        pack_int4(quantized.data(), quantized.size(), packed.data());
    // A stream: the batch's frames are a piece of it; the timed calls feed that piece
    // again and again as the stream goes on, and count the bits that come out.
    std::uint64_t stream_bits = 0;
    std::vector<std::uint8_t> out;
    auto feed = [&](std::uint8_t* to) {
        return int8 ? stream->decode(quantized.data(), quantized.size(), to)
                    : stream->decode(llrs.data(), llrs.size(), to);
    };
    auto decode = [&] {
        if (streaming) {
            out.resize(stream->output_bound(llrs.size()));
            stream_bits += feed(out.data());
        } else if (int4)
            dec->decode(frame_bits, packed.data(), batch, bits.data(), status.data());
        else if (int8)
            dec->decode(frame_bits, quantized.data(), batch, bits.data(), status.data());
        else
            dec->decode(frame_bits, llrs.data(), batch, bits.data(), status.data());
    };
    // Warm-up, which also counts the bit errors: the stream once, flushed.
    if (streaming) {
        std::size_t written = feed(bits.data()); // all of the stream fits in bits

        written += stream->flush(bits.data() + written);
        if (written != bits.size())
            throw std::logic_error("the stream decoder gave " + std::to_string(written) +
                                   " bits for " + std::to_string(bits.size()));
    } else {
        decode();
    }
    std::uint64_t bit_errors = 0;
    for (std::size_t k = 0; k < sent.size(); ++k)
        bit_errors += (sent[k] ^ bits[k]) & 1u;
    // end-to-end: wall time of the calls; kernel: the device time of their kernels alone
    double kernel_time = 0.0;
    const auto [calls, elapsed] = cli::time_calls(seconds, [&] {
        decode();
        if (dec)
            kernel_time += dec->device_seconds();
    });
    const double rate =
        (streaming ? double(stream_bits) : double(frame_bits) * batch * calls) /
        (mode == "kernel" ? kernel_time : elapsed);

    auto r = cli::json::object();
    r.set("backend", backend)
        .set("mode", mode)
        .set("host_memory",
             input_locked && bits.page_locked() ? "page-locked" : "pageable");
    cli::add_parameters(r, a, config, frame_bits, int8);
    r.set("input_type", input)
        .set(batch_parameter.name, batch)
        .set(std::string(batch_parameter.name) + "_requested", batch_requested)
        .set("batches_in_flight", streaming ? in_flight : 0)
        .set("ebn0_db", ebn0)
        .set("bit_errors", bit_errors)
        .set("calls", calls)
        .set("seconds", elapsed)
        .set("info_bits_per_second", rate);

    std::cout << "# gputurbo-bench: backend " << backend << ": " << device << "; "
              << cli::geometry_text(config) << "; mode " << mode << ", input " << input
              << ", Eb/N0 " << ebn0 << " dB; commit " << cli::source_commit() << "\n";
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
            std::to_string(frame_bits),
            std::to_string(batch),
            std::to_string(bit_errors),
            std::to_string(calls),
            cli::format("%.2f", elapsed),
            cli::format("%.2f", rate / 1e6) } });
    std::cout << std::flush;
    if (a.given("json"))
        cli::write_text_file(a.get("json"),
                             cli::record("gputurbo-bench",
                                         device,
                                         cli::json::object(),
                                         cli::json::array().push(std::move(r)))
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
        "receiver, and the turbo decoder\nalone on the same code blocks.",
        code == "lte" ? cli::transport_options() : options(code));
    a.parse(argc, argv);
    if (a.print_info())
        return 0;
    if (code == "conv")
        return conv_bench(a);
    if (code == "lte")
        return cli::transport_bench(a);

    const decoder_config base = cli::config_from(a, true);
    const std::string mode = a.get("mode");
    if (mode != "end-to-end" && mode != "kernel")
        throw cli::usage_error("--mode: unknown mode '" + mode +
                               "': use end-to-end or kernel");
    const std::string host_memory = a.get("host-memory");
    if (host_memory != "page-locked" && host_memory != "pageable")
        throw cli::usage_error("--host-memory: unknown kind '" + host_memory +
                               "': use page-locked or pageable");
    const std::string bits_format = a.get("bits");
    if (bits_format != "unpacked" && bits_format != "packed")
        throw cli::usage_error("--bits: unknown format '" + bits_format +
                               "': use unpacked or packed");
    const bit_format format =
        bits_format == "packed" ? bit_format::packed : bit_format::unpacked;
    const std::string output = a.get("output");
    const core::soft_output soft_kind = core::parse_output(output);
    const bool soft = soft_kind != core::soft_output::none;
    if (soft && format == bit_format::packed)
        throw cli::usage_error("--bits packed goes with --output bits only");
    const bool int8 = cli::int8_input(a);
    const std::string input = int8 ? "int8" : "float";
    const double ebn0 = cli::to_double("ebn0", a.get("ebn0"));
    const double seconds = cli::to_double("seconds", a.get("seconds"));
    if (seconds < 0.0 || seconds > 86400.0)
        throw cli::usage_error("--seconds: use 0 ... 86400");
    const std::uint64_t seed = cli::to_count("seed", a.get("seed"));
    const std::string backend = a.get("backend");
    if (a.given("json"))
        cli::check_output_path("json", a.get("json"));

    // Every configuration is checked before the first one runs (an automatic P when
    // its decoder is made).
    const std::vector<setup> setups = setups_of(a, base);
    for (const auto& s : setups)
        s.config.validate();

    const bool tty = cli::stderr_is_terminal();
    std::vector<cli::json> results;
    std::string first_device; // the record's; each row names its own
    std::vector<std::vector<std::string>> rows;
    std::string device_line;
    for (std::size_t i = 0; i < setups.size(); ++i) {
        const decoder_config& c = setups[i].config;
        const auto dec = make_decoder(c, backend);
        if (mode == "kernel" && dec->backend() != "cuda")
            throw std::invalid_argument(
                "--mode kernel: backend '" + dec->backend() +
                "' has no device kernels to time apart; use --mode "
                "end-to-end");
        dec->check_block(c.K); // an automatic P against g
        device_line = dec->backend() + ": " + dec->device();
        const int P = dec->subblocks(c.K);
        const std::size_t batch =
            setups[i].batch ? setups[i].batch
                            : automatic_batch(dec->kind(), c.K, turbo_cuda_bits);
        if (tty)
            std::cerr << cli::format(
                             "\r[%zu/%zu] K=%d batch=%zu iterations=%d %s P=%d %s\033[K",
                             i + 1,
                             setups.size(),
                             c.K,
                             batch,
                             c.iterations,
                             to_string(c.algo),
                             P,
                             to_string(c.guarding))
                      << std::flush;

        channel_setup ch;
        ch.K = c.K;
        ch.ebn0_db = ebn0;
        ch.seed = seed;
        ch.out_layout = c.input_layout;
        // CRC stop rules only stop early on frames that carry that CRC.
        ch.crc = stop_crc(c.early_stop);
        const bool locked = host_memory == "page-locked";
        std::vector<std::uint8_t> sent(batch * c.K);
        host_array<std::uint8_t> bits(batch * output_bytes(format, c.K), locked);
        host_array<float> llrs(batch * turbo::codeword_length(c.K), locked && !int8);
        std::vector<codeword_status> status(batch);
        // Soft output: 4 bytes a bit more to bring back.
        host_array<float> soft_values(soft ? batch * std::size_t(c.K) : 0, locked);
        make_noisy_frames(ch, 0, batch, sent.data(), llrs.data(), c.threads);
        host_array<std::int8_t> quantized(int8 ? llrs.size() : 0, locked);
        const bool input_locked = int8 ? quantized.page_locked() : llrs.page_locked();
        if (int8)
            quantize_llrs(llrs.data(), llrs.size(), quantized.data(), c.int8_scale);
        auto decode = [&] {
            const core::soft_values out{ soft_values.data(), soft_kind };
            if (int8 && soft)
                dec->decode_soft(
                    c.K, quantized.data(), batch, out, bits.data(), status.data());
            else if (soft)
                dec->decode_soft(
                    c.K, llrs.data(), batch, out, bits.data(), status.data());
            else if (int8)
                dec->decode(quantized.data(), batch, bits.data(), status.data(), format);
            else
                dec->decode(llrs.data(), batch, bits.data(), status.data(), format);
        };

        decode(); // warm-up
        std::uint64_t bit_errors = 0, iteration_sum = 0;
        for (std::size_t k = 0; k < sent.size(); ++k) {
            const std::uint8_t bit = format == bit_format::packed
                                         ? bits[k / 8] >> (7 - k % 8) // K % 8 == 0
                                         : bits[k];
            bit_errors += (sent[k] ^ bit) & 1u;
        }
        for (const auto& s : status)
            iteration_sum += s.iterations;

        // end-to-end: wall time of decode() calls; kernel: the device time of their
        // kernels alone (data already on the device, transfers excluded).
        std::uint64_t calls = 0;
        double elapsed = 0.0, kernel_time = 0.0;
        const auto start = std::chrono::steady_clock::now();
        do {
            decode();
            kernel_time += dec->device_seconds();
            ++calls;
            elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                    .count();
        } while (elapsed < seconds);
        const double timed = mode == "kernel" ? kernel_time : elapsed;
        const double rate = double(c.K) * batch * calls / timed;
        const double avg_iterations = double(iteration_sum) / batch;

        auto r = cli::json::object();
        r.set("backend", dec->backend())
            .set("device", dec->device())
            .set("mode", mode)
            .set("host_memory",
                 input_locked && bits.page_locked() ? "page-locked" : "pageable")
            .set("bit_format", bits_format)
            .set("output", output);
        cli::add_parameters(r, *dec, c.K, int8);
        r.set(batch_parameter.name, batch)
            .set(std::string(batch_parameter.name) + "_requested", setups[i].batch)
            .set("ebn0_db", ebn0)
            .set("avg_iterations", avg_iterations)
            .set("bit_errors", bit_errors)
            .set("calls", calls)
            .set("seconds", timed)
            .set("info_bits_per_second", rate);
        if (results.empty())
            first_device = dec->device();
        results.push_back(std::move(r));
        rows.push_back({ std::to_string(c.K),
                         std::to_string(batch),
                         std::to_string(c.iterations),
                         to_string(c.algo),
                         std::to_string(P),
                         to_string(c.guarding),
                         cli::format("%.2f", avg_iterations),
                         std::to_string(bit_errors),
                         std::to_string(calls),
                         cli::format("%.2f", timed),
                         cli::format("%.2f", rate / 1e6) });
    }
    if (tty)
        std::cerr << "\r\033[K" << std::flush;

    std::cout << "# gputurbo-bench: backend " << device_line << "; mode " << mode
              << ", input " << input << " (" << host_memory << "), bits " << bits_format
              << ", output " << output << ", Eb/N0 " << ebn0 << " dB; commit "
              << cli::source_commit() << "\n";
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

    if (a.given("json")) { // a row a configuration
        auto rows = cli::json::array();
        for (auto& r : results)
            rows.push(std::move(r));
        cli::write_text_file(
            a.get("json"),
            cli::record(
                "gputurbo-bench", first_device, cli::json::object(), std::move(rows))
                .dump());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return gputurbo::cli::run_main(
        program, [&] { return bench_main(argc, argv); }, "try a smaller --batch");
}
