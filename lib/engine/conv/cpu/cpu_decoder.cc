/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "../reference_decoder.h"
#include "core/cpu/isa.h"
#include "core/thread_pool.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gputurbo::conv::cpu {
namespace {

using core::cpu::isa;

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

// The coded bits [c, c + count) of a window as the kernel reads them: float LLRs
// sanitised into values, int8 ones as their metrics into metrics (through codes when
// punctured); their magnitudes added to sums.
void gather(const viterbi_kernel& kernel,
            const window& w,
            std::int64_t c,
            std::int64_t count,
            float* values,
            std::int16_t* metrics,
            std::int8_t* codes,
            magnitude_sums& sums)
{
    const std::size_t n = std::size_t(count);
    if (w.codes) {
        const std::int8_t* from = w.codes + c;
        if (w.sent_index) {
            for (std::size_t i = 0; i < n; ++i) {
                const std::int32_t j = w.sent_index[c + std::int64_t(i)];
                codes[i] = j >= 0 ? w.codes[j] : 0; // punctured: an erasure
            }
            from = codes;
        }
        kernel.int8_metrics(from, n, w.invert, int8_fixed_unit(w.unit), metrics, sums);
    } else {
        const float* from = w.values + c;
        if (w.sent_index) {
            for (std::size_t i = 0; i < n; ++i) {
                const std::int32_t j = w.sent_index[c + std::int64_t(i)];
                values[i] = j >= 0 ? w.values[j] : 0.0f;
            }
            from = values;
        }
        kernel.sanitize(from, n, w.invert, values, sums);
    }
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
    d_branch_outputs = branch_outputs(d_config.generator);
}

std::string segment_decoder::device() const
{
    return "CPU, " + std::to_string(d_threads) + " thread(s), " + d_kernel.isa +
           " Viterbi kernel (" + std::to_string(d_kernel.lanes) + " segments per group)";
}

void segment_decoder::decode(const std::vector<window>& windows,
                             std::int64_t run,
                             const std::vector<segment>& segments,
                             double* owned)
{
    const code& c = d_config.generator;
    const int n = c.outputs(), S = c.states();
    const int W = d_kernel.lanes;
    const std::size_t groups = (segments.size() + std::size_t(W) - 1) / std::size_t(W);
    const int workers = int(std::min<std::size_t>(std::size_t(d_threads), groups));
    if (int(d_workspaces.size()) < workers)
        d_workspaces.resize(workers);
    std::atomic<std::size_t> next_group{ 0 };
    core::thread_pool::shared().run(workers, [&](int worker) {
        workspace& ws = d_workspaces[worker];
        // A lane's metrics in a row of whole blocks of lanes, as the kernel reads them.
        const std::size_t row = (std::size_t(run) * n + W - 1) / W * W;
        ws.values.resize(std::size_t(run) * n);
        ws.codes.resize(std::size_t(run) * n);
        ws.metrics.resize(row * W);
        ws.decisions.resize(std::size_t(run) * S);
        ws.final_metrics.resize(std::size_t(S) * W);
        ws.bits.resize(std::size_t(run));
        std::vector<float>& values = ws.values;
        std::vector<std::int16_t>& metrics = ws.metrics;
        std::vector<std::uint32_t>& decisions = ws.decisions;
        std::vector<std::int16_t>& final_metrics = ws.final_metrics;
        std::vector<std::uint32_t>& bits = ws.bits;
        std::int32_t end_state[32] = {}; // each lane's, where its traceback starts
        lanes_out to;
        for (std::size_t g; (g = next_group.fetch_add(1)) < groups;) {
            const std::size_t first = g * std::size_t(W);
            const int count =
                int(std::min<std::size_t>(std::size_t(W), segments.size() - first));
            std::uint32_t start_in_zero = 0;
            to.soft_wanted = false;
            for (int l = 0; l < count; ++l) {
                const segment& s = segments[first + l];
                const window& w = windows[s.window];
                // The run's LLRs, going round a tail-biting window as often as it
                // takes, in pieces that end where the window wraps and where the
                // segment's owned steps begin and end.
                const std::int64_t own_from = std::max(s.first, s.begin) - s.first;
                const std::int64_t own_to =
                    std::min(s.first + run, s.owned_end) - s.first;
                magnitude_sums others{}, own{};
                std::int16_t* lane = metrics.data() + std::size_t(l) * row;
                for (std::int64_t e = 0; e < run;) {
                    std::int64_t k = s.first + e;
                    if (w.circular)
                        k = (k % w.steps + w.steps) % w.steps;
                    const bool owning = e >= own_from && e < own_to;
                    const std::int64_t piece_end =
                        owning ? own_to : (e < own_from ? own_from : run);
                    const std::int64_t take = std::min(piece_end - e, w.steps - k);
                    gather(d_kernel,
                           w,
                           k * n,
                           take * n,
                           values.data() + e * n,
                           lane + e * n,
                           ws.codes.data() + e * n,
                           owning ? own : others);
                    e += take;
                }
                if (owned)
                    owned[first + l] = magnitude(own.total);
                // int8 LLRs are gathered as their metrics.
                float scale = 1.0f / w.unit;
                if (!w.codes) {
                    magnitudes all;
                    all.total = own.total + others.total;
                    all.inside = own.inside + others.inside;
                    all.counted = own.counted + others.counted;
                    scale = quantization_scale(all);
                    d_kernel.quantize(values.data(), values.size(), scale, lane);
                }
                to.soft[l] = w.soft ? w.soft + (s.begin - w.out_origin) : nullptr;
                to.factor[l] = (w.invert ? -0.5f : 0.5f) / scale;
                to.soft_wanted |= w.soft != nullptr;
                if (s.start_zero)
                    start_in_zero |= 1u << l;
                to.lo[l] = s.begin - s.first;
                to.hi[l] = s.end - s.first;
                to.bits[l] = w.out + (s.begin - w.out_origin);
            }
            const trellis t{ c.constraint, n, S, d_branch_outputs.data() };
            d_kernel.run(t,
                         viterbi_job{ metrics.data(),
                                      row,
                                      int(run),
                                      start_in_zero,
                                      decisions.data(),
                                      final_metrics.data() });
            // The end states: 0 after a tail, else the best (metrics compared by their
            // int16 difference; ties to the lowest state). A tail's run whose best end
            // state is another fails its frame.
            for (int l = 0; l < count; ++l) {
                int best = 0;
                for (int s = 1; s < S; ++s)
                    if (std::int16_t(final_metrics[std::size_t(s) * W + l] -
                                     final_metrics[std::size_t(best) * W + l]) > 0)
                        best = s;
                const bool end_zero = segments[first + l].end_zero;
                if (end_zero && best != 0 && owned)
                    owned[first + l] = missed_end_state;
                end_state[l] = end_zero ? 0 : best;
            }
            d_kernel.trace(
                t, traceback_job{ decisions.data(), int(run), end_state, bits.data() });
            // Each lane's bits out of the steps' words.
            for (int l = 0; l < count; ++l) {
                const std::uint32_t* from = bits.data() + to.lo[l];
                for (std::int64_t e = 0; e < to.hi[l] - to.lo[l]; ++e)
                    to.bits[l][e] = std::uint8_t(from[e] >> l & 1u);
            }
            if (to.soft_wanted)
                write_llrs(t, int(run), segments.data() + first, count, to, ws);
        }
    });
}

void segment_decoder::write_llrs(const trellis& t,
                                 int run,
                                 const segment* lane_segments,
                                 int count,
                                 const lanes_out& to,
                                 workspace& ws) const
{
    const int W = d_kernel.lanes;
    std::uint32_t start_in_zero = 0, end_in_zero = 0;
    std::int64_t begin = run, end = 0;
    for (int l = 0; l < count; ++l)
        if (to.soft[l]) {
            start_in_zero |= std::uint32_t(lane_segments[l].start_zero) << l;
            end_in_zero |= std::uint32_t(lane_segments[l].end_zero) << l;
            begin = std::min(begin, to.lo[l]);
            end = std::max(end, to.hi[l]);
        }
    ws.soft_scratch.resize(bcjr_scratch(W, t, run));
    ws.soft_outputs.resize(std::size_t(run) * W);
    d_kernel.bcjr(t,
                  bcjr_job{ ws.metrics.data(),
                            ws.metrics.size() / std::size_t(W),
                            run,
                            start_in_zero,
                            end_in_zero,
                            int(begin),
                            int(end),
                            ws.soft_scratch.data(),
                            ws.soft_outputs.data() });
    for (int l = 0; l < count; ++l)
        for (std::int64_t e = to.lo[l]; to.soft[l] && e < to.hi[l]; ++e)
            to.soft[l][e - to.lo[l]] =
                std::clamp(float(ws.soft_outputs[std::size_t(e) * W + l]) * to.factor[l],
                           -core::llr_limit,
                           core::llr_limit);
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

std::string cpu_decoder::device() const { return d_segments.device(); }

bool cpu_decoder::gives_soft(core::soft_output kind) const
{
    return gives_soft_output(kind);
}

void cpu_decoder::decode_batch(const batch& b,
                               std::uint8_t* bits,
                               core::codeword_status* status)
{
    const code& c = d_config.generator;
    const termination mode = d_config.mode;
    const int frame = b.block;
    const std::int64_t T = std::int64_t(steps(c, mode, frame));
    const std::size_t in_len = input_length(frame);
    if (d_index_block != frame) {
        d_sent_index = sent_index(d_config, frame);
        d_index_block = frame;
    }
    d_windows.clear();
    d_cut.clear();
    const bool fast = gives_fast_soft(d_config, b.soft.kind);
    for (std::size_t f = 0; f < b.count; ++f) {
        d_windows.push_back(
            window{ b.f32 ? b.f32 + f * in_len : nullptr,
                    d_sent_index.empty() ? nullptr : d_sent_index.data(),
                    T,
                    mode == termination::tail_biting,
                    d_config.invert_llr,
                    bits + f * std::size_t(frame),
                    0,
                    b.f32 ? nullptr : b.i8 + f * in_len,
                    1.0f / d_config.int8_scale,
                    fast ? b.soft.values + f * std::size_t(frame) : nullptr });
        cut_frame(d_geometry, mode, frame, T, f, d_cut);
    }
    d_owned.assign(d_cut.size(), 0.0);
    d_segments.decode(
        d_windows, frame_run(d_geometry, mode, frame, T), d_cut, d_owned.data());
    if (b.soft.kind != core::soft_output::none && !fast) // the status is the
                                                         // Viterbi's, the bits the
                                                         // APPs' signs
        write_soft(d_config,
                   frame,
                   as_float(b, d_config.int8_scale),
                   b.count,
                   b.soft,
                   bits,
                   core::thread_count(d_config.threads));
    if (!status)
        return;
    // A frame passes when the mean |LLR| of what was sent reaches the floor and no
    // segment missed its end state, as the reference decides.
    for (std::size_t i = 0; i < d_cut.size();) {
        const std::size_t f = d_cut[i].window;
        double sum = 0.0;
        bool ends_as_sent = true;
        for (; i < d_cut.size() && d_cut[i].window == f; ++i) {
            ends_as_sent &= d_owned[i] != segment_engine::missed_end_state;
            sum += d_owned[i];
        }
        const bool informed =
            in_len > 0 && sum / double(in_len) >= core::information_floor;
        status[f] = core::codeword_status{ 0, ends_as_sent && informed };
    }
}

} // namespace gputurbo::conv::cpu
