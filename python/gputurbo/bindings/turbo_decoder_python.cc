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
/* BINDTOOL_HEADER_FILE_HASH(ccf3268d763e7cd9dbc0dd72bca478ef) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/turbo_decoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_pydoc.h>

void bind_turbo_decoder(py::module& m)
{
    using turbo_decoder = ::gr::gputurbo::turbo_decoder;

    gputurbo_bindings::decoder_class<turbo_decoder>(
        m, "turbo_decoder", D(turbo_decoder), D(turbo_decoder, make))
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
        .def("codewords", &turbo_decoder::codewords, D(turbo_decoder, codewords))
        .def("subblocks", &turbo_decoder::subblocks, D(turbo_decoder, subblocks))
        .def("max_batch", &turbo_decoder::max_batch, D(turbo_decoder, max_batch));
}
