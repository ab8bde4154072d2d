/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-bench --code pdcch: the PDCCH's blind search (lte/pdcch.h) of subframes of one
// cell, in subframes per second: mode ue (the common space and the UE-specific spaces of
// the subframe's UEs) and mode exhaustive (every CCE-aligned candidate, any RNTI read
// from the CRC). Each search call is timed whole: planning, the candidates' LLRs
// combined, the decoder's calls and the re-encoding check.

#include "bench_pdcch.h"
#include "record.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <tuple>

namespace gputurbo::cli {

namespace {

const core::parameter& control(const char* name) { return lte::control_parameter(name); }

// The search modes: the table's mode as a list, both by default.
option search_option()
{
    option o = parameter_option(control("mode"), true);
    o.name = "search";
    o.default_value = "ue,exhaustive";
    o.help +=
        " (exhaustive lists no RNTI: any RNTI read from the CRC is one); a row each";
    return o;
}

// Subframes a search call by default: on the CPU gputurbo-dci's; on CUDA enough
// candidates (about 2 million) to fill a GPU's calls of each DCI size.
constexpr std::size_t cpu_subframes = 256;
constexpr std::size_t cuda_subframes = 4096;
// Subframes made at most; a larger call repeats them (what they hold does not change
// the speed).
constexpr std::size_t distinct_subframes = 1024;
// The UEs' RNTIs: C-RNTIs above the RA-RNTIs, up to 0xFFF3.
constexpr int first_c_rnti = lte::max_ra_rnti + 1, last_c_rnti = 0xFFF3;
constexpr std::uint64_t c_rntis = last_c_rnti - first_c_rnti + 1;
// DCI sizes --sizes takes: the formats' are 8 ... 70 bits.
constexpr int max_dci_size = 1000;

} // namespace

std::vector<option> pdcch_options()
{
    return {
        section("Code and decoder"),
        code_option(),
        { "backend",
          "NAME",
          "auto",
          "auto (cuda where it can run, else cpu), cpu, cuda, or reference (the exact "
          "float Viterbi)" },
        { "threads",
          "N",
          "0",
          "CPU worker threads of the decoder and of the search's own work, 0 = all "
          "cores" },
        { "devices", "LIST", "0", "CUDA devices: 0, 0,1 or all" },
        section("Subframes: random DCIs through QPSK/AWGN"),
        parameter_option(control("n_prb")),
        parameter_option(control("cfi")),
        parameter_option(control("antenna_ports")),
        parameter_option(control("ng")),
        parameter_option(control("duplex")),
        { "ues",
          "N",
          "16",
          "UEs a subframe (random C-RNTIs): each RNTI listed, with a DCI at a free "
          "candidate of its UE-specific space; and one of SI-RNTI in the common space" },
        { "sizes",
          "A,...",
          "",
          "the DCI sizes (payload bits) sent and tried; none: those of formats 0/1A, 1C, "
          "1 and, with 2 or 4 ports, 2A in the cell" },
        { "esn0",
          "DB",
          "4",
          "Es/N0 of the QPSK symbols; the CCEs that no DCI holds carry noise alone" },
        section("Search"),
        search_option(),
        parameter_option(control("min_correlation")),
        parameter_option(control("max_false_alarm")),
        { "subframes",
          "N,...",
          "0",
          "subframes a search call, a row each (0: " + std::to_string(cpu_subframes) +
              " on the CPU, " + std::to_string(cuda_subframes) + " on CUDA)" },
        section("Measurement"),
        { "mode",
          "MODE",
          "end-to-end",
          "end-to-end: each search call timed whole, from the LLRs in host memory to "
          "the DCIs (kernel does not apply: the search works on the host between the "
          "decoder's calls)" },
        { "seconds", "S", "2", "minimum measuring time of each row" },
        { "seed", "N", "1", "random seed of the subframes" },
        section("Output (the table always goes to stdout)"),
        { "json",
          "FILE",
          "",
          "write the results as a record (JSON): a row a search mode and call size" },
    };
}

namespace {

// --code pdcch's options, checked in the order they are read.
struct pdcch_settings
{
    conv::viterbi_config config = lte::control_decoder_config();
    std::string backend;
    lte::pdcch_subframe cell; // region, duplex and DCI sizes: every subframe's
    int ues = 0;
    double esn0 = 0.0, seconds = 0.0;
    std::uint64_t seed = 0;
    std::vector<lte::pdcch_search_mode> modes;
    double min_correlation = 0.0;
    double max_false_alarm = 1e-4;
    std::vector<std::size_t> subframes; // a call; 0: automatic
};

// An integer of the control table from its option, as the engine checks it.
int control_value(const args& a, const char* name)
{
    const long value = long(number(a, control(name)));
    try {
        lte::check_control_value(name, value);
    } catch (const std::invalid_argument& e) {
        throw usage_error("--" + flag_of(name) + ": " + e.what());
    }
    return int(value);
}

lte::pdcch_search_mode search_mode(const std::string& name)
{
    for (const auto mode :
         { lte::pdcch_search_mode::ue, lte::pdcch_search_mode::exhaustive })
        if (name == lte::to_string(mode))
            return mode;
    throw usage_error("--search: unknown mode '" + name + "': use ue or exhaustive");
}

pdcch_settings parse_pdcch_settings(const args& a)
{
    pdcch_settings s;
    s.backend = a.get("backend");
    s.config.threads = int(to_count("threads", a.get("threads")));
    s.config.devices = a.get("devices");
    lte::control_region& region = s.cell.region;
    region.n_prb = control_value(a, "n_prb");
    region.cfi = control_value(a, "cfi");
    region.antenna_ports = control_value(a, "antenna_ports");
    region.ng = parsed(
        a, "ng", [](const std::string& t) { return lte::parse_phich_resource(t); });
    s.cell.duplex = parsed(
        a, "duplex", [](const std::string& t) { return lte::parse_duplex_mode(t); });
    const std::uint64_t ues = to_count("ues", a.get("ues"));
    if (ues > c_rntis)
        throw usage_error("--ues: " + a.get("ues") + " is out of range: use 0 ... " +
                          std::to_string(c_rntis) + " (the C-RNTIs)");
    s.ues = int(ues);
    if (a.given("sizes"))
        for (const auto& item : split_list("sizes", a.get("sizes"))) {
            const auto A = to_count("sizes", item);
            if (A < 1 || A > std::uint64_t(max_dci_size))
                throw usage_error("--sizes: " + item + " is out of range: use 1 ... " +
                                  std::to_string(max_dci_size));
            s.cell.dci_sizes.push_back(int(A));
        }
    else
        s.cell.dci_sizes =
            lte::default_dci_sizes({ region.n_prb, s.cell.duplex, region.antenna_ports });
    s.esn0 = to_double("esn0", a.get("esn0"));
    for (const auto& item : split_list("search", a.get("search")))
        s.modes.push_back(search_mode(item));
    s.min_correlation = number(a, control("min_correlation"));
    s.max_false_alarm = number(a, control("max_false_alarm"));
    for (const auto& item : split_list("subframes", a.get("subframes")))
        s.subframes.push_back(std::size_t(to_count("subframes", item)));
    const std::string mode = a.get("mode");
    if (mode == "kernel")
        throw usage_error("--mode kernel: the blind search is timed whole (it works on "
                          "the host between the decoder's calls); use --mode end-to-end");
    if (mode != "end-to-end")
        throw usage_error("--mode: unknown mode '" + mode + "': use end-to-end");
    s.seconds = to_double("seconds", a.get("seconds"));
    if (s.seconds < 0.0 || s.seconds > 86400.0)
        throw usage_error("--seconds: use 0 ... 86400");
    s.seed = to_count("seed", a.get("seed"));
    if (a.given("json"))
        check_output_path("json", a.get("json"));
    return s;
}

// A DCI sent: what a detection of it reports.
struct sent_dci
{
    lte::pdcch_candidate candidate;
    int size;
    int rnti;
    std::vector<std::uint8_t> payload;
};

// QPSK (36.211 §7.1.2: bit 0 -> +1/sqrt(2)) through AWGN at Es/N0, a component a bit:
// the LLRs -2 sqrt(2) y / N0, in GNU Radio's sign (positive means 1).
class qpsk_awgn
{
public:
    qpsk_awgn(double esn0_db, std::uint64_t seed)
        : d_n0(std::pow(10.0, -esn0_db / 10.0)),
          d_noise(0.0, std::sqrt(d_n0 / 2.0)),
          d_rng(seed)
    {
    }

