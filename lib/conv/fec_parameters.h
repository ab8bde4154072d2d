/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_FEC_PARAMETERS_H
#define INCLUDED_GPUTURBO_CONV_FEC_PARAMETERS_H

// gr-fec's cc_encoder/cc_decoder arguments as the engine's code and termination.

#include <gnuradio/fec/cc_common.h>
#include <gnuradio/gputurbo/engine/conv/code.h>

#include <vector>

namespace gr {
namespace gputurbo {

/*!
 * \brief The code of gr-fec's (k, rate, polys): polys in gr-fec's form, bit i tapping
 * the bit i steps old and negative where the output is inverted. std::invalid_argument
 * names what is wrong.
 */
::gputurbo::conv::code gr_fec_code(int k, int rate, const std::vector<int>& polys);

//! The termination of a cc_mode_t (std::invalid_argument for another value).
::gputurbo::conv::termination gr_fec_termination(cc_mode_t mode);

//! Values cc_encoder(padded) adds to a terminated frame: its code bits to a whole byte.
int gr_fec_padding(const ::gputurbo::conv::code& c,
                   ::gputurbo::conv::termination t,
                   bool padded);

//! std::invalid_argument unless start_state is 0.
void check_start_state(int start_state);

} // namespace gputurbo
} // namespace gr

#endif
