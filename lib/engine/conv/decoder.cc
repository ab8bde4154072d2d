/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu/cpu_decoder.h"
#include "reference_decoder.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <stdexcept>
#include <string>

namespace gputurbo::conv {
namespace {

void check_puncturing(const puncturing& p, int outputs)
{
    if (p.none())
        return;
    if (int(p.keep.size()) != outputs)
        throw std::invalid_argument("puncturing has " + std::to_string(p.keep.size()) +
                                    " patterns for a code of " + std::to_string(outputs) +
                                    " outputs");
    for (const auto& pattern : p.keep) {
        if (pattern.size() != p.keep[0].size())
            throw std::invalid_argument("puncturing patterns have unequal lengths");
        for (std::uint8_t keep : pattern)
            if (keep > 1)
                throw std::invalid_argument("puncturing pattern values are 0 or 1, not " +
                                            std::to_string(keep));
    }
    if (p.kept_per_period(outputs) == 0)
        throw std::invalid_argument("puncturing keeps no coded bit");
}

} // namespace

void viterbi_config::validate() const
{
    generator.validate();
    check_puncturing(punctured, generator.outputs());
    core::check(parameter("int8_scale"), int8_scale);
    core::check(parameter("threads"), threads);
}

std::unique_ptr<core::batch_decoder> make_viterbi_decoder(const viterbi_config& config,
                                                          const std::string& backend)
{
    config.validate();
    // It needs path metrics kept across calls, which no decoder has yet.
    if (config.mode == termination::streaming)
        throw std::invalid_argument(
            "termination streaming is not supported by this decoder yet");
    if (backend == "reference")
        return std::make_unique<reference_decoder>(config, core::backend::reference);
    if (backend == "cpu" || backend == "auto")
        return std::make_unique<cpu::cpu_decoder>(config, cpu::best_kernel());
    if (backend == "cuda")
        throw std::invalid_argument(
            "backend 'cuda' has no Viterbi decoder yet: use auto, cpu or reference");
    throw std::invalid_argument("unknown backend '" + backend +
                                "': use auto, cpu or reference");
}

} // namespace gputurbo::conv
