/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The Python package gputurbo: the engine on numpy arrays, without GNU Radio (pybind11
 * and the engine only). gnuradio.gputurbo re-exports it beside the blocks.
 */

#include <gnuradio/gputurbo/engine/core/version.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_engine(py::module& m);
void bind_conv(py::module& m);
void bind_lte(py::module& m);
void bind_control(py::module& m);

PYBIND11_MODULE(engine_python, m)
{
    bind_engine(m);
    bind_conv(m);
    bind_lte(m);
    bind_control(m);
    m.attr("__version__") = ::gputurbo::core::version();
}
