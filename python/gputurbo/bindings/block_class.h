/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BINDINGS_BLOCK_CLASS_H
#define INCLUDED_GPUTURBO_BINDINGS_BLOCK_CLASS_H

// The Python class of a block or a gr-fec object, with the methods that its interface
// shares with others (gnuradio/gputurbo/block_interfaces.h) already bound: a binding
// adds only what is its own.

#include "block_arguments.h"

#include <gnuradio/block.h>
#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <type_traits>

// Generated in the build tree from block_interfaces.h's Doxygen comments.
#include <block_interfaces_pydoc.h>

namespace gputurbo_bindings {

namespace py = pybind11;

//! Binds the methods of each shared interface that \p cls's C++ class implements, with
//! the interface's docstrings.
template <class Class>
void def_interfaces(Class& cls)
{
    using T = typename Class::type;
    namespace gt = gr::gputurbo;
    if constexpr (std::is_base_of_v<gt::engine_status, T>)
        cls.def("backend", &T::backend, D(engine_status, backend))
            .def("device", &T::device, D(engine_status, device));
    if constexpr (std::is_base_of_v<gt::stream_decoder_status, T>)
        cls.def("partial_items",
                &T::partial_items,
                D(stream_decoder_status, partial_items))
            .def("misaligned_length_tags",
                 &T::misaligned_length_tags,
                 D(stream_decoder_status, misaligned_length_tags));
    if constexpr (std::is_base_of_v<gt::pdu_decoder_status, T>)
        cls.def("max_batch", &T::max_batch, D(pdu_decoder_status, max_batch))
            .def("decoded_pdus", &T::decoded_pdus, D(pdu_decoder_status, decoded_pdus))
            .def("failed_pdus", &T::failed_pdus, D(pdu_decoder_status, failed_pdus))
            .def("batches", &T::batches, D(pdu_decoder_status, batches));
    if constexpr (std::is_base_of_v<gt::fec_decoder_status, T>)
        cls.def("frames", &T::frames, D(fec_decoder_status, frames))
            .def("refused_frames",
                 &T::refused_frames,
                 D(fec_decoder_status, refused_frames));
    if constexpr (std::is_base_of_v<gt::turbo_iterations, T>)
        cls.def("set_iterations",
                &T::set_iterations,
                py::arg("iterations"),
                D(turbo_iterations, set_iterations))
            .def("iterations", &T::iterations, D(turbo_iterations, iterations));
    if constexpr (std::is_base_of_v<gt::conv_code, T>)
        cls.def("code", &T::code, D(conv_code, code));
}

//! A block's class: Python's base is gr.block.
template <class Block>
py::class_<Block, gr::block, gr::basic_block, std::shared_ptr<Block>>
block_class(py::module& m, const char* name, const char* doc)
{
    py::class_<Block, gr::block, gr::basic_block, std::shared_ptr<Block>> cls(
        m, name, doc);
    def_interfaces(cls);
    return cls;
}

//! A decoder block's class: block_class(), with make(options) from the arguments by
//! name (block_arguments.h) as its constructor.
template <class Block>
py::class_<Block, gr::block, gr::basic_block, std::shared_ptr<Block>>
decoder_class(py::module& m, const char* name, const char* doc, const char* make_doc)
{
    auto cls = block_class<Block>(m, name, doc);
    def_make(cls, &Block::make, make_doc);
    return cls;
}

//! The gr-fec base of a FECAPI object: generic_decoder or generic_encoder.
template <class Fec>
using fec_base = std::conditional_t<std::is_base_of_v<gr::fec::generic_decoder, Fec>,
                                    gr::fec::generic_decoder,
                                    gr::fec::generic_encoder>;

//! A FECAPI object's class, not a block's: Python's base is gr-fec's generic_decoder or
//! generic_encoder, so that fec.extended_decoder, fec.decoder, fec.async_decoder (and
//! the encoders') take it. That base is virtual: a pointer to it is not a pointer to
//! the object, so pybind11 must cast rather than assume single inheritance.
template <class Fec>
py::class_<Fec, fec_base<Fec>, std::shared_ptr<Fec>>
fec_class(py::module& m, const char* name, const char* doc)
{
    py::class_<Fec, fec_base<Fec>, std::shared_ptr<Fec>> cls(
        m, name, py::multiple_inheritance(), doc);
    def_interfaces(cls);
    return cls;
}

} // namespace gputurbo_bindings

#endif
