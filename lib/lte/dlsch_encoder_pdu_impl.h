/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_IMPL_H
#define INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_IMPL_H

#include "../common/failure_log.h"
#include "transport_metadata.h"

#include <gnuradio/gputurbo/dlsch_encoder_pdu.h>
#include <pmt/pmt.h>

#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

class dlsch_encoder_pdu_impl : public dlsch_encoder_pdu
{
private:
    // The message handler and the getters take d_mutex.
    mutable std::mutex d_mutex;
    const bool d_packed;
    const transport_defaults d_defaults;
    std::vector<std::uint8_t> d_bits; // the data bits, unpacked
    std::uint64_t d_encoded = 0;
    common::failure_log d_failures{ "PDU not encoded" };

    void handle(const pmt::pmt_t& msg);
    //! The PDU's G bits sent, or the reason in \p error.
    pmt::pmt_t encode(const pmt::pmt_t& meta, const pmt::pmt_t& data, std::string& error);

public:
    dlsch_encoder_pdu_impl(bool packed, const transport_defaults& defaults);

    bool stop() override;

    std::uint64_t encoded_pdus() const override;
    std::uint64_t failed_pdus() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_DLSCH_ENCODER_PDU_IMPL_H */
