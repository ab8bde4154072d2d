/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Written by hand in gr_modtool's layout; nothing regenerates it. After an edit of
 * include/gnuradio/gputurbo/turbo_decoder_pdu.h, update the binding and set the hash
 * below to the header's new MD5 sum (CMake warns while they differ).
 */
/* BINDTOOL_GEN_AUTOMATIC(0) */
/* BINDTOOL_USE_PYGCCXML(0) */
/* BINDTOOL_HEADER_FILE(turbo_decoder_pdu.h) */
/* BINDTOOL_HEADER_FILE_HASH(3160ed0b9478675bb785385e4cfbcf55) */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "block_class.h"
#include <gnuradio/gputurbo/turbo_decoder_pdu.h>
// Generated in the build tree from the header's Doxygen comments.
#include <turbo_decoder_pdu_pydoc.h>

void bind_turbo_decoder_pdu(py::module& m)
{
    using turbo_decoder_pdu = ::gr::gputurbo::turbo_decoder_pdu;

    gputurbo_bindings::decoder_class<turbo_decoder_pdu>(
        m, "turbo_decoder_pdu", D(turbo_decoder_pdu), D(turbo_decoder_pdu, make));
}
