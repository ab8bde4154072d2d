/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/***********************************************************************************/
/* This file is written by hand, not by gr_modtool: CMake only checks the hash.   */
/* After editing include/gnuradio/gputurbo/turbo_encoder.h, update this binding  */
/* and set BINDTOOL_HEADER_FILE_HASH to the header's new MD5 sum.                */
/***********************************************************************************/

/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(turbo_encoder.h)                                           */
/* BINDTOOL_HEADER_FILE_HASH(00000000000000000000000000000000)                     */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gputurbo/turbo_encoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_encoder_pydoc.h>

void bind_turbo_encoder(py::module& m)
{
    using turbo_encoder = ::gr::gputurbo::turbo_encoder;

    py::class_<turbo_encoder, gr::block, gr::basic_block, std::shared_ptr<turbo_encoder>>(
        m, "turbo_encoder", D(turbo_encoder))

        .def(py::init(&turbo_encoder::make),
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
