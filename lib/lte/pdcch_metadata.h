/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_PDCCH_METADATA_H
#define INCLUDED_GPUTURBO_LTE_PDCCH_METADATA_H

// A PDCCH subframe's cell and search in PDU metadata, and the DCIs found as PMT
// dicts: what pdcch_decoder_pdu reads and writes.

#include <gnuradio/gputurbo/block_options.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gputurbo {

//! What a PDU asks of the search: its subframe (llrs not set) and how to descramble it.
struct pdcch_request
{
    ::gputurbo::lte::pdcch_subframe subframe;
    int cell_id = 0;
    bool descramble = false;
};

/*!
 * \brief A PDU's subframe from its metadata: "subframe" (required), "n_prb", "cfi",
 * "antenna_ports", "ng", "phich_mi", "duplex", "cell_id", "descramble" (the \p defaults
 * where absent), "rntis" and "dci_sizes" (lists, empty where absent), each value checked
 * for its type and against the table's range (lte::control_parameters()). False with
 * the reason in \p error. DCI sizes are checked against 1 … 65536 only: the decoder
 * says whether it takes them.
 */
bool read_pdcch_request(const pmt::pmt_t& meta,
                        const pdcch_defaults& defaults,
                        pdcch_request& request,
                        std::string& error);

/*!
 * \brief A DCI found as a dict, its payload left out: "first_cce", "level", "size",
 * "rnti", "space", "formats" (a PMT vector of the names of \p cell's formats of its
 * size) and "correlation".
 */
pmt::pmt_t dci_dict(const ::gputurbo::lte::pdcch_detection& dci,
                    const ::gputurbo::lte::dci_config& cell);

} // namespace gputurbo
} // namespace gr

#endif
