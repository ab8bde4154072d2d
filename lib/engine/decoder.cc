/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu/cpu_decoder.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/cuda_decoder.h"
#endif

#include <gnuradio/gputurbo/engine/decoder.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gputurbo {
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
    lte::qpp(K); // throws for an invalid K
    check_iterations(iterations);
    if (subblocks < 0 || (subblocks > 0 && K % subblocks != 0))
        throw std::invalid_argument("subblocks P=" + std::to_string(subblocks) +
                                    " must divide K=" + std::to_string(K) +
                                    " (or be 0: automatic)");
    const bool windowed = guarding == guard::dstw || guarding == guard::pividstw;
    if (subblocks > 1 && windowed && (guard_window < 1 || guard_window > K / subblocks))
        throw std::invalid_argument("guard_window g=" + std::to_string(guard_window) +
                                    " is out of range for " + to_string(guarding) +
                                    ": use 1 ... K/P = " + std::to_string(K / subblocks));
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
}

decoder::decoder(const decoder_config& config) : d_config(config) { d_config.validate(); }

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

void quantize_llrs(const float* llrs, std::size_t n, std::int8_t* out, float scale)
{
    for (std::size_t i = 0; i < n; ++i) { // plain arithmetic: the compiler vectorises it
        float v = llrs[i] * scale;
        v = v > 127.0f ? 127.0f : (v < -127.0f ? -127.0f : v);
        v = v == v ? v : 0.0f;
        out[i] = std::int8_t(int(v + (v >= 0.0f ? 0.5f : -0.5f)));
    }
}

void decoder::decode(const float* llrs,
                     std::size_t n_codewords,
                     std::uint8_t* bits,
                     codeword_status* status)
{
    if (n_codewords == 0)
        return;
    if (!llrs || !bits)
        throw std::invalid_argument("decode: null input or output buffer");
    decode_batch(llr_input{ llrs, nullptr }, n_codewords, bits, status);
}

void decoder::decode(const std::int8_t* llrs,
                     std::size_t n_codewords,
                     std::uint8_t* bits,
                     codeword_status* status)
{
    if (n_codewords == 0)
        return;
    if (!llrs || !bits)
        throw std::invalid_argument("decode: null input or output buffer");
    decode_batch(llr_input{ nullptr, llrs }, n_codewords, bits, status);
}

decoder::ticket decoder::submit(const float* llrs, std::size_t n_codewords)
{
    if (!llrs && n_codewords > 0)
        throw std::invalid_argument("submit: null input buffer");
    return submit_batch(llr_input{ llrs, nullptr }, n_codewords);
}

decoder::ticket decoder::submit(const std::int8_t* llrs, std::size_t n_codewords)
{
    if (!llrs && n_codewords > 0)
        throw std::invalid_argument("submit: null input buffer");
    return submit_batch(llr_input{ nullptr, llrs }, n_codewords);
}

void decoder::collect(ticket t, std::uint8_t* bits, codeword_status* status)
{
    collect_batch(t, bits, status);
}

decoder::ticket decoder::submit_batch(const llr_input& llrs, std::size_t n_codewords)
{
    if (d_finished.size() >= std::size_t(max_in_flight))
        throw std::runtime_error("submit: " + std::to_string(max_in_flight) +
                                 " batches are in flight: collect one first");
    finished result;
    result.bits.resize(n_codewords * d_config.K);
    result.status.resize(n_codewords);
    if (n_codewords > 0)
        decode_batch(llrs, n_codewords, result.bits.data(), result.status.data());
    d_finished.emplace(++d_last_ticket, std::move(result));
    return d_last_ticket;
}

void decoder::collect_batch(ticket t, std::uint8_t* bits, codeword_status* status)
{
    const auto it = d_finished.find(t);
    if (it == d_finished.end())
        throw std::invalid_argument("collect: ticket " + std::to_string(t) +
                                    " is unknown or already collected");
    if (!it->second.bits.empty() && !bits)
        throw std::invalid_argument("collect: null output buffer");
    std::copy(it->second.bits.begin(), it->second.bits.end(), bits);
    if (status)
        std::copy(it->second.status.begin(), it->second.status.end(), status);
    d_finished.erase(it);
}

