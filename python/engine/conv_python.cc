/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Convolutional codes on numpy arrays: gputurbo.conv_code (the code, its encoder with
 * puncturing, depuncturing), gputurbo.viterbi_engine (its decoder of frames),
 * gputurbo.viterbi_stream (of a stream) and gputurbo.conv_presets(). This file converts
 * arrays and calls the engine; the checks and their wording are the engine's (its
 * std::invalid_argument reaches Python as ValueError).
 */

#include "numpy_arrays.h"
#include "turbo_config.h" // keyword()

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

using namespace gputurbo::python;
namespace conv = ::gputurbo::conv;

std::string preset_list()
{
    std::string names;
    for (const auto& name : conv::preset_names())
        names += (names.empty() ? "" : ", ") + name;
    return names;
}

conv::code make_code(const std::optional<std::string>& preset,
                     const std::optional<int>& constraint,
                     const std::optional<std::string>& polynomials)
{
    if (preset && !constraint && !polynomials)
        return conv::preset(*preset);
    if (!preset && constraint && polynomials)
        return conv::parse_code(*constraint, *polynomials);
    throw py::value_error("conv_code takes a preset (one of " + preset_list() +
                          ") or both constraint and polynomials, e.g. "
                          "conv_code(constraint=7, polynomials=\"171,-133\")");
}

//! A frame in words, for error messages: "100-bit frames, terminated, puncturing 3/4".
std::string
frame_text(int frame_bits, const std::string& termination, const std::string& puncturing)
{
    return std::to_string(frame_bits) + "-bit frames, " + termination +
           (puncturing.empty() ? "" : ", puncturing " + puncturing);
}

std::size_t
coded_length(const conv::code& c, int frame_bits, const std::string& termination)
{
    const auto t = conv::parse_termination(termination);
    conv::check_frame_bits(c, t, frame_bits);
    return conv::coded_length(c, t, frame_bits);
}

std::size_t punctured_length(const conv::code& c,
                             int frame_bits,
                             const std::string& termination,
                             const std::string& puncturing)
{
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    conv::check_frame_bits(c, t, frame_bits);
    return conv::punctured_length(c, p, t, frame_bits);
}

py::array_t<std::uint8_t> encode(const conv::code& c,
                                 const py::object& bits,
                                 const std::string& termination,
                                 const std::string& puncturing)
{
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    const rows in(bits,
                  "bits",
                  any_width,
                  holds<std::uint8_t>,
                  "bits must be uint8 (0 or 1) of shape (n, frame_bits), or "
                  "(frame_bits,) for one frame");
    check_binary(in.array, "bits");
    const int frame_bits = int(in.width);
    conv::check_frame_bits(c, t, frame_bits);
    auto sent = in.result<std::uint8_t>(conv::punctured_length(c, p, t, frame_bits));
    const auto* input = static_cast<const std::uint8_t*>(in.array.data());
    std::uint8_t* output = sent.mutable_data();
    {
        py::gil_scoped_release release;
        if (p.none())
            conv::encode(c, t, frame_bits, input, in.count, output);
        else {
            std::vector<std::uint8_t> coded(in.count *
                                            conv::coded_length(c, t, frame_bits));
            conv::encode(c, t, frame_bits, input, in.count, coded.data());
            conv::puncture(c, p, t, frame_bits, coded.data(), in.count, output);
        }
    }
    return sent;
}

py::array_t<float> depuncture(const conv::code& c,
                              const py::object& llrs,
                              int frame_bits,
                              const std::string& termination,
                              const std::string& puncturing)
{
    const std::size_t width = punctured_length(c, frame_bits, termination, puncturing);
    const auto t = conv::parse_termination(termination);
    const auto p = conv::parse_puncturing(puncturing, c);
    const rows in(llrs,
                  "llrs",
                  width,
                  holds<float>,
                  "llrs must be float32 of shape (n, " + std::to_string(width) +
                      ") for " + frame_text(frame_bits, termination, puncturing) +
                      ", or (" + std::to_string(width) + ",) for one frame");
    auto out = in.result<float>(conv::coded_length(c, t, frame_bits));
    const auto* input = static_cast<const float*>(in.array.data());
    float* output = out.mutable_data();
    {
        py::gil_scoped_release release;
        conv::depuncture(c, p, t, frame_bits, input, in.count, output);
    }
    return out;
}

