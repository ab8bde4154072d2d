/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/viterbi_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(viterbi_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(21b60bb6892454f7b018d6bb171a2ce3) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/viterbi_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <viterbi_decoder_pdu_pydoc.h>

void bind_viterbi_decoder_pdu(py::module& m)
{
    using viterbi_decoder_pdu = ::gr::gputurbo::viterbi_decoder_pdu;

    gputurbo_bindings::decoder_class<viterbi_decoder_pdu>(
        m, "viterbi_decoder_pdu", D(viterbi_decoder_pdu), D(viterbi_decoder_pdu, make));
}
