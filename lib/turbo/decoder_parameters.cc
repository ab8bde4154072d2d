/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decoder_parameters.h"

#include <gnuradio/gputurbo/engine/core/parameters.h>

namespace gr {
namespace gputurbo {

::gputurbo::turbo::decoder_config decoder_parameters(const std::string& algorithm,
                                                     int iterations,
                                                     float scaling,
                                                     int subblocks,
                                                     const std::string& guard,
                                                     int guard_window,
                                                     const std::string& early_stop,
                                                     float stop_threshold,
                                                     const std::string& layout,
                                                     const std::string& llr_sign,
                                                     int threads,
                                                     const std::string& devices,
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
    // The engine reads L = ln P(0)/P(1): a positive-one input is negated on the way in.
    config.invert_llr = ::gputurbo::core::positive_means_one(llr_sign);
    config.threads = threads;
    config.devices = devices;
    config.cuda_arithmetic = ::gputurbo::turbo::parse_arithmetic(arithmetic);
    config.validate();
    return config;
}

} // namespace gputurbo
} // namespace gr
