/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/conv_encoder_fec.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(conv_encoder_fec.h) */
/* BINDTOOL_HEADER_FILE_HASH(d44096eff6dedc2ea29a6fab0f95134d) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include "fec_make.h"
#include <gnuradio/gputurbo/conv_encoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <conv_encoder_fec_pydoc.h>

void bind_conv_encoder_fec(py::module& m)
{
    using conv_encoder_fec = ::gr::gputurbo::conv_encoder_fec;

    // make() takes gr-fec's cc_mode_t values (fec.CC_*).
    gputurbo_bindings::fec_class<conv_encoder_fec>(
        m, "conv_encoder_fec", D(conv_encoder_fec))

        .def_static(
            "make",
            gputurbo_bindings::fec_make<conv_encoder_fec>(&conv_encoder_fec::make),
            py::arg("frame_size"),
            py::arg("k"),
            py::arg("rate"),
            py::arg("polys"),
            py::arg("start_state") = 0,
            py::arg("mode") = CC_STREAMING,
            py::arg("padded") = false,
            D(conv_encoder_fec, make))

        .def("set_frame_size",
             &conv_encoder_fec::set_frame_size,
             py::arg("frame_size"),
             D(conv_encoder_fec, set_frame_size))
        .def("rate", &conv_encoder_fec::rate, D(conv_encoder_fec, rate));
}
