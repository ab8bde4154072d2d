/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The LTE transport channel's engine side in Python: its parameter table, as the DL-SCH
 * PDU blocks check their defaults against it.
 */

#include <gnuradio/gputurbo/engine/lte/parameters.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>

namespace py = pybind11;

namespace {

// A parameter as gputurbo-bench --parameters-json writes one.
py::dict parameter_dict(const ::gputurbo::core::parameter& p)
{
    using ::gputurbo::core::parameter_kind;
    py::dict d;
    d["name"] = p.name;
    d["kind"] = ::gputurbo::core::to_string(p.kind);
    d["default"] = p.default_value;
    d["help"] = p.help;
    d["range"] = ::gputurbo::core::range_text(p);
    if (p.kind == parameter_kind::integer || p.kind == parameter_kind::real) {
        d["min"] = p.min;
        d["max"] = std::isinf(p.max) ? py::object(py::none()) : py::float_(p.max);
        d["min_exclusive"] = p.min_exclusive;
        d["zero_means"] =
            p.zero_means ? py::object(py::str(p.zero_means)) : py::object(py::none());
    }
    if (!p.choices.empty())
        d["choices"] = p.choices;
    if (!p.values.empty())
        d["values"] = p.values;
    return d;
}

} // namespace

void bind_lte(py::module& m)
{
    m.def(
        "transport_parameters",
        [] {
            py::list out;
            for (const auto& p : ::gputurbo::lte::transport_parameters())
                out.append(parameter_dict(p));
            return out;
        },
        "The LTE transport channel's own parameters (engine/lte/parameters.h: Qm, "
        "layers, rv, soft_buffer, c_init, early_stop), each a dict of name, kind, "
        "default, help and range (and min, max, zero_means, values where they apply), "
        "as gputurbo-bench --parameters-json writes the turbo code's.");
}
