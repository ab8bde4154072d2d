/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "../common/block_config.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

void check_max_batch(int max_batch, const char* unit)
{
    if (max_batch < 0 || max_batch > max_batch_limit)
        throw std::invalid_argument(
            "max_batch=" + std::to_string(max_batch) + " is out of range: use 1 ... " +
            std::to_string(max_batch_limit) + " " + unit + ", or 0 (automatic)");
}

int max_batch_for(int input_length)
{
    return std::min(max_batch_limit, max_batch_items / std::max(input_length, 1));
}

::gputurbo::turbo::decoder_config decoder_parameters(const std::string& algorithm,
                                                     int iterations,
                                                     float scaling,
                                                     int subblocks,
                                                     const std::string& guard,
                                                     int guard_window,
                                                     const std::string& early_stop,
                                                     float stop_threshold,
                                                     const std::string& layout,
                                                     bool invert_llr,
                                                     int threads,
                                                     const std::string& arithmetic)
{
    ::gputurbo::turbo::decoder_config config;
    config.algo = ::gputurbo::turbo::parse_algorithm(algorithm);
    config.scaling = scaling;
    config.iterations = iterations;
    config.subblocks = subblocks;
    config.guarding = ::gputurbo::turbo::parse_guard(guard);
    config.guard_window = guard_window;
    config.early_stop = ::gputurbo::turbo::parse_stop_rule(early_stop);
    config.stop_threshold = stop_threshold;
    config.input_layout = ::gputurbo::turbo::parse_layout(layout);
    config.invert_llr = invert_llr;
    config.threads = threads;
    config.cuda_arithmetic = ::gputurbo::turbo::parse_arithmetic(arithmetic);
    return config;
}

} // namespace gputurbo
} // namespace gr
