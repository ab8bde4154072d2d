/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "failure_log.h"

namespace gr {
namespace gputurbo {
namespace common {

std::optional<std::string> failure_log::count(const std::string& reason)
{
    const auto now = std::chrono::steady_clock::now();
    ++d_total;
    if (d_total <= first_lines) {
        d_last_line = now;
        std::string line = d_what + ": " + reason;
        if (d_total == first_lines)
            line += " (" + std::to_string(first_lines) +
                    " so far; the next ones are counted and summed up at most once a "
                    "second)";
        return line;
    }
    ++d_unreported;
    d_last_reason = reason;
    if (now - d_last_line < std::chrono::seconds(1))
        return std::nullopt;
    d_last_line = now;
    return summary();
}

std::optional<std::string> failure_log::flush()
{
    if (d_unreported == 0)
        return std::nullopt;
    return summary();
}

std::string failure_log::summary()
{
    std::string line = d_what + ": " + std::to_string(d_unreported) +
                       " more since the last report, " + std::to_string(d_total) +
                       " in all; the last: " + d_last_reason;
    d_unreported = 0;
    return line;
}

} // namespace common
} // namespace gputurbo
} // namespace gr
