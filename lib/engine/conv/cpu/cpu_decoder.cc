/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "../../core/cpu/isa.h"
#include "../../core/thread_pool.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gputurbo::conv::cpu {
namespace {

using core::cpu::isa;

// The mean |LLR| of a segment maps to this metric.
constexpr float mean_metric = 32.0f;

const viterbi_kernel& kernel_for(isa i)
{
    switch (i) {
#if defined(__x86_64__) || defined(__i386__)
    case isa::avx512:
        return viterbi_avx512;
    case isa::avx2:
        return viterbi_avx2;
#endif
    default:
        return viterbi_generic;
    }
}

// Magnitudes of LLRs: all of them, and those that carry information and are not
// clamped, whose mean sets the quantisation scale. Four partial sums, so that the adds
// do not wait on each other.
struct magnitudes
{
    float total[4] = {}, inside[4] = {}, counted[4] = {};

    void add(float v, int part)
    {
        const float a = std::fabs(v);
        const float in = a > 0.0f && a < core::llr_limit ? 1.0f : 0.0f;
        total[part] += a;
        inside[part] += a * in;
        counted[part] += in;
    }
    static double sum(const float (&x)[4]) { return double(x[0]) + x[1] + x[2] + x[3]; }
};

// Sanitises the coded bits [c, c + count) of a window into out, adding their
// magnitudes to m; one loop for each kind of window, so that neither tests the kind per
// value.
template <bool indexed>
void gather_values(
    const window& w, std::int64_t c, std::int64_t count, float* out, magnitudes& sums)
{
    magnitudes m; // local: out might alias sums
    auto take = [&](std::int64_t i, int part) {
        float v;
        if constexpr (indexed) {
            const std::int32_t j = w.sent_index[c + i];
            v = j < 0 ? 0.0f : core::sanitize_llr(w.values[j], w.invert);
        } else {
            v = core::sanitize_llr(w.values[c + i], w.invert);
        }
        out[i] = v;
        m.add(v, part);
    };
    std::int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
        take(i, 0);
        take(i + 1, 1);
        take(i + 2, 2);
        take(i + 3, 3);
    }
    for (; i < count; ++i)
        take(i, 0);
    for (int part = 0; part < 4; ++part) {
        sums.total[part] += m.total[part];
        sums.inside[part] += m.inside[part];
        sums.counted[part] += m.counted[part];
    }
}

void gather(
    const window& w, std::int64_t c, std::int64_t count, float* out, magnitudes& m)
{
    if (w.sent_index)
        gather_values<true>(w, c, count, out, m);
    else
        gather_values<false>(w, c, count, out, m);
}

} // namespace

const viterbi_kernel& best_kernel()
{
    return kernel_for(core::cpu::choose({ isa::avx512, isa::avx2, isa::generic }));
}

// ---------------------------------------------------------------------------------------
// segment_decoder

segment_decoder::segment_decoder(const viterbi_config& config,
                                 const viterbi_kernel& kernel)
    : d_config(config), d_kernel(kernel), d_threads(core::thread_count(config.threads))
{
    d_config.validate();
    const code& c = d_config.generator;
    const int S = c.states(), memory = c.constraint - 1;
    d_branch_outputs.resize(2 * std::size_t(S));
    for (int ns = 0; ns < S; ++ns)
        for (int b = 0; b < 2; ++b) {
            const unsigned p = unsigned(((ns << 1) & (S - 1)) | b);
            const unsigned reg = (unsigned(ns >> (memory - 1)) << memory) | p;
            d_branch_outputs[2 * std::size_t(ns) + b] = std::uint8_t(c.coded_bits(reg));
        }
}

