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

//! The broadcasts' RNTIs: SI-, P- and the RA-RNTIs.
constexpr int broadcast_rnti_count = 2 + max_ra_rnti - min_ra_rnti + 1;
//! The CRC masks that are RNTIs (is_rnti()): all but 0 and FFF4 ... FFFC.
constexpr int rnti_mask_count = 65536 - 10;

/*!
 * How many RNTIs the rule of dci_space() takes for a candidate (at most): the
 * hypotheses a decoded block of noise can pass the CRC with. \p listed: the RNTIs its
 * subframe lists; \p ue_count: those whose UE-specific space holds it.
 */
GPUTURBO_LTE_HD int
rnti_hypotheses(bool exhaustive, int listed, bool common, int ue_count)
{
    if (exhaustive)
        return listed > 0 ? listed + broadcast_rnti_count : rnti_mask_count;
    return common ? listed + broadcast_rnti_count : ue_count;
}

/*!
 * The level whose false-alarm floor a candidate of \p level takes: its own where its
 * CCEs carry LLRs of one power, a lower one where a few outweigh the others (a DCI's
 * CCE beside empty ones; erased CCEs, 0s, weigh nothing): the floor bounds noise over
 * E LLRs alike. \p effective, (sum m)^2 / sum m^2 of its CCEs' sums m of |L|, is the
 * level where they are equal and about the strong ones' count where they are not; a
 * level takes it up to 1.25 times that (the sums of noise differ by some 9 %).
 */
inline int floor_level(int level, float effective)
{
    while (level > 1 && float(level) > 1.25f * effective)
        level /= 2;
    return level;
}

/*!
 * The least correlation a detection of one DCI size needs: the search's
 * min_correlation alone where the CRC bounds the false alarms (hypotheses up to
 * crc_covered), else the higher of it and the size's false-alarm floor
 * (false_alarm_floor()) by level (1, 2, 4, 8) and by the RNTI hypotheses rounded up to
 * a power of 2 (2^0 ... 2^16), so that the CPU's and the GPU's searches compare with
 * the same numbers.
 */
struct correlation_floors
{
    static constexpr int levels = 4, hypothesis_steps = 17;
    double min_correlation;
    int crc_covered; //!< the most hypotheses whose CRC share is within max_false_alarm
    double least[levels][hypothesis_steps];

    //! ceil(log2(n)) for 1 <= n <= 2^16 (0 for n <= 1).
    GPUTURBO_LTE_HD static int hypothesis_step(int n)
    {
        int step = 0;
        while (step < hypothesis_steps - 1 && (1 << step) < n)
            ++step;
        return step;
    }

    GPUTURBO_LTE_HD double of(int level, int hypotheses) const
    {
        if (hypotheses <= crc_covered)
            return min_correlation;
        const int l = level >= 8 ? 3 : level >= 4 ? 2 : level >= 2 ? 1 : 0;
        return least[l][hypothesis_step(hypotheses)];
    }
};

/*!
 * Size \p A's correlation_floors for a search's \p min_correlation and \p
 * max_false_alarm (the floors kept for the process: a size's take some 30 ms).
 */
correlation_floors
least_correlations(int A, double min_correlation, double max_false_alarm);

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
