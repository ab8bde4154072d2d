/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_ENGINE_LOG_H
#define INCLUDED_GPUTURBO_COMMON_ENGINE_LOG_H

namespace gr {
namespace gputurbo {

//! Sends the engine's messages (core::log(), e.g. why "auto" chose the CPU) to GNU
//! Radio's logger as "gputurbo" instead of stderr. Idempotent; the blocks call it before
//! they make an engine.
void route_engine_log();

} // namespace gputurbo
} // namespace gr

#endif
