/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-dci: LTE control blocks through files: a DCI or a MIB encoded (encode) or
// decoded, the RNTI read from its CRC (decode), and the PDCCH's blind search of
// subframes (search).

#include "commands.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/pbch.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

namespace {

using namespace gputurbo;
using cli::parsed;
using cli::read_bits;
using cli::read_values;
using cli::refuse_options_of;
using cli::required;
using cli::required_option;
using cli::to_int;
using cli::write_values;

const char* const program = "gputurbo-dci";

//! The most subframes a search file may hold, and how many are searched in one call
//! (the searcher holds each call's candidates: about 400 kB a 20 MHz subframe).
constexpr std::size_t max_subframes = 10000;
constexpr std::size_t subframes_per_call = 256;

// The options every command takes.
std::vector<cli::option> shared_options()
{
    return {
        cli::section("Every command"),
        { "rnti",
          "R",
          "",
          "encode: the mask over the CRC-16, 0 ... 65535 in decimal or 0x hex: the "
          "DCI's RNTI (or a BCH port mask, 0x0000, 0xFFFF, 0x5555 for 1, 2, 4 ports); "
          "decode: the RNTI expected (exit status 3 for another); search: the RNTIs "
          "whose UE-specific spaces are searched, comma-separated" },
        { "ports",
          "P",
          "2",
          "the cell's transmit antenna ports, 1, 2 or 4: encode --bch: the CRC mask; "
          "decode --bch: those expected, where given (exit status 3 for others); "
          "search: of the control region" },
    };
}

// The control block: encode and decode.
std::vector<cli::option> block_options()
{
    return {
        cli::section("encode and decode"),
        { "bits",
          "A",
          "",
          "payload bits A, without the CRC-16: 1 or more (required but with --bch: a "
          "MIB has 24)" },
        required_option("e",
                        "E",
                        "bits sent for the block, 1 or more (72 L on a PDCCH candidate "
                        "of L CCEs; a MIB's 1920, or 1728 with an extended cyclic "
                        "prefix)"),
        { "bch",
          "",
          "",
          "the block is a MIB (BCH, 36.212 §5.3.1): 24 bits, the CRC masked by the "
          "antenna ports of --ports in place of an RNTI; decode prints 'ports P'" },
        required_option("out",
                        "FILE",
                        "encode: the E bits sent; decode: the A bits decoded, written "
                        "whatever the CRC says (one byte per bit)"),
    };
}

std::vector<cli::option> encode_options()
{
    return {
        cli::section("encode"),
        required_option("in", "FILE", "the A payload bits, one byte per bit"),
    };
}

std::vector<cli::option> receiver_options()
{
    return {
        cli::section("decode and search"),
        required_option("llr-in",
                        "FILE",
                        "native-endian float32 LLRs in GNU Radio's sign (positive means "
                        "1): decode: the E LLRs of the block; search: the subframes' "
                        "CCEs in CCE order (after REG de-interleaving), 72 N_CCE LLRs a "
                        "subframe, subframe after subframe"),
        { "backend",
          "NAME",
          "auto",
          "auto (cuda where it can run, else cpu), cpu, cuda, or reference (the exact "
          "float Viterbi)" },
        { "threads", "N", "0", "CPU worker threads, 0 = all cores" },
    };
}

std::vector<cli::option> search_options()
{
    return {
        cli::section("search"),
        required_option("prb", "N", "the cell's bandwidth N_RB^DL, 6 ... 110"),
        required_option("cfi",
                        "C",
                        "the CFI, 1 ... 3: the control region's OFDM symbols (one more "
                        "at 10 PRB or fewer)"),
        required_option("subframe",
                        "K",
                        "k = floor(n_s / 2) of the file's first subframe, 0 ... 9; the "
                        "next ones follow it (k + 1 mod 10, ...)"),
        { "ng", "NG", "1", "the PHICH resource N_g: 1/6, 1/2, 1 or 2" },
        { "phich-mi", "M", "1", "m_i of the PHICH groups: 1 in FDD, 0 ... 2 in TDD" },
        { "duplex", "NAME", "fdd", "fdd or tdd: with --prb and --ports, the DCI sizes" },
        { "sizes",
          "A,...",
          "",
          "the DCI sizes (payload bits) to try, comma-separated; none: those of formats "
          "0/1A, 1C, 1 and, with 2 or 4 ports, 2A in the cell" },
        { "exhaustive",
          "",
          "",
          "decode every CCE-aligned candidate of levels 1, 2, 4 and 8, the RNTI read "
          "from the CRC (any, or with --rnti those listed and the broadcasts'); "
          "without it the common space and the UE-specific spaces of --rnti" },
        { "min-correlation",
          "X",
          "0.6",
          "the re-encoding check, -1 ... 1: a DCI is printed where its re-encoded bits "
          "correlate with its LLRs at least this well" },
        cli::parameter_option(lte::control_parameter("max_false_alarm")),
        { "cell-id",
          "N",
          "none",
          "N_ID^cell, 0 ... 503: descramble each subframe with its PDCCH sequence "
          "(36.211 §6.8.2) first; none: the file's LLRs are descrambled" },
    };
}

std::vector<cli::option> all_options()
{
    std::vector<cli::option> o = shared_options();
    for (const auto& more :
         { block_options(), encode_options(), receiver_options(), search_options() })
        o.insert(o.end(), more.begin(), more.end());
    return o;
}

//! An RNTI or mask: decimal, or hex after 0x; 0 ... 65535.
long to_mask(const std::string& flag, const std::string& text)
{
    std::uint64_t v = 0;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        const std::string digits = text.substr(2);
        errno = 0;
        char* end = nullptr;
        v = std::strtoull(digits.c_str(), &end, 16);
        if (!std::isxdigit(static_cast<unsigned char>(digits[0])) || *end != '\0' ||
            errno == ERANGE)
            throw cli::usage_error("--" + flag + ": '" + text +
                                   "' is not a hexadecimal number");
    } else {
        v = cli::to_count(flag, text);
    }
    if (v > 0xFFFF)
        throw cli::usage_error("--" + flag + ": '" + text +
                               "' is out of range: use 0 ... 65535 (0xffff)");
    return long(v);
}

