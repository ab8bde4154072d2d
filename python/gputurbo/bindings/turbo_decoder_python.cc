/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_decoder.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_decoder.h) */
/* BINDTOOL_HEADER_FILE_HASH(780c0176a622382fc7b61b207ed40410) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_size_arg.h"
#include <gnuradio/gputurbo/turbo_decoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_pydoc.h>

void bind_turbo_decoder(py::module& m)
{
    using turbo_decoder = ::gr::gputurbo::turbo_decoder;

    py::class_<turbo_decoder, gr::block, gr::basic_block, std::shared_ptr<turbo_decoder>>(
        m, "turbo_decoder", D(turbo_decoder))

        .def(py::init(with_block_size(&turbo_decoder::make)),
             py::arg("K"),
             py::arg("algorithm") = "scaled-max-log",
             py::arg("iterations") = 6,
             py::arg("scaling") = 0.75f,
             py::arg("subblocks") = 0,
             py::arg("guard") = "pividstw",
             py::arg("guard_window") = 8,
             py::arg("early_stop") = "off",
             py::arg("stop_threshold") = 40.0f,
             py::arg("layout") = "interleaved",
             py::arg("llr_sign") = "positive-one",
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("threads") = 0,
             py::arg("input_type") = "float",
             py::arg("int8_scale") = 8.0f,
             py::arg("batches_in_flight") = 0,
             py::arg("arithmetic") = "auto",
             py::arg("codeword_tags") = "failed",
             py::arg("devices") = "0",
             py::arg("length_tag_key") = "packet_len",
             D(turbo_decoder, make))

        .def("set_iterations",
             &turbo_decoder::set_iterations,
             py::arg("iterations"),
             D(turbo_decoder, set_iterations))
        .def("iterations", &turbo_decoder::iterations, D(turbo_decoder, iterations))
        .def("set_stop_threshold",
             &turbo_decoder::set_stop_threshold,
             py::arg("threshold"),
             D(turbo_decoder, set_stop_threshold))
        .def("stop_threshold",
             &turbo_decoder::stop_threshold,
             D(turbo_decoder, stop_threshold))
        .def("block_size", &turbo_decoder::block_size, D(turbo_decoder, block_size))
        .def("codeword_length",
             &turbo_decoder::codeword_length,
             D(turbo_decoder, codeword_length))
        .def("backend", &turbo_decoder::backend, D(turbo_decoder, backend))
        .def("device", &turbo_decoder::device, D(turbo_decoder, device))
        .def("codewords", &turbo_decoder::codewords, D(turbo_decoder, codewords))
        .def("partial_items",
             &turbo_decoder::partial_items,
             D(turbo_decoder, partial_items))
        .def("misaligned_length_tags",
             &turbo_decoder::misaligned_length_tags,
             D(turbo_decoder, misaligned_length_tags))
        .def("subblocks", &turbo_decoder::subblocks, D(turbo_decoder, subblocks))
        .def("max_batch", &turbo_decoder::max_batch, D(turbo_decoder, max_batch));
}
