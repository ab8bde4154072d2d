/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_FAILURE_LOG_H
#define INCLUDED_GPUTURBO_COMMON_FAILURE_LOG_H

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief Counts repeated failures (PDUs or frames a block could not decode) and says
 * which to log, so that a stream of bad input cannot flood the log: the first
 * first_lines failures get a line each, the later ones one summary line at most once a
 * second, with how many happened since the last line and the latest reason. The count is
 * exact; flush() gives the summary of those not reported yet (for the end of a run).
 */
class failure_log
{
public:
    static constexpr std::uint64_t first_lines = 10;

    //! \param what the failure, starting each line: "PDU not decoded"
    explicit failure_log(std::string what) : d_what(std::move(what)) {}

    //! Counts one failure; returns the line to log now, if any.
    std::optional<std::string> count(const std::string& reason);

    //! The summary line of the failures not reported yet, if any.
    std::optional<std::string> flush();

    //! Failures counted so far.
    std::uint64_t total() const { return d_total; }

private:
    std::string summary();

    const std::string d_what;
    std::uint64_t d_total = 0;
    std::uint64_t d_unreported = 0;
    std::string d_last_reason;
    std::chrono::steady_clock::time_point d_last_line;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