    //! The LLRs of \p n bits sent, or of nothing sent where \p bits is nullptr.
    void send(const std::uint8_t* bits, std::size_t n, float* llrs)
    {
        const double a = std::sqrt(0.5);
        for (std::size_t i = 0; i < n; ++i) {
            const double x = !bits ? 0.0 : bits[i] ? -a : a;
            llrs[i] = float(-2.0 * std::sqrt(2.0) * (x + d_noise(d_rng)) / d_n0);
        }
    }

    std::mt19937_64& rng() { return d_rng; }

private:
    double d_n0;
    std::normal_distribution<double> d_noise;
    std::mt19937_64 d_rng;
};

// Subframes that a search call cycles through, and the DCIs each holds.
struct subframe_set
{
    std::vector<std::vector<float>> llrs;
    std::vector<lte::pdcch_subframe> subframes; // pointing into llrs
    std::vector<std::vector<sent_dci>> sent;
};

// One subframe: its noise, a DCI of SI-RNTI at a free candidate of the common space,
// and one for each UE at a free candidate of its UE-specific space (where one is left),
// each of a random size of the cell's.
void add_subframe(const pdcch_settings& s, int k, qpsk_awgn& channel, subframe_set& set)
{
    auto& rng = channel.rng();
    const int n_cce = lte::cce_count(s.cell.region);
    std::vector<float> llrs(std::size_t(lte::cce_llrs) * std::size_t(n_cce));
    channel.send(nullptr, llrs.size(), llrs.data());
    std::vector<bool> used(std::size_t(n_cce), false);
    std::vector<sent_dci> sent;
    auto place = [&](const std::vector<lte::pdcch_candidate>& space, int rnti) {
        std::vector<lte::pdcch_candidate> free;
        for (const lte::pdcch_candidate& c : space)
            if (std::none_of(used.begin() + c.first_cce,
                             used.begin() + c.first_cce + c.level,
                             [](bool u) { return u; }))
                free.push_back(c);
        if (free.empty())
            return;
        const lte::pdcch_candidate c = free[rng() % free.size()];
        std::fill(used.begin() + c.first_cce, used.begin() + c.first_cce + c.level, true);
        const auto& sizes = s.cell.dci_sizes;
        sent_dci d{ c, sizes[rng() % sizes.size()], rnti, {} };
        d.payload.resize(std::size_t(d.size));
        for (auto& b : d.payload)
            b = std::uint8_t(rng() & 1u);
        std::vector<std::uint8_t> e(std::size_t(lte::cce_llrs) * std::size_t(c.level));
        lte::control_encode(d.size, d.payload.data(), rnti, int(e.size()), e.data());
        channel.send(e.data(),
                     e.size(),
                     llrs.data() + std::size_t(lte::cce_llrs) * std::size_t(c.first_cce));
        sent.push_back(std::move(d));
    };
    lte::pdcch_subframe sf = s.cell;
    sf.subframe = k;
    place(lte::common_search_space(n_cce), lte::si_rnti);
    std::uniform_int_distribution<int> c_rnti(first_c_rnti, last_c_rnti);
    while (int(sf.rntis.size()) < s.ues) {
        const int rnti = c_rnti(rng);
        if (std::find(sf.rntis.begin(), sf.rntis.end(), rnti) != sf.rntis.end())
            continue;
        sf.rntis.push_back(rnti);
        place(lte::ue_search_space(n_cce, rnti, k), rnti);
    }
    set.llrs.push_back(std::move(llrs));
    set.subframes.push_back(sf);
    set.sent.push_back(std::move(sent));
}

subframe_set make_subframes(const pdcch_settings& s, std::size_t n)
{
    qpsk_awgn channel(s.esn0, s.seed);
    subframe_set set;
    for (std::size_t i = 0; i < n; ++i)
        add_subframe(s, int(i % 10), channel, set);
    for (std::size_t i = 0; i < n; ++i) {
        set.subframes[i].llrs = set.llrs[i].data();
        set.subframes[i].llr_count = set.llrs[i].size();
    }
    return set;
}

// A call's n subframes: the set's in turn; mode exhaustive lists no RNTI.
std::vector<lte::pdcch_subframe>
call_subframes(const subframe_set& set, std::size_t n, lte::pdcch_search_mode mode)
{
    std::vector<lte::pdcch_subframe> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = set.subframes[i % set.subframes.size()];
        if (mode == lte::pdcch_search_mode::exhaustive)
            out[i].rntis.clear();
    }
    return out;
}

// What a call found: the DCIs sent, those found where they were sent, and the other
// detections (noise that passed, or a DCI found at another candidate).
struct detection_count
{
    std::size_t sent = 0, found = 0, other = 0;
};

detection_count score(const subframe_set& set,
                      std::size_t n,
                      const std::vector<lte::pdcch_detection>& detections)
{
    detection_count c;
    for (std::size_t i = 0; i < n; ++i)
        c.sent += set.sent[i % set.sent.size()].size();
    for (const lte::pdcch_detection& d : detections) {
        const auto& sent = set.sent[d.subframe % set.sent.size()];
        const bool right = std::any_of(sent.begin(), sent.end(), [&](const sent_dci& s) {
            return s.candidate == d.candidate && s.size == d.size && s.rnti == d.rnti &&
                   s.payload == d.payload;
        });
        ++(right ? c.found : c.other);
    }
    return c;
}

// What a row measured.
struct pdcch_measurement
{
    lte::pdcch_search_mode mode;
    std::size_t subframes = 0, requested = 0;
    detection_count count; // of the first call
    std::size_t decoded = 0;
    std::uint64_t calls = 0;
    double seconds = 0.0;

