/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/conv_encoder.h, update the binding and set the hash below to
 * the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(conv_encoder.h) */
/* BINDTOOL_HEADER_FILE_HASH(834c2479c92c597c54e4ab6381e8392d) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/conv_encoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <conv_encoder_pydoc.h>

void bind_conv_encoder(py::module& m)
{
    using conv_encoder = ::gr::gputurbo::conv_encoder;

    gputurbo_bindings::block_class<conv_encoder>(m, "conv_encoder", D(conv_encoder))

        .def(py::init(&conv_encoder::make),
             py::arg("frame_bits") = 1024,
             py::arg("preset") = "none",
             py::arg("constraint") = 7,
             py::arg("polys") = "133,171",
             py::arg("puncture") = "",
             py::arg("termination") = "streaming",
             D(conv_encoder, make))

        .def("input_unit", &conv_encoder::input_unit, D(conv_encoder, input_unit))
        .def("output_unit", &conv_encoder::output_unit, D(conv_encoder, output_unit))
        .def("partial_items",
             &conv_encoder::partial_items,
             D(conv_encoder, partial_items));
}
