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
/* BINDTOOL_HEADER_FILE_HASH(2b4c5671627084f310fc2c6eaf806325) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_arguments.h"
#include "fec_make.h"
#include <gnuradio/gputurbo/turbo_decoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_fec_pydoc.h>

void bind_turbo_decoder_fec(py::module& m)
{
    using turbo_decoder_fec = ::gr::gputurbo::turbo_decoder_fec;

    // A FECAPI object, not a block: its Python base is gr-fec's generic_decoder, so
    // fec.extended_decoder, fec.decoder and fec.async_decoder take it.
    py::class_<turbo_decoder_fec,
               gr::fec::generic_decoder,
               std::shared_ptr<turbo_decoder_fec>>
        cls(m,
            "turbo_decoder_fec",
            // generic_decoder is a virtual base: a pointer to it is not a pointer to the
            // object, so pybind11 must cast rather than assume single inheritance.
            py::multiple_inheritance(),
            D(turbo_decoder_fec));
    // make() returns a generic_decoder::sptr, as gr-fec's make functions do; Python
    // gets it as a turbo_decoder_fec, with the methods below as well.
    gputurbo_bindings::def_make_static(
        cls,
        "turbo_decoder_fec",
        gr::gputurbo::turbo_options_from,
        gputurbo_bindings::fec_make<turbo_decoder_fec>(&turbo_decoder_fec::make),
        D(turbo_decoder_fec, make));
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
        .def("backend", &turbo_decoder_fec::backend, D(turbo_decoder_fec, backend))
        .def("device", &turbo_decoder_fec::device, D(turbo_decoder_fec, device))
        .def("frames", &turbo_decoder_fec::frames, D(turbo_decoder_fec, frames))
        .def("refused_frames",
             &turbo_decoder_fec::refused_frames,
             D(turbo_decoder_fec, refused_frames))
        .def("last_iterations",
             &turbo_decoder_fec::last_iterations,
             D(turbo_decoder_fec, last_iterations))
        .def("last_passed",
             &turbo_decoder_fec::last_passed,
             D(turbo_decoder_fec, last_passed));
}
