/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "dlsch_encoder_pdu_impl.h"
#include "../common/io_signatures.h"
#include "../common/pdu_messages.h"

#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace lte = ::gputurbo::lte;

dlsch_encoder_pdu::sptr dlsch_encoder_pdu::make(
    bool packed, int Qm, int layers, int rv, long soft_buffer, long c_init)
{
    return gnuradio::make_block_sptr<dlsch_encoder_pdu_impl>(
        packed, checked_transport_defaults(Qm, layers, rv, soft_buffer, c_init));
}

dlsch_encoder_pdu_impl::dlsch_encoder_pdu_impl(bool packed,
                                               const transport_defaults& defaults)
    : gr::block("dlsch_encoder_pdu", common::no_streams(), common::no_streams()),
      d_packed(packed),
      d_defaults(defaults)
{
    common::serve_pdus(*this, d_mutex, [this](const pmt::pmt_t& msg) { handle(msg); });
}

bool dlsch_encoder_pdu_impl::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (auto line = d_failures.flush())
            d_logger->error(*line);
    }
    return gr::block::stop();
}

void dlsch_encoder_pdu_impl::handle(const pmt::pmt_t& msg)
{
    pmt::pmt_t meta, data;
    std::string error;
    pmt::pmt_t answer;
    if (common::split_pdu(msg, "a u8vector", meta, data, error))
        answer = encode(meta, data, error);
    if (!error.empty()) {
        if (auto line = d_failures.count(error))
            d_logger->error(*line);
        answer = common::failure_pdu(meta, pmt::PMT_NIL, error);
    } else {
        ++d_encoded;
    }
    message_port_pub(common::pdus_port(), answer);
}

pmt::pmt_t dlsch_encoder_pdu_impl::encode(const pmt::pmt_t& meta,
                                          const pmt::pmt_t& data,
                                          std::string& error)
{
    if (!pmt::is_u8vector(data)) {
        error = std::string("the PDU's data is not a u8vector of ") +
                (d_packed ? "packed bytes" : "bits");
        return pmt::PMT_NIL;
    }
    std::size_t length = 0;
    const std::uint8_t* in = pmt::u8vector_elements(data, length);
    const long bits_of_data = long(d_packed ? 8 * length : length);
    lte::transport_format f;
    if (!read_transport_format(meta, d_defaults, bits_of_data, 0, f, error))
        return pmt::PMT_NIL;
    if (d_packed ? std::size_t(f.tbs) > 8 * length || std::size_t(f.tbs) + 7 < 8 * length
                 : std::size_t(f.tbs) != length) {
        error = "tbs=" + std::to_string(f.tbs) + " does not fit the PDU's " +
                std::to_string(length) + (d_packed ? " packed bytes" : " bits");
        return pmt::PMT_NIL;
    }
    if (!valid_transport_format(f, error))
        return pmt::PMT_NIL;
    d_bits.resize(std::size_t(f.tbs));
    for (std::size_t i = 0; i < d_bits.size(); ++i)
        d_bits[i] = d_packed ? std::uint8_t((in[i / 8] >> (7 - i % 8)) & 1)
                             : std::uint8_t(in[i] & 1);
    pmt::pmt_t sent = pmt::make_u8vector(std::size_t(f.G), 0);
    std::size_t n = 0;
    try {
        lte::transport_encode(f, d_bits.data(), pmt::u8vector_writable_elements(sent, n));
    } catch (const std::exception& e) {
        error = std::string("encoding failed: ") + e.what();
        return pmt::PMT_NIL;
    }
    return pmt::cons(with_transport_format(meta, f), sent);
}

std::uint64_t dlsch_encoder_pdu_impl::encoded_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_encoded;
}

std::uint64_t dlsch_encoder_pdu_impl::failed_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failures.total();
}

} // namespace gputurbo
} // namespace gr
