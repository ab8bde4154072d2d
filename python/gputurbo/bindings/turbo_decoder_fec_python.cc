/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_decoder_fec.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_decoder_fec.h) */
/* BINDTOOL_HEADER_FILE_HASH(6fbf762abaf4bf7b6ea085bce5c250b5) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_arguments.h"
#include "block_class.h"
#include <gnuradio/gputurbo/turbo_decoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_fec_pydoc.h>

void bind_turbo_decoder_fec(py::module& m)
{
    using turbo_decoder_fec = ::gr::gputurbo::turbo_decoder_fec;

    auto cls = gputurbo_bindings::fec_class<turbo_decoder_fec>(
        m, "turbo_decoder_fec", D(turbo_decoder_fec));
    gputurbo_bindings::def_make(
        cls, &turbo_decoder_fec::make, D(turbo_decoder_fec, make));
    cls.def("set_frame_size",
            &turbo_decoder_fec::set_frame_size,
            py::arg("frame_size"),
            D(turbo_decoder_fec, set_frame_size))
        .def("rate", &turbo_decoder_fec::rate, D(turbo_decoder_fec, rate))
        .def("get_iterations",
             &turbo_decoder_fec::get_iterations,
             D(turbo_decoder_fec, get_iterations))
        .def("block_size",
             &turbo_decoder_fec::block_size,
             D(turbo_decoder_fec, block_size))
        .def("subblocks", &turbo_decoder_fec::subblocks, D(turbo_decoder_fec, subblocks))
        .def("last_iterations",
             &turbo_decoder_fec::last_iterations,
             D(turbo_decoder_fec, last_iterations))
        .def("last_passed",
             &turbo_decoder_fec::last_passed,
             D(turbo_decoder_fec, last_passed));
}