//! The payload bits: --bits, or a MIB's 24 with --bch.
int payload_bits(const cli::args& a)
{
    if (!a.flag("bch")) {
        const int A = to_int("bits", required(a, "bits"));
        if (A < 1 || A > lte::max_control_bits)
            throw cli::usage_error("--bits: '" + a.get("bits") +
                                   "' is out of range: use 1 ... " +
                                   std::to_string(lte::max_control_bits));
        return A;
    }
    if (a.given("rnti"))
        throw cli::usage_error("--rnti goes without --bch: a MIB's CRC is masked by "
                               "--ports");
    if (a.given("bits") && to_int("bits", a.get("bits")) != lte::mib_bits)
        throw cli::usage_error("--bits " + a.get("bits") + " with --bch: a MIB has " +
                               std::to_string(lte::mib_bits) + " bits");
    return lte::mib_bits;
}

//! --e: the bits sent, 1 or more.
int sent_bits(const cli::args& a)
{
    const int E = to_int("e", required(a, "e"));
    if (E < 1)
        throw cli::usage_error("--e: '" + a.get("e") +
                               "' is out of range: use 1 or more");
    return E;
}

int ports_of(const cli::args& a)
{
    const int ports = to_int("ports", a.get("ports"));
    lte::bch_mask(ports); // the engine's message for another count
    return ports;
}

//! --ports belongs to --bch in encode and decode.
void refuse_ports_without_bch(const cli::args& a, const std::string& command)
{
    if (a.given("ports") && !a.flag("bch"))
        throw cli::usage_error("--ports goes with --bch in " + command +
                               " (a DCI's CRC is masked by --rnti)");
}

int encode(const cli::args& a)
{
    refuse_options_of(a, receiver_options(), "encode");
    refuse_options_of(a, search_options(), "encode");
    refuse_ports_without_bch(a, "encode");
    const int A = payload_bits(a);
    const int E = sent_bits(a);
    const long mask =
        a.flag("bch") ? lte::bch_mask(ports_of(a)) : to_mask("rnti", required(a, "rnti"));
    const std::string in = required(a, "in"), out = required(a, "out");
    cli::check_output_path("out", out);
    const auto payload = read_bits("in", in, std::size_t(A), "bits of --bits");
    std::vector<std::uint8_t> e(static_cast<std::size_t>(E));
    lte::control_encode(A, payload.data(), mask, E, e.data());
    write_values(out, e.data(), e.size());
    return 0;
}

std::unique_ptr<core::batch_decoder> decoder_from(const cli::args& a)
{
    conv::viterbi_config config = lte::control_decoder_config();
    config.threads = to_int("threads", a.get("threads"));
    return conv::make_viterbi_decoder(config, a.get("backend"));
}

std::vector<float> floats_of(const std::vector<char>& bytes)
{
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
}

