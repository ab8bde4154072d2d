/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The backend resolver: what "auto" chooses where CUDA cannot run, and that it says why.

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace gputurbo;

namespace {

// Captures the engine's log for the life of the object.
struct captured_log
{
    std::vector<std::string> lines;
    captured_log()
    {
        core::set_log_sink([this](const std::string& m) { lines.push_back(m); });
    }
    ~captured_log() { core::set_log_sink({}); }
};

bool cuda_driver_installed() { return dlopen("libcuda.so.1", RTLD_LAZY) != nullptr; }

} // namespace

TEST(BackendChoice, NamesResolveAndUnknownOnesThrow)
{
    EXPECT_EQ(core::resolve_backend("cpu").kind, core::backend::cpu);
    EXPECT_EQ(core::resolve_backend("reference").kind, core::backend::reference);
    EXPECT_THROW(core::resolve_backend("gpu"), std::invalid_argument);
    const auto have = core::available_backends();
    const bool cuda = std::find(have.begin(), have.end(), "cuda") != have.end();
    EXPECT_EQ(core::resolve_backend("auto").kind,
              cuda ? core::backend::cuda : core::backend::cpu);
    EXPECT_EQ(cuda, core::cuda_unavailable_reason().empty());
}

// A GPU this build has no kernels for: every GPU is made to look like compute
// capability 7.0 (Volta), older than any architecture this build compiles for.
TEST(BackendChoice, AutoFallsBackToTheCpuWithTheReasonLogged)
{
    setenv("GPUTURBO_CUDA_ASSUME_CC", "7.0", 1);
    captured_log log;
    turbo::decoder_config c;
    c.K = 40;
    const auto dec = turbo::make_decoder(c, "auto");
    const std::string why = core::cuda_unavailable_reason();
    std::string cuda_error;
    try {
        turbo::make_decoder(c, "cuda");
    } catch (const std::runtime_error& e) {
        cuda_error = e.what();
    }
    unsetenv("GPUTURBO_CUDA_ASSUME_CC");

    EXPECT_EQ(dec->backend(), "cpu");
    ASSERT_EQ(log.lines.size(), 1u) << "one line saying why";
    EXPECT_NE(log.lines[0].find("chose the CPU: " + why), std::string::npos)
        << log.lines[0];
    EXPECT_NE(cuda_error.find(why), std::string::npos) << cuda_error;
    std::printf("  logged: %s\n", log.lines[0].c_str());
#ifdef GPUTURBO_HAVE_CUDA
    if (cuda_driver_installed() && core::cuda_unavailable_reason().empty()) {
        // A GPU is here: the reason is the architecture, with the device named.
        EXPECT_NE(why.find("compute capability 7.0"), std::string::npos) << why;
        EXPECT_NE(why.find("cannot run this build"), std::string::npos) << why;
    }
#endif
}

#ifdef GPUTURBO_HAVE_CUDA
TEST(BackendChoice, NoDriverIsSaidInSoManyWords)
{
    if (cuda_driver_installed())
        GTEST_SKIP() << "SKIPPED: an NVIDIA driver is installed here";
    const std::string why = core::cuda_unavailable_reason();
    EXPECT_NE(why.find("no NVIDIA driver"), std::string::npos) << why;
    EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
}
#endif
