/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "locked_input.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gputurbo/engine/core/host_memory.h>

namespace gr {
namespace gputurbo {
namespace common {

void locked_input::lock(gr::block& block, gr::logger_ptr logger)
{
    unlock();
    const auto detail = block.detail();
    if (!detail || detail->ninputs() == 0)
        return;
    const auto buffer = detail->input(0)->buffer();
    void* base = const_cast<char*>(buffer->base());
    const std::size_t bytes =
        std::size_t(buffer->bufsize()) * buffer->get_sizeof_item() * 2;
    if (::gputurbo::core::register_host_memory(base, bytes)) {
        d_base = base;
        logger->debug("input buffer page-locked ({:d} bytes)", bytes);
    } else
        logger->debug("could not page-lock the input buffer: the GPU's copies go "
                      "through a staging copy");
}

void locked_input::unlock()
{
    if (d_base)
        ::gputurbo::core::unregister_host_memory(d_base);
    d_base = nullptr;
}

} // namespace common
} // namespace gputurbo
} // namespace gr
