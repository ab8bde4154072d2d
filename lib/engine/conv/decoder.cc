/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu/cpu_decoder.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/cuda_decoder.h"
#endif
#include "reference_decoder.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gputurbo::conv {
namespace {

void check_puncturing(const puncturing& p, int outputs)
{
    if (p.none())
        return;
    if (int(p.keep.size()) != outputs)
        throw std::invalid_argument("puncturing has " + std::to_string(p.keep.size()) +
                                    " patterns for a code of " + std::to_string(outputs) +
                                    " outputs");
    for (const auto& pattern : p.keep) {
        if (pattern.size() != p.keep[0].size())
            throw std::invalid_argument("puncturing patterns have unequal lengths");
        for (std::uint8_t keep : pattern)
            if (keep > 1)
                throw std::invalid_argument("puncturing pattern values are 0 or 1, not " +
                                            std::to_string(keep));
    }
    if (p.kept_per_period(outputs) == 0)
        throw std::invalid_argument("puncturing keeps no coded bit");
}

} // namespace

void viterbi_config::validate() const
{
    generator.validate();
    check_puncturing(punctured, generator.outputs());
    if (catastrophic(generator, punctured))
        throw std::invalid_argument(
            (punctured.none() ? std::string("the code ")
                              : "puncturing " + puncture_text(punctured) + " makes ") +
            generator.text() +
            " catastrophic: two paths from different states send the same bits for "
            "ever, so no decoder can tell them apart; choose " +
            (punctured.none() ? "other polynomials" : "another pattern"));
    core::check(parameter("segment_bits"), geometry.bits);
    core::check(parameter("training_depth"), geometry.training);
    core::check(parameter("decision_depth"), geometry.depth);
    core::check(parameter("int8_scale"), int8_scale);
    core::check(parameter("threads"), threads);
    core::check_devices(parameter("devices"), devices);
}

segment_geometry derived_geometry(const viterbi_config& config)
{
    const code& c = config.generator;
    const puncturing& p = config.punctured;
    const int period = p.period();
    // The rate of the sent code; a pattern that leaves no redundancy gets the longest.
    const double rate = double(period) / p.kept_per_period(c.outputs());
    const double stretch = rate < 1.0 ? std::min(1.0 / (1.0 - rate), 16.0) : 16.0;
    const int depth =
        int(std::ceil(5.0 * c.constraint * stretch / period - 1e-9)) * period;
    segment_geometry g = config.geometry;
    if (g.depth == 0)
        g.depth = depth;
    if (g.training == 0)
        g.training = g.depth;
    if (g.bits == 0)
        g.bits = 32 * g.depth;
    return g;
}

std::unique_ptr<core::batch_decoder> make_viterbi_decoder(const viterbi_config& config,
                                                          const std::string& backend)
{
    config.validate();
    if (config.mode == termination::streaming)
        throw std::invalid_argument("termination streaming decodes a continuous stream, "
                                    "not frames: use make_stream_decoder()");
    switch (core::choose_backend(backend, config.devices)) {
    case core::backend::cuda:
#ifdef GPUTURBO_HAVE_CUDA
        return cuda::make_cuda_viterbi_decoder(config);
#else
        break; // choose_backend() has thrown
#endif
    case core::backend::cpu:
        return std::make_unique<cpu::cpu_decoder>(config, cpu::best_kernel());
    case core::backend::reference:
        return std::make_unique<reference_decoder>(config, core::backend::reference);
    }
    throw std::logic_error("make_viterbi_decoder: unhandled backend");
}

std::unique_ptr<stream_decoder> make_stream_decoder(const viterbi_config& config,
                                                    const std::string& backend)
{
    config.validate();
    if (config.mode != termination::streaming)
        throw std::invalid_argument(std::string("a stream decoder needs termination "
                                                "streaming, not ") +
                                    to_string(config.mode) +
                                    ": use make_viterbi_decoder()");
    switch (core::choose_backend(backend, config.devices)) {
    case core::backend::cuda:
#ifdef GPUTURBO_HAVE_CUDA
        return std::make_unique<segmented_stream_decoder>(
            config, cuda::make_cuda_segment_engine(config));
#else
        break; // choose_backend() has thrown
#endif
    case core::backend::cpu:
        return std::make_unique<segmented_stream_decoder>(
            config, std::make_unique<cpu::segment_decoder>(config, cpu::best_kernel()));
    case core::backend::reference:
        return std::make_unique<reference_stream_decoder>(config);
    }
    throw std::logic_error("make_stream_decoder: unhandled backend");
}

// ---------------------------------------------------------------------------------------
// stream_decoder: depuncturing with the pattern's phase carried from call to call

