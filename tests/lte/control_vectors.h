/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_CONTROL_VECTORS_H
#define INCLUDED_GPUTURBO_LTE_CONTROL_VECTORS_H

// What the control channels' tests share: the independent DCI and BCH vectors of
// tests/data/lte-dci, noiseless LLRs in GNU Radio's sign, and a test on each backend
// with the control channels' decoder.

#include "conv/conv_test_util.h"
#include "test_util.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace gputurbo::lte_test {

inline std::string vectors_dir()
{
    return test::data_dir("GPUTURBO_DCI_VECTORS_DIR", GPUTURBO_DCI_VECTORS_DIR);
}

// Each case of vectors.txt: a DCI or a MIB, its mask (the "rnti" field), E, the
// payload and the E bits sent.
struct control_case
{
    int number = 0;
    bool bch = false;
    int A = 0, E = 0;
    long mask = 0;
    std::vector<std::uint8_t> data, e;
};

inline std::vector<control_case> read_cases()
{
    std::ifstream in(vectors_dir() + "/vectors.txt");
    std::vector<control_case> cases;
    for (std::string line, data, e; std::getline(in, line);) {
        std::istringstream words(line);
        std::string word, kind;
        control_case c;
        if (!(words >> word) || word != "case")
            continue;
        words >> c.number >> word >> kind >> word >> c.A >> word >> c.mask >> word >> c.E;
        c.bch = kind == "bch";
        std::getline(in, data);
        std::getline(in, e);
        c.data = test::hex_bits(data.substr(5), std::size_t(c.A));
        c.e = test::hex_bits(e.substr(2), std::size_t(c.E));
        cases.push_back(std::move(c));
    }
    return cases;
}

// GNU Radio's sign: positive means 1.
inline std::vector<float> noiseless_llrs(const std::vector<std::uint8_t>& bits)
{
    std::vector<float> llrs(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i)
        llrs[i] = bits[i] ? 4.0f : -4.0f;
    return llrs;
}

//! A test on each backend (conv_test::backend_test) with the decoder of
//! control_decoder_config().
class control_decoder_test : public conv_test::backend_test
{
protected:
    std::unique_ptr<core::batch_decoder> decoder() const
    {
        return conv::make_viterbi_decoder(lte::control_decoder_config(), GetParam());
    }
};

} // namespace gputurbo::lte_test

#endif
