/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_TRANSPORT_METADATA_H
#define INCLUDED_GPUTURBO_LTE_TRANSPORT_METADATA_H

// A transport block's format in PDU metadata, read and written the same way by the
// DL-SCH encoder and decoder blocks.

#include <gnuradio/gputurbo/block_options.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gputurbo {

//! The defaults, each checked against lte::transport_parameters(): std::invalid_argument
//! (ValueError in Python) naming the parameter.
transport_defaults
checked_transport_defaults(int Qm, int layers, int rv, long soft_buffer, long c_init);

/*!
 * \brief A PDU's transport format from its metadata: integers "tbs", "G", "Qm",
 * "layers", "rv", "soft_buffer" and "c_init", the defaults for those absent. Without "G",
 * "resource_elements" gives G = resource_elements * Qm * layers. What the metadata lacks
 * of tbs and G comes from \p tbs_of_data and \p G_of_data (0: nothing, and then the
 * metadata must have it). Not validated: the caller checks the data's length first.
 * False with the reason in \p error.
 */
bool read_transport_format(const pmt::pmt_t& meta,
                           const transport_defaults& defaults,
                           long tbs_of_data,
                           long G_of_data,
                           ::gputurbo::lte::transport_format& f,
                           std::string& error);

//! transport_format::validate(): false with its reason in \p error.
bool valid_transport_format(const ::gputurbo::lte::transport_format& f,
                            std::string& error);

//! The metadata plus the format's fields, under the keys read_transport_format() reads.
pmt::pmt_t with_transport_format(pmt::pmt_t meta,
                                 const ::gputurbo::lte::transport_format& f);

} // namespace gputurbo
} // namespace gr

#endif
