/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/dlsch_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(dlsch_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(a456cdb488b005be1a6b0131ce91a58d) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/dlsch_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <dlsch_decoder_pdu_pydoc.h>

void bind_dlsch_decoder_pdu(py::module& m)
{
    using dlsch_decoder_pdu = ::gr::gputurbo::dlsch_decoder_pdu;

    gputurbo_bindings::decoder_class<dlsch_decoder_pdu>(
        m, "dlsch_decoder_pdu", D(dlsch_decoder_pdu), D(dlsch_decoder_pdu, make))
        .def("iterations",
             &dlsch_decoder_pdu::iterations,
             D(dlsch_decoder_pdu, iterations))
        .def("release",
             &dlsch_decoder_pdu::release,
             py::arg("harq_process"),
             D(dlsch_decoder_pdu, release))
        .def("harq_processes",
             &dlsch_decoder_pdu::harq_processes,
             D(dlsch_decoder_pdu, harq_processes))
        .def("dropped_harq_processes",
             &dlsch_decoder_pdu::dropped_harq_processes,
             D(dlsch_decoder_pdu, dropped_harq_processes));
}