class viterbi_engine
{
public:
    viterbi_engine(const conv::code& code,
                   const std::string& termination,
                   const std::string& puncturing,
                   const std::string& backend,
                   const std::string& llr_sign,
                   float int8_scale,
                   int threads,
                   const std::string& soft_algorithm)
        : d_code(code),
          d_termination(termination),
          d_puncturing(puncturing),
          d_llr_sign(llr_sign),
          d_int8_scale(int8_scale)
    {
        conv::viterbi_config config;
        config.generator = code;
        config.mode = conv::parse_termination(termination);
        config.punctured = conv::parse_puncturing(puncturing, code);
        config.invert_llr = ::gputurbo::core::positive_means_one(llr_sign);
        config.int8_scale = int8_scale;
        config.threads = threads;
        config.soft_algorithm = conv::parse_soft_algorithm(soft_algorithm);
        d_decoder = conv::make_viterbi_decoder(config, backend);
    }

    py::tuple decode(const py::object& llrs,
                     int frame_bits,
                     bool packed,
                     const std::string& output,
                     const std::string& output_type)
    {
        const auto soft = ::gputurbo::core::parse_output(output);
        const bool int8 = ::gputurbo::core::parse_output_type(output_type);
        const rows in = input_rows(llrs, frame_bits);
        auto passed = in.result<bool>();
        std::vector<::gputurbo::core::codeword_status> status(in.count);
        if (soft != ::gputurbo::core::soft_output::none) {
            check_unpacked(packed);
            const soft_result out(
                in, d_decoder->soft_length(frame_bits, soft), soft, int8, d_int8_scale);
            decode_rows_soft(
                *d_decoder, d_mutex, frame_bits, in, out.soft, status.data());
            copy_passed(status, passed);
            return py::make_tuple(out.values, passed);
        }
        const auto format = bit_format_of(packed);
        auto bits =
            in.result<std::uint8_t>(::gputurbo::core::output_bytes(format, frame_bits));
        decode_rows(*d_decoder,
                    d_mutex,
                    frame_bits,
                    in,
                    bits.mutable_data(),
                    status.data(),
                    format);
        copy_passed(status, passed);
        return py::make_tuple(bits, passed);
    }

    py::tuple decode_int4(const py::object& llrs, int frame_bits, bool packed)
    {
        const std::size_t width =
            punctured_length(d_code, frame_bits, d_termination, d_puncturing);
        py::array a = py::array::ensure(llrs);
        if (!a || !holds<std::uint8_t>(a) || a.ndim() != 1)
            throw py::value_error(
                "llrs must be the 1-D uint8 array of pack_int4() of frames of " +
                std::to_string(width) + " LLRs; got " + given_text(llrs, a));
        // The frames the bytes hold: int4_bytes(n * width) of them for some n.
        const std::size_t bytes = a.shape(0);
        const std::size_t n = 2 * bytes / width;
        if (::gputurbo::core::int4_bytes(n * width) != bytes)
            throw py::value_error("llrs: " + std::to_string(bytes) +
                                  " bytes are not a whole number of frames of " +
                                  std::to_string(width) + " int4 LLRs (" +
                                  frame_text(frame_bits, d_termination, d_puncturing) +
                                  ")");
        a = in_engine_layout(a, "llrs");
        const auto format = bit_format_of(packed);
        py::array_t<std::uint8_t> bits(std::vector<py::ssize_t>{
            py::ssize_t(n),
            py::ssize_t(::gputurbo::core::output_bytes(format, frame_bits)) });
        py::array_t<bool> passed{ py::ssize_t(n) };
        std::vector<::gputurbo::core::codeword_status> status(n);
        {
            const auto* in = static_cast<const ::gputurbo::core::int4_pair*>(a.data());
            std::uint8_t* out = bits.mutable_data();
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            d_decoder->decode(frame_bits, in, n, out, status.data(), format);
        }
        auto ok = passed.mutable_data();
        for (std::size_t i = 0; i < n; ++i)
            ok[i] = status[i].passed;
        return py::make_tuple(bits, passed);
    }

