/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fec_parameters.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

conv::code gr_fec_code(int k, int rate, const std::vector<int>& polys)
{
    if (int(polys.size()) != rate)
        throw std::invalid_argument("rate=" + std::to_string(rate) + " needs " +
                                    std::to_string(rate) + " polys; got " +
                                    std::to_string(polys.size()));
    if (k < 2 || k > 31)
        throw std::invalid_argument("k=" + std::to_string(k) +
                                    " is out of range: use 3 ... 9");
    // gr-fec's bit i is the bit i steps old; ours (octal) has the current bit on top.
    std::string text;
    for (const int p : polys) {
        const unsigned tapped = unsigned(std::abs(p));
        if (tapped >> k)
            throw std::invalid_argument("poly " + std::to_string(p) +
                                        " taps more than k=" + std::to_string(k) +
                                        " bits");
        unsigned ours = 0;
        for (int i = 0; i < k; ++i)
            ours |= ((tapped >> i) & 1u) << (k - 1 - i);
        char octal[16];
        std::snprintf(octal, sizeof octal, "%o", ours);
        text += (text.empty() ? "" : ",") + std::string(p < 0 ? "-" : "") + octal;
    }
    return conv::parse_code(k, text);
}

conv::termination gr_fec_termination(cc_mode_t mode)
{
    switch (mode) {
    case CC_STREAMING:
        return conv::termination::streaming;
    case CC_TERMINATED:
        return conv::termination::terminated;
    case CC_TRUNCATED:
        return conv::termination::truncated;
    case CC_TAILBITING:
        return conv::termination::tail_biting;
    }
    throw std::invalid_argument("mode " + std::to_string(int(mode)) +
                                " is not a cc_mode_t: use CC_STREAMING, CC_TERMINATED, "
                                "CC_TRUNCATED or CC_TAILBITING");
}

int gr_fec_padding(const conv::code& c, conv::termination t, bool padded)
{
    if (!padded || t != conv::termination::terminated)
        return 0;
    const int tail = c.outputs() * (c.constraint - 1);
    return (tail + 7) / 8 * 8 - tail;
}

void check_start_state(int start_state)
{
    if (start_state != 0)
        throw std::invalid_argument("start_state=" + std::to_string(start_state) +
                                    ": only 0 (the encoder starts in state 0)");
}

} // namespace gputurbo
} // namespace gr