int decode(const cli::args& a)
{
    refuse_options_of(a, encode_options(), "decode");
    refuse_options_of(a, search_options(), "decode");
    refuse_ports_without_bch(a, "decode");
    const bool bch = a.flag("bch");
    const int A = payload_bits(a);
    const int E = sent_bits(a);
    const long expected_rnti = a.given("rnti") ? to_mask("rnti", a.get("rnti")) : -1;
    const int expected_ports = bch && a.given("ports") ? ports_of(a) : 0;
    const std::string llr_in = required(a, "llr-in"), out = required(a, "out");
    cli::check_output_path("out", out);
    const auto decoder = decoder_from(a);
    const std::vector<float> llrs = floats_of(
        read_values("llr-in", llr_in, std::size_t(E), sizeof(float), "LLRs of --e"));

    std::vector<std::uint8_t> payload(static_cast<std::size_t>(A));
    std::uint16_t mask = 0;
    core::codeword_status status;
    lte::control_decode(*decoder, A, E, llrs.data(), 1, payload.data(), &mask, &status);
    write_values(out, payload.data(), payload.size());
    if (bch) {
        // A block that carries no information has no antenna ports.
        const int ports = status.passed ? lte::bch_ports(mask) : 0;
        std::cout << "ports " << ports << std::endl;
        return ports == 0 || (expected_ports && ports != expected_ports) ? 3 : 0;
    }
    std::cout << cli::format("rnti 0x%04x", unsigned(mask)) << std::endl;
    return expected_rnti >= 0 && (mask != expected_rnti || !status.passed) ? 3 : 0;
}

/*!
 * The subframes of a search file: whole subframes of \p per_subframe float32 LLRs,
 * read one at a time (an endless file is refused after max_subframes of them).
 */
std::vector<float> read_subframes(const std::string& path, std::size_t per_subframe)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw std::runtime_error("--llr-in: cannot read '" + path +
                                 "': " + std::strerror(errno));
    const std::size_t bytes = per_subframe * sizeof(float);
    const std::string subframe_text =
        "subframes of 72 N_CCE = " + std::to_string(per_subframe) + " LLRs (" +
        std::to_string(bytes) + " bytes)";
    std::vector<float> llrs;
    for (std::size_t n = 0;; ++n) {
        llrs.resize((n + 1) * per_subframe);
        file.read(reinterpret_cast<char*>(llrs.data() + n * per_subframe),
                  std::streamsize(bytes));
        const std::size_t got = std::size_t(file.gcount());
        if (got == bytes && n == max_subframes)
            throw std::invalid_argument("--llr-in: '" + path + "' holds more than " +
                                        std::to_string(max_subframes) + " " +
                                        subframe_text + ": split it");
        if (got == bytes)
            continue;
        if (!file.eof())
            throw std::runtime_error("--llr-in: cannot read '" + path +
                                     "': " + std::strerror(errno));
        if (got != 0 || n == 0)
            throw std::invalid_argument("--llr-in: '" + path + "' holds " +
                                        std::to_string(n * bytes + got) +
                                        " bytes: not a whole number of " + subframe_text);
        llrs.resize(n * per_subframe);
        return llrs;
    }
}

//! A DCI's line: where it is, what it is and its payload in hex (MSB first, whole
//! bytes, as tests/data/lte-dci writes them).
std::string detection_line(const lte::pdcch_detection& d, std::size_t first)
{
    std::string hex;
    for (std::size_t i = 0; i < d.payload.size(); i += 8) {
        unsigned byte = 0;
        for (std::size_t k = 0; k < 8; ++k)
            byte = byte << 1 | (i + k < d.payload.size() ? d.payload[i + k] : 0u);
        hex += cli::format("%02x", byte);
    }
    return cli::format("subframe %zu cce %d level %d size %d rnti 0x%04x space %s "
                       "correlation %.3f payload %s",
                       first + d.subframe,
                       d.candidate.first_cce,
                       d.candidate.level,
                       d.size,
                       unsigned(d.rnti),
                       lte::to_string(d.space),
                       d.correlation,
                       hex.c_str());
}

//! Every subframe's description but its LLRs, from the search options.
lte::pdcch_subframe subframe_from(const cli::args& a)
{
    lte::pdcch_subframe sf;
    sf.region.n_prb = to_int("prb", required(a, "prb"));
    sf.region.cfi = to_int("cfi", required(a, "cfi"));
    sf.region.antenna_ports = to_int("ports", a.get("ports"));
    sf.region.ng = parsed(
        a, "ng", [](const std::string& t) { return lte::parse_phich_resource(t); });
    sf.region.phich_mi = to_int("phich-mi", a.get("phich-mi"));
    sf.duplex = parsed(
        a, "duplex", [](const std::string& t) { return lte::parse_duplex_mode(t); });
    sf.subframe = to_int("subframe", required(a, "subframe"));
    if (sf.subframe > 9)
        throw cli::usage_error("--subframe: " + a.get("subframe") +
                               " is out of range: use 0 ... 9");
    if (a.given("rnti"))
        for (const auto& item : cli::split_list("rnti", a.get("rnti")))
            sf.rntis.push_back(int(to_mask("rnti", item)));
    if (a.given("sizes"))
        for (const auto& item : cli::split_list("sizes", a.get("sizes")))
            sf.dci_sizes.push_back(to_int("sizes", item));
    return sf;
}