    const conv::code& code() const { return d_code; }
    const std::string& termination() const { return d_termination; }
    const std::string& puncturing() const { return d_puncturing; }
    const std::string& llr_sign() const { return d_llr_sign; }
    std::string backend() const { return ::gputurbo::core::to_string(d_decoder->kind()); }
    std::string device() const { return d_decoder->device(); }

    std::string repr() const
    {
        return "gputurbo.viterbi_engine(code='" + d_code.text() + "', termination='" +
               d_termination + "', puncturing='" + d_puncturing + "', backend='" +
               backend() + "', llr_sign='" + d_llr_sign + "')";
    }

private:
    rows input_rows(const py::object& llrs, int frame_bits) const
    {
        const std::size_t width =
            punctured_length(d_code, frame_bits, d_termination, d_puncturing);
        return rows(
            llrs,
            "llrs",
            width,
            [](const py::array& a) { return holds<float>(a) || holds<std::int8_t>(a); },
            "llrs must be float32 or int8 of shape (n, " + std::to_string(width) +
                ") for " + frame_text(frame_bits, d_termination, d_puncturing) +
                ", or (" + std::to_string(width) + ",) for one frame");
    }

    static void copy_passed(const std::vector<::gputurbo::core::codeword_status>& status,
                            py::array_t<bool>& passed)
    {
        auto ok = passed.mutable_data();
        for (std::size_t i = 0; i < status.size(); ++i)
            ok[i] = status[i].passed;
    }

    conv::code d_code;
    std::unique_ptr<::gputurbo::core::batch_decoder> d_decoder;
    std::mutex d_mutex;
    std::string d_termination;
    std::string d_puncturing;
    std::string d_llr_sign;
    float d_int8_scale; // the units of int8 input and output
};

class viterbi_stream
{
public:
    viterbi_stream(const conv::code& code,
                   const std::string& puncturing,
                   const std::string& backend,
                   const std::string& llr_sign,
                   float int8_scale,
                   int threads,
                   bool node_sync,
                   const std::string& output)
        : d_code(code), d_puncturing(puncturing), d_llr_sign(llr_sign)
    {
        const auto soft = ::gputurbo::core::parse_output(output);
        if (soft != ::gputurbo::core::soft_output::none &&
            soft != ::gputurbo::core::soft_output::app)
            throw py::value_error("output=" + output +
                                  ": a stream gives \"bits\" or \"llr\"");
        conv::viterbi_config config;
        config.generator = code;
        config.mode = conv::termination::streaming;
        config.punctured = conv::parse_puncturing(puncturing, code);
        config.invert_llr = ::gputurbo::core::positive_means_one(llr_sign);
        config.int8_scale = int8_scale;
        config.threads = threads;
        config.node_sync = node_sync;
        d_decoder = conv::make_stream_decoder(config, backend);
        d_decoder->set_soft_output(soft == ::gputurbo::core::soft_output::app);
    }

    py::array decode(const py::object& llrs)
    {
        py::array a = py::array::ensure(llrs);
        if (!a || a.ndim() != 1 || !(holds<float>(a) || holds<std::int8_t>(a)))
            throw py::value_error(
                "llrs must be a 1-D array of float32 or int8 (the stream's next LLRs); "
                "got " +
                given_text(llrs, a));
        a = in_engine_layout(a, "llrs");
        const std::size_t n = a.shape(0);
        return decided(
            [&](std::uint8_t* bits, float* soft) {
                return holds<float>(a)
                           ? d_decoder->decode(
                                 static_cast<const float*>(a.data()), n, bits, soft)
                           : d_decoder->decode(static_cast<const std::int8_t*>(a.data()),
                                               n,
                                               bits,
                                               soft);
            },
            n);
    }

