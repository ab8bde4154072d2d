/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gputurbo-ber: BER/FER of the LTE turbo decoder over BPSK/AWGN at several Eb/N0.

#include "cli.h"
#include "record.h"

#include <gnuradio/gputurbo/engine/sim/channel.h>

#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace gputurbo;
using namespace gputurbo::core;
using namespace gputurbo::sim;
using namespace gputurbo::turbo;
namespace fs = std::filesystem;

const char* const program = "gputurbo-ber";

// Codewords per decode call.
const core::parameter batch_parameter{
    "batch",
    core::parameter_kind::integer,
    "0",
    "codewords per decode call (automatic: about 400k LLRs, 64 ... 1024 codewords)",
    1,
    cli::max_batch,
    false,
    "automatic"
};

std::vector<cli::option> options(const std::string& code)
{
    auto o = code == "conv" ? cli::conv_decoder_options() : cli::decoder_options(false);
    const std::vector<cli::option> more = {
        cli::section("Channel and stopping"),
        { "ebn0",
          "DB",
          "0:1.0:0.25",
          "Eb/N0 points in dB: a comma-separated list, or START:STOP:STEP with STOP "
          "included" },
        { "min-frame-errors",
          "N",
          "100",
          "a point ends once this many frames failed ..." },
        { "max-frames", "N", "10000", "... or once this many frames were sent" },
        { "stop-at-zero",
          "",
          "",
          "skip the remaining points after one without any bit error" },
        cli::parameter_option(batch_parameter),
        { "seed", "N", "1", "random seed; frame i of a point depends only on (seed, i)" },
        { "llr-bits",
          "B",
          "8",
          "with --input int8: the LLRs saturated to +-(2^(B-1) - 1), the values a B-bit "
          "format carries (2 ... 8), to measure what a narrower format costs" },
        cli::section(
            "Output (the table always goes to stdout; progress to stderr on a terminal)"),
        { "json",
          "FILE",
          "",
          "write the configuration and the points as a record (JSON)" },
        { "csv", "FILE", "", "write the points as CSV" },
        { "plot",
          "FILE.png",
          "",
          "plot BER and FER vs Eb/N0 with gputurbo-plot, which needs python3 with "
          "matplotlib (GPUTURBO_PYTHON overrides the interpreter)" },
    };
    o.insert(o.end(), more.begin(), more.end());
    return o;
}

// --- Plotting through apps/gputurbo-plot ---------------------------------------------

