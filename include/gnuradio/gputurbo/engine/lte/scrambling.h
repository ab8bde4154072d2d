/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_SCRAMBLING_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_SCRAMBLING_H

/*!
 * \file scrambling.h
 * \brief The pseudo-random sequence of 3GPP TS 36.211 §7.2 (a length-31 Gold sequence)
 *        that scrambles the bits of a codeword (§6.3.1, §5.3.1).
 */

#include <cstddef>
#include <cstdint>

namespace gputurbo::lte {

//! The largest c_init (31 bits).
constexpr long max_c_init = (1L << 31) - 1;

//! The largest physical cell identity N_ID^cell (36.211 §6.11), which seeds the
//! sequences of the PBCH and the PDCCH (pbch.h, pdcch.h).
constexpr int max_cell_id = 503;

/*!
 * \brief c(0) … c(n-1) of the sequence of \p c_init (0 … max_c_init), one bit per byte:
 * c(k) = x1(k + 1600) + x2(k + 1600) mod 2, x1 started at 1, x2 at c_init.
 */
void scrambling_sequence(long c_init, std::size_t n, std::uint8_t* c);

} // namespace gputurbo::lte

#endif
