/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-dlsch: one LTE DL-SCH transport block through the engine's transmit chain
// (encode) or receiver (decode, with a HARQ soft buffer kept in a file between runs).

#include "commands.h"

#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <algorithm>
#include <cstring>
#include <iostream>

namespace {

using namespace gputurbo;
using cli::read_bits;
using cli::read_file;
using cli::read_values;
using cli::refuse_options_of;
using cli::required;
using cli::required_option;
using cli::to_int;
using cli::write_values;

const char* const program = "gputurbo-dlsch";

// The transport block's format, and --out: both commands.
std::vector<cli::option> transport_options()
{
    return {
        cli::section("Transport block (both commands)"),
        required_option(
            "tbs", "T", "transport block bits A, before the CRC-24A: 1 ... 391656"),
        required_option(
            "g", "G", "rate-matched bits sent for it: a multiple of Qm * layers"),
        { "qm", "Q", "2", "bits per modulation symbol: 2, 4, 6 or 8" },
        { "rv", "R", "0", "redundancy version: 0 ... 3" },
        { "layers", "N", "1", "transmission layers: 1 ... 4" },
        { "soft-buffer",
          "N_IR",
          "0",
          "the transport block's soft buffer in bits (36.212 §5.1.4.1.2); 0: no "
          "limit" },
        { "c-init",
          "C",
          "none",
          "c_init of the 36.211 §7.2 scrambling sequence over the G bits, 0 ... 2^31 - "
          "1; none: no scrambling" },
        required_option("out",
                        "FILE",
                        "encode: the G bits sent; decode: the tbs bits decoded, written "
                        "whatever the CRC says (one byte per bit)"),
    };
}

std::vector<cli::option> encode_options()
{
    return {
        cli::section("encode"),
        required_option(
            "in", "FILE", "the tbs bits of the transport block, one byte per bit"),
    };
}

// The turbo decoder's parameters the receiver takes from the table (early_stop and
// layout are the transport decoder's own).
const std::vector<std::string> turbo_parameters = {
    "iterations",   "algorithm",  "scaling", "subblocks", "guard",
    "guard_window", "arithmetic", "threads", "devices",   "int8_scale"
};

std::vector<cli::option> decode_options()
{
    std::vector<cli::option> o = {
        cli::section("decode"),
        required_option(
            "llr-in", "FILE", "the G LLRs received, native-endian float32 or int8"),
        { "llr-type", "TYPE", "float", "the LLRs' type: float (float32) or int8" },
        { "llr-sign",
          "NAME",
          "positive-one",
          "what a positive LLR means: positive-one, bit 1 (GNU Radio's soft "
          "demappers), or positive-zero, bit 0 (L = ln P(0)/P(1), the engine's own)" },
        { "harq-in",
          "FILE",
          "",
          "a soft buffer that --harq-out wrote: this transmission is a retransmission "
          "combined into it (for the same --tbs)" },
        { "harq-out",
          "FILE",
          "",
          "write the soft buffer after combining: a 16-byte header (\"GTHQ\", version, "
          "tbs, length), then int8 values in the engine's sign and units of "
          "--int8-scale, each code block's 3K+12 one after another" },
        { "backend",
          "NAME",
          "auto",
          "auto (cuda where it can run, else cpu), cpu, cuda, or reference (the slow "
          "exact decoder)" },
        { "no-early-stop",
          "",
          "",
          "run every iteration (by default a code block stops once its CRC checks)" },
    };
    for (const auto& name : turbo_parameters)
        o.push_back(cli::parameter_option(turbo::parameter(name)));
    return o;
}

std::vector<cli::option> all_options()
{
    std::vector<cli::option> o = transport_options();
    for (const auto& more : { encode_options(), decode_options() })
        o.insert(o.end(), more.begin(), more.end());
    return o;
}

lte::transport_format format_from(const cli::args& a)
{
    lte::transport_format f;
    f.tbs = to_int("tbs", required(a, "tbs"));
    f.G = to_int("g", required(a, "g"));
    f.Qm = to_int("qm", a.get("qm"));
    f.rv = to_int("rv", a.get("rv"));
    f.layers = to_int("layers", a.get("layers"));
    f.soft_buffer = long(cli::to_count("soft-buffer", a.get("soft-buffer")));
    const std::string c_init = a.get("c-init");
    if (c_init != "none") {
        const std::uint64_t c = cli::to_count("c-init", c_init);
        if (c > std::uint64_t(lte::max_c_init))
            throw cli::usage_error("--c-init: '" + c_init +
                                   "' is out of range: use 0 ... " +
                                   std::to_string(lte::max_c_init) + ", or none");
        f.c_init = long(c);
    }
    f.validate(); // the engine's message: "Qm=3 is not a modulation order of LTE: ..."
    return f;
}

// A soft buffer's file (--harq-out, --harq-in): a header of four little-endian 32-bit
// words, the magic "GTHQ", the format version, the tbs and the number of values; then
// the values.
constexpr char harq_magic[4] = { 'G', 'T', 'H', 'Q' };
constexpr std::uint32_t harq_version = 1;
constexpr std::size_t harq_header_bytes = 16;

void put_word(std::string& out, std::uint32_t w)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(char(w >> 8 * i & 0xffu));
}

