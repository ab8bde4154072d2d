/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "engine_log.h"

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/logger.h>

#include <memory>
#include <mutex>

namespace gr {
namespace gputurbo {

void route_engine_log()
{
    static std::once_flag once;
    std::call_once(once, [] {
        auto logger = std::make_shared<gr::logger>("gputurbo");
        ::gputurbo::core::set_log_sink(
            [logger](const std::string& message) { logger->info("{:s}", message); });
    });
}

} // namespace gputurbo
} // namespace gr
