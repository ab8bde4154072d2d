/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Convolutional codes on numpy arrays: gputurbo.conv_code (the code, its encoder with
 * puncturing, depuncturing) and gputurbo.conv_presets(). This file converts arrays and
 * calls the engine; the checks and their wording are the engine's (its
 * std::invalid_argument reaches Python as ValueError).
 */

#include "numpy_arrays.h"

#include <gnuradio/gputurbo/engine/conv/code.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

using namespace gr::gputurbo::numpy;
namespace conv = ::gputurbo::conv;

std::string preset_list()
{
    std::string names;
    for (const auto& name : conv::preset_names())
        names += (names.empty() ? "" : ", ") + name;
    return names;
}

conv::code make_code(const std::optional<std::string>& preset,
                     const std::optional<int>& constraint,
                     const std::optional<std::string>& polynomials)
{
    if (preset && !constraint && !polynomials)
        return conv::preset(*preset);
    if (!preset && constraint && polynomials)
        return conv::parse_code(*constraint, *polynomials);
    throw py::value_error("conv_code takes a preset (one of " + preset_list() +
                          ") or both constraint and polynomials, e.g. "
                          "conv_code(constraint=7, polynomials=\"171,-133\")");
}

//! A frame in words, for error messages: "100-bit frames, terminated, puncturing 3/4".
std::string
frame_text(int frame_bits, const std::string& termination, const std::string& puncturing)
{
    return std::to_string(frame_bits) + "-bit frames, " + termination +
           (puncturing.empty() ? "" : ", puncturing " + puncturing);
}

std::size_t
coded_length(const conv::code& c, int frame_bits, const std::string& termination)
{
    const auto t = conv::parse_termination(termination);
    conv::check_frame_bits(c, t, frame_bits);
    return conv::coded_length(c, t, frame_bits);
}

std::size_t punctured_length(const conv::code& c,
                             int frame_bits,
                             const std::string& termination,
                             const std::string& puncturing)
{
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    conv::check_frame_bits(c, t, frame_bits);
    return conv::punctured_length(c, p, t, frame_bits);
}

py::array_t<std::uint8_t> encode(const conv::code& c,
                                 const py::object& bits,
                                 const std::string& termination,
                                 const std::string& puncturing)
{
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    const rows in(bits,
                  any_width,
                  holds<std::uint8_t>,
                  "bits must be uint8 (0 or 1) of shape (n, frame_bits), or "
                  "(frame_bits,) for one frame");
    check_binary(in.array, "bits");
    const int frame_bits = int(in.width);
    conv::check_frame_bits(c, t, frame_bits);
    auto sent = in.result<std::uint8_t>(conv::punctured_length(c, p, t, frame_bits));
    const auto* input = static_cast<const std::uint8_t*>(in.array.data());
    std::uint8_t* output = sent.mutable_data();
    {
        py::gil_scoped_release release;
        if (p.none())
            conv::encode(c, t, frame_bits, input, in.count, output);
        else {
            std::vector<std::uint8_t> coded(in.count *
                                            conv::coded_length(c, t, frame_bits));
            conv::encode(c, t, frame_bits, input, in.count, coded.data());
            conv::puncture(c, p, t, frame_bits, coded.data(), in.count, output);
        }
    }
    return sent;
}

py::array_t<float> depuncture(const conv::code& c,
                              const py::object& llrs,
                              int frame_bits,
                              const std::string& termination,
                              const std::string& puncturing)
{
    const std::size_t width = punctured_length(c, frame_bits, termination, puncturing);
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    const rows in(llrs,
                  width,
                  holds<float>,
                  "llrs must be float32 of shape (n, " + std::to_string(width) +
                      ") for " + frame_text(frame_bits, termination, puncturing) +
                      ", or (" + std::to_string(width) + ",) for one frame");
    auto out = in.result<float>(conv::coded_length(c, t, frame_bits));
    const auto* input = static_cast<const float*>(in.array.data());
    float* output = out.mutable_data();
    {
        py::gil_scoped_release release;
        conv::depuncture(c, p, t, frame_bits, input, in.count, output);
    }
    return out;
}

std::string repr(const conv::code& c)
{
    const std::string text = c.text();
    return "gputurbo.conv_code(constraint=" + std::to_string(c.constraint) +
           ", polynomials='" + text.substr(text.find(' ') + 1) + "')";
}

