/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H

#include "../common/pdu_decoder.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gputurbo {

// One engine for every block size (its config has no K of its own).
class turbo_decoder_pdu_impl
    : public common::pdu_decoder<turbo_decoder_pdu, ::gputurbo::turbo::decoder>
{
private:
    //! A PDU's K: the metadata's, else from its length.
    static int block_of(const pmt::pmt_t& meta, std::size_t length, std::string& error);

public:
    explicit turbo_decoder_pdu_impl(const turbo_options& options);

    void set_iterations(int iterations) override;
    int iterations() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_PDU_IMPL_H */