const float* decoder::as_float(const llr_input& llrs, std::size_t n_codewords)
{
    if (llrs.f32)
        return llrs.f32;
    const std::size_t n = n_codewords * lte::codeword_length(d_config.K);
    const float inverse = 1.0f / d_config.int8_scale;
    d_dequantized.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        d_dequantized[i] = float(llrs.i8[i]) * inverse;
    return d_dequantized.data();
}

void decoder::decode(const std::vector<float>& llrs,
                     std::vector<std::uint8_t>& bits,
                     std::vector<codeword_status>* status)
{
    const std::size_t n = lte::codeword_length(d_config.K);
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

namespace {

// Why "cuda" cannot be used here, or "" when it can.
std::string cuda_unavailable()
{
#ifdef GPUTURBO_HAVE_CUDA
    return cuda::unavailable_reason();
#else
    return "this build of gr-gputurbo has no CUDA engine (configured without a CUDA "
           "compiler)";
#endif
}

} // namespace

void* allocate_host_memory(std::size_t bytes, bool& page_locked)
{
    page_locked = false;
    if (bytes == 0)
        return nullptr;
    void* p = nullptr;
#ifdef GPUTURBO_HAVE_CUDA
    if (cuda_unavailable().empty())
        p = cuda::allocate_page_locked(bytes);
#endif
    page_locked = p != nullptr;
    if (!p)
        p = std::malloc(bytes);
    if (!p)
        throw std::bad_alloc();
    std::memset(p, 0, bytes);
    return p;
}

void release_host_memory(void* p, bool page_locked) noexcept
{
#ifdef GPUTURBO_HAVE_CUDA
    if (page_locked) {
        cuda::free_page_locked(p);
        return;
    }
#endif
    std::free(p);
}

bool register_host_memory(void* p, std::size_t bytes)
{
#ifdef GPUTURBO_HAVE_CUDA
    if (p && bytes > 0 && cuda_unavailable().empty())
        return cuda::register_page_locked(p, bytes);
#endif
    return false;
}

void unregister_host_memory(void* p) noexcept
{
#ifdef GPUTURBO_HAVE_CUDA
    cuda::unregister_page_locked(p);
#endif
}

std::vector<std::string> available_backends()
{
    std::vector<std::string> have{ "cpu", "reference" };
    if (cuda_unavailable().empty())
        have.push_back("cuda");
    return have;
}

int subblocks_for_length(int K, int length)
{
    for (int w = std::max(1, length); w < K; ++w)
        if (K % w == 0)
            return K / w;
    return 1;
}

std::unique_ptr<decoder> make_decoder(const decoder_config& requested,
                                      std::string_view backend)
{
    requested.validate();
    decoder_config config = requested;
    const bool cuda =
        backend == "cuda" || (backend == "auto" && cuda_unavailable().empty());
    // One GPU thread per sub-block: the CUDA kernels want many short ones; the CPU
    // decodes codewords side by side and is most accurate with one.
    if (config.subblocks == 0)
        config.subblocks =
            cuda ? subblocks_for_length(config.K, cuda_subblock_length) : 1;
    if (cuda) {
#ifdef GPUTURBO_HAVE_CUDA
        if (cuda_unavailable().empty())
            return cuda::make_cuda_decoder(config);
#endif
        throw std::runtime_error("backend 'cuda' is not available: " +
                                 cuda_unavailable() + "; use 'auto' or 'cpu'");
    }
    if (backend == "auto" || backend == "cpu")
        return std::make_unique<cpu::cpu_decoder>(
            config, cpu::best_kernel(), config.threads);
    if (backend == "reference")
        return std::make_unique<cpu::cpu_decoder>(config, cpu::kernel_scalar, 1);
    throw std::invalid_argument("unknown backend '" + std::string(backend) +
                                "': use auto, cpu, cuda or reference");
}

} // namespace gputurbo
