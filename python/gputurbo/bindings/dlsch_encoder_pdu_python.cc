/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/dlsch_encoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(dlsch_encoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(67630ad755c84fe06049dbca5af21d59) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/dlsch_encoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <dlsch_encoder_pdu_pydoc.h>

void bind_dlsch_encoder_pdu(py::module& m)
{
    using dlsch_encoder_pdu = ::gr::gputurbo::dlsch_encoder_pdu;

    gputurbo_bindings::block_class<dlsch_encoder_pdu>(
        m, "dlsch_encoder_pdu", D(dlsch_encoder_pdu))

        .def(py::init(&dlsch_encoder_pdu::make),
             py::arg("packed") = false,
             py::arg("Qm") = 2,
             py::arg("layers") = 1,
             py::arg("rv") = 0,
             py::arg("soft_buffer") = 0,
             py::arg("c_init") = -1,
             D(dlsch_encoder_pdu, make))

        .def("encoded_pdus",
             &dlsch_encoder_pdu::encoded_pdus,
             D(dlsch_encoder_pdu, encoded_pdus))
        .def("failed_pdus",
             &dlsch_encoder_pdu::failed_pdus,
             D(dlsch_encoder_pdu, failed_pdus));
}