    py::array flush()
    {
        return decided(
            [&](std::uint8_t* bits, float* soft) { return d_decoder->flush(bits, soft); },
            0);
    }

    void reset()
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        d_decoder->reset();
        d_changes.clear();
    }

    std::string output() const { return d_decoder->soft_output() ? "llr" : "bits"; }

    py::list sync_changes()
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        py::list out;
        for (const auto& c : d_changes) {
            py::dict d;
            d["bit"] = c.bit;
            d["llr"] = c.llr;
            d["offset"] = c.offset;
            d["inverted"] = c.inverted;
            out.append(d);
        }
        d_changes.clear();
        return out;
    }

    const conv::code& code() const { return d_code; }
    const std::string& puncturing() const { return d_puncturing; }
    const std::string& llr_sign() const { return d_llr_sign; }
    bool node_sync() const { return d_decoder->config().node_sync; }
    std::string backend() const { return d_decoder->backend(); }
    std::string device() const { return d_decoder->device(); }
    std::uint64_t received_llrs() const { return d_decoder->received_llrs(); }
    std::uint64_t written_bits() const { return d_decoder->written_bits(); }

private:
    void take_changes()
    {
        for (const auto& c : d_decoder->take_sync_changes())
            d_changes.push_back(c);
    }

    //! What \p call(bits, soft) decides, the GIL released, for \p count LLRs in: the
    //! bits (uint8), or with soft output their LLRs (float32).
    template <class Call>
    py::array decided(const Call& call, std::size_t count)
    {
        std::vector<std::uint8_t> bits;
        std::vector<float> soft;
        std::size_t written = 0;
        {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            bits.resize(d_decoder->output_bound(count));
            if (d_decoder->soft_output())
                soft.resize(bits.size());
            written = call(bits.data(), soft.empty() ? nullptr : soft.data());
            take_changes();
        }
        if (!soft.empty())
            return py::array_t<float>(py::ssize_t(written), soft.data());
        return py::array_t<std::uint8_t>(py::ssize_t(written), bits.data());
    }

    conv::code d_code;
    std::string d_puncturing;
    std::string d_llr_sign;
    std::unique_ptr<conv::stream_decoder> d_decoder;
    std::vector<conv::sync_change> d_changes;
    std::mutex d_mutex;
};

std::string repr(const conv::code& c)
{
    const std::string text = c.text();
    return "gputurbo.conv_code(constraint=" + std::to_string(c.constraint) +
           ", polynomials='" + text.substr(text.find(' ') + 1) + "')";
}

const char* conv_code_doc =
    R"(A rate-1/n convolutional code: its encoder with puncturing, and depuncturing.

conv_code(preset) or conv_code(constraint=K, polynomials="171,-133")

preset: a named code, one of conv_presets(): "ccsds" (K=7 171,-133), "802.11" and "dvb"
  (K=7 133,171), "lte" (K=7 133,171,165), "gsm" (K=5 23,33), "cdma-r2" (K=9 753,561),
  "cdma-r3" (K=9 557,663,711).
