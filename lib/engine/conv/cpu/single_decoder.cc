/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "single_decoder.h"
#include "cpu_decoder.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gputurbo::conv::cpu {
namespace {

using core::cpu::isa;

template <class T>
void grow(std::vector<T>& v, std::size_t size)
{
    if (v.size() < size)
        v.resize(size);
}

} // namespace

const state_kernel& state_kernel_for(isa i)
{
    switch (i) {
#if defined(__x86_64__) || defined(__i386__)
    case isa::avx512:
        return state_avx512;
    case isa::avx2:
        return state_avx2;
#endif
    default:
        return state_generic;
    }
}

const state_kernel& best_state_kernel()
{
    return state_kernel_for(core::cpu::choose({ isa::avx512, isa::avx2, isa::generic }));
}

// ---------------------------------------------------------------------------------------
// state_trellis_runner

state_trellis_runner::state_trellis_runner(const code& c, const state_kernel& kernel)
    : d_kernel(kernel), d_vectors(best_kernel())
{
    c.validate();
    const int S = c.states(), half = S / 2, n = c.outputs(), all = (1 << n) - 1;
    // The coded bits of the branches into ns (< S/2) and ns + S/2 from p_b = 2 ns + b:
    // the register holds the new state's newest bit at K-1 above p_b.
    auto bits = [&](int to_hi, int ns, int b) {
        return c.coded_bits(unsigned(to_hi) << (c.constraint - 1) | unsigned(2 * ns + b));
    };
    bool symmetric = true;
    d_patterns.resize(std::size_t(4) * half);
    d_signs.resize(std::size_t(4) * n * half);
    for (int ns = 0; ns < half; ++ns) {
        const unsigned branch[4] = {
            bits(0, ns, 0), bits(0, ns, 1), bits(1, ns, 0), bits(1, ns, 1)
        };
        symmetric &= branch[1] == (branch[0] ^ all) && branch[2] == (branch[0] ^ all) &&
                     branch[3] == branch[0];
        for (int k = 0; k < 4; ++k) {
            d_patterns[std::size_t(k) * half + ns] = std::int16_t(branch[k]);
            for (int o = 0; o < n; ++o)
                d_signs[(std::size_t(k) * n + o) * half + ns] =
                    std::int16_t(-int(branch[k] >> o & 1u));
        }
    }
    d_trellis =
        state_trellis{ c.constraint, n, S, symmetric, d_patterns.data(), d_signs.data() };
}

void state_trellis_runner::sanitize(
    const float* in, std::size_t count, bool invert, float* out, magnitudes& sums) const
{
    magnitude_sums s{ sums.total, sums.inside, sums.counted };
    d_vectors.sanitize(in, count, invert, out, s);
    sums.total = s.total;
    sums.inside = s.inside;
    sums.counted = s.counted;
}

void state_trellis_runner::start(bool known, std::int16_t* path) const
{
    const std::int16_t others = known ? std::int16_t(-start_penalty(d_trellis)) : 0;
    std::fill(path, path + states(), others);
    path[0] = 0;
}

unsigned state_trellis_runner::best(const std::int16_t* path) const
{
    // The largest metric (a loop that vectorises), then its first state.
    std::int16_t most = path[0];
    for (int s = 1; s < states(); ++s)
        most = path[s] > most ? path[s] : most;
    unsigned s = 0;
    while (path[s] != most)
        ++s;
    return s;
}

void state_trellis_runner::trace(const std::uint64_t* decisions,
                                 std::size_t steps,
                                 unsigned state,
                                 std::size_t from,
                                 std::size_t to,
                                 std::uint8_t* bits) const
{
    const walker w = walk(decisions);
    std::size_t t = steps;
    for (; t > to; --t)
        state = w.previous(t - 1, state);
    for (; t > from; --t) {
        bits[t - 1 - from] = w.input(state);
        state = w.previous(t - 1, state);
    }
}

std::string state_trellis_runner::device() const
{
    return std::string("CPU, 1 thread, ") + d_kernel.isa + " Viterbi kernel (" +
           std::to_string(std::min(d_kernel.lanes, states() / 2)) +
           " states per vector, one frame a call)";
}

// ---------------------------------------------------------------------------------------
// single_frame_decoder

single_frame_decoder::single_frame_decoder(const viterbi_config& config,
                                           const state_kernel& kernel)
    : d_config(config),
      d_geometry(derived_geometry(config)),
      d_trellis(config.generator, kernel)
{
    d_config.validate();
    if (d_config.mode == termination::streaming)
        throw std::invalid_argument(
            "single_frame_decoder decodes frames: termination streaming has "
            "single_stream_decoder");
    d_path.resize(std::size_t(d_trellis.states()));
}

