/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_arguments.h"
#include "block_size_arg.h"

#include <algorithm>
#include <climits>
#include <variant>

#include <pybind11/stl.h>

namespace gputurbo_bindings {

namespace core = ::gputurbo::core;

namespace {

const char* python_type(core::parameter_kind kind)
{
    switch (kind) {
    case core::parameter_kind::integer:
        return "int";
    case core::parameter_kind::real:
        return "float";
    case core::parameter_kind::flag:
        return "bool";
    case core::parameter_kind::choice:
    case core::parameter_kind::text:
        break;
    }
    return "str";
}

[[noreturn]] void wrong_type(const std::string& block,
                             const gr::gputurbo::block_argument& a,
                             py::handle value)
{
    throw py::type_error(
        block + "(): " + a.name + " must be " + python_type(a.parameter.kind) + ": got " +
        std::string(py::repr(value)) + " (" + Py_TYPE(value.ptr())->tp_name + ")");
}

// A Python value as its parameter's kind, converted as pybind11 converts a function's
// arguments: an int where a float is wanted, a NumPy scalar; never a float for an int
// nor a number for a text.
core::value to_value(const std::string& block,
                     const gr::gputurbo::block_argument& a,
                     py::handle value)
{
    const core::parameter& p = a.parameter;
    if (std::string(p.name) == "K") // the turbo block size, as every make() takes it
        return (long long)py::cast<block_size_arg>(value).value;
    try {
        switch (p.kind) {
        case core::parameter_kind::integer:
            if (!PyIndex_Check(value.ptr()))
                wrong_type(block, a, value);
            return py::cast<long long>(value);
        case core::parameter_kind::real:
            return py::cast<double>(value);
        case core::parameter_kind::flag:
            return py::cast<bool>(value);
        case core::parameter_kind::choice:
        case core::parameter_kind::text:
            if (!PyUnicode_Check(value.ptr()))
                wrong_type(block, a, value);
            return py::cast<std::string>(value);
        }
    } catch (const py::cast_error&) {
        if (p.kind == core::parameter_kind::integer && PyIndex_Check(value.ptr()))
            throw py::value_error(core::assignment(p, std::string(py::str(value))) +
                                  " is out of range: use " + core::range_text(p));
        wrong_type(block, a, value);
    }
    wrong_type(block, a, value);
}

// A default as Python writes it: 6, 0.75, True, 'scaled-max-log'.
std::string python_literal(const core::parameter& p)
{
    const std::string text = p.default_value;
    switch (p.kind) {
    case core::parameter_kind::integer:
        return text;
    case core::parameter_kind::real: // 40.0, not 40
        return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;
    case core::parameter_kind::flag:
        return text == "true" ? "True" : "False";
    case core::parameter_kind::choice:
    case core::parameter_kind::text:
        break;
    }
    return "'" + text + "'";
}

} // namespace

gr::gputurbo::block_values
call_values(const std::string& block, const py::args& args, const py::kwargs& kwargs)
{
    const auto& arguments = gr::gputurbo::block_arguments(block);
    if (args.size() > arguments.size())
        throw py::type_error(block + "() takes at most " +
                             std::to_string(arguments.size()) + " arguments (" +
                             std::to_string(args.size()) + " given)");
    gr::gputurbo::block_values values;
    for (std::size_t i = 0; i < args.size(); ++i)
        values[arguments[i].name] = to_value(block, arguments[i], args[i]);
    for (const auto& [key, value] : kwargs) {
        const std::string name = py::str(key);
        const auto a = std::find_if(arguments.begin(),
                                    arguments.end(),
                                    [&](const auto& a) { return a.name == name; });
        if (a == arguments.end())
            throw py::type_error(block + "() got an unexpected keyword argument '" +
                                 name + "'");
        if (values.count(name))
            throw py::type_error(block + "() got multiple values for argument '" + name +
                                 "'");
        values[name] = to_value(block, *a, value);
    }
    for (const auto& a : arguments)
        if (a.required && !values.count(a.name))
            throw py::type_error(block + "() missing required argument '" + a.name + "'");
    return values;
}

py::list argument_list(const std::string& block)
{
    py::list out;
    for (const auto& a : gr::gputurbo::block_arguments(block)) {
        const core::parameter& p = a.parameter;
        py::dict d;
        d["name"] = a.name;
        d["parameter"] = p.name;
        d["kind"] = core::to_string(p.kind);
        if (!a.required)
            std::visit([&](const auto& v) { d["default"] = v; }, core::default_of(p));
        d["choices"] = p.choices;
        d["range"] = core::range_text(p);
        d["min"] = p.min;
        d["max"] = p.max == core::unbounded ? py::object(py::none()) : py::float_(p.max);
        d["min_exclusive"] = p.min_exclusive;
        d["zero_means"] = p.zero_means ? py::object(py::str(p.zero_means)) : py::none();
        d["values"] = p.values;
        d["help"] = p.help;
        out.append(d);
    }
    return out;
}

std::string make_doc(const std::string& block, const char* function, const char* doc)
{
    const bool method = std::string(function) == "__init__";
    std::string signature = std::string(function) + (method ? "(self" : "(");
    std::string args = "\n\nArgs:";
    for (const auto& a : gr::gputurbo::block_arguments(block)) {
        const core::parameter& p = a.parameter;
        if (method || &a != &gr::gputurbo::block_arguments(block).front())
            signature += ", ";
        signature += a.name + ": " + python_type(p.kind);
        if (!a.required)
            signature += " = " + python_literal(p);
        const std::string range = core::range_text(p);
        args += "\n    " + a.name + ": " + p.help + (range.empty() ? "" : "; " + range);
    }
    return signature + ")\n\n" + doc + args;
}

} // namespace gputurbo_bindings
