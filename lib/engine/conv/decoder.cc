/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu/cpu_decoder.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/cuda_decoder.h"
#endif
#include "node_sync.h"
#include "reference_decoder.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/device_kernels.h>
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
    if (node_sync && mode != termination::streaming)
        throw std::invalid_argument(std::string("node_sync synchronises a stream: it "
                                                "needs termination streaming, not ") +
                                    to_string(mode));
    core::check(parameter("int8_scale"), int8_scale);
    core::check(parameter("threads"), threads);
    core::check_devices(parameter("devices"), devices);
    if (std::string_view(to_string(soft_algorithm)) == "?")
        throw std::invalid_argument(
            "soft_algorithm " + std::to_string(int(soft_algorithm)) +
            " is unknown: use " + core::range_text(parameter("soft_algorithm")));
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

std::unique_ptr<device_kernels> device_kernels_of(const core::batch_decoder& decoder)
{
#ifdef GPUTURBO_HAVE_CUDA
    return cuda::device_kernels_of(decoder);
#else
    (void)decoder;
    return nullptr;
#endif
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
    if (config.node_sync)
        return std::make_unique<node_sync_decoder>(config, backend);
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
    // The sent LLRs of a period in coded order, and how many steps each count of them
    // completes: a step is complete with its last sent LLR.
    d_sent_through.assign(period, 0);
    for (int i = 0; i < n * period; ++i) {
        const bool kept = p.none() || p.keep[i % n][i / n];
        if (!p.none())
            d_period_index.push_back(kept ? std::int32_t(d_kept) : -1);
        d_kept += kept;
        d_sent_through[i / n] = std::uint32_t(d_kept);
    }
    d_steps_by_sent.assign(d_kept, 0);
    for (std::size_t r = 0; r < d_kept; ++r)
        d_steps_by_sent[r] = std::uint32_t(std::upper_bound(d_sent_through.begin(),
                                                            d_sent_through.end(),
                                                            std::uint32_t(r)) -
                                           d_sent_through.begin());
}

stream_decoder::~stream_decoder() = default;

std::uint64_t stream_decoder::whole_steps(std::uint64_t sent) const
{
    return sent / d_kept * std::uint64_t(d_config.punctured.period()) +
           d_steps_by_sent[sent % d_kept];
}

std::uint64_t stream_decoder::partial_of(std::uint64_t sent) const
{
    const std::uint64_t steps = whole_steps(sent);
    const std::uint64_t period = std::uint64_t(d_config.punctured.period());
    const std::uint64_t r = steps % period;
    return sent - (steps / period * d_kept + (r > 0 ? d_sent_through[r - 1] : 0));
}

std::uint64_t stream_decoder::sent_before(std::uint64_t step) const
{
    const std::uint64_t period = std::uint64_t(d_config.punctured.period());
    if (step % period != 0)
        throw std::logic_error("stream_decoder::sent_before: not a period's start");
    return step / period * d_kept;
}

std::size_t stream_decoder::decode(const float* llrs,
                                   std::size_t count,
                                   std::uint8_t* bits,
                                   float* soft)
{
    return take(llrs, count, checked(bits, soft, "decode"));
}

std::size_t stream_decoder::decode(const std::int8_t* llrs,
                                   std::size_t count,
                                   std::uint8_t* bits,
                                   float* soft)
{
    return take(llrs, count, checked(bits, soft, "decode"));
}

stream_decoder::decided
stream_decoder::checked(std::uint8_t* bits, float* soft, const char* what) const
{
    if (soft && !d_soft)
        throw std::invalid_argument(std::string("stream_decoder::") + what +
                                    ": soft values without soft output "
                                    "(set_soft_output())");
    if (!soft && d_soft && bits)
        throw std::invalid_argument(std::string("stream_decoder::") + what +
                                    ": soft is null, and the stream has soft output");
    return { bits, soft };
}

void stream_decoder::set_soft_output(bool on)
{
    if (on && !gives_soft())
        throw std::invalid_argument(
            "stream_decoder: soft output is not given by this decoder (" + backend() +
            " backend" + (d_config.node_sync ? ", node_sync" : "") +
            "): the cpu and cuda backends give it, with soft_algorithm max-log, for "
            "every code but K = 9 with four outputs");
    if (d_sent > 0)
        throw std::logic_error(
            "stream_decoder::set_soft_output: between streams only (flush() or reset() "
            "first)");
    d_soft = on;
}

std::size_t stream_decoder::output_bound(std::size_t count) const
{
    // Every d_kept LLRs complete a period of steps; two more for the phase.
    const std::uint64_t periods = count / d_kept + 2;
    return std::size_t(pending_bits() + periods * d_config.punctured.period());
}

std::size_t stream_decoder::preferred_llrs() const
{
    const std::uint64_t period = std::uint64_t(d_config.punctured.period());
    const std::uint64_t steps = std::min(preferred_steps(), preferred_bits_limit);
    return std::size_t(sent_before((steps + period - 1) / period * period));
}

void stream_decoder::set_batches_in_flight(int n)
{
    if (n < 1 || n > 4)
        throw std::invalid_argument("stream_decoder: batches in flight " +
                                    std::to_string(n) + ": use 1 ... 4");
    d_batches_in_flight = n;
}

template <class T>
std::size_t stream_decoder::take(const T* llrs, std::size_t count, decided out)
{
    if (count == 0)
        return 0;
    if (!llrs)
        throw std::invalid_argument("stream_decoder::decode: llrs is null");
    if (!out.bits)
        throw std::invalid_argument("stream_decoder::decode: bits is null");
    constexpr bool int8 = std::is_same_v<T, std::int8_t>;
    if (d_sent > 0 && d_int8 != int8)
        throw std::invalid_argument(
            std::string("stream_decoder::decode: this stream's LLRs are ") +
            (d_int8 ? "int8" : "float") + ", not " + (int8 ? "int8" : "float") +
            " (flush() or reset() starts a new stream)");
    d_int8 = int8;
    d_sent += count;
    sent_llrs in{ nullptr, nullptr, count, d_sent };
    if constexpr (int8)
        in.codes = llrs;
    else
        in.values = llrs;
    const std::size_t written = advance(in, out);
    d_written += written;
    return written;
}

std::size_t stream_decoder::wait(std::uint8_t* bits, float* soft)
{
    if (!bits && batches_pending() > 0)
        throw std::invalid_argument("stream_decoder::wait: bits is null");
    const std::size_t written = wait_oldest(checked(bits, soft, "wait"));
    d_written += written;
    return written;
}

std::size_t stream_decoder::flush(std::uint8_t* bits, float* soft)
{
    if (!bits && pending_bits() > 0)
        throw std::invalid_argument("stream_decoder::flush: bits is null");
    const std::size_t written = finish(checked(bits, soft, "flush"));
    d_sent = d_written = 0;
    return written;
}

void stream_decoder::reset()
{
    restart();
    d_sent = d_written = 0;
}

} // namespace gputurbo::conv