std::size_t single_frame_decoder::input_length(int frame_bits) const
{
    return punctured_length(
        d_config.generator, d_config.punctured, d_config.mode, frame_bits);
}

std::size_t single_frame_decoder::run_steps(int frame_bits) const
{
    const std::size_t frame = steps(d_config.generator, d_config.mode, frame_bits);
    return d_config.mode == termination::tail_biting
               ? frame + std::size_t(d_geometry.training + d_geometry.depth)
               : frame;
}

std::size_t single_frame_decoder::frame_index(int frame_bits, std::size_t i) const
{
    if (d_config.mode != termination::tail_biting)
        return i;
    const std::size_t n = std::size_t(d_config.generator.outputs());
    const std::size_t frame = std::size_t(frame_bits) * n;
    const std::size_t training = std::size_t(d_geometry.training) * n;
    // Run coded bit 0 is frame coded bit -training, which wraps as often as it takes.
    return (i + frame - training % frame) % frame;
}

bool single_frame_decoder::decode(int frame_bits, const float* llrs, std::uint8_t* bits)
{
    check_frame_bits(d_config.generator, d_config.mode, frame_bits);
    const code& c = d_config.generator;
    const std::size_t sent = input_length(frame_bits);
    const std::size_t coded = coded_length(c, d_config.mode, frame_bits);
    const std::size_t run = run_steps(frame_bits) * std::size_t(c.outputs());
    // d_values: the run's LLRs, then the frame's depunctured ones, then its sent ones,
    // each part only where it differs from the one before.
    grow(d_values, run + coded + sent);
    grow(d_metrics, run);
    float* const depunctured = run == coded ? d_values.data() : d_values.data() + run;
    float* const received = sent == coded ? depunctured : depunctured + coded;
    // Their magnitudes say whether the frame carries information and, unless the run
    // reads some twice, set the scale.
    magnitudes frame;
    d_trellis.sanitize(llrs, sent, d_config.invert_llr, received, frame);
    if (received != depunctured) {
        if (d_index_frame != frame_bits) {
            d_sent_index.assign(coded, -1);
            const auto positions =
                sent_positions(c, d_config.punctured, d_config.mode, frame_bits);
            for (std::size_t j = 0; j < positions.size(); ++j)
                d_sent_index[positions[j]] = std::int32_t(j);
            d_index_frame = frame_bits;
        }
        for (std::size_t i = 0; i < coded; ++i) {
            const std::int32_t j = d_sent_index[i];
            depunctured[i] = j >= 0 ? received[j] : 0.0f;
        }
    }
    magnitudes in_run = frame;
    if (depunctured != d_values.data()) {
        for (std::size_t i = 0; i < run; ++i)
            d_values[i] = depunctured[frame_index(frame_bits, i)];
        in_run = magnitudes{}; // measured again: sanitised values pass unchanged
        d_trellis.sanitize(d_values.data(), run, false, d_values.data(), in_run);
    }
    d_trellis.quantize(
        d_values.data(), run, quantization_scale(in_run), d_metrics.data());
    const bool ends_as_sent = decode_run(frame_bits, bits);
    return ends_as_sent && sent > 0 &&
           magnitude(frame.total) / double(sent) >= core::information_floor;
}

bool single_frame_decoder::decode_metrics(int frame_bits,
                                          const std::int16_t* metrics,
                                          std::uint8_t* bits)
{
    check_frame_bits(d_config.generator, d_config.mode, frame_bits);
    const std::size_t run = run_steps(frame_bits) * std::size_t(d_trellis.outputs());
    grow(d_metrics, run);
    for (std::size_t i = 0; i < run; ++i)
        d_metrics[i] = metrics[frame_index(frame_bits, i)];
    return decode_run(frame_bits, bits);
}

bool single_frame_decoder::decode_run(int frame_bits, std::uint8_t* bits)
{
    const std::size_t steps = run_steps(frame_bits);
    const bool tail_biting = d_config.mode == termination::tail_biting;
    grow(d_decisions, steps * std::size_t(d_trellis.words()));
    d_trellis.start(!tail_biting, d_path.data());
    d_trellis.forward(d_metrics.data(), steps, d_path.data(), d_decisions.data());
    const unsigned best = d_trellis.best(d_path.data());
    const bool terminated = d_config.mode == termination::terminated;
    const std::size_t from = tail_biting ? std::size_t(d_geometry.training) : 0;
    d_trellis.trace(d_decisions.data(),
                    steps,
                    terminated ? 0u : best,
                    from,
                    from + std::size_t(frame_bits),
                    bits);
    return !terminated || best == 0;
}

