/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/engine_log.h"

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/version.h>
#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

// Headers for binding functions
/**************************************/
// The following comment block is used for
// gr_modtool to insert function prototypes
// Please do not delete
/**************************************/
// BINDING_FUNCTION_PROTOTYPES(
void bind_turbo_encoder(py::module& m);
void bind_turbo_decoder(py::module& m);
void bind_turbo_decoder_pdu(py::module& m);
void bind_turbo_encoder_fec(py::module& m);
void bind_turbo_decoder_fec(py::module& m);
void bind_conv_encoder(py::module& m);
void bind_conv_encoder_fec(py::module& m);
void bind_viterbi_decoder(py::module& m);
void bind_viterbi_decoder_pdu(py::module& m);
void bind_viterbi_decoder_fec(py::module& m);
void bind_dlsch_encoder_pdu(py::module& m);
void bind_dlsch_decoder_pdu(py::module& m);
void bind_pdcch_decoder_pdu(py::module& m);
// ) END BINDING_FUNCTION_PROTOTYPES

// import_array() is a macro that returns NULL on failure, so it needs a function of
// its own; it makes the NumPy C API usable in this module.
void* init_numpy()
{
    import_array();
    return NULL;
}

PYBIND11_MODULE(gputurbo_python, m)
{
    init_numpy();

    // The blocks derive from gr::block: its bindings must be loaded first.
    py::module::import("gnuradio.gr");
    // The FECAPI objects derive from gr-fec's generic_encoder and generic_decoder.
    py::module::import("gnuradio.fec");
    // The engine's messages (the numpy API's too: the package gputurbo, which
    // __init__.py re-exports) to GNU Radio's logger.
    gr::gputurbo::route_engine_log();

    /**************************************/
    // The following comment block is used for
    // gr_modtool to insert binding function calls
    // Please do not delete
    /**************************************/
    // BINDING_FUNCTION_CALLS(
    bind_turbo_encoder(m);
    bind_turbo_decoder(m);
    bind_turbo_decoder_pdu(m);
    bind_turbo_encoder_fec(m);
    bind_turbo_decoder_fec(m);
    bind_conv_encoder(m);
    bind_conv_encoder_fec(m);
    bind_viterbi_decoder(m);
    bind_viterbi_decoder_pdu(m);
    bind_viterbi_decoder_fec(m);
    bind_dlsch_encoder_pdu(m);
    bind_dlsch_decoder_pdu(m);
    bind_pdcch_decoder_pdu(m);
    // ) END BINDING_FUNCTION_CALLS

    m.attr("__version__") = ::gputurbo::core::version();
    m.def("engine_objects",
          &::gputurbo::core::batch_decoder::objects_alive,
          "Decoder engines alive in this process (a multi-GPU engine counts each GPU's "
          "part): how many engines the blocks hold.");
}
