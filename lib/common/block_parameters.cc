/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_parameters.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {
const ::gputurbo::core::parameter& block_parameter(const char* name)
{
    return ::gputurbo::core::find_parameter(::gputurbo::core::block_parameters(), name);
}
} // namespace

void check_max_batch(int max_batch)
{
    ::gputurbo::core::check(block_parameter("max_batch"), max_batch);
}

void check_batches_in_flight(int batches_in_flight)
{
    ::gputurbo::core::check(block_parameter("batches_in_flight"), batches_in_flight);
}

int batches_in_flight_for(int batches_in_flight, bool stream)
{
    check_batches_in_flight(batches_in_flight);
    return batches_in_flight > 0 ? batches_in_flight : stream ? 4 : 2;
}

int pdu_batch_for(int max_batch, ::gputurbo::core::backend kind)
{
    check_max_batch(max_batch);
    return max_batch > 0                             ? max_batch
           : kind == ::gputurbo::core::backend::cuda ? 1024
                                                     : 64;
}

void check_output(::gputurbo::core::soft_output output,
                  const ::gputurbo::core::batch_decoder& engine)
{
    if (output == ::gputurbo::core::soft_output::none || engine.gives_soft(output))
        return;
    const auto& choices = block_parameter("output").choices;
    std::string given = choices.front();
    for (std::size_t k = 1; k < choices.size(); ++k)
        if (engine.gives_soft(::gputurbo::core::soft_output(k)))
            given += " or " + choices[k];
    throw std::invalid_argument("output=" + choices[std::size_t(output)] + ": the " +
                                engine.backend() +
                                " backend of this decoder does not give it: use "
                                "output=" +
                                given);
}

int max_batch_for(int input_length)
{
    return std::min(::gputurbo::core::max_batch_limit,
                    max_batch_items / std::max(input_length, 1));
}

} // namespace gputurbo
} // namespace gr
