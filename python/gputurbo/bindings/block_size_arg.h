/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BINDINGS_BLOCK_SIZE_ARG_H
#define INCLUDED_GPUTURBO_BINDINGS_BLOCK_SIZE_ARG_H

// K as every block's make() takes it from Python: an int, or anything with __index__
// (a NumPy integer). Anything else, a float with an integral value included (as for
// GRC's int parameters), raises a TypeError that says what K must be, where pybind11
// would list the overloads. The LTE sizes themselves are checked by make() (ValueError
// naming the nearest ones).

#include <pybind11/pybind11.h>

#include <climits>
#include <string>

struct block_size_arg
{
    int value = 0;
};

namespace pybind11 {
namespace detail {

template <>
struct type_caster<block_size_arg>
{
    PYBIND11_TYPE_CASTER(block_size_arg, const_name("int"));

    bool load(handle src, bool)
    {
        if (!PyIndex_Check(src.ptr()))
            throw type_error("K must be an integer, one of the 188 LTE block sizes "
                             "40 ... 6144: got " +
                             std::string(repr(src)) + " (" + Py_TYPE(src.ptr())->tp_name +
                             ")");
        const auto index = reinterpret_steal<object>(PyNumber_Index(src.ptr()));
        if (!index)
            throw error_already_set();
        int overflow = 0;
        const long long K = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
        if (overflow != 0 || K < INT_MIN || K > INT_MAX)
            throw value_error("K=" + std::string(str(index)) +
                              " is not an LTE turbo block size (40 ... 6144)");
        value.value = int(K);
        return true;
    }
};

} // namespace detail
} // namespace pybind11

//! make(K, rest...) with K taken as a block_size_arg, for py::init() and def_static().
template <class R, class... Rest>
auto with_block_size(R (*make)(int, Rest...))
{
    return [make](block_size_arg K, Rest... rest) { return make(K.value, rest...); };
}

#endif
