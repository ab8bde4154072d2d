/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_encoder.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_encoder.h) */
/* BINDTOOL_HEADER_FILE_HASH(655a1234f229db5c7f7d5b6471d1ce8b) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include "block_size_arg.h"
#include <gnuradio/gputurbo/turbo_encoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_encoder_pydoc.h>

void bind_turbo_encoder(py::module& m)
{
    using turbo_encoder = ::gr::gputurbo::turbo_encoder;

    gputurbo_bindings::block_class<turbo_encoder>(m, "turbo_encoder", D(turbo_encoder))

        .def(py::init(with_block_size(&turbo_encoder::make)),
             py::arg("K"),
             py::arg("layout") = "interleaved",
             D(turbo_encoder, make))

        .def("block_size", &turbo_encoder::block_size, D(turbo_encoder, block_size))
        .def("codeword_length",
             &turbo_encoder::codeword_length,
             D(turbo_encoder, codeword_length))
        .def("partial_items",
             &turbo_encoder::partial_items,
             D(turbo_encoder, partial_items));
}
