/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_PRESETS_H
#define INCLUDED_GPUTURBO_CONV_PRESETS_H

// The named codes (sources in conv/code.h), as constants: conv::preset() reads them, and
// the CUDA decoder compiles a kernel for each, whose branches fold into its instructions.

namespace gputurbo::conv {

struct preset_code
{
    const char* name;
    int constraint;
    int outputs;
    unsigned polynomials[4]; //!< octal convention of conv/code.h
    bool inverted[4];        //!< per output
};

inline constexpr preset_code preset_codes[] = {
    { "ccsds", 7, 2, { 0171, 0133 }, { false, true } },
    { "802.11", 7, 2, { 0133, 0171 }, {} },
    { "dvb", 7, 2, { 0133, 0171 }, {} },
    { "lte", 7, 3, { 0133, 0171, 0165 }, {} },
    { "gsm", 5, 2, { 023, 033 }, {} },
    { "cdma-r2", 9, 2, { 0753, 0561 }, {} },
    { "cdma-r3", 9, 3, { 0557, 0663, 0711 }, {} },
};

inline constexpr int preset_count = int(sizeof preset_codes / sizeof preset_codes[0]);

} // namespace gputurbo::conv

#endif
