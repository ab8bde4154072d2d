/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_SEARCH_SPACE_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_SEARCH_SPACE_H

/*!
 * \file search_space.h
 * \brief Where a subframe's PDCCH candidates are: the number of CCEs of its control
 *        region (3GPP TS 36.211 §6.8.1: the REGs of §6.2.4 that the PCFICH, §6.7, and
 *        the PHICH, §6.9, leave, nine a CCE) and the candidates of the common and
 *        UE-specific search spaces (36.213 §9.1.1), each a first CCE and an
 *        aggregation level.
 *
 * For a normal cyclic prefix and the PHICH's normal duration; no carrier indicator
 * (the UE-specific candidates of the serving cell itself).
 */

#include <cstdint>
#include <string_view>
#include <vector>

namespace gputurbo::lte {

//! The PHICH resource N_g of the MIB (36.211 §6.9).
enum class phich_resource { one_sixth, half, one, two };
const char* to_string(phich_resource ng); //!< "1/6", "1/2", "1", "2"
//! "1/6" | "1/2" | "1" | "2"; std::invalid_argument else.
phich_resource parse_phich_resource(std::string_view name);

//! A subframe's control region.
struct control_region
{
    int n_prb = 100; //!< N_RB^DL, 6 … 110
    //! The CFI the PCFICH carries, 1 … 3: the region spans cfi OFDM symbols, cfi + 1
    //! where n_prb <= 10 (36.211 Table 6.7-1).
    int cfi = 3;
    int antenna_ports = 2; //!< the cell's, 1, 2 or 4 (4 take REGs from the 2nd symbol)
    phich_resource ng = phich_resource::one;
    //! m_i, the PHICH groups' factor (36.211 §6.9): 1 in FDD; in TDD 0, 1 or 2 by
    //! subframe and uplink-downlink configuration (Table 6.9-1).
    int phich_mi = 1;
};

//! The OFDM symbols of the control region. Throws as cce_count() does.
int control_symbols(const control_region& r);

//! N_group · m_i: ceil(N_g · n_prb / 8) · m_i PHICH groups of 3 REGs each.
int phich_groups(const control_region& r);

//! The REGs of the control region left to the PDCCH (the PCFICH takes 4).
int pdcch_regs(const control_region& r);

/*!
 * \brief N_CCE = floor(pdcch_regs() / 9). A REG is 4 resource elements that carry no
 * reference signal: 2 a resource block in the first symbol, 3 in the second (2 with 4
 * antenna ports) and in the third and fourth. Throws std::invalid_argument naming
 * n_prb outside 6 … 110, cfi outside 1 … 3, antenna ports other than 1, 2, 4, an ng
 * that is no phich_resource and phich_mi outside 0 … 2.
 */
int cce_count(const control_region& r);

//! A PDCCH candidate: CCEs first_cce … first_cce + level - 1.
struct pdcch_candidate
{
    int first_cce;
    int level; //!< the aggregation level L: 1, 2, 4 or 8
    bool operator==(const pdcch_candidate& o) const
    {
        return first_cce == o.first_cce && level == o.level;
    }
};

/*!
 * \brief Y_k of the UE-specific search space of \p rnti (1 … 65535) in subframe \p
 * subframe (k = 0 … 9, floor(n_s / 2)): Y_k = (A · Y_(k-1)) mod D, A = 39827, D =
 * 65537, Y_(-1) = the RNTI. Throws std::invalid_argument naming either out of range.
 */
std::uint32_t ue_search_space_y(int rnti, int subframe);

/*!
 * \brief The common search space of a region of \p n_cce CCEs: levels 4 and 8, 4 and
 * 2 candidates, on CCEs 0 … 15 (Y_k = 0). A candidate that does not fit in n_cce is
 * left out, as the spec's formula gives the same candidate twice then (N_CCE < 16).
 * Throws std::invalid_argument naming a negative n_cce.
 */
std::vector<pdcch_candidate> common_search_space(int n_cce);

/*!
 * \brief The UE-specific search space of \p rnti in \p subframe: levels 1, 2, 4, 8 with
 * 6, 6, 2, 2 candidates m, candidate m of level L on CCEs L ((Y_k + m) mod
 * floor(n_cce / L)) + i, i = 0 … L - 1. A level with floor(n_cce / L) = 0 has none,
 * and where floor(n_cce / L) is below the level's count, a candidate that repeats an
 * earlier one of its level is left out. Level by level from 1, m in order. Throws as
 * ue_search_space_y() and common_search_space() do.
 */
std::vector<pdcch_candidate> ue_search_space(int n_cce, int rnti, int subframe);

/*!
 * \brief Every candidate a region of \p n_cce CCEs can hold, for a search that knows
 * no RNTI: at each level L of 1, 2, 4, 8, those that start on a multiple of L and end
 * within n_cce, level by level from 1. Throws as common_search_space() does.
 */
std::vector<pdcch_candidate> every_candidate(int n_cce);

} // namespace gputurbo::lte

#endif
