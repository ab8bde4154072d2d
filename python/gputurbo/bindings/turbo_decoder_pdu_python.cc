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
/* BINDTOOL_HEADER_FILE_HASH(614f7b781d473d2f327dcb2630dfd6ee) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_arguments.h"
#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_pdu_pydoc.h>

void bind_turbo_decoder_pdu(py::module& m)
{
    using turbo_decoder_pdu = ::gr::gputurbo::turbo_decoder_pdu;

    py::class_<turbo_decoder_pdu,
               gr::block,
               gr::basic_block,
               std::shared_ptr<turbo_decoder_pdu>>
        cls(m, "turbo_decoder_pdu", D(turbo_decoder_pdu));
    gputurbo_bindings::def_make_init(cls,
                                     "turbo_decoder_pdu",
                                     gr::gputurbo::turbo_options_from,
                                     &turbo_decoder_pdu::make,
                                     D(turbo_decoder_pdu, make));
    cls.def("set_iterations",
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
