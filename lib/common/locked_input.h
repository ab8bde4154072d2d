/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_LOCKED_INPUT_H
#define INCLUDED_GPUTURBO_COMMON_LOCKED_INPUT_H

#include <gnuradio/block.h>
#include <gnuradio/logger.h>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief A block's input buffer page-locked while the flowgraph runs, so that the GPU
 * reads LLRs straight from it by DMA, without a staging copy through the CPU. The
 * buffer is mapped twice in a row (a read may run into the second copy), so both
 * copies are locked. Where it cannot be locked, copies are staged as usual.
 */
class locked_input
{
public:
    locked_input() = default;
    locked_input(const locked_input&) = delete;
    locked_input& operator=(const locked_input&) = delete;
    ~locked_input() { unlock(); }

    //! Locks input 0 of \p block (at start(), once GNU Radio has made the buffers).
    void lock(gr::block& block, gr::logger_ptr logger);
    void unlock();

private:
    void* d_base = nullptr;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