constraint: the constraint length K = 3 ... 9.
polynomials: n = 2 ... 4 generators in octal, in the textbook convention (MATLAB's
  poly2trellis, 802.11's 133,171): the most significant of the K bits taps the current
  input bit. A leading minus inverts that output ("171,-133" is CCSDS's code).
Anything else raises ValueError saying what is expected.

The code bits of a frame: for each trellis step, the n outputs in the order of the
polynomials (gr-fec's cc_encoder order).

termination, in the methods: "terminated" (from state 0, K-1 zero tail bits back to
state 0), "truncated" (from state 0, no tail), "tail-biting" (starts in the state its
last K-1 bits leave, no tail) or "streaming" (the rows of one call are consecutive
pieces of one stream that starts in state 0; each call starts again from state 0).
puncturing, in the methods: "" (none); a rate "2/3", "3/4", "5/6" or "7/8" of the K=7
code of generators 171 and 133 (the patterns of DVB-S, which 802.11 and CCSDS share);
or a 0/1 pattern per output in the code's order, "110,101" (1: sent). The pattern
starts again at each frame (row).)";

const char* encode_doc = R"(Encodes frames into the code bits sent.

bits: uint8 of shape (n, frame_bits) with values 0 and 1, or a 1-D array of one frame.
termination, puncturing: see conv_code.
Returns uint8 of shape (n, punctured_length(frame_bits, termination, puncturing))
(1-D input: 1-D): each frame's code bits, step by step, the n outputs of each step in
the code's order, without the punctured ones. Bad input raises ValueError.)";

const char* depuncture_doc =
    R"(Puts an erasure (0.0) in place of each punctured code bit.

llrs: float32 of shape (n, punctured_length(frame_bits, termination, puncturing)), the
  received values of the bits encode() sent (in any sign convention: they are moved,
  not changed), or a 1-D array of one frame.
Returns float32 of shape (n, coded_length(frame_bits, termination)) (1-D input: 1-D):
  the values in the places of the code bits, 0.0 where a bit was punctured.)";

const char* viterbi_engine_doc =
    R"(Viterbi decoder of a conv_code on numpy arrays, without a flowgraph.

viterbi_engine(code, termination="terminated", puncturing="", backend="auto",
               llr_sign="positive-one", int8_scale=8.0, threads=0,
               soft_algorithm="max-log")

code: a conv_code.
termination, puncturing: as in conv_code, what the frames were encoded with;
  "streaming" is refused (it needs state across calls: viterbi_stream decodes a stream).
backend: "auto" (CUDA where a GPU can run it, else the CPU), "cuda" (two segments a
  thread in int16), "cpu" (the SIMD decoder: int16 metrics, one segment per lane), or
  "reference" (the exact float Viterbi; tail-biting by maximum likelihood over every
  start state); the backend property says which one runs.
llr_sign: the sign convention of the input LLRs.
  "positive-one" (default): GNU Radio's, a positive LLR means bit 1; for BPSK
  0 -> -1, 1 -> +1 over AWGN, LLR = 2y/sigma^2.
  "positive-zero": L = ln P(0)/P(1), a positive LLR means bit 0 (the engine's own).
int8_scale: int8 and int4 input: the value q means the LLR q / int8_scale (the cpu and
  cuda decoders take q as its path metric as it is, so the scale sets only which frames
  pass); int8 soft output (decode(output_type="int8")) is in the same units.
threads: CPU worker threads, 0 = all cores.
soft_algorithm: decode(output="llr") only: "max-log" (the best path's metric) or
  "log-map" (exact log-sum-exp over every path; not on "cuda").
A bad value raises ValueError naming the parameter.

One object decodes one call at a time (concurrent calls from several threads wait for
each other); the GIL is released while it decodes.)";

const char* viterbi_stream_doc =
    R"(Viterbi decoder of one continuous stream of a conv_code, on numpy arrays.

viterbi_stream(code, puncturing="", backend="auto", llr_sign="positive-one",
               int8_scale=8.0, threads=0, node_sync=False, output="bits")

The stream (as conv_code.encode(bits, "streaming", puncturing) sends it, from state 0)
comes in pieces of any size, decode() after decode(); each returns the bits decided
so far, which lag the stream by about 32 decision depths (70 steps at K = 7, rate 1/2):
the output does not depend on how the stream is cut into pieces. flush() ends the stream
and returns its last bits; the next decode() starts a new one.
code, puncturing, backend, llr_sign, int8_scale, threads: as in viterbi_engine.
node_sync: find the phase of the steps in the LLRs (rate 1/n: n of them; punctured:
  the LLRs of a period) and, where the code shows it, an inverted stream, by the growth
  of a Viterbi's best path metric over 1024 steps of each; check again every 65536
  steps and follow a slip (the stream so far ends there, a few LLRs are dropped, and a
  stream from any state starts at the new phase). The stream then starts in any
  state. Each change is in sync_changes(). A code whose generators all have odd weight
  (CCSDS, 802.11, DVB, LTE, CDMA) is transparent: an inverted stream decodes to the
  inverted bits, which no decoder can tell; a frame synchroniser or NRZ-M resolves it.
output: "bits" (default), or "llr": decode() and flush() return, in place of the bits,
  each one's a-posteriori LLR (float32, in the sign of llr_sign; its sign is the bit but
  where it is 0, a tie): the max-log of the fast BCJR over the stream's segments, the
  same however the stream is cut; the "cpu" and "cuda" backends, node_sync too
  (ValueError on "reference", naming why).
One object decodes one call at a time; the GIL is released while it decodes.)";

