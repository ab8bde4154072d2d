/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_encoder_fec.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_encoder_fec.h) */
/* BINDTOOL_HEADER_FILE_HASH(1e74ec3593d4f4c0de3000ea5c0ef5a1) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include "block_size_arg.h"
#include <gnuradio/gputurbo/turbo_encoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_encoder_fec_pydoc.h>

void bind_turbo_encoder_fec(py::module& m)
{
    using turbo_encoder_fec = ::gr::gputurbo::turbo_encoder_fec;

    gputurbo_bindings::fec_class<turbo_encoder_fec>(
        m, "turbo_encoder_fec", D(turbo_encoder_fec))

        // make() returns a generic_encoder::sptr, as gr-fec's make functions do; Python
        // gets it as a turbo_encoder_fec, with the methods below as well.
        .def_static(
            "make",
            [](block_size_arg frame_size) {
                return std::dynamic_pointer_cast<turbo_encoder_fec>(
                    turbo_encoder_fec::make(frame_size.value));
            },
            py::arg("frame_size"),
            D(turbo_encoder_fec, make))

        .def("set_frame_size",
             &turbo_encoder_fec::set_frame_size,
             py::arg("frame_size"),
             D(turbo_encoder_fec, set_frame_size))
        .def("rate", &turbo_encoder_fec::rate, D(turbo_encoder_fec, rate))
        .def("block_size",
             &turbo_encoder_fec::block_size,
             D(turbo_encoder_fec, block_size));
}
