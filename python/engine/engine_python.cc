/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The engine on numpy arrays, without a flowgraph: gputurbo.turbo_engine, and the LTE
 * code's block sizes, interleaver and CRCs. This file converts arrays and calls the
 * engine; the decoding, the parameter checks and their wording are the engine's.
 */

#include "numpy_arrays.h"
#include "turbo_config.h"

#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/parameters.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

using namespace gputurbo::python;
namespace turbo = ::gputurbo::turbo;
namespace lte = ::gputurbo::lte;

lte::crc crc_of(const std::string& name)
{
    if (name == "crc24a")
        return lte::crc::crc24a;
    if (name == "crc24b")
        return lte::crc::crc24b;
    if (name == "crc16")
        return lte::crc::crc16;
    if (name == "crc8")
        return lte::crc::crc8;
    throw py::value_error("unknown crc '" + name +
                          "': use one of crc24a, crc24b, crc16, crc8");
}

//! A 1-D uint8 array of 0/1 values, contiguous.
py::array bit_vector(const py::object& given)
{
    py::array a = py::array::ensure(given);
    if (!a || a.ndim() != 1 || !holds<std::uint8_t>(a))
        throw py::value_error("bits must be a 1-D uint8 array of 0/1 values; got " +
                              given_text(given, a));
    a = in_engine_layout(a, "bits");
    check_binary(a, "bits");
    return a;
}

py::array_t<std::uint8_t> crc_bits(lte::crc type, const py::object& given)
{
    const py::array bits = bit_vector(given);
    const std::size_t n = bits.size();
    const int L = lte::crc_length(type);
    std::vector<std::uint8_t> block(n + L);
    std::copy_n(static_cast<const std::uint8_t*>(bits.data()), n, block.begin());
    lte::attach_crc(type, block.data(), block.size());
    return py::array_t<std::uint8_t>(L, block.data() + n);
}

class turbo_engine
{
public:
    turbo_engine(int K,
                 const std::string& backend,
                 const std::string& llr_sign,
                 float int8_scale,
                 const std::string& algorithm,
                 int iterations,
                 float scaling,
                 int subblocks,
                 const std::string& guard,
                 int guard_window,
                 const std::string& early_stop,
                 float stop_threshold,
                 const std::string& layout,
                 int threads,
                 const std::string& devices,
                 const std::string& arithmetic)
        : d_llr_sign(llr_sign)
    {
        auto config = turbo_config({ { "algorithm", algorithm },
                                     { "iterations", iterations },
                                     { "scaling", scaling },
                                     { "subblocks", subblocks },
                                     { "guard", guard },
                                     { "guard_window", guard_window },
                                     { "early_stop", early_stop },
                                     { "stop_threshold", stop_threshold },
                                     { "layout", layout },
                                     { "llr_sign", llr_sign },
                                     { "threads", threads },
                                     { "devices", devices },
                                     { "arithmetic", arithmetic } });
        turbo::qpp(K); // K = 0, which the engine takes for "none", is refused too
        config.K = K;
        config.int8_scale = int8_scale;
        d_decoder = turbo::make_decoder(config, backend);
    }

    py::tuple decode(const py::object& llrs,
                     bool packed,
                     const std::string& output,
                     const std::string& output_type)
    {
        const auto soft = ::gputurbo::core::parse_output(output);
        const bool int8 = ::gputurbo::core::parse_output_type(output_type);
        if (soft != ::gputurbo::core::soft_output::none)
            return decode_soft(llrs, packed, soft, int8);
        const int K = this->K();
        const rows in = input_rows(llrs);
        const auto format = bit_format_of(packed);
        auto bits = in.result<std::uint8_t>(::gputurbo::core::output_bytes(format, K));
        auto iterations = in.result<std::int32_t>();
        auto passed = in.result<bool>();
        std::vector<turbo::codeword_status> status(in.count);
        decode_rows(
            *d_decoder, d_mutex, K, in, bits.mutable_data(), status.data(), format);
        copy_status(status, iterations, passed);
        return py::make_tuple(bits, iterations, passed);
    }

