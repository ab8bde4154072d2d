/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decoder_parameters.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <map>

namespace gr {
namespace gputurbo {

::gputurbo::conv::viterbi_config viterbi_parameters(const std::string& preset,
                                                    int constraint,
                                                    const std::string& polys,
                                                    const std::string& puncture,
                                                    const std::string& termination,
                                                    int decision_depth,
                                                    int training_depth,
                                                    int segment_bits,
                                                    const std::string& llr_sign,
                                                    float int8_scale,
                                                    int threads,
                                                    const std::string& devices)
{
    std::map<std::string, std::string> values{
        { "preset", preset },
        { "puncture", puncture },
        { "termination", termination },
        { "decision_depth", std::to_string(decision_depth) },
        { "training_depth", std::to_string(training_depth) },
        { "segment_bits", std::to_string(segment_bits) },
        // The engine reads L = ln P(0)/P(1): positive-one input is negated on the way in.
        { "invert_llr",
          ::gputurbo::core::positive_means_one(llr_sign) ? "true" : "false" },
        { "int8_scale", ::gputurbo::core::format_real(int8_scale) },
        { "threads", std::to_string(threads) },
        { "devices", devices }
    };
    if (preset == "none") { // a preset's code overrides constraint and polys
        values["constraint"] = std::to_string(constraint);
        values["polys"] = polys;
    }
    return ::gputurbo::conv::config_from(values);
}

} // namespace gputurbo
} // namespace gr