std::uint32_t word_at(const std::vector<char>& bytes, std::size_t at)
{
    std::uint32_t w = 0;
    for (int i = 0; i < 4; ++i)
        w |= std::uint32_t(static_cast<unsigned char>(bytes[at + i])) << 8 * i;
    return w;
}

void write_soft_buffer(const std::string& path,
                       int tbs,
                       const std::vector<std::int8_t>& values)
{
    std::string file(harq_magic, sizeof harq_magic);
    put_word(file, harq_version);
    put_word(file, std::uint32_t(tbs));
    put_word(file, std::uint32_t(values.size()));
    file.append(reinterpret_cast<const char*>(values.data()), values.size());
    cli::write_text_file(path, file);
}

//! The values of a file write_soft_buffer() wrote for \p tbs; std::invalid_argument
//! with the reason for any other file.
std::vector<std::int8_t> read_soft_buffer(const std::string& path, int tbs)
{
    const std::size_t length = lte::soft_buffer_length(tbs);
    const std::vector<char> bytes =
        read_file("harq-in", path, harq_header_bytes + length + 1);
    auto refuse = [&](const std::string& why) {
        throw std::invalid_argument("--harq-in: '" + path + "' " + why);
    };
    if (bytes.size() < harq_header_bytes ||
        !std::equal(harq_magic, harq_magic + sizeof harq_magic, bytes.begin()))
        refuse("is not a soft buffer that --harq-out wrote: it does not start with "
               "the header \"GTHQ\" (an earlier gputurbo-dlsch wrote none: decode "
               "those transmissions again)");
    if (word_at(bytes, 4) != harq_version)
        refuse("is a soft buffer of format version " + std::to_string(word_at(bytes, 4)) +
               ": this gputurbo-dlsch reads version " + std::to_string(harq_version));
    if (word_at(bytes, 8) != std::uint32_t(tbs))
        refuse("is the soft buffer of tbs=" + std::to_string(word_at(bytes, 8)) +
               ", not of --tbs " + std::to_string(tbs));
    if (word_at(bytes, 12) != length)
        refuse("says it holds " + std::to_string(word_at(bytes, 12)) +
               " values, but the soft buffer of tbs=" + std::to_string(tbs) + " has " +
               std::to_string(length));
    if (bytes.size() != harq_header_bytes + length)
        refuse(cli::file_holds(path, bytes.size(), harq_header_bytes + length) +
               ", but the header and the " + std::to_string(length) +
               " values of tbs=" + std::to_string(tbs) + " take " +
               std::to_string(harq_header_bytes + length));
    return { bytes.begin() + harq_header_bytes, bytes.end() };
}

int encode(const cli::args& a)
{
    refuse_options_of(a, decode_options(), "encode");
    const lte::transport_format f = format_from(a);
    const std::string in = required(a, "in"), out = required(a, "out");
    cli::check_output_path("out", out);
    const auto data = read_bits("in", in, std::size_t(f.tbs), "bits of --tbs");
    std::vector<std::uint8_t> e(std::size_t(f.G));
    lte::transport_encode(f, data.data(), e.data());
    write_values(out, e.data(), e.size());
    return 0;
}

lte::transport_config config_from(const cli::args& a)
{
    lte::transport_config c;
    for (const auto& name : turbo_parameters)
        cli::set_value(c.turbo, name, a.get(cli::flag_of(name)));
    try {
        c.turbo.invert_llr = core::positive_means_one(a.get("llr-sign"));
    } catch (const std::invalid_argument& e) {
        throw cli::usage_error(std::string("--llr-sign: ") + e.what());
    }
    c.early_stop = !a.flag("no-early-stop");
    return c;
}

