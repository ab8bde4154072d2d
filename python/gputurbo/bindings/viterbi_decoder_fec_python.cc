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
/* BINDTOOL_HEADER_FILE_HASH(b3dec0a3424e0847791989f3754b86fa) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "fec_make.h"
#include <gnuradio/gputurbo/viterbi_decoder_fec.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_fec_pydoc.h>

void bind_viterbi_decoder_fec(py::module& m)
{
    using viterbi_decoder_fec = ::gr::gputurbo::viterbi_decoder_fec;

    // A FECAPI object: its Python base is gr-fec's generic_decoder (a virtual base, so
    // pybind11 must cast), and make() takes gr-fec's cc_mode_t values (fec.CC_*).
    py::class_<viterbi_decoder_fec,
               gr::fec::generic_decoder,
               std::shared_ptr<viterbi_decoder_fec>>(
        m, "viterbi_decoder_fec", py::multiple_inheritance(), D(viterbi_decoder_fec))

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
        .def("code", &viterbi_decoder_fec::code, D(viterbi_decoder_fec, code))
        .def("delay", &viterbi_decoder_fec::delay, D(viterbi_decoder_fec, delay))
        .def("backend", &viterbi_decoder_fec::backend, D(viterbi_decoder_fec, backend))
        .def("device", &viterbi_decoder_fec::device, D(viterbi_decoder_fec, device))
        .def("frames", &viterbi_decoder_fec::frames, D(viterbi_decoder_fec, frames))
        .def("refused_frames",
             &viterbi_decoder_fec::refused_frames,
             D(viterbi_decoder_fec, refused_frames));
}
