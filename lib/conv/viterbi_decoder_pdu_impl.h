/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H

#include "../common/pdu_decoder.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/viterbi_decoder_pdu.h>
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gputurbo {

// One engine for every frame size.
class viterbi_decoder_pdu_impl
    : public common::pdu_decoder<viterbi_decoder_pdu, ::gputurbo::core::batch_decoder>
{
private:
    const ::gputurbo::conv::viterbi_config d_config;

    //! A PDU's frame size: the metadata's, else the one whose sent length it has.
    int
    frame_bits_of(const pmt::pmt_t& meta, std::size_t length, std::string& error) const;

public:
    explicit viterbi_decoder_pdu_impl(const viterbi_options& options);

    std::string code() const override { return d_config.generator.text(); }
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_VITERBI_DECODER_PDU_IMPL_H */
