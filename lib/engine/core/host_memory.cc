/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/core/host_memory.h>
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/runtime.h"
#endif

#include <cstdlib>
#include <cstring>
#include <new>

namespace gputurbo::core {

void* allocate_host_memory(std::size_t bytes, bool& page_locked)
{
    page_locked = false;
    if (bytes == 0)
        return nullptr;
    void* p = nullptr;
#ifdef GPUTURBO_HAVE_CUDA
    if (cuda::driver_reason().empty()) // any GPU: the memory is the host's
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
    (void)page_locked;
    std::free(p);
}

bool register_host_memory(void* p, std::size_t bytes)
{
#ifdef GPUTURBO_HAVE_CUDA
    if (p && bytes > 0 && cuda::driver_reason().empty())
        return cuda::register_page_locked(p, bytes);
#endif
    (void)p;
    (void)bytes;
    return false;
}

void unregister_host_memory(void* p) noexcept
{
#ifdef GPUTURBO_HAVE_CUDA
    cuda::unregister_page_locked(p);
#endif
    (void)p;
}

} // namespace gputurbo::core
