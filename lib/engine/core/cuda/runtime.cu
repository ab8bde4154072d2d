/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "error.h"
#include "runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#ifndef GPUTURBO_CUDA_ARCHITECTURES
#error "the build passes GPUTURBO_CUDA_ARCHITECTURES (CMAKE_CUDA_ARCHITECTURES)"
#endif

namespace gputurbo::core::cuda {
namespace {

// One entry of CMAKE_CUDA_ARCHITECTURES (here comma-separated): "90" is SASS and PTX,
// "90-real" SASS alone, "90-virtual" PTX alone. Architecture-specific ones ("90a",
// "100f") run on that architecture (family) only.
struct architecture
{
    int cc; // 10 * major + minor
    bool sass, ptx;
    bool specific;
};

std::vector<architecture> parse_architectures()
{
    std::vector<architecture> list;
    std::istringstream in(GPUTURBO_CUDA_ARCHITECTURES);
    std::string item;
    while (std::getline(in, item, ',')) {
        const std::size_t dash = item.find('-');
        const std::string kind = dash == std::string::npos ? "" : item.substr(dash + 1);
        char* end = nullptr;
        const int cc = int(std::strtol(item.c_str(), &end, 10));
        const bool specific = end && (*end == 'a' || *end == 'f');
        if (cc > 0)
            list.push_back({ cc, kind != "virtual", kind != "real", specific });
    }
    return list;
}

// Parsed once: the list is fixed at build time.
const std::vector<architecture>& built_architectures()
{
    static const std::vector<architecture> list = parse_architectures();
    return list;
}

// SASS for X.Y runs on X.Z with Z >= Y; PTX for X.Y is compiled by the driver for any
// later device. A list CMake left symbolic ("native", "all") is not checked here: a
// launch on a GPU it lacks then fails with CUDA's own error.
bool runs_on(int cc)
{
    const auto& built = built_architectures();
    if (built.empty())
        return true;
    for (const auto& a : built) {
        const bool same_major = a.cc / 10 == cc / 10;
        if (a.specific
                ? same_major && a.cc <= cc && (a.sass || a.ptx)
                : (a.sass && same_major && a.cc % 10 <= cc % 10) || (a.ptx && a.cc <= cc))
            return true;
    }
    return false;
}

// The compute capability of device d, or the one GPUTURBO_CUDA_ASSUME_CC makes it.
int compute_capability(int device)
{
    if (const char* assumed = std::getenv("GPUTURBO_CUDA_ASSUME_CC");
        assumed && *assumed) {
        const double cc = std::atof(assumed);
        return int(cc * 10.0 + 0.5);
    }
    int major = 0, minor = 0;
    GPUTURBO_CUDA_TRY(
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    GPUTURBO_CUDA_TRY(
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    return 10 * major + minor;
}

bool driver_installed()
{
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcuda.so.1", RTLD_LAZY);
    return lib != nullptr; // left loaded: the runtime uses it
}

} // namespace

void* allocate_page_locked(std::size_t bytes)
{
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError(); // not sticky: the caller falls back to ordinary memory
        return nullptr;
    }
    return p;
}

void free_page_locked(void* p) noexcept { cudaFreeHost(p); }

bool register_page_locked(void* p, std::size_t bytes)
{
    if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) != cudaSuccess) {
        cudaGetLastError(); // not sticky: the caller goes on with pageable memory
        return false;
    }
    return true;
}

void unregister_page_locked(void* p) noexcept { cudaHostUnregister(p); }

int device_count()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no device" error
        return 0;
    }
    return count;
}

std::string build_architectures()
{
    std::string sass, ptx;
    for (const auto& a : built_architectures()) {
        const std::string n = std::to_string(a.cc);
        if (a.sass)
            sass += (sass.empty() ? "sm_" : ", sm_") + n;
        if (a.ptx)
            ptx += (ptx.empty() ? "PTX for compute_" : ", compute_") + n;
    }
    if (sass.empty() && ptx.empty())
        return GPUTURBO_CUDA_ARCHITECTURES;
    return sass + (sass.empty() || ptx.empty() ? "" : " and ") + ptx;
}

std::string cannot_run_reason(int device)
{
    try {
        const int cc = compute_capability(device);
        if (runs_on(cc))
            return "";
        cudaDeviceProp prop{};
        GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
        return "GPU " + std::to_string(device) + " (" + prop.name +
               ", compute capability " + std::to_string(cc / 10) + "." +
               std::to_string(cc % 10) +
               ") cannot run this build, which has kernels for " + build_architectures();
    } catch (const cuda_error& e) {
        cudaGetLastError();
        return "GPU " + std::to_string(device) + " cannot be queried: " + e.what();
    }
}

void check_device(int device)
{
    const int count = device_count();
    if (device < 0 || device >= count)
        throw std::runtime_error("CUDA device " + std::to_string(device) +
                                 " does not exist (" + std::to_string(count) +
                                 " device(s) found)");
    if (const std::string why = cannot_run_reason(device); !why.empty())
        throw std::runtime_error(why);
}

std::string driver_and_runtime_versions()
{
    auto text = [](int v) {
        return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
    };
    int driver = 0, runtime = 0;
    GPUTURBO_CUDA_TRY(cudaDriverGetVersion(&driver));
    GPUTURBO_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
    return "CUDA driver " + text(driver) + ", runtime " + text(runtime);
}

std::string driver_reason()
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        if (e == cudaErrorInsufficientDriver && !driver_installed())
            return "no NVIDIA driver is installed (libcuda.so.1 not found)";
        return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    }
    return count > 0 ? "" : "no CUDA device found";
}

std::string unavailable_reason(const std::string& devices)
{
    if (std::string why = driver_reason(); !why.empty())
        return why;
    const int count = device_count();
    for (int d : parse_devices(devices)) {
        if (d < 0 || d >= count)
            return "CUDA device " + std::to_string(d) + " does not exist (" +
                   std::to_string(count) + " device(s) found)";
        if (std::string why = cannot_run_reason(d); !why.empty())
            return why;
    }
    return "";
}

std::vector<int> parse_devices(const std::string& text)
{
    std::vector<int> devices;
    if (text == "all") {
        for (int d = 0; d < device_count(); ++d)
            devices.push_back(d);
        return devices;
    }
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        devices.push_back(std::stoi(text.substr(at, comma - at)));
        at = comma + 1;
    }
    return devices;
}

} // namespace gputurbo::core::cuda