int search(const cli::args& a)
{
    refuse_options_of(a, block_options(), "search");
    refuse_options_of(a, encode_options(), "search");
    const lte::pdcch_subframe common = subframe_from(a);
    const int n_cce = lte::cce_count(common.region); // the engine's message if bad
    lte::pdcch_search_options options;
    options.mode = a.flag("exhaustive") ? lte::pdcch_search_mode::exhaustive
                                        : lte::pdcch_search_mode::ue;
    options.min_correlation = cli::to_double("min-correlation", a.get("min-correlation"));
    options.max_false_alarm = cli::number(a, lte::control_parameter("max_false_alarm"));
    options.threads = to_int("threads", a.get("threads")); // the decoder's too
    const std::string cell = a.get("cell-id");
    const int cell_id = cell == "none" ? -1 : to_int("cell-id", cell);
    if (cell_id > lte::max_cell_id)
        throw cli::usage_error("--cell-id: " + cell + " is out of range: use 0 ... " +
                               std::to_string(lte::max_cell_id) + ", or none");
    lte::pdcch_searcher searcher(decoder_from(a));
    searcher.search(nullptr, 0, options); // the options checked before the file is read
    const std::size_t per_subframe = std::size_t(lte::cce_llrs) * std::size_t(n_cce);
    std::vector<float> llrs = read_subframes(required(a, "llr-in"), per_subframe);
    const std::size_t n = llrs.size() / per_subframe;

    for (std::size_t first = 0; first < n; first += subframes_per_call) {
        std::vector<lte::pdcch_subframe> batch;
        for (std::size_t s = first; s < std::min(n, first + subframes_per_call); ++s) {
            lte::pdcch_subframe sf = common;
            sf.subframe = int((std::size_t(common.subframe) + s) % 10);
            sf.llrs = llrs.data() + s * per_subframe;
            sf.llr_count = per_subframe;
            if (cell_id >= 0)
                lte::descramble_pdcch(
                    sf.subframe, cell_id, llrs.data() + s * per_subframe, per_subframe);
            batch.push_back(sf);
        }
        for (const auto& d : searcher.search(batch, options))
            std::cout << detection_line(d, first) << "\n";
    }
    std::cout << std::flush;
    return 0;
}

int dci_main(int argc, char** argv)
{
    cli::args a(
        program,
        "LTE control blocks (3GPP TS 36.212 §5.3.3, §5.3.1; 36.213 §9.1.1) through the\n"
        "engine.\n"
        "\n"
        "  encode  the E bits sent for the A payload bits of --in: CRC-16 masked by\n"
        "          --rnti (with --bch by the antenna ports of --ports), the tail-biting\n"
        "          K = 7 rate-1/3 code, rate matching to E; into --out.\n"
        "  decode  the A payload bits back from the E LLRs of --llr-in, into --out;\n"
        "          prints 'rnti 0xNNNN', the CRC received XOR the CRC computed (the "
        "RNTI\n"
        "          the DCI was sent to), or with --bch 'ports P' (1, 2, 4; 0 where the\n"
        "          CRC carries no port mask). Exit status 3 where it differs from\n"
        "          --rnti (--ports), or a MIB has no port mask.\n"
        "  search  the PDCCH's blind search of the subframes of --llr-in: the common\n"
        "          space and the UE-specific spaces of --rnti (or every candidate with\n"
        "          --exhaustive), every DCI size; a line for each DCI found.\n"
        "\n"
        "Files hold one byte per bit (0 or 1), LLRs as native-endian float32 in GNU\n"
        "Radio's sign (positive means 1).",
        all_options());
    a.set_synopsis("encode|decode|search [options]");
    a.set_exit_status("0 on success, 3 when decode's RNTI (or port count) is not the "
                      "one\nexpected, 2 for a bad option, value or input file, 1 for a "
                      "failure while running\n(a file that cannot be read or written, a "
                      "backend that cannot run).");
    const bool has_command = argc > 1 && argv[1][0] != '-';
    const std::string command = has_command ? argv[1] : "";
    if (has_command && command != "encode" && command != "decode" && command != "search")
        throw cli::usage_error("unknown command '" + command +
                               "': use encode, decode or search");
    a.parse(has_command ? argc - 1 : argc, has_command ? argv + 1 : argv);
    if (a.print_info())
        return 0;
    if (!has_command)
        throw cli::usage_error("give a command: encode, decode or search");
    if (command == "encode")
        return encode(a);
    return command == "decode" ? decode(a) : search(a);
}

} // namespace

int main(int argc, char** argv)
{
    return gputurbo::cli::run_main(program, [&] { return dci_main(argc, argv); });
}