    // decode(output="llr" | "extrinsic"): float32 or int8 values instead of the bits.
    py::tuple decode_soft(const py::object& llrs,
                          bool packed,
                          ::gputurbo::core::soft_output kind,
                          bool int8)
    {
        check_unpacked(packed);
        const int K = this->K();
        const rows in = input_rows(llrs);
        const soft_result out(in, K, kind, int8, d_decoder->config().int8_scale);
        auto iterations = in.result<std::int32_t>();
        auto passed = in.result<bool>();
        std::vector<turbo::codeword_status> status(in.count);
        decode_rows_soft(*d_decoder, d_mutex, K, in, out.soft, status.data());
        copy_status(status, iterations, passed);
        return py::make_tuple(out.values, iterations, passed);
    }

    py::array_t<std::uint8_t> encode(const py::object& bits)
    {
        const int K = this->K();
        const rows in(bits,
                      "bits",
                      K,
                      holds<std::uint8_t>,
                      "bits must be uint8 (0 or 1) of shape (n, K) = (n, " +
                          std::to_string(K) + ") for K=" + std::to_string(K) + ", or (" +
                          std::to_string(K) + ",) for one block");
        check_binary(in.array, "bits");
        auto code = in.result<std::uint8_t>(codeword_length());
        const auto* input = static_cast<const std::uint8_t*>(in.array.data());
        std::uint8_t* output = code.mutable_data();
        {
            py::gil_scoped_release release;
            turbo::encode(K, input, in.count, output, d_decoder->config().input_layout);
        }
        return code;
    }

    int K() const { return d_decoder->config().K; }
    std::size_t codeword_length() const { return turbo::codeword_length(K()); }
    std::string backend() const { return d_decoder->backend(); }
    std::string device() const { return d_decoder->device(); }
    int subblocks() const { return d_decoder->subblocks(); }
    std::string arithmetic() const
    {
        return turbo::to_string(d_decoder->metric_arithmetic());
    }
    const std::string& llr_sign() const { return d_llr_sign; }

    std::string repr() const
    {
        return "gputurbo.turbo_engine(K=" + std::to_string(K()) + ", backend='" +
               backend() + "', llr_sign='" + d_llr_sign +
               "', subblocks=" + std::to_string(subblocks()) + ")";
    }

private:
    rows input_rows(const py::object& llrs) const
    {
        const std::size_t length = codeword_length();
        return rows(
            llrs,
            "llrs",
            length,
            [](const py::array& a) { return holds<float>(a) || holds<std::int8_t>(a); },
            "llrs must be float32 or int8 of shape (n, 3K+12) = (n, " +
                std::to_string(length) + ") for K=" + std::to_string(K()) + ", or (" +
                std::to_string(length) + ",) for one codeword");
    }

    std::unique_ptr<turbo::decoder> d_decoder;
    std::mutex d_mutex;
    std::string d_llr_sign;
};

const char* turbo_engine_doc =
    R"(LTE turbo decoder (3GPP TS 36.212 §5.1.3.2) on numpy arrays, without a flowgraph.

turbo_engine(K=6144, backend="auto", llr_sign="positive-one", int8_scale=8.0,
             algorithm=..., iterations=..., ...)

K: information bits per codeword, one of the 188 LTE sizes (lte_block_sizes()).
backend: "auto" (CUDA when this build and machine can run it, else the CPU), "cpu" or
  "cuda"; the backend property says which one runs. A backend this build or machine lacks
  raises RuntimeError with the reason.
llr_sign: the sign convention of the input LLRs.
  "positive-one" (default): GNU Radio's, a positive LLR means bit 1 (what
  digital.constellation_soft_decoder_cf and gr-fec produce); for BPSK 0 -> -1, 1 -> +1
  over AWGN, LLR = 2y/sigma^2.
  "positive-zero": L = ln P(0)/P(1), a positive LLR means bit 0 (the engine's own).
int8_scale: int8 input and output: the value q means the LLR q / int8_scale.
The other parameters are turbo_decoder's, with the same names, ranges and defaults:
algorithm, iterations, scaling, subblocks, guard, guard_window, early_stop,
stop_threshold, layout, threads, devices (CUDA devices: "0", "0,1" or "all") and
arithmetic. A bad value raises ValueError naming the parameter and its range.

One object decodes one call at a time (concurrent calls from several threads wait for
each other); the GIL is released while it decodes.)";

const char* decode_doc = R"(Decodes a batch of codewords in one engine call.

