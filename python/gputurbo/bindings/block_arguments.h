/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BINDINGS_BLOCK_ARGUMENTS_H
#define INCLUDED_GPUTURBO_BINDINGS_BLOCK_ARGUMENTS_H

// A decoder block's make() from Python with the keywords, positional order, defaults and
// docstring of its arguments (block_options.h), each a row of its family's parameter
// table: no binding restates them.

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/block_options.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <type_traits>

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

//! The options of \p block's make() from a call's arguments: its family's
//! options_from().
template <class Options>
Options
options_from(const std::string& block, const py::args& args, const py::kwargs& kwargs)
{
    const gr::gputurbo::block_values values = call_values(block, args, kwargs);
    if constexpr (std::is_same_v<Options, gr::gputurbo::turbo_options>)
        return gr::gputurbo::turbo_options_from(block, values);
    else if constexpr (std::is_same_v<Options, gr::gputurbo::viterbi_options>)
        return gr::gputurbo::viterbi_options_from(block, values);
    else if constexpr (std::is_same_v<Options, gr::gputurbo::dlsch_options>)
        return gr::gputurbo::dlsch_options_from(block, values);
    else
        return gr::gputurbo::pdcch_options_from(block, values);
}

//! Binds make(options) for the block of \p cls's name: a block's as its constructor; a
//! gr-fec object's (not a block) as the static method make, which returns the object
//! where gr-fec's make functions return its generic base.
template <class Class, class Made, class Options>
void def_make(Class& cls, Made (*make)(const Options&), const char* doc)
{
    using type = typename Class::type;
    const std::string block = py::str(cls.attr("__name__"));
    auto made = [=](const py::args& args, const py::kwargs& kwargs) {
        return std::dynamic_pointer_cast<type>(
            make(options_from<Options>(block, args, kwargs)));
    };
    py::options no_signature; // make_doc() writes it
    no_signature.disable_function_signatures();
    if constexpr (std::is_base_of_v<gr::block, type>)
        cls.def(py::init(made), make_doc(block, "__init__", doc).c_str());
    else
        cls.def_static("make", made, make_doc(block, "make", doc).c_str());
    cls.attr("make_arguments") = argument_list(block);
}

} // namespace gputurbo_bindings

#endif