const char* conv_code_doc =
    R"(A rate-1/n convolutional code: its encoder with puncturing, and depuncturing.

conv_code(preset) or conv_code(constraint=K, polynomials="171,-133")

preset: a named code, one of conv_presets(): "ccsds" (K=7 171,-133), "802.11" and "dvb"
  (K=7 133,171), "lte" (K=7 133,171,165), "gsm" (K=5 23,33), "cdma-r2" (K=9 753,561),
  "cdma-r3" (K=9 557,663,711).
constraint: the constraint length K = 3 ... 9.
polynomials: n = 2 ... 4 generators in octal, in the textbook convention (MATLAB's
  poly2trellis, 802.11's 133,171): the most significant of the K bits taps the current
  input bit. A leading minus inverts that output ("171,-133" is CCSDS's code).
Anything else raises ValueError saying what is expected.

The code bits of a frame: for each trellis step, the n outputs in the order of the
polynomials (gr-fec's cc_encoder order).

termination, in the methods: "terminated" (from state 0, K-1 zero tail bits back to
state 0), "truncated" (from state 0, no tail), "tail-biting" (starts in the state its
last K-1 bits leave, no tail) or "streaming" (the rows of one call are consecutive
pieces of one stream that starts in state 0; each call starts again from state 0).
puncturing, in the methods: "" (none); a rate "2/3", "3/4", "5/6" or "7/8" of the K=7
code of generators 171 and 133 (the patterns of DVB-S, which 802.11 and CCSDS share);
or a 0/1 pattern per output in the code's order, "110,101" (1: sent). The pattern
starts again at each frame (row).)";

const char* encode_doc = R"(Encodes frames into the code bits sent.

bits: uint8 of shape (n, frame_bits) with values 0 and 1, or a 1-D array of one frame.
termination, puncturing: see conv_code.
Returns uint8 of shape (n, punctured_length(frame_bits, termination, puncturing))
(1-D input: 1-D): each frame's code bits, step by step, the n outputs of each step in
the code's order, without the punctured ones. Bad input raises ValueError.)";

const char* depuncture_doc =
    R"(Puts an erasure (0.0) in place of each punctured code bit.

llrs: float32 of shape (n, punctured_length(frame_bits, termination, puncturing)), the
  received values of the bits encode() sent (in any sign convention: they are moved,
  not changed), or a 1-D array of one frame.
Returns float32 of shape (n, coded_length(frame_bits, termination)) (1-D input: 1-D):
  the values in the places of the code bits, 0.0 where a bit was punctured.)";

} // namespace

void bind_conv(py::module& m)
{
    py::class_<conv::code>(m, "conv_code", conv_code_doc)
        .def(py::init(&make_code),
             py::arg("preset") = py::none(),
             py::arg("constraint") = py::none(),
             py::arg("polynomials") = py::none())
        .def("encode",
             &encode,
             py::arg("bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             encode_doc)
        .def("depuncture",
             &depuncture,
             py::arg("llrs"),
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             depuncture_doc)
        .def("coded_length",
             &coded_length,
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             "Code bits of a frame of frame_bits information bits before puncturing: n "
             "per trellis step, frame_bits steps plus K-1 tail steps when terminated.")
        .def("punctured_length",
             &punctured_length,
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             "Code bits sent per frame of frame_bits information bits: coded_length() "
             "less the punctured ones (the pattern starts again at each frame).")
        .def_readonly("constraint", &conv::code::constraint, "The constraint length K.")
        .def_property_readonly(
            "polynomials",
            [](const conv::code& c) { return c.polynomials; },
            "The generators as ints, in the octal convention of conv_code (write "
            "them with oct()), without the inversion.")
        .def_property_readonly(
            "inverted",
            [](const conv::code& c) { return std::vector<bool>(c.inverted); },
            "Per output: whether its code bit is inverted.")
        .def_property_readonly("outputs", &conv::code::outputs, "n: code bits per step.")
        .def_property_readonly("states", &conv::code::states, "2^(K-1) trellis states.")
        .def_property_readonly(
            "text", &conv::code::text, "\"K=7 171,-133\": K and the polynomials.")
        .def("__repr__", &repr);

    m.def("conv_presets",
          &conv::preset_names,
          "The names conv_code() takes as preset, as a list.");
}
