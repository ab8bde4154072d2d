/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_BACKEND_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_BACKEND_H

/*!
 * \file backend.h
 * \brief Where a decoder runs: the backend names every family's factory takes, the one
 *        resolver that turns a name into a backend (and says why), and the engine's log.
 */

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gputurbo::core {

/*!
 * \brief The engine's backends.
 *  - cpu: SIMD over codewords on every core.
 *  - reference: the exact single-lane CPU implementation the others are tested against.
 *  - cuda: NVIDIA GPUs.
 */
enum class backend { cpu, reference, cuda };

const char* to_string(backend b); //!< "cpu", "reference", "cuda"

//! A resolved backend name: the backend, and why it was chosen when that is not obvious
//! (auto falling back to the CPU says what stopped CUDA).
struct backend_choice
{
    backend kind;
    std::string reason;
};

/*!
 * \brief Resolves "auto", "cpu", "reference" or "cuda" for a decoder on \p devices
 * (CUDA devices: "all", or a list such as "0" or "0,1").
 *
 * "auto" is CUDA when this build has it and every one of those GPUs can run this
 * build's kernels, else the CPU, with the reason. Throws std::invalid_argument for an
 * unknown name and std::runtime_error, with the reason, for "cuda" where CUDA cannot
 * run.
 */
backend_choice resolve_backend(std::string_view name, const std::string& devices = "all");

//! The backend a family's factory builds: resolve_backend(), and when auto falls back to
//! the CPU, the reason logged.
backend choose_backend(std::string_view name, const std::string& devices);

struct parameter;

//! Throws std::invalid_argument unless \p devices, the value of \p p, is "all" or GPU
//! indices such as 0 or 0,1.
void check_devices(const parameter& p, const std::string& devices);

//! Why the CUDA backend cannot run on \p devices ("" when it can): no CUDA in this
//! build, no NVIDIA driver, no GPU, no such device, or a GPU this build has no kernels
//! for.
std::string cuda_unavailable_reason(const std::string& devices = "all");

//! Backends this build and machine can run now ("cpu", "reference", and "cuda").
std::vector<std::string> available_backends();

/*!
 * \brief The engine's messages (one line each, e.g. why "auto" chose the CPU) go to this
 * sink; by default to stderr. The GNU Radio blocks route them to GNU Radio's logger.
 * Pass an empty function to restore the default.
 */
void set_log_sink(std::function<void(const std::string&)> sink);

//! Sends one message to the sink.
void log(const std::string& message);

} // namespace gputurbo::core

#endif
