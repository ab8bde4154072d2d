/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_DECISION_CHECK_H
#define INCLUDED_GPUTURBO_LTE_DECISION_CHECK_H

// Whether a decided code block is what was received. A turbo decoder that cannot decode
// may still settle on a codeword whose CRC checks: the all-zero codeword passes every
// CRC, and a decoder given mostly parity bits (rv 2, say) settles on it whatever was
// sent. So a code block counts as received only when its decision, encoded again,
// agrees with the soft values it was decoded from, as far as their noise allows:
//
// - evidence: the values in the decision's sign sum to more than chance gives, 5.5
//   standard deviations of a sum of random signs (a tail of 2^-24, as rare as a CRC-24
//   misses an error);
// - no more contradictions than the noise explains: a value q (an LLR L = q /
//   int8_scale) contradicts the bit it was sent for with probability 1 / (1 + e^|L|);
//   the count of values whose sign contradicts the decision stays within a Bernstein
//   bound (tail 2^-24) above the sum of those probabilities. They are taken at |L| /
//   llr_tolerance, so LLRs up to that factor too confident do not fail right blocks.
//
// Both backends add up the same integers (the probabilities from one table in fixed
// point), so they decide alike; the CPU encodes with turbo::encode(), the GPU in
// parallel segments (transport_decoder.cu).

#include "host_device.h"

#include <cstdint>

namespace gputurbo::lte {

//! How much too confident the LLRs may be before right blocks start failing the check.
constexpr double llr_tolerance = 2.0;

//! The fixed point of contradiction_odds: probabilities in units of 2^-odds_bits.
constexpr int odds_bits = 20;

//! By int8 magnitude |q| (0 ... 127): the probability that such a value contradicts
//! its bit, and its variance p (1 - p), in units of 2^-odds_bits.
struct contradiction_odds
{
    std::uint32_t p[128];
    std::uint32_t spread[128];
};

//! The table for int8 values q = L * int8_scale.
contradiction_odds make_contradiction_odds(float int8_scale);

//! What a code block's values say of its decision; sums over values, so the
//! agreement of a transport block is the sum of its code blocks'. Summed in Signed and
//! Unsigned: 64 bits for a code block (agreement), 32 for a GPU thread's few hundred.
template <class Signed, class Unsigned>
struct agreement_sums
{
    Signed correlation = 0;      //!< sum of s v: s = +1 where the bit is 0
    Unsigned energy = 0;         //!< sum of v^2
    Unsigned contradictions = 0; //!< values of the other sign than their bit
    Unsigned expected = 0;       //!< sum of p(|v|), 2^-odds_bits
    Unsigned spread = 0;         //!< sum of p(1 - p), 2^-odds_bits

    //! Adds value \p v (engine sign: positive means 0; 0 means nothing received) of a
    //! position whose decided bit is \p bit.
    GPUTURBO_LTE_HD void add(const contradiction_odds& odds, int v, int bit)
    {
        if (v == 0)
            return;
        const int s = bit ? -v : v;
        const int magnitude = v < -127 ? 127 : (v < 0 ? -v : v); // -128 as -127
        correlation += s;
        energy += Unsigned(v * v);
        contradictions += s < 0;
        expected += odds.p[magnitude];
        spread += odds.spread[magnitude];
    }
};

using agreement = agreement_sums<std::int64_t, std::uint64_t>;

/*!
 * \brief The agreement of a codeword's values (3K + 12, the turbo decoder's interleaved
 * layout, engine sign) with the codeword of the \p K decided \p bits; the d0 and d1
 * positions of the first \p filler bits (known, not received) are left out.
 */
agreement agreement_of(int K,
                       int filler,
                       const std::int8_t* values,
                       const std::uint8_t* bits,
                       const contradiction_odds& odds);

//! Whether values of this agreement support their decision (see the file's comment).
bool consistent(const agreement& a);

} // namespace gputurbo::lte

#endif
