/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/pdcch_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(pdcch_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(d3eff87b4bd1bf52adbf6dce71d14b72) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/pdcch_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <pdcch_decoder_pdu_pydoc.h>

void bind_pdcch_decoder_pdu(py::module& m)
{
    using pdcch_decoder_pdu = ::gr::gputurbo::pdcch_decoder_pdu;

    gputurbo_bindings::decoder_class<pdcch_decoder_pdu>(
        m, "pdcch_decoder_pdu", D(pdcch_decoder_pdu), D(pdcch_decoder_pdu, make))
        .def("set_min_correlation",
             &pdcch_decoder_pdu::set_min_correlation,
             py::arg("min_correlation"),
             D(pdcch_decoder_pdu, set_min_correlation))
        .def("min_correlation",
             &pdcch_decoder_pdu::min_correlation,
             D(pdcch_decoder_pdu, min_correlation))
        .def("set_max_false_alarm",
             &pdcch_decoder_pdu::set_max_false_alarm,
             py::arg("max_false_alarm"),
             D(pdcch_decoder_pdu, set_max_false_alarm))
        .def("max_false_alarm",
             &pdcch_decoder_pdu::max_false_alarm,
             D(pdcch_decoder_pdu, max_false_alarm))
        .def("mode", &pdcch_decoder_pdu::mode, D(pdcch_decoder_pdu, mode))
        .def("found_dcis",
             &pdcch_decoder_pdu::found_dcis,
             D(pdcch_decoder_pdu, found_dcis))
        .def("decoded_candidates",
             &pdcch_decoder_pdu::decoded_candidates,
             D(pdcch_decoder_pdu, decoded_candidates));
}