void segment_decoder::decode(const std::vector<window>& windows,
                             std::int64_t run,
                             const std::vector<segment>& segments,
                             double* owned)
{
    const code& c = d_config.generator;
    const int n = c.outputs(), S = c.states(), memory = c.constraint - 1;
    const int W = d_kernel.lanes;
    const trellis t{ c.constraint, n, S, d_branch_outputs.data() };
    const std::size_t groups = (segments.size() + std::size_t(W) - 1) / std::size_t(W);
    const int workers = int(std::min<std::size_t>(std::size_t(d_threads), groups));
    if (int(d_workspaces.size()) < workers)
        d_workspaces.resize(workers);
    std::atomic<std::size_t> next_group{ 0 };
    core::thread_pool::shared().run(workers, [&](int worker) {
        workspace& ws = d_workspaces[worker];
        const std::size_t row = std::size_t(n) * W;
        ws.values.resize(std::size_t(run) * n);
        ws.metrics.resize(std::size_t(run) * row);
        ws.decisions.resize(std::size_t(run) * S);
        ws.final_metrics.resize(std::size_t(S) * W);
        std::vector<float>& values = ws.values;
        std::vector<std::int16_t>& metrics = ws.metrics;
        std::vector<std::uint32_t>& decisions = ws.decisions;
        std::vector<std::int16_t>& final_metrics = ws.final_metrics;
        int state[32];               // each lane's, in the traceback
        std::int64_t lo[32], hi[32]; // the run steps whose bits it keeps
        std::uint8_t* out[32];       // where the bit of run step lo goes
        for (std::size_t g; (g = next_group.fetch_add(1)) < groups;) {
            const std::size_t first = g * std::size_t(W);
            const int count =
                int(std::min<std::size_t>(std::size_t(W), segments.size() - first));
            std::uint32_t start_in_zero = 0;
            for (int l = 0; l < count; ++l) {
                const segment& s = segments[first + l];
                const window& w = windows[s.window];
                // The run's LLRs, going round a tail-biting window as often as it
                // takes, in pieces that end where the window wraps and where the
                // segment's owned steps begin and end.
                const std::int64_t own_from = std::max(s.first, s.begin) - s.first;
                const std::int64_t own_to =
                    std::min(s.first + run, s.owned_end) - s.first;
                magnitudes others, own;
                for (std::int64_t e = 0; e < run;) {
                    std::int64_t k = s.first + e;
                    if (w.circular)
                        k = (k % w.steps + w.steps) % w.steps;
                    const bool owning = e >= own_from && e < own_to;
                    const std::int64_t piece_end =
                        owning ? own_to : (e < own_from ? own_from : run);
                    const std::int64_t take = std::min(piece_end - e, w.steps - k);
                    gather(
                        w, k * n, take * n, values.data() + e * n, owning ? own : others);
                    e += take;
                }
                if (owned)
                    owned[first + l] = magnitudes::sum(own.total);
                const double counted =
                    magnitudes::sum(own.counted) + magnitudes::sum(others.counted);
                const double typical =
                    counted > 0.0
                        ? (magnitudes::sum(own.inside) + magnitudes::sum(others.inside)) /
                              counted
                        : double(core::llr_limit);
                const float scale = float(mean_metric / typical);
                // Quantised (clamped, then rounded half away from zero, without
                // branches, which noisy signs would mispredict) into the lane.
                const float most = float(max_metric);
                std::int16_t* lane = metrics.data() + l;
                for (std::size_t i = 0; i < values.size(); ++i) {
                    const float y = std::min(std::max(values[i] * scale, -most), most);
                    lane[i * W] = std::int16_t(y + std::copysign(0.5f, y));
                }
                if (s.start_zero)
                    start_in_zero |= 1u << l;
                lo[l] = s.begin - s.first;
                hi[l] = s.end - s.first;
                out[l] = w.out + (s.begin - w.out_origin);
            }
            d_kernel.run(t,
                         viterbi_job{ metrics.data(),
                                      int(run),
                                      start_in_zero,
                                      decisions.data(),
                                      final_metrics.data() });
            // The end states: 0 after a tail, else the best (metrics compared by their
            // int16 difference; ties to the lowest state).
            for (int l = 0; l < count; ++l) {
                int best = 0;
                if (!segments[first + l].end_zero)
                    for (int s = 1; s < S; ++s)
                        if (std::int16_t(final_metrics[std::size_t(s) * W + l] -
                                         final_metrics[std::size_t(best) * W + l]) > 0)
                            best = s;
                state[l] = best;
            }
            // Every lane's traceback at once, step by step: their chains of dependent
            // loads overlap.
            for (std::int64_t e = run - 1; e >= 0; --e) {
                const std::uint32_t* decided = decisions.data() + std::size_t(e) * S;
                for (int l = 0; l < count; ++l) {
                    if (e >= lo[l] && e < hi[l])
                        out[l][e - lo[l]] = std::uint8_t(state[l] >> (memory - 1));
                    const int d = int(decided[state[l]] >> l) & 1;
                    state[l] = ((state[l] << 1) & (S - 1)) | d;
                }
            }
        }
    });
}

// ---------------------------------------------------------------------------------------
// cpu_decoder

cpu_decoder::cpu_decoder(const viterbi_config& config, const viterbi_kernel& kernel)
    : d_config(config), d_geometry(derived_geometry(config)), d_segments(config, kernel)
{
}

void cpu_decoder::check_block(int frame_bits) const
{
    check_frame_bits(d_config.generator, d_config.mode, frame_bits);
}

std::size_t cpu_decoder::input_length(int frame_bits) const
{
    return punctured_length(
        d_config.generator, d_config.punctured, d_config.mode, frame_bits);
}

std::string cpu_decoder::device() const
{
    const viterbi_kernel& k = d_segments.kernel();
    return "CPU, " + std::to_string(d_segments.threads()) + " thread(s), " + k.isa +
           " Viterbi kernel (" + std::to_string(k.lanes) + " segments per group)";
}