const char* viterbi_decode_doc = R"(Decodes a batch of frames in one engine call.

llrs: float32 or int8 (int8: q means q / int8_scale) of shape
  (n, code.punctured_length(frame_bits, termination, puncturing)): each row the LLRs of
  the code bits encode() sent for one frame, in its order, signs as llr_sign says. A
  1-D array is one frame. NaN is an erasure. Another dtype or shape raises ValueError
  saying the shape expected.
frame_bits: information bits per frame.
packed: False (default): one byte per bit; True: 8 bits per byte, the first bit in the
  most significant bit, each frame on its own ceil(frame_bits / 8) bytes, the unused low
  bits of its last byte 0 (numpy.packbits(bits, axis=1) of the unpacked bits;
  numpy.unpackbits(bits, axis=1, count=frame_bits) undoes it).
output: "bits" (default); "llr": the a-posteriori LLR of each information bit instead,
  float32, in the sign of llr_sign, by the BCJR algorithm of soft_algorithm. Backends
  "cpu" and "cuda", max-log: the fast BCJR on the Viterbi decoders' int16 metrics over
  the same segments (the same values on both; its sign is the bit output="bits" gives
  but where a value is 0, a tie); "reference", and "cpu" for log-map: over the whole
  frame in double (the exact reference: at gr-trellis's siso_f's rate,
  docs/PERFORMANCE.md; tail-biting about 40 and 60 times slower), its max-log signs the
  exact Viterbi's.
  "code-extrinsic" ("cpu" and "reference"): for each code bit sent (the llrs' row, in
  its order), its a-posteriori LLR less its input LLR, float32: what an iterative
  receiver (turbo equalisation, iterative demapping) gives back to its equaliser or
  demapper.
  "extrinsic" is refused: a convolutional code's information bits have no input LLR of
  their own.
output_type: the soft values' type: "float" (default, float32) or "int8", a quarter of
  the bytes in the units of int8 input: round(L * int8_scale), halves away from zero,
  saturated to +-127 (quantize_llrs() of the float32 values). No effect on bits.
Returns (bits, passed): bits uint8 of shape (n, frame_bits), each 0 or 1 (packed:
  (n, ceil(frame_bits / 8)); output "llr": float32 or int8 (n, frame_bits);
  "code-extrinsic": float32 or int8 of the llrs' shape); passed bool (n,),
  as for output="bits": false where the frame carries no
  information (the mean |LLR| of its sent values is about zero) and, when terminated,
  where its best end state is not state 0, where the tail leads (a frame that was not
  sent so: it passes only by a chance of 2^-(K-1)). For a 1-D input: bits
  (frame_bits,) (packed: (ceil(frame_bits / 8),)) and a 0-d passed.)";

const char* viterbi_decode_int4_doc =
    R"(Decodes frames of int4 LLRs (half of int8's bytes), as decode() does int8 ones of
