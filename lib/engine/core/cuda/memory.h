/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_MEMORY_H
#define INCLUDED_GPUTURBO_CORE_CUDA_MEMORY_H

// RAII for what the CUDA backends hold: device and page-locked arrays that grow to the
// largest request and are then reused, streams and events. Destructors never throw.

#include "error.h"

#include <cstddef>

namespace gputurbo::core::cuda {

namespace detail {
struct device_memory
{
    static void allocate(void** p, std::size_t bytes)
    {
        GPUTURBO_CUDA_TRY(cudaMalloc(p, bytes));
    }
    static void release(void* p) noexcept { cudaFree(p); }
};
struct page_locked_memory
{
    static void allocate(void** p, std::size_t bytes)
    {
        GPUTURBO_CUDA_TRY(cudaMallocHost(p, bytes));
    }
    static void release(void* p) noexcept { cudaFreeHost(p); }
};
} // namespace detail

template <class T, class Memory>
class growing_array
{
public:
    growing_array() = default;
    growing_array(const growing_array&) = delete;
    growing_array& operator=(const growing_array&) = delete;
    ~growing_array() { release(); }

    //! At least \p count elements; the old contents are lost when it grows.
    T* reserve(std::size_t count)
    {
        if (count > d_count) {
            release();
            void* p = nullptr;
            Memory::allocate(&p, count * sizeof(T));
            d_ptr = static_cast<T*>(p);
            d_count = count;
        }
        return d_ptr;
    }
    T* get() const { return d_ptr; }

private:
    void release() noexcept
    {
        if (d_ptr)
            Memory::release(d_ptr); // a failure here cannot be acted on
        d_ptr = nullptr;
        d_count = 0;
    }
    T* d_ptr = nullptr;
    std::size_t d_count = 0;
};

//! Device memory.
template <class T>
using device_array = growing_array<T, detail::device_memory>;
//! Page-locked host memory, so that copies run at the bus's speed and asynchronously.
template <class T>
using pinned_array = growing_array<T, detail::page_locked_memory>;

/*!
 * \brief Copies \p count elements from host to device memory and waits until they are
 * there. cudaMemcpy from pageable memory may return before its copy has landed, and
 * kernels on non-blocking streams (the pipeline's) do not wait for the default stream.
 */
template <class T>
void upload(T* device, const T* host, std::size_t count)
{
    GPUTURBO_CUDA_TRY(
        cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
    GPUTURBO_CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
}

class event
{
public:
    event() { GPUTURBO_CUDA_TRY(cudaEventCreate(&d_event)); }
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    ~event() { cudaEventDestroy(d_event); }
    operator cudaEvent_t() const { return d_event; }

private:
    cudaEvent_t d_event = nullptr;
};

class stream
{
public:
    stream()
    {
        GPUTURBO_CUDA_TRY(cudaStreamCreateWithFlags(&d_stream, cudaStreamNonBlocking));
    }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    ~stream() { cudaStreamDestroy(d_stream); }
    operator cudaStream_t() const { return d_stream; }

private:
    cudaStream_t d_stream = nullptr;
};

} // namespace gputurbo::core::cuda

#endif
