/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/viterbi_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(viterbi_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(743c5cd9da7614d9e99d2c297b556972) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_arguments.h"
#include <gnuradio/gputurbo/viterbi_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_pdu_pydoc.h>

void bind_viterbi_decoder_pdu(py::module& m)
{
    using viterbi_decoder_pdu = ::gr::gputurbo::viterbi_decoder_pdu;

    py::class_<viterbi_decoder_pdu,
               gr::block,
               gr::basic_block,
               std::shared_ptr<viterbi_decoder_pdu>>
        cls(m, "viterbi_decoder_pdu", D(viterbi_decoder_pdu));
    gputurbo_bindings::def_make_init(cls,
                                     "viterbi_decoder_pdu",
                                     gr::gputurbo::viterbi_options_from,
                                     &viterbi_decoder_pdu::make,
                                     D(viterbi_decoder_pdu, make));
    cls.def("code", &viterbi_decoder_pdu::code, D(viterbi_decoder_pdu, code))
        .def("backend", &viterbi_decoder_pdu::backend, D(viterbi_decoder_pdu, backend))
        .def("device", &viterbi_decoder_pdu::device, D(viterbi_decoder_pdu, device))
        .def("max_batch",
             &viterbi_decoder_pdu::max_batch,
             D(viterbi_decoder_pdu, max_batch))
        .def("decoded_pdus",
             &viterbi_decoder_pdu::decoded_pdus,
             D(viterbi_decoder_pdu, decoded_pdus))
        .def("failed_pdus",
             &viterbi_decoder_pdu::failed_pdus,
             D(viterbi_decoder_pdu, failed_pdus))
        .def("batches", &viterbi_decoder_pdu::batches, D(viterbi_decoder_pdu, batches));
}