std::string shell_quote(const std::string& word)
{
    std::string q = "'";
    for (const char ch : word)
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

//! Exit status of the command; 127 when the shell found no such program.
int run_command(const std::vector<std::string>& words)
{
    std::string line;
    for (const auto& w : words)
        line += shell_quote(w) + " ";
    const int status = std::system(line.c_str());
    if (status == -1)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string plot_python()
{
    if (const char* env = std::getenv("GPUTURBO_PYTHON"); env && *env)
        return env;
    // The interpreter chosen at build time, unless this machine lacks it.
    const std::string built = GPUTURBO_PLOT_PYTHON;
    std::error_code ec;
    if (fs::path(built).is_absolute() && !fs::exists(built, ec))
        return "python3";
    return built;
}

std::string plot_script()
{
    std::vector<fs::path> candidates;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) // the build tree and the install tree both keep it next to the binary
        candidates.push_back(exe.parent_path() / "gputurbo-plot");
    candidates.push_back(fs::path(GPUTURBO_INSTALL_BINDIR) / "gputurbo-plot");
    for (const auto& c : candidates)
        if (fs::exists(c, ec))
            return c.string();
    throw std::runtime_error("--plot: cannot find gputurbo-plot in " +
                             candidates.front().parent_path().string() + " or " +
                             GPUTURBO_INSTALL_BINDIR);
}

// Checked before measuring, so that a missing matplotlib does not cost a long run.
void check_plot_tools(const std::string& python, const std::string& script)
{
    const int rc = run_command({ python, script, "--check" });
    if (rc == 127)
        throw std::runtime_error("--plot: cannot run the Python interpreter '" + python +
                                 "'; install python3 with matplotlib, or set "
                                 "GPUTURBO_PYTHON to one that has it");
    if (rc != 0)
        throw std::runtime_error("--plot: '" + python + " " + script +
                                 "' cannot plot (see above); install matplotlib (apt "
                                 "install python3-matplotlib), or set GPUTURBO_PYTHON to "
                                 "an interpreter that has it");
}

// --- Progress and results ------------------------------------------------------------

class progress_line
{
public:
    progress_line(bool enabled, const ber_run& run, std::size_t index, std::size_t count)
        : d_enabled(enabled), d_run(run), d_index(index), d_count(count)
    {
    }

    void update(const ber_point& p, bool final)
    {
        if (!d_enabled)
            return;
        // Redrawing after every batch of small codewords would flood the terminal.
        const auto now = std::chrono::steady_clock::now();
        if (!final && now - d_last < std::chrono::milliseconds(100))
            return;
        d_last = now;
        const double done =
            std::min(1.0,
                     std::max(double(p.frames) / d_run.max_frames,
                              double(p.frame_errors) / d_run.min_frame_errors));
        const int width = 20, filled = int(done * width + 0.5);
        const double rate = p.decode_seconds > 0 ? p.bits / p.decode_seconds / 1e6 : 0.0;
        std::cerr << cli::format("\rEb/N0 %5.2f dB (%zu/%zu) [%s%s] frames %llu/%llu  "
                                 "frame errors %llu/%llu  BER %.2e  %.2f Mbit/s\033[K",
                                 d_run.ebn0_db,
                                 d_index + 1,
                                 d_count,
                                 std::string(filled, '#').c_str(),
                                 std::string(width - filled, '-').c_str(),
                                 (unsigned long long)p.frames,
                                 (unsigned long long)d_run.max_frames,
                                 (unsigned long long)p.frame_errors,
                                 (unsigned long long)d_run.min_frame_errors,
                                 p.ber(),
                                 rate)
                  << (final ? "\n" : "") << std::flush;
    }

private:
    bool d_enabled;
    ber_run d_run;
    std::size_t d_index, d_count;
    std::chrono::steady_clock::time_point d_last;
};

double info_rate(const ber_point& p)
{
    return p.decode_seconds > 0 ? p.bits / p.decode_seconds : 0.0;
}

// With soft output, each point's statistics of it (cli::llr_statistics).
cli::json point_json(const ber_point& p, bool soft)
{
    auto j = cli::json::object();
    j.set("ebn0_db", p.ebn0_db)
        .set("ber", p.ber())
        .set("fer", p.fer())
        .set("bit_errors", p.bit_errors)
        .set("bits", p.bits)
        .set("frame_errors", p.frame_errors)
        .set("frames", p.frames)
        .set("avg_iterations", p.avg_iterations())
        .set("decode_seconds", p.decode_seconds)
        .set("info_bits_per_second", info_rate(p));
    if (soft)
        j.set("llr_statistics", cli::llr_statistics(p.soft));
    return j;
}

std::string csv(const std::vector<ber_point>& points, bool soft)
{
    std::string out =
        "ebn0_db,ber,fer,bit_errors,bits,frame_errors,frames,avg_iterations,"
        "decode_seconds,info_bits_per_second" +
        std::string(soft ? ",mean_abs_llr,channel_mean_abs_llr,sign_error_rate,"
                           "predicted_ber"
                         : "") +
        "\n";
    for (const auto& p : points) {
        out += cli::format("%.15g,%.10g,%.10g,%llu,%llu,%llu,%llu,%.6g,%.6g,%.6g",
                           p.ebn0_db,
                           p.ber(),
                           p.fer(),
                           (unsigned long long)p.bit_errors,
                           (unsigned long long)p.bits,
                           (unsigned long long)p.frame_errors,
                           (unsigned long long)p.frames,
                           p.avg_iterations(),
                           p.decode_seconds,
                           info_rate(p));
        if (soft)
            out += cli::format(",%.6g,%.6g,%.10g,%.10g",
                               p.soft.mean_abs(),
                               p.soft.channel_mean_abs(),
                               p.soft.sign_error_rate(),
                               p.soft.predicted_ber());
        out += "\n";
    }
    return out;
}

// What differs between the code families: the decoder, its header line and record,
// and one point's measurement.
struct family
{
    std::unique_ptr<core::batch_decoder> dec;     // frames
    std::unique_ptr<conv::stream_decoder> stream; // or a stream
    std::string backend, device;
    std::string header;
    cli::json config = cli::json::object();
    std::size_t batch = 0; // the batch that --batch 0 gives
    std::function<ber_point(const ber_run&, const std::function<void(const ber_point&)>&)>
        measure;
};

family turbo_family(const cli::args& a, bool int8)
{
    const decoder_config config = cli::config_from(a, false);
    config.validate(); // the engine's word on K, P, g, scaling … before anything slow
    auto dec = make_decoder(config, a.get("backend"));
    dec->check_block(config.K); // an automatic P against g
    family f;
    f.header =
        cli::format(
            "K=%d R=%.4f %s", config.K, code_rate(config.K), to_string(config.algo)) +
        (config.algo == algorithm::scaled_max_log ? cli::format("(%g)", config.scaling)
                                                  : "") +
        cli::format(" %d it P=%d %s/%d early-stop %s",
                    config.iterations,
                    dec->subblocks(),
                    to_string(config.guarding),
                    config.guard_window,
                    to_string(config.early_stop));
    cli::add_parameters(f.config, *dec, config.K, int8);
    f.config.set("code_rate", code_rate(config.K));
    f.batch = default_batch(config.K);
    turbo::decoder* d = dec.get();
    f.measure = [d](const ber_run& r, const std::function<void(const ber_point&)>& p) {
        return measure_ber(*d, r, p);
    };
    f.backend = dec->backend();
    f.device = dec->device();
    f.dec = std::move(dec);
    return f;
}

family conv_family(const cli::args& a, bool int8)
{
    const conv::viterbi_config config = cli::conv_config_from(a);
    const conv_setup setup = conv_setup::of(config, cli::frame_bits(a, config));
    conv::check_frame_bits(setup.generator, setup.mode, setup.frame_bits);
    family f;
    const bool streaming = config.mode == conv::termination::streaming;
    cli::soft_output_of(a, streaming); // a stream's output is bits
    if (streaming) {
        f.stream = conv::make_stream_decoder(config, a.get("backend"));
        f.backend = f.stream->backend();
        f.device = f.stream->device();
    } else {
        f.dec = conv::make_viterbi_decoder(config, a.get("backend"));
        f.backend = f.dec->backend();
        f.device = f.dec->device();
    }
    const std::string puncture = conv::puncture_text(config.punctured);
    f.header = config.generator.text() + cli::format(" R=%.4f ", setup.code_rate()) +
               conv::to_string(config.mode) +
               (puncture.empty() ? "" : " puncture " + puncture) +
               cli::format(" frame_bits=%d", setup.frame_bits) + " " +
               cli::geometry_text(config);
    cli::add_parameters(f.config, a, config, setup.frame_bits, int8);
    f.batch = default_batch(setup.frame_bits);
    core::batch_decoder* d = f.dec.get();
    conv::stream_decoder* s = f.stream.get();
    f.measure = [d, s, setup, config](const ber_run& r,
                                      const std::function<void(const ber_point&)>& p) {
        return s ? measure_ber(*s, setup, config.int8_scale, config.threads, r, p)
                 : measure_ber(*d, setup, config.int8_scale, config.threads, r, p);
    };
    return f;
}

int ber_main(int argc, char** argv)
{
    const std::string code = cli::code_family(argc, argv);
    cli::args a(program,
                "Measures the bit and frame error rates of a decoder over a BPSK/AWGN "
                "channel, one\nEb/N0 point after the other: the LTE turbo decoder "
                "(Eb/N0 counts the code rate\nK/(3K+12); crc24a/crc24b stop rules get "
                "frames that carry that CRC), or with\n--code conv a Viterbi decoder "
                "(Eb/N0 counts frame_bits over the sent, punctured\ncoded bits).",
                options(code));
    a.parse(argc, argv);
    if (a.print_info())
        return 0;

    const std::vector<double> ebn0 = cli::to_range("ebn0", a.get("ebn0"));
    ber_run run;
    run.min_frame_errors = cli::to_count("min-frame-errors", a.get("min-frame-errors"));
    run.max_frames = cli::to_count("max-frames", a.get("max-frames"));
    if (run.min_frame_errors == 0 || run.max_frames == 0)
        throw cli::usage_error("--min-frame-errors and --max-frames must be at least 1");
    run.seed = cli::to_count("seed", a.get("seed"));
    run.batch = std::size_t(cli::number(a, batch_parameter));
    run.int8 = cli::int8_input(a);
    run.llr_bits = int(cli::to_count("llr-bits", a.get("llr-bits")));
    run.output = cli::soft_output_of(a);
    const bool soft = run.output != core::soft_output::none;
    if (run.llr_bits < 2 || run.llr_bits > 8)
        throw cli::usage_error("--llr-bits must be 2 ... 8");
    if (run.llr_bits != 8 && !run.int8)
        throw cli::usage_error("--llr-bits narrows int8 LLRs: give --input int8 too");
    for (const char* f : { "json", "csv", "plot" })
        if (a.given(f))
            cli::check_output_path(f, a.get(f));

    std::string python, script;
    if (a.given("plot")) {
        python = plot_python();
        script = plot_script();
        check_plot_tools(python, script);
    }
    const std::string backend_requested = a.get("backend");
    family f = code == "conv" ? conv_family(a, run.int8) : turbo_family(a, run.int8);
    std::cout << "# gputurbo-ber: " << f.header << "\n# backend " << f.backend << ": "
              << f.device << "; commit " << cli::source_commit() << "\n"
              << std::flush;

    auto cfg = std::move(f.config);
    cfg.set(batch_parameter.name, run.batch ? run.batch : f.batch)
        .set(std::string(batch_parameter.name) + "_requested", run.batch)
        .set("min_frame_errors", run.min_frame_errors)
        .set("max_frames", run.max_frames)
        .set("seed", run.seed)
        .set("llr_bits", run.llr_bits)
        .set("output", a.get("output"))
        .set("backend_requested", backend_requested)
        .set("backend", f.backend);
    std::string json_path = a.get("json");
    const bool temporary = a.given("plot") && !a.given("json");
    if (temporary)
        json_path = (fs::temp_directory_path() /
                     cli::format("gputurbo-ber-%d.json", int(getpid())))
                        .string();
    // Rewritten after every point, so that an interrupted run keeps what it measured.
    auto save = [&](const std::vector<ber_point>& points) {
        auto pts = cli::json::array();
        for (const auto& p : points)
            pts.push(point_json(p, soft));
        if (!json_path.empty())
            cli::write_text_file(
                json_path,
                cli::record("gputurbo-ber", f.device, cfg, std::move(pts)).dump());
        if (a.given("csv"))
            cli::write_text_file(a.get("csv"), csv(points, soft));
    };

    const bool tty = cli::stderr_is_terminal();
    std::vector<ber_point> points;
    for (std::size_t i = 0; i < ebn0.size(); ++i) {
        ber_run r = run;
        r.ebn0_db = ebn0[i];
        progress_line bar(tty, r, i, ebn0.size());
        points.push_back(f.measure(r, [&](const ber_point& p) { bar.update(p, false); }));
        bar.update(points.back(), true);
        save(points);
        if (a.flag("stop-at-zero") && points.back().bit_errors == 0)
            break;
    }

    std::vector<std::vector<std::string>> rows;
    for (const auto& p : points) {
        rows.push_back({ cli::format("%.2f", p.ebn0_db),
                         cli::format("%.3e", p.ber()),
                         cli::format("%.3e", p.fer()),
                         std::to_string(p.bit_errors),
                         std::to_string(p.bits),
                         std::to_string(p.frame_errors),
                         std::to_string(p.frames),
                         cli::format("%.2f", p.avg_iterations()),
                         cli::format("%.2f", info_rate(p) / 1e6) });
        if (soft)
            rows.back().insert(rows.back().end(),
                               { cli::format("%.2f", p.soft.mean_abs()),
                                 cli::format("%.2f", p.soft.channel_mean_abs()),
                                 cli::format("%.3e", p.soft.predicted_ber()) });
    }
    std::vector<std::string> header = { "Eb/N0 dB",   "BER",      "FER",
                                        "bit errors", "bits",     "frame errors",
                                        "frames",     "avg iter", "Mbit/s" };
    if (soft)
        header.insert(header.end(), { "mean |L|", "channel |L|", "predicted BER" });
    cli::print_table(std::cout, header, rows);
    std::cout << std::flush;

    if (a.given("plot")) {
        const int rc = run_command({ python, script, json_path, "-o", a.get("plot") });
        if (rc != 0)
            throw std::runtime_error("gputurbo-plot failed (exit status " +
                                     std::to_string(rc) + "); the results are in " +
                                     json_path);
        if (temporary)
            fs::remove(json_path);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return gputurbo::cli::run_main(
        program, [&] { return ber_main(argc, argv); }, "try a smaller --batch");
}
