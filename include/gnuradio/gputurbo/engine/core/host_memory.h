/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_HOST_MEMORY_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_HOST_MEMORY_H

/*!
 * \file host_memory.h
 * \brief Host memory that the CUDA backend's DMA engines read and write directly.
 */

#include <cstddef>
#include <type_traits>
#include <utility>

namespace gputurbo::core {

//! Host memory for host_buffer: page-locked when CUDA can give it (page_locked is set),
//! else ordinary; zero-filled. release_host_memory() frees either kind.
void* allocate_host_memory(std::size_t bytes, bool& page_locked);
void release_host_memory(void* p, bool page_locked) noexcept;

/*!
 * \brief Page-locks memory allocated elsewhere (e.g. a GNU Radio buffer), so that the
 * CUDA backend's DMA engines read it directly, as they read a host_buffer. Returns false,
 * and changes nothing, without a usable GPU or when the memory cannot be locked. Undo it
 * with unregister_host_memory(p) before the memory is freed.
 */
bool register_host_memory(void* p, std::size_t bytes);
void unregister_host_memory(void* p) noexcept;

/*!
 * \brief Host memory that the CUDA backend's DMA engines read and write directly.
 *
 * decode() on the CUDA backend copies LLRs from ordinary (pageable) memory into
 * page-locked staging buffers before they cross the bus, and bits back out of them: two
 * host copies that cost about half of the end-to-end rate. LLRs and bits held in a
 * host_buffer skip them (decode() detects page-locked memory by itself, however it was
 * allocated). Without a usable GPU a host_buffer is ordinary memory. Zero-filled,
 * move-only; allocating one is slow (milliseconds): keep it.
 */
template <class T>
class host_buffer
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    host_buffer() = default;
    explicit host_buffer(std::size_t count)
    {
        d_data = static_cast<T*>(allocate_host_memory(count * sizeof(T), d_page_locked));
        d_size = count;
    }
    host_buffer(host_buffer&& other) noexcept { swap(other); }
    host_buffer& operator=(host_buffer&& other) noexcept
    {
        host_buffer(std::move(other)).swap(*this);
        return *this;
    }
    ~host_buffer() { release_host_memory(d_data, d_page_locked); }

    T* data() { return d_data; }
    const T* data() const { return d_data; }
    std::size_t size() const { return d_size; }
    T* begin() { return d_data; }
    T* end() { return d_data + d_size; }
    const T* begin() const { return d_data; }
    const T* end() const { return d_data + d_size; }
    T& operator[](std::size_t i) { return d_data[i]; }
    const T& operator[](std::size_t i) const { return d_data[i]; }
    bool page_locked() const { return d_page_locked; }

private:
    void swap(host_buffer& other) noexcept
    {
        std::swap(d_data, other.d_data);
        std::swap(d_size, other.d_size);
        std::swap(d_page_locked, other.d_page_locked);
    }
    T* d_data = nullptr;
    std::size_t d_size = 0;
    bool d_page_locked = false;
};

} // namespace gputurbo::core

#endif