    double rate() const { return double(subframes) * double(calls) / seconds; }
};

// One call to warm up and count, then calls for --seconds.
pdcch_measurement time_search(lte::pdcch_searcher& searcher,
                              const pdcch_settings& s,
                              const subframe_set& set,
                              lte::pdcch_search_mode mode,
                              std::size_t n)
{
    const std::vector<lte::pdcch_subframe> input = call_subframes(set, n, mode);
    lte::pdcch_search_options options;
    options.mode = mode;
    options.min_correlation = s.min_correlation;
    options.max_false_alarm = s.max_false_alarm;
    options.threads = s.config.threads;
    pdcch_measurement m;
    m.mode = mode;
    m.subframes = n;
    m.count = score(set, n, searcher.search(input, options));
    m.decoded = searcher.decoded_candidates();
    std::tie(m.calls, m.seconds) =
        time_calls(s.seconds, [&] { searcher.search(input, options); });
    return m;
}

std::string sizes_text(const std::vector<int>& sizes)
{
    std::string text;
    for (const int A : sizes)
        text += (text.empty() ? "" : ",") + std::to_string(A);
    return text;
}

json pdcch_row(const pdcch_settings& s,
               const lte::pdcch_searcher& searcher,
               std::size_t distinct,
               const pdcch_measurement& m)
{
    const lte::control_region& region = s.cell.region;
    auto r = json::object();
    r.set("code", "pdcch")
        .set("backend", searcher.decoder().backend())
        .set("device", searcher.decoder().device())
        .set("mode", "end-to-end")
        .set("search", lte::to_string(m.mode))
        .set("threads", s.config.threads)
        .set("devices", s.config.devices)
        .set("n_prb", region.n_prb)
        .set("cfi", region.cfi)
        .set("antenna_ports", region.antenna_ports)
        .set("ng", lte::to_string(region.ng))
        .set("duplex", lte::to_string(s.cell.duplex))
        .set("n_cce", lte::cce_count(region))
        .set("ues", s.ues)
        .set("rntis_listed", m.mode == lte::pdcch_search_mode::ue ? s.ues : 0)
        .set("dci_sizes", sizes_text(s.cell.dci_sizes))
        .set("min_correlation", s.min_correlation)
        .set("max_false_alarm", s.max_false_alarm)
        .set("esn0_db", s.esn0)
        .set("subframes", m.subframes)
        .set("subframes_requested", m.requested)
        .set("distinct_subframes", distinct)
        .set("candidates_per_subframe", double(m.decoded) / double(m.subframes))
        .set("dcis_sent", m.count.sent)
        .set("dcis_found", m.count.found)
        .set("other_detections", m.count.other)
        .set("calls", m.calls)
        .set("seconds", m.seconds)
        .set("subframes_per_second", m.rate())
        .set("candidates_per_second", double(m.decoded) * double(m.calls) / m.seconds);
    return r;
}

// The table, on stdout after a line of what ran.
void print_pdcch_table(const pdcch_settings& s,
                       const lte::pdcch_searcher& searcher,
                       const std::vector<pdcch_measurement>& ms)
{
    const lte::control_region& region = s.cell.region;
    std::cout << "# gputurbo-bench --code pdcch: backend " << searcher.decoder().backend()
              << ": " << searcher.decoder().device() << "; " << region.n_prb
              << " PRB, CFI " << region.cfi << ", " << region.antenna_ports
              << " ports, N_g " << lte::to_string(region.ng) << ", "
              << lte::to_string(s.cell.duplex) << ": " << lte::cce_count(region)
              << " CCEs; " << s.ues << " UEs, sizes " << sizes_text(s.cell.dci_sizes)
              << ", Es/N0 " << s.esn0 << " dB, min_correlation " << s.min_correlation
              << ", max_false_alarm " << s.max_false_alarm << "; commit "
              << source_commit() << "\n";
    std::vector<std::vector<std::string>> rows;
    for (const pdcch_measurement& m : ms)
        rows.push_back({ lte::to_string(m.mode),
                         std::to_string(m.subframes),
                         std::to_string(m.count.sent),
                         std::to_string(m.count.found),
                         std::to_string(m.count.other),
                         format("%.0f", double(m.decoded) / double(m.subframes)),
                         std::to_string(m.calls),
                         format("%.2f", m.seconds),
                         format("%.0f", m.rate()) });
    print_table(std::cout,
                { "search",
                  "subframes",
                  "DCIs sent",
                  "found",
                  "other",
                  "candidates/subframe",
                  "calls",
                  "seconds",
                  "subframes/s" },
                rows);
    std::cout << std::flush;
}

} // namespace