// ---------------------------------------------------------------------------------------
// single_stream_decoder

single_stream_decoder::single_stream_decoder(const viterbi_config& config,
                                             const state_kernel& kernel)
    : d_config(config), d_trellis(config.generator, kernel)
{
    d_config.validate();
    if (d_config.mode != termination::streaming)
        throw std::invalid_argument(std::string("single_stream_decoder decodes streams, "
                                                "not termination ") +
                                    to_string(d_config.mode));
    if (!d_config.punctured.none())
        throw std::invalid_argument(
            "single_stream_decoder reads a step's outputs() values: depuncture first");
    d_path.resize(std::size_t(d_trellis.states()));
    reset();
}

void single_stream_decoder::reset()
{
    d_trellis.start(true, d_path.data());
    d_decided = 0;
    d_held = 0;
    d_traced = 0;
    d_inside = d_counted = 0;
}

std::size_t single_stream_decoder::fresh_steps(int frame_bits, int ahead) const
{
    const std::size_t want = std::size_t(frame_bits) + std::size_t(std::max(ahead, 0));
    return want > d_held ? want - d_held : 0;
}

void single_stream_decoder::decode(int frame_bits,
                                   int ahead,
                                   const float* llrs,
                                   std::uint8_t* bits)
{
    const std::size_t n = std::size_t(d_trellis.outputs());
    const std::size_t steps = fresh_steps(frame_bits, ahead), count = steps * n;
    grow(d_values, count);
    grow(d_metrics, count);
    magnitudes sums;
    d_trellis.sanitize(
        llrs + d_held * n, count, d_config.invert_llr, d_values.data(), sums);
    // The scale follows the stream's recent magnitudes: sums of about the last
    // scale_window LLRs that carry information (halved when there are twice as many).
    d_inside += sums.inside;
    d_counted += sums.counted;
    magnitudes recent;
    recent.inside = d_inside;
    recent.counted = d_counted;
    d_trellis.quantize(
        d_values.data(), count, quantization_scale(recent), d_metrics.data());
    while (d_counted > 2 * scale_window) {
        d_inside /= 2;
        d_counted /= 2;
    }
    run_and_decide(steps, frame_bits, bits);
}

void single_stream_decoder::decode_metrics(int frame_bits,
                                           int ahead,
                                           const std::int16_t* metrics,
                                           std::uint8_t* bits)
{
    const std::size_t n = std::size_t(d_trellis.outputs());
    const std::size_t steps = fresh_steps(frame_bits, ahead);
    grow(d_metrics, steps * n);
    std::copy_n(metrics + d_held * n, steps * n, d_metrics.data());
    run_and_decide(steps, frame_bits, bits);
}

void single_stream_decoder::run_and_decide(std::size_t steps,
                                           int frame_bits,
                                           std::uint8_t* bits)
{
    const std::size_t W = std::size_t(d_trellis.words());
    grow(d_decisions, (d_held + steps) * W);
    d_trellis.forward(
        d_metrics.data(), steps, d_path.data(), d_decisions.data() + d_held * W);
    d_held += steps;
    const std::size_t frame = std::size_t(frame_bits);
    trace(frame, bits);
    // The decisions of the steps after the frame stay for the next call.
    d_held -= frame;
    std::memmove(d_decisions.data(),
                 d_decisions.data() + frame * W,
                 d_held * W * sizeof(std::uint64_t));
    d_decided += frame;
}

void single_stream_decoder::trace(std::size_t frame, std::uint8_t* bits)
{
    const state_trellis_runner::walker w = d_trellis.walk(d_decisions.data());
    unsigned s = d_trellis.best(d_path.data());
    // The steps after the frame, their states kept for the next call.
    grow(d_next_on_path, d_held - frame);
    std::uint8_t* const next_on_path = d_next_on_path.data();
    std::size_t t = d_held;
    for (; t > frame; --t) {
        next_on_path[t - 1 - frame] = std::uint8_t(s);
        s = w.previous(t - 1, s);
    }
    // The frame's, until the survivor meets the last call's: s is the state after
    // step t - 1.
    const std::uint8_t* const on_path = d_on_path.data();
    const std::size_t traced = d_traced;
    for (; t > 0; --t) {
        if (t <= traced && on_path[t - 1] == s) {
            for (; t > 0; --t)
                bits[t - 1] = w.input(on_path[t - 1]);
            break;
        }
        bits[t - 1] = w.input(s);
        s = w.previous(t - 1, s);
    }
    d_on_path.swap(d_next_on_path);
    d_traced = d_held - frame;
}

} // namespace gputurbo::conv::cpu
