/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(283d254bf018cd850aff1401dfcd480a) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_pdu_pydoc.h>

void bind_turbo_decoder_pdu(py::module& m)
{
    using turbo_decoder_pdu = ::gr::gputurbo::turbo_decoder_pdu;

    py::class_<turbo_decoder_pdu,
               gr::block,
               gr::basic_block,
               std::shared_ptr<turbo_decoder_pdu>>(
        m, "turbo_decoder_pdu", D(turbo_decoder_pdu))

        .def(py::init(&turbo_decoder_pdu::make),
             py::arg("algorithm") = "scaled-max-log",
             py::arg("iterations") = 6,
             py::arg("scaling") = 0.75f,
             py::arg("subblocks") = 0,
             py::arg("guard") = "pividstw",
             py::arg("guard_window") = 8,
             py::arg("early_stop") = "off",
             py::arg("stop_threshold") = 40.0f,
             py::arg("layout") = "interleaved",
             py::arg("llr_sign") = "positive-one",
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("threads") = 0,
             py::arg("arithmetic") = "auto",
             py::arg("devices") = "0",
             D(turbo_decoder_pdu, make))

        .def("set_iterations",
             &turbo_decoder_pdu::set_iterations,
             py::arg("iterations"),
             D(turbo_decoder_pdu, set_iterations))
        .def("iterations",
             &turbo_decoder_pdu::iterations,
             D(turbo_decoder_pdu, iterations))
        .def("backend", &turbo_decoder_pdu::backend, D(turbo_decoder_pdu, backend))
        .def("device", &turbo_decoder_pdu::device, D(turbo_decoder_pdu, device))
        .def("max_batch", &turbo_decoder_pdu::max_batch, D(turbo_decoder_pdu, max_batch))
        .def("decoded_pdus",
             &turbo_decoder_pdu::decoded_pdus,
             D(turbo_decoder_pdu, decoded_pdus))
        .def("failed_pdus",
             &turbo_decoder_pdu::failed_pdus,
             D(turbo_decoder_pdu, failed_pdus))
        .def("batches", &turbo_decoder_pdu::batches, D(turbo_decoder_pdu, batches));
}
