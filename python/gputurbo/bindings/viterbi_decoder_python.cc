/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/viterbi_decoder.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(viterbi_decoder.h) */
/* BINDTOOL_HEADER_FILE_HASH(ef5d0fea2a51b27b527db1d1497b3036) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/viterbi_decoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_pydoc.h>

void bind_viterbi_decoder(py::module& m)
{
    using viterbi_decoder = ::gr::gputurbo::viterbi_decoder;

    gputurbo_bindings::decoder_class<viterbi_decoder>(
        m, "viterbi_decoder", D(viterbi_decoder), D(viterbi_decoder, make))
        .def(
            "termination", &viterbi_decoder::termination, D(viterbi_decoder, termination))
        .def("frame_bits", &viterbi_decoder::frame_bits, D(viterbi_decoder, frame_bits))
        .def("frame_length",
             &viterbi_decoder::frame_length,
             D(viterbi_decoder, frame_length))
        .def("bits", &viterbi_decoder::bits, D(viterbi_decoder, bits))
        .def("failed_frames",
             &viterbi_decoder::failed_frames,
             D(viterbi_decoder, failed_frames));
}