llrs: a numpy array of float32 or int8 (int8: q means q / int8_scale), shape
  (n, 3K+12), each row one codeword in the order of `layout` (the order encode() writes),
  signs as `llr_sign` says. A 1-D array of 3K+12 values is one codeword. A
  non-contiguous array is copied first. NaN is an erasure; values beyond +-1000 are
  clamped. Another dtype or shape raises ValueError.
packed: False (default): one byte per bit; True: 8 bits per byte, the first bit in the
  most significant bit, each codeword on its own bytes (numpy.packbits(bits, axis=1) of
  the unpacked bits; numpy.unpackbits(bits, axis=1, count=K) undoes it).
output: "bits" (default); "llr": the a-posteriori LLR of each information bit instead,
  float32, in the sign of llr_sign (positive-one: a positive value means 1; its sign is
  the bit output="bits" gives; with early_stop, the values of the iteration that
  stopped); "extrinsic": the a-posteriori LLR less the bit's own input LLR (as the
  decoder read it: clamped, and in steps of 1/16 with arithmetic "int16"), what an
  iterative receiver feeds back. int16 values come in steps of 1/32.
output_type: the soft values' type: "float" (default, float32) or "int8", a quarter of
  the bytes in the units of int8 input: round(L * int8_scale), halves away from zero,
  saturated to +-127 (quantize_llrs() of the float32 values). No effect on bits.
Returns (bits, iterations, passed): bits uint8 of shape (n, K), each 0 or 1 (packed:
  (n, K/8); output "llr" or "extrinsic": float32 or int8 (n, K)); iterations int32 (n,), the
  full iterations each codeword ran; passed bool (n,), whether its early-stop rule held
  at the end and it carries information (with early_stop="off" only an erased or
  near-zero codeword fails). For a 1-D input: bits (K,) (packed: (K/8,)), and
  iterations and passed 0-d arrays.)";

const char* encode_doc = R"(Encodes blocks of K bits into codewords of 3K+12 code bits.

bits: uint8 of shape (n, K) with values 0 and 1 (others raise ValueError), or a 1-D
  array of K bits for one block.
Returns uint8 of shape (n, 3K+12) (1-D input: (3K+12,)): the code bits in the order
  of `layout`, which is what decode() reads ("interleaved": d0_k d1_k d2_k triples,
  k = 0 ... K+3, the 12 tail bits last).)";

} // namespace