stream_decoder::stream_decoder(const viterbi_config& config) : d_config(config)
{
    d_config.validate();
    const code& c = d_config.generator;
    const puncturing& p = d_config.punctured;
    const int n = c.outputs(), period = p.period();
    for (int i = 0; i < n * period; ++i)
        if (p.none() || p.keep[i % n][i / n])
            d_kept.push_back(i);
}

stream_decoder::~stream_decoder() = default;

std::size_t
stream_decoder::decode(const float* llrs, std::size_t count, std::uint8_t* bits)
{
    return take(llrs, count, bits);
}

std::size_t
stream_decoder::decode(const std::int8_t* llrs, std::size_t count, std::uint8_t* bits)
{
    return take(llrs, count, bits);
}

std::size_t stream_decoder::output_bound(std::size_t count) const
{
    // Every kept_per_period LLRs complete a period of steps; two more for the phase.
    const std::uint64_t periods = count / d_kept.size() + 2;
    return std::size_t(pending_bits() + periods * d_config.punctured.period());
}

namespace {

// The LLRs of a stream, sanitised as every decoder reads them.
template <class T>
struct sanitiser
{
    const T* in;
    float from_q; // int8: the LLR of 1
    bool invert;

    float operator()(std::size_t i) const
    {
        if constexpr (std::is_same_v<T, float>)
            return core::sanitize_llr(in[i], invert);
        else
            return core::sanitize_llr(float(in[i]) * from_q, invert);
    }
};

} // namespace

template <class T>
std::size_t stream_decoder::take(const T* llrs, std::size_t count, std::uint8_t* bits)
{
    if (count > 0 && !llrs)
        throw std::invalid_argument("stream_decoder::decode: llrs is null");
    if (count > 0 && !bits)
        throw std::invalid_argument("stream_decoder::decode: bits is null");
    const int n = d_config.generator.outputs();
    const std::size_t span = std::size_t(n) * d_config.punctured.period();
    const std::size_t kept_per_span = d_kept.size();
    const sanitiser<T> value{ llrs, 1.0f / d_config.int8_scale, d_config.invert_llr };
    auto kept = [&](std::uint64_t c) {
        return std::binary_search(d_kept.begin(), d_kept.end(), int(c % span));
    };
    // Room for every coded bit these LLRs complete, written in place.
    std::size_t at = d_ready.size();
    d_ready.resize(at + (count / kept_per_span + 2) * span);
    float* out = d_ready.data();
    // Punctured positions are filled as soon as the kept ones before them are, so that
    // a step completes with its last sent LLR.
    auto skip_punctured = [&] {
        while (!kept(d_coded)) {
            out[at++] = 0.0f;
            ++d_coded;
        }
    };
    auto one = [&](std::size_t i) {
        out[at++] = value(i);
        ++d_coded;
        skip_punctured();
    };
    skip_punctured();
    std::size_t i = 0;
    // Per LLR up to a period's first kept position, then whole periods from there.
    for (; i < count && d_coded % span != std::uint64_t(d_kept[0]); ++i)
        one(i);
    const std::size_t whole = (count - i) / kept_per_span * kept_per_span;
    if (kept_per_span == span) { // unpunctured: the LLRs as they come
        for (std::size_t j = 0; j < whole; ++j)
            out[at + j] = value(i + j);
        at += whole;
        i += whole;
        d_coded += whole;
    } else {
        for (const std::size_t end = i + whole; i < end; i += kept_per_span) {
            std::fill_n(out + at, span, 0.0f);
            for (std::size_t j = 0; j < kept_per_span; ++j)
                out[at + (d_kept[j] - d_kept[0])] = value(i + j);
            at += span;
            d_coded += span;
        }
    }
    for (; i < count; ++i)
        one(i);
    d_ready.resize(at);
    const std::size_t steps = d_ready.size() / n;
    if (steps == 0)
        return 0;
    const std::size_t written = advance(d_ready.data(), steps, bits);
    d_ready.erase(d_ready.begin(), d_ready.begin() + steps * n);
    d_steps += steps;
    d_written += written;
    return written;
}

std::size_t stream_decoder::flush(std::uint8_t* bits)
{
    if (!bits && pending_bits() > 0)
        throw std::invalid_argument("stream_decoder::flush: bits is null");
    const std::size_t written = finish(bits);
    d_ready.clear();
    d_coded = d_steps = d_written = 0;
    return written;
}

void stream_decoder::reset()
{
    restart();
    d_ready.clear();
    d_coded = d_steps = d_written = 0;
}

} // namespace gputurbo::conv
