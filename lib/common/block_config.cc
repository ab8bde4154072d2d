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

void check_max_batch(int max_batch)
{
    ::gputurbo::core::check(::gputurbo::turbo::parameter("max_batch"), max_batch);
}

void check_batches_in_flight(int batches_in_flight)
{
    ::gputurbo::core::check(::gputurbo::turbo::parameter("batches_in_flight"),
                            batches_in_flight);
}

bool parse_input_type(const std::string& input_type)
{
    return ::gputurbo::turbo::parse_input_type(input_type);
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
    config.K = 0;
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
    config.validate();
    return config;
}

} // namespace gputurbo
} // namespace gr