the same values.

llrs: the 1-D uint8 array pack_int4() makes of an int8 array of shape
  (n, code.punctured_length(frame_bits, termination, puncturing)): n is taken from its
  length. Values q in -7 ... 7 (pack_int4 saturates), q meaning q / int8_scale.
frame_bits, packed: as in decode().
Returns (bits, passed) as decode() for n frames (always with the row axis). A length
that is not a whole number of frames raises ValueError.)";

const char* pack_int4_doc =
    R"(Packs int8 LLRs as int4, two to a byte: LLR 2i in the low nibble of byte i, LLR
2i + 1 in the high one (rows one after another, nibble by nibble), each saturated to
-7 ... 7. For example
  q = numpy.clip(numpy.rint(llrs * scale), -7, 7).astype(numpy.int8)
  engine.decode_int4(gputurbo.pack_int4(q), frame_bits)
q: int8 array of any shape. Returns uint8 of shape (ceil(q.size / 2),).)";

py::array_t<std::uint8_t> pack_int4(const py::object& q)
{
    py::array a = py::array::ensure(q);
    if (!a || !holds<std::int8_t>(a))
        throw py::value_error("q must be int8; got " + given_text(q, a));
    a = in_engine_layout(a, "q");
    const std::size_t n = a.size();
    py::array_t<std::uint8_t> out{ py::ssize_t(::gputurbo::core::int4_bytes(n)) };
    ::gputurbo::core::pack_int4(
        static_cast<const std::int8_t*>(a.data()),
        n,
        reinterpret_cast<::gputurbo::core::int4_pair*>(out.mutable_data()));
    return out;
}

} // namespace

