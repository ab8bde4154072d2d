/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BINDINGS_BLOCK_ARGUMENTS_H
#define INCLUDED_GPUTURBO_BINDINGS_BLOCK_ARGUMENTS_H

// A decoder block's make() from Python with the keywords, positional order, defaults and
// docstring of its arguments (block_options.h), each a row of its family's parameter
// table: no binding restates them.

#include <gnuradio/gputurbo/block_options.h>
#include <pybind11/pybind11.h>

#include <string>

namespace gputurbo_bindings {

namespace py = pybind11;

//! The values of a call's arguments by the block's argument names, each of its
//! parameter's kind; TypeError, as Python's own, for a wrong call or a value of another
//! type (K as block_size_arg.h says).
gr::gputurbo::block_values
call_values(const std::string& block, const py::args& args, const py::kwargs& kwargs);

//! "FUNCTION(self, K: int, algorithm: str = 'scaled-max-log', …)", then \p doc, then
//! each argument's help and range from the table.
std::string make_doc(const std::string& block, const char* function, const char* doc);

//! The block's arguments for Python (the class attribute make_arguments, which the
//! GRC generator and tests read): a dict each with name, parameter (the table's name),
//! kind, default (absent where required), choices (those the block offers), range
//! (in words), help, and min, max (None: unbounded), min_exclusive, zero_means and
//! values as the table has them.
py::list argument_list(const std::string& block);

//! Binds make(options_from(block, values)) as the class's constructor.
template <class Class, class Options, class Make>
void def_make_init(Class& cls,
                   const std::string& block,
                   Options (*options_from)(const std::string&,
                                           const gr::gputurbo::block_values&),
                   Make make,
                   const char* doc)
{
    py::options no_signature; // make_doc() writes it
    no_signature.disable_function_signatures();
    cls.def(py::init([=](const py::args& args, const py::kwargs& kwargs) {
                return make(options_from(block, call_values(block, args, kwargs)));
            }),
            make_doc(block, "__init__", doc).c_str());
    cls.attr("make_arguments") = argument_list(block);
}

//! Binds make(options_from(block, values)) as the static method make (gr-fec's
//! objects: the class is not a block).
template <class Class, class Options, class Make>
void def_make_static(Class& cls,
                     const std::string& block,
                     Options (*options_from)(const std::string&,
                                             const gr::gputurbo::block_values&),
                     Make make,
                     const char* doc)
{
    py::options no_signature;
    no_signature.disable_function_signatures();
    cls.def_static(
        "make",
        [=](const py::args& args, const py::kwargs& kwargs) {
            return make(options_from(block, call_values(block, args, kwargs)));
        },
        make_doc(block, "make", doc).c_str());
    cls.attr("make_arguments") = argument_list(block);
}

} // namespace gputurbo_bindings

#endif
