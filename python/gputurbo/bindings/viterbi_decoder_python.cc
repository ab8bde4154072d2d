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
/* BINDTOOL_HEADER_FILE_HASH(274b2fd25cba25d6b7431d92127433d3) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gputurbo/viterbi_decoder.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_pydoc.h>

void bind_viterbi_decoder(py::module& m)
{
    using viterbi_decoder = ::gr::gputurbo::viterbi_decoder;

    py::class_<viterbi_decoder,
               gr::block,
               gr::basic_block,
               std::shared_ptr<viterbi_decoder>>(m, "viterbi_decoder", D(viterbi_decoder))

        .def(py::init(&viterbi_decoder::make),
             py::arg("frame_bits") = 1024,
             py::arg("preset") = "none",
             py::arg("constraint") = 7,
             py::arg("polys") = "133,171",
             py::arg("puncture") = "",
             py::arg("termination") = "streaming",
             py::arg("decision_depth") = 0,
             py::arg("training_depth") = 0,
             py::arg("segment_bits") = 0,
             py::arg("llr_sign") = "positive-one",
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("threads") = 0,
             py::arg("input_type") = "float",
             py::arg("int8_scale") = 8.0f,
             py::arg("batches_in_flight") = 0,
             py::arg("codeword_tags") = "failed",
             py::arg("devices") = "0",
             py::arg("length_tag_key") = "packet_len",
             py::arg("node_sync") = false,
             D(viterbi_decoder, make))

        .def("code", &viterbi_decoder::code, D(viterbi_decoder, code))
        .def(
            "termination", &viterbi_decoder::termination, D(viterbi_decoder, termination))
        .def("frame_bits", &viterbi_decoder::frame_bits, D(viterbi_decoder, frame_bits))
        .def("frame_length",
             &viterbi_decoder::frame_length,
             D(viterbi_decoder, frame_length))
        .def("backend", &viterbi_decoder::backend, D(viterbi_decoder, backend))
        .def("device", &viterbi_decoder::device, D(viterbi_decoder, device))
        .def("bits", &viterbi_decoder::bits, D(viterbi_decoder, bits))
        .def("partial_items",
             &viterbi_decoder::partial_items,
             D(viterbi_decoder, partial_items))
        .def("misaligned_length_tags",
             &viterbi_decoder::misaligned_length_tags,
             D(viterbi_decoder, misaligned_length_tags))
        .def("failed_frames",
             &viterbi_decoder::failed_frames,
             D(viterbi_decoder, failed_frames));
}