void bind_engine(py::module& m)
{
    py::class_<turbo_engine>(m, "turbo_engine", turbo_engine_doc)
        .def(py::init<int,
                      const std::string&,
                      const std::string&,
                      float,
                      const std::string&,
                      int,
                      float,
                      int,
                      const std::string&,
                      int,
                      const std::string&,
                      float,
                      const std::string&,
                      int,
                      const std::string&,
                      const std::string&>(),
             keyword("K"),
             py::arg("backend") = "auto",
             keyword("llr_sign"),
             keyword("int8_scale"),
             keyword("algorithm"),
             keyword("iterations"),
             keyword("scaling"),
             keyword("subblocks"),
             keyword("guard"),
             keyword("guard_window"),
             keyword("early_stop"),
             keyword("stop_threshold"),
             keyword("layout"),
             keyword("threads"),
             keyword("devices"),
             keyword("arithmetic"))
        .def("decode",
             &turbo_engine::decode,
             py::arg("llrs"),
             py::arg("packed") = false,
             keyword("output"),
             keyword("output_type"),
             decode_doc)
        .def("encode", &turbo_engine::encode, py::arg("bits"), encode_doc)
        .def_property_readonly("K", &turbo_engine::K, "Information bits per codeword.")
        .def_property_readonly("codeword_length",
                               &turbo_engine::codeword_length,
                               "LLRs per codeword: 3K+12.")
        .def_property_readonly(
            "backend", &turbo_engine::backend, "The backend in use: \"cpu\" or \"cuda\".")
        .def_property_readonly("device",
                               &turbo_engine::device,
                               "A description of the device the backend runs on.")
        .def_property_readonly(
            "subblocks",
            &turbo_engine::subblocks,
            "Sub-blocks per codeword in use (the choice when made with subblocks=0).")
        .def_property_readonly("arithmetic",
                               &turbo_engine::arithmetic,
                               "The metric arithmetic in use: \"int16\" or \"float32\" "
                               "(the choice when made with arithmetic=\"auto\").")
        .def_property_readonly("llr_sign",
                               &turbo_engine::llr_sign,
                               "\"positive-one\" or \"positive-zero\", as made.")
        .def("__repr__", &turbo_engine::repr);

    m.def(
        "lte_block_sizes",
        [] {
            std::vector<int> sizes;
            for (const auto& row : turbo::qpp_table())
                sizes.push_back(row.K);
            return sizes;
        },
        "The 188 block sizes K of 3GPP TS 36.212 Table 5.1.3-3, in increasing order, as "
        "a list.");
    m.def(
        "qpp_interleaver",
        [](int K) {
            const auto pi = turbo::interleaver(K);
            return py::array_t<std::int64_t>(
                py::ssize_t(pi.size()),
                std::vector<std::int64_t>(pi.begin(), pi.end()).data());
        },
        py::arg("K"),
        "The QPP interleaver of 36.212 §5.1.3.2.3 for block size K: an int64 array pi of "
        "K indices, pi[i] = (f1 i + f2 i^2) mod K. Its direction is 36.212's: the "
        "interleaved block is c'[i] = c[pi[i]], i.e. c[pi] in numpy. ValueError for a K "
        "that is no LTE size.");
    m.def(
        "quantize_llrs",
        [](const py::object& llrs, float int8_scale) {
            py::array a = py::array::ensure(llrs);
            if (!a || !holds<float>(a))
                throw py::value_error("llrs must be a float32 array; got " +
                                      given_text(llrs, a));
            a = in_engine_layout(a, "llrs");
            ::gputurbo::core::check(turbo::parameter("int8_scale"), int8_scale);
            std::vector<py::ssize_t> shape(a.shape(), a.shape() + a.ndim());
            py::array_t<std::int8_t> q(shape);
            ::gputurbo::core::quantize_llrs(static_cast<const float*>(a.data()),
                                            a.size(),
                                            q.mutable_data(),
                                            int8_scale);
            return q;
        },
        py::arg("llrs"),
        keyword("int8_scale"),
        "float32 LLRs as the int8 values turbo_engine reads with the same int8_scale: "
        "round(L * int8_scale), halves away from zero, saturated to +-127; NaN becomes "
        "0. "
        "The result has the input's shape.");
    m.def(
        "crc24a",
        [](const py::object& bits) { return crc_bits(lte::crc::crc24a, bits); },
        py::arg("bits"),
        "The 24 parity bits of gCRC24A (36.212 §5.1.1, transport blocks) of a 1-D uint8 "
        "array of 0/1 bits, as a uint8 array p_0 ... p_23 in the order they are attached "
        "after the data.");
    m.def(
        "crc24b",
        [](const py::object& bits) { return crc_bits(lte::crc::crc24b, bits); },
        py::arg("bits"),
        "The 24 parity bits of gCRC24B (36.212 §5.1.1, code blocks) of a 1-D uint8 array "
        "of 0/1 bits, as a uint8 array p_0 ... p_23 in the order they are attached after "
        "the data.");
    m.def(
        "crc",
        [](const py::object& bits, const std::string& crc) {
            return crc_bits(crc_of(crc), bits);
        },
        py::arg("bits"),
        py::arg("crc") = "crc24a",
        "The parity bits of one of the CRCs of 36.212 §5.1.1 (crc \"crc24a\", "
        "\"crc24b\", \"crc16\" or \"crc8\": 24, 24, 16 or 8 bits) of a 1-D uint8 array "
        "of 0/1 bits, as a uint8 array p_0 ... p_(L-1) in the order they are attached "
        "after the data.");
    m.def(
        "crc_ok",
        [](const py::object& bits, const std::string& crc) {
            const py::array a = bit_vector(bits);
            return lte::check_crc(
                crc_of(crc), static_cast<const std::uint8_t*>(a.data()), a.size());
        },
        py::arg("bits"),
        py::arg("crc") = "crc24a",
        "Whether a 1-D uint8 array of 0/1 bits, data followed by its CRC bits, checks: "
        "crc \"crc24a\", \"crc24b\", \"crc16\" or \"crc8\". False for fewer bits than "
        "the CRC has.");
}
