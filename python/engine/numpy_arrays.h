/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * numpy arrays in and out of the engine, for the numpy API's bindings: checks of dtype
 * and shape that raise ValueError saying what is expected and what was given.
 */

#ifndef INCLUDED_GPUTURBO_PYTHON_NUMPY_ARRAYS_H
#define INCLUDED_GPUTURBO_PYTHON_NUMPY_ARRAYS_H

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gputurbo::python {

namespace py = pybind11;

// What the engine reads: one C-contiguous, aligned block of memory.
constexpr int engine_layout =
    py::array::c_style | py::detail::npy_api::NPY_ARRAY_ALIGNED_;

inline std::string text(const py::handle& h) { return py::str(h).cast<std::string>(); }

//! Whether \p a holds values of type T (in this machine's byte order).
template <class T>
bool holds(const py::array& a)
{
    return py::detail::npy_api::get().PyArray_EquivTypes_(a.dtype().ptr(),
                                                          py::dtype::of<T>().ptr());
}

//! What an error message says was given: "float64 (10, 3084)", or the type of what
//! numpy could not read.
inline std::string given_text(const py::object& given, const py::array& a)
{
    return a ? text(a.dtype()) + " " + text(a.attr("shape"))
             : "a " + text(given.get_type().attr("__name__"));
}

/*!
 * \p a laid out as the engine reads it (engine_layout): \p a itself, or a copy. Where
 * numpy has no memory for the copy, MemoryError saying what it needed, with numpy's
 * error as its cause (py::array::ensure() would return a null array and drop the error).
 * \p name: the argument, as the message names it.
 */
inline py::array in_engine_layout(const py::array& a, const std::string& name)
{
    using py::detail::npy_api;
    PyObject* out = npy_api::get().PyArray_FromAny_(
        a.ptr(), nullptr, 0, 0, npy_api::NPY_ARRAY_ENSUREARRAY_ | engine_layout, nullptr);
    if (out)
        return py::reinterpret_steal<py::array>(out);
    py::error_already_set numpy_error; // taken out first: the message calls Python
    if (!numpy_error.matches(PyExc_MemoryError))
        throw numpy_error;
    const std::string message =
        name + ": no memory for a C-contiguous copy of the " + text(a.dtype()) + " " +
        text(a.attr("shape")) + " array (" + std::to_string(a.size()) + " values, " +
        std::to_string(a.nbytes()) +
        " bytes), which the engine reads: pass a C-contiguous array, or a smaller one";
    py::raise_from(numpy_error, PyExc_MemoryError, message.c_str());
    throw py::error_already_set();
}

//! A row width that rows accepts whatever it is (the array's gives it).
constexpr std::size_t any_width = std::size_t(-1);

/*!
 * An array of rows of \p width values: 2-D (n, width), or 1-D (width,) for one row.
 * Other shapes and dtypes raise ValueError: \p expected says what is wanted, and the
 * message adds what was given. A non-contiguous array is copied (in_engine_layout()).
 */
struct rows
{
    py::array array;
    std::size_t count;
    std::size_t width;
    bool single; // 1-D: the results have no row axis either

    rows(const py::object& given,
         const std::string& name,
         std::size_t width,
         bool (*dtype_ok)(const py::array&),
         const std::string& expected)
    {
        array = py::array::ensure(given);
        if (!array || !dtype_ok(array) || array.ndim() < 1 || array.ndim() > 2 ||
            (width != any_width && std::size_t(array.shape(array.ndim() - 1)) != width))
            throw py::value_error(expected + "; got " + given_text(given, array));
        single = array.ndim() == 1;
        count = single ? 1 : array.shape(0);
        this->width = array.shape(array.ndim() - 1);
        array = in_engine_layout(array, name);
    }

    //! A result array of one value per row.
    template <class T>
    py::array_t<T> result() const
    {
        return py::array_t<T>(row_axis());
    }

    //! A result array of \p width values per row.
    template <class T>
    py::array_t<T> result(std::size_t width) const
    {
        auto shape = row_axis();
        shape.push_back(py::ssize_t(width));
        return py::array_t<T>(shape);
    }

private:
    std::vector<py::ssize_t> row_axis() const
    {
        return single ? std::vector<py::ssize_t>{}
                      : std::vector<py::ssize_t>{ py::ssize_t(count) };
    }
};

//! ValueError unless every byte of \p a is 0 or 1.
inline void check_binary(const py::array& a, const std::string& name)
{
    const auto* first = static_cast<const std::uint8_t*>(a.data());
    const auto* last = first + a.size();
    const auto* bad = std::find_if(first, last, [](std::uint8_t b) { return b > 1; });
    if (bad != last)
        throw py::value_error(name + " must be 0 or 1; got " + std::to_string(*bad) +
                              " at flat index " + std::to_string(bad - first));
}

//! The bit format of a decode(..., packed=) argument.
inline ::gputurbo::core::bit_format bit_format_of(bool packed)
{
    return packed ? ::gputurbo::core::bit_format::packed
                  : ::gputurbo::core::bit_format::unpacked;
}

//! Calls \p decode(llrs) with the rows of \p in as typed LLRs (float32 or int8, checked)
//! with the GIL released, one call at a time on a decoder whose mutex is \p lock (the
//! engine takes no concurrent calls).
template <class Decode>
void with_rows(std::mutex& lock, const rows& in, Decode decode)
{
    const bool int8 = holds<std::int8_t>(in.array);
    const void* input = in.array.data();
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> guard(lock);
    if (int8)
        decode(static_cast<const std::int8_t*>(input));
    else
        decode(static_cast<const float*>(input));
}

//! Decodes the rows of \p in into \p bits (in \p format) and \p status.
inline void decode_rows(::gputurbo::core::batch_decoder& decoder,
                        std::mutex& lock,
                        int block,
                        const rows& in,
                        std::uint8_t* bits,
                        ::gputurbo::core::codeword_status* status,
                        ::gputurbo::core::bit_format format)
{
    with_rows(lock, in, [&](const auto* llrs) {
        decoder.decode(block, llrs, in.count, bits, status, format);
    });
}

/*!
 * The result of a soft decode: \p width values a row of \p in, float32, or int8 in units
 * of \p int8_scale (output_type "int8": core::soft_values), and where decode_soft()
 * writes them.
 */
struct soft_result
{
    py::array values;
    ::gputurbo::core::soft_values soft;

    soft_result(const rows& in,
                std::size_t width,
                ::gputurbo::core::soft_output kind,
                bool int8,
                float int8_scale)
    {
        soft.kind = kind;
        if (int8) {
            auto q = in.result<std::int8_t>(width);
            soft.int8 = q.mutable_data();
            soft.int8_scale = int8_scale;
            values = q;
        } else {
            auto f = in.result<float>(width);
            soft.values = f.mutable_data();
            values = f;
        }
    }
};

//! ValueError for packed bits asked of soft output, which has one value a bit.
inline void check_unpacked(bool packed)
{
    if (packed)
        throw py::value_error("packed=True goes with output=\"bits\" only: soft output "
                              "is one value a bit (float32, or int8 with "
                              "output_type=\"int8\")");
}

//! Decodes the rows of \p in into soft values (core::soft_values) and \p status.
inline void decode_rows_soft(::gputurbo::core::batch_decoder& decoder,
                             std::mutex& lock,
                             int block,
                             const rows& in,
                             ::gputurbo::core::soft_values soft,
                             ::gputurbo::core::codeword_status* status)
{
    with_rows(lock, in, [&](const auto* llrs) {
        decoder.decode_soft(block, llrs, in.count, soft, nullptr, status);
    });
}

//! Each codeword's status into the iterations (int32) and passed (bool) arrays.
template <class Iterations, class Passed>
void copy_status(const std::vector<::gputurbo::core::codeword_status>& status,
                 Iterations& iterations,
                 Passed& passed)
{
    auto it = iterations.mutable_data();
    auto ok = passed.mutable_data();
    for (std::size_t i = 0; i < status.size(); ++i) {
        it[i] = status[i].iterations;
        ok[i] = status[i].passed;
    }
}

} // namespace gputurbo::python

#endif
