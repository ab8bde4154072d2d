/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/viterbi_decoder_fec.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(viterbi_decoder_fec.h) */
/* BINDTOOL_HEADER_FILE_HASH(ec1ec083d91c65e1c2ecc8b9e1f69726) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include "fec_make.h"
#include <gnuradio/gputurbo/viterbi_decoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_fec_pydoc.h>

void bind_viterbi_decoder_fec(py::module& m)
{
    using viterbi_decoder_fec = ::gr::gputurbo::viterbi_decoder_fec;

    // make() takes gr-fec's cc_mode_t values (fec.CC_*).
    gputurbo_bindings::fec_class<viterbi_decoder_fec>(
        m, "viterbi_decoder_fec", D(viterbi_decoder_fec))

        .def_static(
            "make",
            gputurbo_bindings::fec_make<viterbi_decoder_fec>(&viterbi_decoder_fec::make),
            py::arg("frame_size"),
            py::arg("k"),
            py::arg("rate"),
            py::arg("polys"),
            py::arg("start_state") = 0,
            py::arg("end_state") = -1,
            py::arg("mode") = CC_STREAMING,
            py::arg("padded") = false,
            py::arg("llr_sign") = "positive-one",
            py::arg("backend") = "auto",
            py::arg("threads") = 0,
            py::arg("devices") = "0",
            py::arg("delayed") = false,
            D(viterbi_decoder_fec, make))

        .def("set_frame_size",
             &viterbi_decoder_fec::set_frame_size,
             py::arg("frame_size"),
             D(viterbi_decoder_fec, set_frame_size))
        .def("rate", &viterbi_decoder_fec::rate, D(viterbi_decoder_fec, rate))
        .def("delay", &viterbi_decoder_fec::delay, D(viterbi_decoder_fec, delay));
}
