/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CONFIG_MEMBERS_H
#define INCLUDED_GPUTURBO_TURBO_CONFIG_MEMBERS_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

namespace gputurbo::turbo {

//! Calls visit(name, member) for each decoder_config member under its parameter's name
//! (turbo/parameters.h), for the code that treats them alike: validation, text values.
//! Config is decoder_config or const decoder_config.
template <class Config, class Visit>
void for_each_member(Config& c, Visit&& visit)
{
    visit("K", c.K);
    visit("iterations", c.iterations);
    visit("algorithm", c.algo);
    visit("scaling", c.scaling);
    visit("subblocks", c.subblocks);
    visit("guard", c.guarding);
    visit("guard_window", c.guard_window);
    visit("early_stop", c.early_stop);
    visit("stop_threshold", c.stop_threshold);
    visit("layout", c.input_layout);
    visit("invert_llr", c.invert_llr);
    visit("threads", c.threads);
    visit("devices", c.devices);
    visit("arithmetic", c.cuda_arithmetic);
    visit("int8_scale", c.int8_scale);
}

} // namespace gputurbo::turbo

#endif