int pdcch_bench(const args& a)
{
    const pdcch_settings s = parse_pdcch_settings(a);
    lte::pdcch_searcher searcher(conv::make_viterbi_decoder(s.config, s.backend));
    const std::size_t automatic =
        searcher.decoder().kind() == core::backend::cuda ? cuda_subframes : cpu_subframes;
    std::vector<std::size_t> calls; // subframes a call, of each row
    for (const std::size_t n : s.subframes)
        calls.push_back(n ? n : automatic);
    const subframe_set set = make_subframes(
        s, std::min(*std::max_element(calls.begin(), calls.end()), distinct_subframes));

    std::vector<pdcch_measurement> ms;
    auto rows = json::array();
    for (std::size_t i = 0; i < calls.size(); ++i)
        for (const lte::pdcch_search_mode mode : s.modes) {
            ms.push_back(time_search(searcher, s, set, mode, calls[i]));
            ms.back().requested = s.subframes[i];
            rows.push(pdcch_row(s, searcher, set.subframes.size(), ms.back()));
        }
    print_pdcch_table(s, searcher, ms);
    if (a.given("json"))
        write_text_file(a.get("json"),
                        record("gputurbo-bench",
                               searcher.decoder().device(),
                               json::object(),
                               std::move(rows))
                            .dump());
    return 0;
}

} // namespace gputurbo::cli
