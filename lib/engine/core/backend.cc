/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include "names.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/runtime.h"
#endif

#include <iostream>
#include <mutex>
#include <stdexcept>

namespace gputurbo::core {
namespace {

std::mutex log_mutex;
std::function<void(const std::string&)> log_sink;

} // namespace

const char* to_string(backend b)
{
    static const std::pair<const char*, backend> names[] = {
        { "cpu", backend::cpu },
        { "reference", backend::reference },
        { "cuda", backend::cuda },
    };
    return name_of(b, names);
}

std::string cuda_unavailable_reason(const std::string& devices)
{
#ifdef GPUTURBO_HAVE_CUDA
    return cuda::unavailable_reason(devices);
#else
    (void)devices;
    return "this build of gr-gputurbo has no CUDA engine (configured without a CUDA "
           "compiler)";
#endif
}

std::vector<std::string> available_backends()
{
    std::vector<std::string> have{ "cpu", "reference" };
    if (cuda_unavailable_reason().empty())
        have.push_back("cuda");
    return have;
}

void check_devices(const parameter& p, const std::string& d)
{
    const bool valid =
        d == "all" ||
        (!d.empty() && d.find_first_not_of("0123456789,") == std::string::npos &&
         d.front() != ',' && d.back() != ',' && d.find(",,") == std::string::npos);
    if (!valid)
        throw std::invalid_argument(
            assignment(p, "'" + d + "'") +
            " is invalid: use GPU indices such as 0 or 0,1, or all");
}

backend_choice resolve_backend(std::string_view name, const std::string& devices)
{
    if (name == "cpu")
        return { backend::cpu, "" };
    if (name == "reference")
        return { backend::reference, "" };
    if (name != "auto" && name != "cuda")
        throw std::invalid_argument("unknown backend '" + std::string(name) +
                                    "': use auto, cpu, cuda or reference");
    const std::string why = cuda_unavailable_reason(devices);
    if (why.empty())
        return { backend::cuda, "" };
    if (name == "cuda")
        throw std::runtime_error("backend 'cuda' is not available: " + why +
                                 "; use 'auto' or 'cpu'");
    return { backend::cpu, why };
}

backend choose_backend(std::string_view name, const std::string& devices)
{
    const backend_choice choice = resolve_backend(name, devices);
    if (!choice.reason.empty())
        log("backend " + std::string(name) + " chose the CPU: " + choice.reason);
    return choice.kind;
}

void set_log_sink(std::function<void(const std::string&)> sink)
{
    std::lock_guard<std::mutex> lock(log_mutex);
    log_sink = std::move(sink);
}

void log(const std::string& message)
{
    std::lock_guard<std::mutex> lock(log_mutex);
    if (log_sink)
        log_sink(message);
    else
        std::cerr << "gr-gputurbo: " << message << std::endl;
}

} // namespace gputurbo::core