void bind_conv(py::module& m)
{
    py::class_<conv::code>(m, "conv_code", conv_code_doc)
        .def(py::init(&make_code),
             py::arg("preset") = py::none(),
             py::arg("constraint") = py::none(),
             py::arg("polynomials") = py::none())
        .def("encode",
             &encode,
             py::arg("bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             encode_doc)
        .def("depuncture",
             &depuncture,
             py::arg("llrs"),
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             depuncture_doc)
        .def("coded_length",
             &coded_length,
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             "Code bits of a frame of frame_bits information bits before puncturing: n "
             "per trellis step, frame_bits steps plus K-1 tail steps when terminated.")
        .def("punctured_length",
             &punctured_length,
             py::arg("frame_bits"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             "Code bits sent per frame of frame_bits information bits: coded_length() "
             "less the punctured ones (the pattern starts again at each frame).")
        .def_readonly("constraint", &conv::code::constraint, "The constraint length K.")
        .def_property_readonly(
            "polynomials",
            [](const conv::code& c) { return c.polynomials; },
            "The generators as ints, in the octal convention of conv_code (write "
            "them with oct()), without the inversion.")
        .def_property_readonly(
            "inverted",
            [](const conv::code& c) { return std::vector<bool>(c.inverted); },
            "Per output: whether its code bit is inverted.")
        .def_property_readonly("outputs", &conv::code::outputs, "n: code bits per step.")
        .def_property_readonly("states", &conv::code::states, "2^(K-1) trellis states.")
        .def_property_readonly(
            "text", &conv::code::text, "\"K=7 171,-133\": K and the polynomials.")
        .def("__repr__", &repr);

    py::class_<viterbi_engine>(m, "viterbi_engine", viterbi_engine_doc)
        .def(py::init<const conv::code&,
                      const std::string&,
                      const std::string&,
                      const std::string&,
                      const std::string&,
                      float,
                      int,
                      const std::string&>(),
             py::arg("code"),
             py::arg("termination") = "terminated",
             py::arg("puncturing") = "",
             py::arg("backend") = "auto",
             py::arg("llr_sign") = "positive-one",
             py::arg("int8_scale") = 8.0f,
             py::arg("threads") = 0,
             keyword("soft_algorithm", conv::parameters()))
        .def("decode",
             &viterbi_engine::decode,
             py::arg("llrs"),
             py::arg("frame_bits"),
             py::arg("packed") = false,
             keyword("output", conv::parameters()),
             keyword("output_type", conv::parameters()),
             viterbi_decode_doc)
        .def("decode_int4",
             &viterbi_engine::decode_int4,
             py::arg("llrs"),
             py::arg("frame_bits"),
             py::arg("packed") = false,
             viterbi_decode_int4_doc)
        .def_property_readonly("code", &viterbi_engine::code, "The conv_code.")
        .def_property_readonly("termination", &viterbi_engine::termination)
        .def_property_readonly("puncturing", &viterbi_engine::puncturing)
        .def_property_readonly("llr_sign", &viterbi_engine::llr_sign)
        .def_property_readonly("backend",
                               &viterbi_engine::backend,
                               "The backend in use: \"cuda\", \"cpu\" or \"reference\".")
        .def_property_readonly("device",
                               &viterbi_engine::device,
                               "A description of the device the backend runs on.")
        .def("__repr__", &viterbi_engine::repr);

    py::class_<viterbi_stream>(m, "viterbi_stream", viterbi_stream_doc)
        .def(py::init<const conv::code&,
                      const std::string&,
                      const std::string&,
                      const std::string&,
                      float,
                      int,
                      bool,
                      const std::string&>(),
             py::arg("code"),
             py::arg("puncturing") = "",
             py::arg("backend") = "auto",
             py::arg("llr_sign") = "positive-one",
             py::arg("int8_scale") = 8.0f,
             py::arg("threads") = 0,
             py::arg("node_sync") = false,
             py::arg("output") = "bits")
        .def("decode",
             &viterbi_stream::decode,
             py::arg("llrs"),
             "Takes the stream's next LLRs (1-D float32 or int8, signs as llr_sign says, "
             "int8 q meaning q / int8_scale; a stream keeps its dtype) and returns the "
             "bits decided (uint8, one a byte), in order, each once; output=\"llr\": "
             "their a-posteriori LLRs (float32) instead.")
        .def("flush",
             &viterbi_stream::flush,
             "Ends the stream: returns its last bits, traced back from the best state "
             "(the LLRs of a partial step are dropped); the next decode() starts a new "
             "stream.")
        .def("reset", &viterbi_stream::reset, "Forgets the stream without output.")
        .def("sync_changes",
             &viterbi_stream::sync_changes,
             "node_sync: the changes since the last call, oldest first, each a dict: "
             "\"bit\" (the first output bit decoded so, counted from the stream's "
             "start), \"llr\" (the first LLR of its first step, counted likewise), "
             "\"offset\" (llr modulo the LLRs of a puncturing period: the phase) and "
             "\"inverted\". The first is the acquisition.")
        .def_property_readonly("code", &viterbi_stream::code, "The conv_code.")
        .def_property_readonly("puncturing", &viterbi_stream::puncturing)
        .def_property_readonly("llr_sign", &viterbi_stream::llr_sign)
        .def_property_readonly("node_sync", &viterbi_stream::node_sync)
        .def_property_readonly("output", &viterbi_stream::output, "\"bits\" or \"llr\".")
        .def_property_readonly("backend",
                               &viterbi_stream::backend,
                               "The backend in use: \"cuda\", \"cpu\" or \"reference\".")
        .def_property_readonly("device",
                               &viterbi_stream::device,
                               "A description of the device the backend runs on.")
        .def_property_readonly("received_llrs",
                               &viterbi_stream::received_llrs,
                               "LLRs received since the stream started.")
        .def_property_readonly("written_bits",
                               &viterbi_stream::written_bits,
                               "Bits returned since the stream started.");

    m.def("pack_int4", &pack_int4, py::arg("q"), pack_int4_doc);
    m.def("conv_presets",
          &conv::preset_names,
          "The names conv_code() takes as preset, as a list.");
}
