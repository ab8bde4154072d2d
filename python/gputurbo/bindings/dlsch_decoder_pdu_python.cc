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
/* BINDTOOL_HEADER_FILE_HASH(1c09a13fe8b5f55142f8dd30ff7663d5) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_arguments.h"
#include <gnuradio/gputurbo/dlsch_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <dlsch_decoder_pdu_pydoc.h>

void bind_dlsch_decoder_pdu(py::module& m)
{
    using dlsch_decoder_pdu = ::gr::gputurbo::dlsch_decoder_pdu;

    py::class_<dlsch_decoder_pdu,
               gr::block,
               gr::basic_block,
               std::shared_ptr<dlsch_decoder_pdu>>
        cls(m, "dlsch_decoder_pdu", D(dlsch_decoder_pdu));
    gputurbo_bindings::def_make_init(cls,
                                     "dlsch_decoder_pdu",
                                     gr::gputurbo::dlsch_options_from,
                                     &dlsch_decoder_pdu::make,
                                     D(dlsch_decoder_pdu, make));
    cls.def(
           "iterations", &dlsch_decoder_pdu::iterations, D(dlsch_decoder_pdu, iterations))
        .def("release",
             &dlsch_decoder_pdu::release,
             py::arg("harq_process"),
             D(dlsch_decoder_pdu, release))
        .def("harq_processes",
             &dlsch_decoder_pdu::harq_processes,
             D(dlsch_decoder_pdu, harq_processes))
        .def("dropped_harq_processes",
             &dlsch_decoder_pdu::dropped_harq_processes,
             D(dlsch_decoder_pdu, dropped_harq_processes))
        .def("backend", &dlsch_decoder_pdu::backend, D(dlsch_decoder_pdu, backend))
        .def("device", &dlsch_decoder_pdu::device, D(dlsch_decoder_pdu, device))
        .def("max_batch", &dlsch_decoder_pdu::max_batch, D(dlsch_decoder_pdu, max_batch))
        .def("decoded_pdus",
             &dlsch_decoder_pdu::decoded_pdus,
             D(dlsch_decoder_pdu, decoded_pdus))
        .def("failed_pdus",
             &dlsch_decoder_pdu::failed_pdus,
             D(dlsch_decoder_pdu, failed_pdus))
        .def("batches", &dlsch_decoder_pdu::batches, D(dlsch_decoder_pdu, batches));
}
