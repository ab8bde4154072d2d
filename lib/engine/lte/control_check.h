/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_CONTROL_CHECK_H
#define INCLUDED_GPUTURBO_LTE_CONTROL_CHECK_H

// What the PDCCH's blind search asks of a decoded candidate, once for the CPU search
// (pdcch.cc) and the GPU's (cuda/pdcch_search.cu): the rule that takes its CRC's mask
// as an RNTI of a space, and the agreement of its decision, encoded again, with its
// LLRs (the same sums in the same order on both).

#include "host_device.h"

#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include <cstdint>

namespace gputurbo::lte {

//! SI-, P- or an RA-RNTI.
GPUTURBO_LTE_HD bool is_broadcast_rnti(int rnti)
{
    return rnti == si_rnti || rnti == p_rnti ||
           (rnti >= min_ra_rnti && rnti <= max_ra_rnti);
}

//! 36.321 Table 7.1-1 reserves 0 and FFF4 ... FFFC: no RNTI.
GPUTURBO_LTE_HD bool is_rnti(int mask)
{
    return mask != 0 && !(mask >= 0xFFF4 && mask <= 0xFFFC);
}

/*!
 * The space (a pdcch_space) where a block whose CRC mask is \p mask is a DCI by the
 * rule of the search's mode, or -1: \p listed(mask) says whether its subframe lists
 * that RNTI (\p lists, whether it lists any), \p common whether the candidate is in the
 * common space, \p in_ue_space(mask) whether that RNTI's UE-specific space holds it.
 */
template <class Listed, class InUeSpace>
GPUTURBO_LTE_HD int dci_space(int mask,
                              bool exhaustive,
                              bool lists,
                              bool common,
                              const Listed& listed,
                              const InUeSpace& in_ue_space)
{
    if (exhaustive)
        return is_rnti(mask) && (!lists || listed(mask) || is_broadcast_rnti(mask))
                   ? int(pdcch_space::exhaustive)
                   : -1;
    if (common && (listed(mask) || is_broadcast_rnti(mask)))
        return int(pdcch_space::common);
    if (in_ue_space(mask))
        return int(pdcch_space::ue_specific);
    return -1;
}

//! The control code's memory (K = 7).
constexpr int control_code_memory = 6;

/*!
 * The sum over the 3 \p D coded bits of the tail-biting codeword of the \p D \p decided
 * bits (the payload and the CRC received) of coded(i), the LLR of coded bit i = 3 k +
 * o (GNU Radio's sign), with the sign of that bit: plus for 1, minus for 0.
 * \p code_outputs[reg]: the coded bits of each register (conv::code::coded_bits()).
 * The encoder of conv::encode(), fused with the sum: the register starts with the
 * frame's last K - 1 bits.
 */
template <class Coded>
GPUTURBO_LTE_HD float reencoded_agreement(const std::uint8_t* decided,
                                          int D,
                                          const std::uint8_t* code_outputs,
                                          const Coded& coded)
{
    unsigned state = 0;
    for (int i = D - control_code_memory; i < D; ++i)
        state = (state >> 1) | (unsigned(decided[i]) << (control_code_memory - 1));
    float sum[3] = {};
    for (int k = 0; k < D; ++k) {
        const unsigned reg = (unsigned(decided[k]) << control_code_memory) | state;
        const unsigned bits = code_outputs[reg];
        for (int o = 0; o < 3; ++o) // a product: a branch would be mispredicted
            sum[o] += float(int((bits >> o) & 1u) * 2 - 1) * coded(3 * k + o);
        state = reg >> 1;
    }
    return sum[0] + sum[1] + sum[2];
}

} // namespace gputurbo::lte

#endif