void cpu_decoder::decode_batch(const batch& b,
                               std::uint8_t* bits,
                               core::codeword_status* status)
{
    const float* llrs = as_float(b, d_config.int8_scale);
    const code& c = d_config.generator;
    const termination mode = d_config.mode;
    const int frame = b.block;
    const std::int64_t T = std::int64_t(steps(c, mode, frame));
    const std::size_t in_len = input_length(frame);
    if (!d_config.punctured.none() && d_index_block != frame) {
        d_sent_index.assign(std::size_t(T) * c.outputs(), -1);
        const auto positions = sent_positions(c, d_config.punctured, mode, frame);
        for (std::size_t j = 0; j < positions.size(); ++j)
            d_sent_index[positions[j]] = std::int32_t(j);
        d_index_block = frame;
    }
    d_windows.clear();
    d_cut.clear();
    for (std::size_t f = 0; f < b.count; ++f) {
        d_windows.push_back(window{ llrs + f * in_len,
                                    d_sent_index.empty() ? nullptr : d_sent_index.data(),
                                    T,
                                    mode == termination::tail_biting,
                                    d_config.invert_llr,
                                    bits + f * std::size_t(frame),
                                    0 });
        cut_frame(d_geometry, mode, frame, T, f, d_cut);
    }
    d_owned.assign(d_cut.size(), 0.0);
    d_segments.decode(
        d_windows, frame_run(d_geometry, mode, frame, T), d_cut, d_owned.data());
    if (!status)
        return;
    // A frame carries information when the mean |LLR| of what was sent reaches the floor,
    // as the reference decides.
    for (std::size_t i = 0; i < d_cut.size();) {
        const std::size_t f = d_cut[i].window;
        double sum = 0.0;
        for (; i < d_cut.size() && d_cut[i].window == f; ++i)
            sum += d_owned[i];
        status[f] = core::codeword_status{
            0, in_len > 0 && sum / double(in_len) >= core::information_floor
        };
    }
}

// ---------------------------------------------------------------------------------------
// cpu_stream_decoder

cpu_stream_decoder::cpu_stream_decoder(const viterbi_config& config,
                                       const viterbi_kernel& kernel)
    : stream_decoder(config),
      d_geometry(derived_geometry(config)),
      d_segments(config, kernel)
{
}

std::string cpu_stream_decoder::device() const
{
    const viterbi_kernel& k = d_segments.kernel();
    return "CPU, " + std::to_string(d_segments.threads()) + " thread(s), " + k.isa +
           " Viterbi kernel (" + std::to_string(k.lanes) + " segments per group)";
}

std::size_t
cpu_stream_decoder::advance(const float* llrs, std::size_t steps, std::uint8_t* bits)
{
    const int n = d_config.generator.outputs();
    d_held.insert(d_held.end(), llrs, llrs + steps * n);
    const std::uint64_t received = d_origin + d_held.size() / n;
    const std::int64_t run = full_run(d_geometry);
    // The segments whose whole run has arrived, in the held window's steps.
    d_cut.clear();
    std::uint64_t i = d_next;
    for (;; ++i) {
        segment s = stream_segment(d_geometry, i);
        if (std::uint64_t(s.first + run) > received)
            break;
        const std::int64_t origin = std::int64_t(d_origin);
        s.first -= origin;
        s.begin -= origin;
        s.end -= origin;
        s.owned_end -= origin;
        d_cut.push_back(s);
    }
    if (d_cut.empty())
        return 0;
    const std::vector<window> held{ window{ d_held.data(),
                                            nullptr,
                                            std::int64_t(d_held.size() / n),
                                            false,
                                            false,
                                            bits,
                                            d_cut.front().begin } };
    d_segments.decode(held, run, d_cut, nullptr);
    const std::size_t written = std::size_t(i - d_next) * std::size_t(d_geometry.bits);
    d_next = i;
    drop_decided();
    return written;
}

std::size_t cpu_stream_decoder::finish(std::uint8_t* bits)
{
    const int n = d_config.generator.outputs();
    const std::uint64_t received = d_origin + d_held.size() / n;
    const std::uint64_t decided = d_next * std::uint64_t(d_geometry.bits);
    std::size_t written = 0;
    if (received > decided) {
        // The rest, as the end of a truncated frame: from training steps before it.
        const std::uint64_t from = decided > std::uint64_t(d_geometry.training)
                                       ? decided - d_geometry.training
                                       : 0;
        const std::int64_t steps = std::int64_t(received - from);
        d_cut.clear();
        cut_line(d_geometry,
                 steps,
                 std::int64_t(decided - from),
                 steps,
                 from == 0,
                 false,
                 0,
                 d_cut);
        const std::vector<window> rest{ window{ d_held.data() + (from - d_origin) * n,
                                                nullptr,
                                                steps,
                                                false,
                                                false,
                                                bits,
                                                std::int64_t(decided - from) } };
        d_segments.decode(rest, std::min(steps, full_run(d_geometry)), d_cut, nullptr);
        written = std::size_t(received - decided);
    }
    restart();
    return written;
}

void cpu_stream_decoder::restart()
{
    d_held.clear();
    d_origin = 0;
    d_next = 0;
}

void cpu_stream_decoder::drop_decided()
{
    const int n = d_config.generator.outputs();
    const std::uint64_t keep_from =
        std::uint64_t(stream_segment(d_geometry, d_next).first);
    if (keep_from <= d_origin)
        return;
    d_held.erase(d_held.begin(), d_held.begin() + (keep_from - d_origin) * n);
    d_origin = keep_from;
}

} // namespace gputurbo::conv::cpu