int decode(const cli::args& a)
{
    refuse_options_of(a, encode_options(), "decode");
    const lte::transport_format f = format_from(a);
    const lte::transport_config config = config_from(a);
    bool int8 = false;
    try {
        int8 = core::parse_input_type(a.get("llr-type"));
    } catch (const std::invalid_argument& e) {
        throw cli::usage_error(std::string("--llr-type: ") + e.what());
    }
    const std::string llr_in = required(a, "llr-in"), out = required(a, "out");
    for (const char* flag : { "out", "harq-out" })
        if (a.given(flag))
            cli::check_output_path(flag, a.get(flag));

    const std::size_t G = std::size_t(f.G);
    const std::vector<char> llrs =
        read_values("llr-in", llr_in, G, int8 ? 1 : sizeof(float), "LLRs of --g");
    std::vector<float> f32;
    lte::transport_block t;
    t.format = f;
    if (int8) {
        t.i8 = reinterpret_cast<const std::int8_t*>(llrs.data());
    } else {
        f32.resize(G);
        std::memcpy(f32.data(), llrs.data(), llrs.size());
        t.f32 = f32.data();
    }
    std::vector<std::int8_t> soft_buffer;
    if (a.given("harq-in"))
        soft_buffer = read_soft_buffer(a.get("harq-in"), f.tbs);

    const auto decoder = lte::make_transport_decoder(config, a.get("backend"));
    const int process = 0;
    t.harq_process = process;
    t.new_data = !a.given("harq-in");
    if (!t.new_data)
        decoder->set_soft_buffer(process, f.tbs, soft_buffer);
    std::vector<std::uint8_t> data(std::size_t(f.tbs));
    lte::transport_result result;
    decoder->decode(&t, 1, data.data(), &result);

    write_values(out, data.data(), data.size());
    if (a.given("harq-out"))
        write_soft_buffer(a.get("harq-out"), f.tbs, decoder->soft_buffer(process));
    std::cout << (result.crc_ok ? "crc ok" : "crc failed") << std::endl;
    return result.crc_ok ? 0 : 3;
}

int dlsch_main(int argc, char** argv)
{
    cli::args a(
        program,
        "One LTE DL-SCH transport block (3GPP TS 36.212 §5.3.2) through the engine.\n"
        "\n"
        "  encode  the G bits sent for the tbs bits of --in: CRC-24A, segmentation,\n"
        "          CRC-24B, turbo encoding, rate matching from k0(rv), concatenation\n"
        "          and, with --c-init, scrambling; into --out.\n"
        "  decode  the tbs bits back from the G LLRs of --llr-in: descrambling,\n"
        "          de-rate matching, HARQ combining, turbo decoding with a CRC early\n"
        "          stop per code block, CRC-24A; into --out. Prints 'crc ok' (exit\n"
        "          status 0) or 'crc failed' (exit status 3). A retransmission\n"
        "          combines with an earlier run's soft buffer: decode rv 0 with\n"
        "          --harq-out BUF, then rv 2 with --harq-in BUF.\n"
        "\n"
        "Files hold one byte per bit (0 or 1), LLRs as native-endian float32 (or int8\n"
        "with --llr-type int8: the value q means q / int8-scale).",
        all_options());
    a.set_synopsis("encode|decode [options]");
    a.set_exit_status("0 on success (decode: the CRC-24A checked), 3 when decode's "
                      "CRC-24A\nfailed, 2 for a bad option, value or input file, 1 for a "
                      "failure while running (a\nfile that cannot be read or written, a "
                      "backend that cannot run).");
    const bool has_command = argc > 1 && argv[1][0] != '-';
    const std::string command = has_command ? argv[1] : "";
    if (has_command && command != "encode" && command != "decode")
        throw cli::usage_error("unknown command '" + command + "': use encode or decode");
    a.parse(has_command ? argc - 1 : argc, has_command ? argv + 1 : argv);
    if (a.print_info())
        return 0;
    if (!has_command)
        throw cli::usage_error("give a command: encode or decode");
    return command == "encode" ? encode(a) : decode(a);
}

} // namespace

int main(int argc, char** argv)
{
    return gputurbo::cli::run_main(program, [&] { return dlsch_main(argc, argv); });
}
