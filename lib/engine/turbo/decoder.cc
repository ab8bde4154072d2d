/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu/cpu_decoder.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/cuda_decoder.h"
#endif

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gputurbo::turbo {
namespace {

std::string str(float x)
{
    std::ostringstream out;
    out << x;
    return out.str();
}

template <class Enum, std::size_t N>
Enum parse(std::string_view what,
           std::string_view name,
           const std::pair<const char*, Enum> (&names)[N])
{
    std::string options;
    for (const auto& [text, value] : names) {
        if (name == text)
            return value;
        options += (options.empty() ? "" : ", ") + std::string(text);
    }
    throw std::invalid_argument("unknown " + std::string(what) + " '" +
                                std::string(name) + "': use one of " + options);
}

template <class Enum, std::size_t N>
const char* name_of(Enum e, const std::pair<const char*, Enum> (&names)[N])
{
    for (const auto& [text, value] : names)
        if (value == e)
            return text;
    return "?";
}

const std::pair<const char*, algorithm> algorithm_names[] = {
    { "log-map", algorithm::log_map },
    { "max-log", algorithm::max_log },
    { "scaled-max-log", algorithm::scaled_max_log },
};
const std::pair<const char*, arithmetic> arithmetic_names[] = {
    { "auto", arithmetic::automatic },
    { "float32", arithmetic::float32 },
    { "int16", arithmetic::int16 },
};
const std::pair<const char*, guard> guard_names[] = {
    { "none", guard::none },
    { "pivi", guard::pivi },
    { "dstw", guard::dstw },
    { "pividstw", guard::pividstw },
};
const std::pair<const char*, stop_rule> stop_names[] = {
    { "off", stop_rule::off },         { "crc24a", stop_rule::crc24a },
    { "crc24b", stop_rule::crc24b },   { "mean-llr", stop_rule::mean_llr },
    { "min-llr", stop_rule::min_llr }, { "hard", stop_rule::hard },
};

void check_iterations(int iterations)
{
    if (iterations < 1 || iterations > max_iterations)
        throw std::invalid_argument("iterations=" + std::to_string(iterations) +
                                    " is out of range: use 1 ... " +
                                    std::to_string(max_iterations) + " full iterations");
}

void check_threshold(float threshold)
{
    if (!std::isfinite(threshold) || threshold < 0.0f)
        throw std::invalid_argument("stop_threshold=" + str(threshold) +
                                    " is invalid: use a finite value >= 0");
}

// P divides K, and g fits a sub-block when the guarding trains.
void check_subblocks(const decoder_config& c, int K, int P)
{
    if (P < 1 || K % P != 0)
        throw std::invalid_argument("subblocks P=" + std::to_string(P) +
                                    " must divide K=" + std::to_string(K) +
                                    " (or be 0: automatic)");
    const bool windowed = c.guarding == guard::dstw || c.guarding == guard::pividstw;
    if (P > 1 && windowed && (c.guard_window < 1 || c.guard_window > K / P))
        throw std::invalid_argument(
            "guard_window g=" + std::to_string(c.guard_window) + " is out of range for " +
            to_string(c.guarding) + " at K=" + std::to_string(K) +
            ", P=" + std::to_string(P) + ": use 1 ... K/P = " + std::to_string(K / P));
}

} // namespace

algorithm parse_algorithm(std::string_view n)
{
    return parse("algorithm", n, algorithm_names);
}
arithmetic parse_arithmetic(std::string_view n)
{
    return parse("arithmetic", n, arithmetic_names);
}
guard parse_guard(std::string_view n) { return parse("guard", n, guard_names); }
stop_rule parse_stop_rule(std::string_view n)
{
    return parse("early stop rule", n, stop_names);
}
const char* to_string(algorithm a) { return name_of(a, algorithm_names); }
const char* to_string(arithmetic a) { return name_of(a, arithmetic_names); }
const char* to_string(guard g) { return name_of(g, guard_names); }
const char* to_string(stop_rule r) { return name_of(r, stop_names); }

std::optional<lte::crc24> stop_crc(stop_rule r)
{
    if (r == stop_rule::crc24a)
        return lte::crc24::a;
    if (r == stop_rule::crc24b)
        return lte::crc24::b;
    return std::nullopt;
}

void decoder_config::validate() const
{
    if (K != 0)
        qpp(K); // throws for an invalid K
    check_iterations(iterations);
    if (subblocks < 0)
        throw std::invalid_argument("subblocks P=" + std::to_string(subblocks) +
                                    " is invalid: use 0 (automatic) or a P >= 1");
    if (!std::isfinite(scaling) || scaling <= 0.0f || scaling > 1.0f)
        throw std::invalid_argument("scaling=" + str(scaling) +
                                    " is out of range: use 0 < scaling <= 1");
    check_threshold(stop_threshold);
    if (!std::isfinite(int8_scale) || int8_scale <= 0.0f)
        throw std::invalid_argument("int8_scale=" + str(int8_scale) +
                                    " is invalid: use a finite value > 0");
    if (threads < 0)
        throw std::invalid_argument("threads=" + std::to_string(threads) +
                                    " is invalid: use 0 (all cores) or more");
    const bool device_list =
        !devices.empty() &&
        devices.find_first_not_of("0123456789,") == std::string::npos &&
        devices.front() != ',' && devices.back() != ',' &&
        devices.find(",,") == std::string::npos;
    if (devices != "all" && !device_list)
        throw std::invalid_argument(
            "devices='" + devices +
            "' is invalid: use GPU indices such as 0 or 0,1, or all");
    if (K != 0 && subblocks > 0)
        check_subblocks(*this, K, subblocks);
}

decoder::decoder(const decoder_config& config) : d_config(config) { d_config.validate(); }

int decoder::subblocks(int K) const
{
    return d_config.subblocks > 0 ? d_config.subblocks : automatic_subblocks(K);
}

void decoder::check_block(int K) const
{
    qpp(K); // throws for an invalid K
    check_subblocks(d_config, K, subblocks(K));
}

void decoder::set_iterations(int iterations)
{
    check_iterations(iterations);
    d_config.iterations = iterations;
}

void decoder::set_stop_threshold(float threshold)
{
    check_threshold(threshold);
    d_config.stop_threshold = threshold;
}

void decoder::decode(const std::vector<float>& llrs,
                     std::vector<std::uint8_t>& bits,
                     std::vector<codeword_status>* status)
{
    check_block(d_config.K);
    const std::size_t n = codeword_length(d_config.K);
    if (llrs.size() % n != 0)
        throw std::invalid_argument(
            "decode: " + std::to_string(llrs.size()) +
            " LLRs is not a whole number of codewords of 3K+12 = " + std::to_string(n));
    const std::size_t count = llrs.size() / n;
    bits.resize(count * d_config.K);
    if (status)
        status->resize(count);
    decode(llrs.data(), count, bits.data(), status ? status->data() : nullptr);
}

int subblocks_for_length(int K, int length)
{
    for (int w = std::max(1, length); w < K; ++w)
        if (K % w == 0)
            return K / w;
    return 1;
}

std::unique_ptr<decoder> make_decoder(const decoder_config& config,
                                      std::string_view backend)
{
    config.validate();
    const core::backend_choice choice = core::resolve_backend(backend);
    if (!choice.reason.empty())
        core::log("backend " + std::string(backend) + " chose the CPU: " + choice.reason);
    switch (choice.kind) {
    case core::backend::cuda:
#ifdef GPUTURBO_HAVE_CUDA
        return cuda::make_cuda_decoder(config);
#else
        break; // resolve_backend() has thrown
#endif
    case core::backend::cpu:
        return std::make_unique<cpu::cpu_decoder>(config, cpu::best_kernel());
    case core::backend::reference:
        return std::make_unique<cpu::cpu_decoder>(config, cpu::reference_kernel());
    }
    throw std::logic_error("make_decoder: unhandled backend");
}

} // namespace gputurbo::turbo
