/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_PARAMETERS_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_PARAMETERS_H

/*!
 * \file parameters.h
 * \brief The transport channel's own parameters (core/parameters.h): the fields of
 *        transport_format that a transport block may leave to a default (Qm, layers,
 *        rv, soft_buffer, c_init; the defaults are transport_format's member
 *        initialisers) and transport_config's early_stop and max_harq_processes. The
 *        turbo decoder's are in turbo/parameters.h. The DL-SCH PDU blocks check their
 *        defaults against this table, and their GRC asserts are tested against it;
 *        transport_format::validate() and make_transport_decoder() accept the same
 *        values (tested). The control channel's (control_parameters()) are those a
 *        PDCCH subframe's cell and search may leave to a default.
 */

#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <string_view>
#include <vector>

namespace gputurbo::lte {

//! Every parameter: Qm, layers, rv, soft_buffer, c_init, early_stop,
//! max_harq_processes.
const std::vector<core::parameter>& transport_parameters();

//! The parameter of that name; std::logic_error for a name the table lacks.
const core::parameter& transport_parameter(std::string_view name);

/*!
 * \brief Checks a value of an integer parameter of the table: its range, and for Qm the
 * modulation orders; std::invalid_argument "rv=4 is out of range: use 0 ... 3".
 */
void check_transport_value(std::string_view name, long value);

/*!
 * \brief The control channel's parameters: the cell of a PDCCH subframe (control_region's
 * n_prb, cfi, antenna_ports, ng and phich_mi; duplex; cell_id, the scrambling's
 * N_ID^cell), its subframe index, whether its LLRs come scrambled (descramble: the
 * receiver runs descramble_pdcch() first), and pdcch_search_options' mode,
 * min_correlation and max_false_alarm. The defaults are those structs' member
 * initialisers, and cce_count(), pdcch_c_init() and pdcch_searcher::search() accept the
 * same values (tested).
 */
const std::vector<core::parameter>& control_parameters();

//! The parameter of that name; std::logic_error for a name the table lacks.
const core::parameter& control_parameter(std::string_view name);

/*!
 * \brief Checks a value of an integer parameter of control_parameters(), as the engine
 * words it: std::invalid_argument "cfi=4 is out of range: use 1 ... 3",
 * "antenna_ports=3 is out of range: use 1, 2 or 4".
 */
void check_control_value(std::string_view name, long value);

} // namespace gputurbo::lte

#endif
