/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * LTE transport blocks (DL-SCH, 36.212 §5.3.2) on numpy arrays:
 * gputurbo.transport_encode, gputurbo.transport_block, gputurbo.transport_engine (the
 * batched receiver with HARQ soft buffers) and gputurbo.soft_buffer_length. This file
 * converts arrays and calls the engine (engine/lte/transport.h); the checks of the
 * formats and their wording are the engine's (its std::invalid_argument reaches Python as
 * ValueError).
 */

#include "numpy_arrays.h"
#include "turbo_config.h"

#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace {

using namespace gputurbo::python;
namespace lte = ::gputurbo::lte;
namespace turbo = ::gputurbo::turbo;

//! The format fields of the Python calls, with their defaults in one place.
struct format_fields
{
    int Qm = 2;
    int rv = 0;
    int layers = 1;
    long soft_buffer = 0;
    std::optional<long> c_init; // None: no scrambling
};

lte::transport_format format_of(int tbs, int G, const format_fields& f)
{
    lte::transport_format format;
    format.tbs = tbs;
    format.G = G;
    format.Qm = f.Qm;
    format.rv = f.rv;
    format.layers = f.layers;
    format.soft_buffer = f.soft_buffer;
    // The engine's message would offer -1, its no_scrambling: None says it here.
    if (f.c_init && (*f.c_init < 0 || *f.c_init > lte::max_c_init))
        throw py::value_error(
            "c_init=" + std::to_string(*f.c_init) + " is out of range: use 0 ... " +
            std::to_string(lte::max_c_init) + ", or None (no scrambling)");
    format.c_init = f.c_init ? *f.c_init : lte::no_scrambling;
    format.validate();
    return format;
}

py::array_t<std::uint8_t> transport_encode(const py::object& data,
                                           int G,
                                           const std::optional<int>& tbs,
                                           const format_fields& fields)
{
    py::array bits = py::array::ensure(data);
    if (!bits || bits.ndim() != 1 || !holds<std::uint8_t>(bits))
        throw py::value_error(
            "data must be a 1-D uint8 array of 0/1 values, the tbs bits of the transport "
            "block; got " +
            given_text(data, bits));
    if (tbs && std::size_t(*tbs) != std::size_t(bits.size()))
        throw py::value_error("data holds " + std::to_string(bits.size()) +
                              " bits, but tbs=" + std::to_string(*tbs));
    bits = in_engine_layout(bits, "data");
    check_binary(bits, "data");
    const lte::transport_format format = format_of(int(bits.size()), G, fields);
    py::array_t<std::uint8_t> e(py::ssize_t(format.G));
    const auto* in = static_cast<const std::uint8_t*>(bits.data());
    std::uint8_t* out = e.mutable_data();
    {
        py::gil_scoped_release release;
        lte::transport_encode(format, in, out);
    }
    return e;
}

//! One transport block to decode, as Python gives it: its LLRs (checked) and format.
struct transport_block
{
    py::array llrs; // 1-D float32 or int8 of G values, contiguous
    lte::transport_format format;
    std::optional<int> harq_process; // None: this transmission alone
    bool new_data = true;

    transport_block(const py::object& given,
                    int tbs,
                    int G,
                    const format_fields& fields,
                    const std::optional<int>& process,
                    bool new_data_indicator)
        : format(format_of(tbs, G, fields)),
          harq_process(process),
          new_data(new_data_indicator)
    {
        llrs = py::array::ensure(given);
        if (!llrs || llrs.ndim() != 1 ||
            !(holds<float>(llrs) || holds<std::int8_t>(llrs)))
            throw py::value_error(
                "llrs must be a 1-D float32 or int8 array of G=" + std::to_string(G) +
                " values; got " + given_text(given, llrs));
        if (std::size_t(llrs.size()) != std::size_t(G))
            throw py::value_error("llrs holds " + std::to_string(llrs.size()) +
                                  " values, but G=" + std::to_string(G) +
                                  ": one LLR per bit sent");
        llrs = in_engine_layout(llrs, "llrs");
        if (process && *process < 0)
            throw py::value_error("harq_process=" + std::to_string(*process) +
                                  " is out of range: use 0 or more, or None (none)");
    }

    //! The engine's view of it (pointers into llrs, which must outlive it).
    lte::transport_block engine_block() const
    {
        lte::transport_block t;
        t.format = format;
        if (holds<float>(llrs))
            t.f32 = static_cast<const float*>(llrs.data());
        else
            t.i8 = static_cast<const std::int8_t*>(llrs.data());
        t.harq_process = harq_process ? *harq_process : lte::no_harq;
        t.new_data = new_data;
        return t;
    }

    std::string repr() const
    {
        return "gputurbo.transport_block(tbs=" + std::to_string(format.tbs) +
               ", G=" + std::to_string(format.G) + ", Qm=" + std::to_string(format.Qm) +
               ", rv=" + std::to_string(format.rv) +
               ", layers=" + std::to_string(format.layers) + ", harq_process=" +
               (harq_process ? std::to_string(*harq_process) : "None") +
               ", new_data=" + (new_data ? "True" : "False") + ")";
    }
};

class transport_engine
{
public:
    transport_engine(const std::string& backend,
                     const std::string& llr_sign,
                     float int8_scale,
                     const std::string& algorithm,
                     int iterations,
                     float scaling,
                     int subblocks,
                     const std::string& guard,
                     int guard_window,
                     bool early_stop,
                     int threads,
                     const std::string& devices,
                     const std::string& arithmetic,
                     int max_harq_processes)
        : d_llr_sign(llr_sign)
    {
        // early_stop and layout are the transport decoder's to set.
        lte::transport_config config;
        config.turbo = turbo_config({ { "algorithm", algorithm },
                                      { "iterations", iterations },
                                      { "scaling", scaling },
                                      { "subblocks", subblocks },
                                      { "guard", guard },
                                      { "guard_window", guard_window },
                                      { "llr_sign", llr_sign },
                                      { "threads", threads },
                                      { "devices", devices },
                                      { "arithmetic", arithmetic } });
        config.turbo.int8_scale = int8_scale;
        config.early_stop = early_stop;
        config.max_harq_processes = max_harq_processes;
        d_decoder = lte::make_transport_decoder(config, backend);
    }

    //! A list of (data, crc_ok, iterations), one per block.
    py::list decode_batch(const py::list& given)
    {
        // Dicts become transport_blocks, which the list holds while the engine reads.
        std::vector<py::object> held;
        std::vector<lte::transport_block> blocks;
        std::size_t total = 0;
        for (const py::handle item : given) {
            py::object block = py::reinterpret_borrow<py::object>(item);
            if (py::isinstance<py::dict>(item))
                try {
                    block = py::type::of<transport_block>()(**item);
                } catch (py::error_already_set& e) {
                    if (!e.matches(PyExc_ValueError))
                        throw;
                    throw py::value_error("blocks[" + std::to_string(blocks.size()) +
                                          "]: " + text(e.value()));
                }
            if (!py::isinstance<transport_block>(block))
                throw py::value_error(
                    "blocks must be a list of gputurbo.transport_block or of dicts of "
                    "its arguments; got a " +
                    text(item.get_type().attr("__name__")));
            blocks.push_back(block.cast<const transport_block&>().engine_block());
            total += std::size_t(blocks.back().format.tbs);
            held.push_back(std::move(block));
        }
        std::vector<std::uint8_t> data(total);
        std::vector<lte::transport_result> results(blocks.size());
        {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            d_decoder->decode(blocks.data(), blocks.size(), data.data(), results.data());
        }
        py::list out;
        const std::uint8_t* at = data.data();
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const int tbs = blocks[i].format.tbs;
            py::array_t<std::uint8_t> bits(py::ssize_t(tbs), at);
            at += tbs;
            const auto& code_blocks = results[i].code_blocks;
            py::array_t<std::int32_t> iterations(py::ssize_t(code_blocks.size()));
            std::transform(code_blocks.begin(),
                           code_blocks.end(),
                           iterations.mutable_data(),
                           [](const auto& s) { return std::int32_t(s.iterations); });
            out.append(py::make_tuple(bits, results[i].crc_ok, iterations));
        }
        return out;
    }

    py::tuple decode(transport_block block)
    {
        py::list one;
        one.append(py::cast(std::move(block)));
        return decode_batch(one)[0].cast<py::tuple>();
    }

    void release(int harq_process)
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        d_decoder->release(harq_process);
    }

    std::size_t harq_processes()
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        return d_decoder->harq_processes();
    }

    std::uint64_t dropped_harq_processes()
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        return d_decoder->dropped_count();
    }

    py::array_t<std::int8_t> soft_buffer(int harq_process)
    {
        std::lock_guard<std::mutex> guard(d_mutex);
        const std::vector<std::int8_t> values = d_decoder->soft_buffer(harq_process);
        return py::array_t<std::int8_t>(py::ssize_t(values.size()), values.data());
    }

    void set_soft_buffer(int harq_process, int tbs, const py::object& given)
    {
        py::array a = py::array::ensure(given);
        if (!a || a.ndim() != 1 || !holds<std::int8_t>(a))
            throw py::value_error(
                "values must be a 1-D int8 array, as soft_buffer() returns; got " +
                given_text(given, a));
        a = in_engine_layout(a, "values");
        const auto* first = static_cast<const std::int8_t*>(a.data());
        const std::vector<std::int8_t> values(first, first + a.size());
        std::lock_guard<std::mutex> guard(d_mutex);
        d_decoder->set_soft_buffer(harq_process, tbs, values);
    }

    std::string backend() const { return d_decoder->backend(); }
    std::string device() const { return d_decoder->device(); }
    const std::string& llr_sign() const { return d_llr_sign; }
    int iterations() const { return d_decoder->config().turbo.iterations; }
    bool early_stop() const { return d_decoder->config().early_stop; }
    int max_harq_processes() const { return d_decoder->config().max_harq_processes; }

    std::string repr() const
    {
        return "gputurbo.transport_engine(backend='" + backend() + "', llr_sign='" +
               d_llr_sign + "', iterations=" + std::to_string(iterations()) +
               ", early_stop=" + (early_stop() ? "True" : "False") + ")";
    }

private:
    std::unique_ptr<lte::transport_decoder> d_decoder;
    std::mutex d_mutex;
    std::string d_llr_sign;
};

const char* format_doc =
    R"(The format of a transport block, as the transmitter and the receiver agree on it:
tbs: A, the transport block's bits (before its CRC-24A), 1 ... 391656.
G: the rate-matched bits sent for it (one LLR each on the way back), a multiple of
  Qm * layers with at least one symbol per code block.
Qm: bits per modulation symbol, 2, 4, 6 or 8. layers: 1 ... 4.
rv: the redundancy version, 0 ... 3.
soft_buffer: N_IR, the transport block's soft buffer in bits (36.212 §5.1.4.1.2);
  0: no limit (N_cb = K_w).
c_init: the 36.211 §7.2 scrambling sequence's c_init over the G bits (§6.3.1:
  n_RNTI 2^14 + q 2^13 + floor(n_s / 2) 2^9 + N_ID^cell), 0 ... 2^31 - 1; None: no
  scrambling.
A bad value raises ValueError naming the field and its range.)";

const std::string transport_encode_doc =
    std::string(
        R"(The G bits sent for one transport block (3GPP TS 36.212 §5.3.2 with §5.1):
CRC-24A, code-block segmentation, CRC-24B (when several blocks), turbo encoding, rate
matching of each block from k0(rv), concatenation and, with c_init, scrambling.

transport_encode(data, G, Qm=2, rv=0, layers=1, soft_buffer=0, c_init=None, tbs=None)

data: uint8 of shape (tbs,), the transport block's bits, each 0 or 1 (others raise
  ValueError). tbs is its length; given, it must equal it.
Returns uint8 of shape (G,), each 0 or 1: e in the order sent.

)") +
    format_doc;

const std::string transport_block_doc =
    std::string(
        R"(One transport block for transport_engine.decode_batch(): its LLRs, its format and
its HARQ process, checked when made.

transport_block(llrs, tbs, G, Qm=2, rv=0, layers=1, soft_buffer=0, c_init=None,
                harq_process=None, new_data=True)

llrs: float32 or int8 of shape (G,), one per bit sent, signs as the engine's llr_sign
  says (int8: q means q / int8_scale); a non-contiguous array is copied. Another dtype,
  shape or length raises ValueError.
harq_process: the soft buffer to combine into, any number >= 0 (a process of a user,
  however the caller counts them); None: this transmission alone.
new_data: starts the process's buffer afresh (the new-data indicator toggled); False:
  a retransmission, added into the buffer, which must hold the same tbs. The first
  transmission of a process starts it whatever this says.

)") +
    format_doc;

const char* transport_engine_doc =
    R"(The LTE transport-block receiver (DL-SCH, 3GPP TS 36.212 §5.3.2) on numpy arrays:
descrambling, de-rate matching, HARQ soft combining, turbo decoding with a CRC early stop
per code block, concatenation and CRC-24A, for batches of transport blocks of any sizes
(on CUDA in one pass: the code blocks of every transport block of a batch decode
together).

transport_engine(backend="auto", llr_sign="positive-one", int8_scale=8.0,
                 algorithm="scaled-max-log", iterations=6, scaling=0.75, subblocks=0,
                 guard="pividstw", guard_window=8, early_stop=True, threads=0,
                 devices="0", arithmetic="auto", max_harq_processes=4096)

backend: "auto" (CUDA when this build and machine can run it, else the CPU), "cpu",
  "cuda" or "reference" (the exact, slow CPU decoder); the backend property says which
  one runs. A backend this build or machine lacks raises RuntimeError with the reason.
llr_sign: the sign convention of the input LLRs.
  "positive-one" (default): GNU Radio's, a positive LLR means bit 1 (what
  digital.constellation_soft_decoder_cf produces).
  "positive-zero": L = ln P(0)/P(1), a positive LLR means bit 0 (the engine's own).
int8_scale: int8 input: the value q means the LLR q / int8_scale; also the soft
  buffers' units (float LLRs are quantised to round(L * int8_scale) as they are
  combined).
early_stop: a code block stops iterating once its CRC checks (CRC-24B, or the CRC-24A
  of a transport block of one code block); False: every block runs all iterations.
algorithm, iterations, scaling, subblocks, guard, guard_window, threads, devices and
arithmetic: the turbo decoder's (turbo_engine's), with the same names, ranges and
defaults. A bad value raises ValueError naming the parameter and its range.
max_harq_processes: the most HARQ processes with a soft buffer, 1 ... 2147483647: a
  call that starts one more drops the buffer of the process used least recently (one
  not in the call; dropped_harq_processes counts them), and a call of more processes
  raises ValueError.

HARQ soft buffers: one per process, kept between calls until release(). Each holds the
code blocks' codewords (3K+12 values each, the turbo code's interleaved layout) as int8
in the engine's sign (positive means 0, whatever llr_sign) and units of int8_scale;
each transmission's LLRs are added in with saturation at +-127. A buffer is updated
whatever the CRC says.

One object decodes one call at a time (concurrent calls from several threads wait for
each other); the GIL is released while it decodes.)";

const char* decode_batch_doc =
    R"(Decodes a list of transport blocks, of any sizes, in one engine call.

blocks: a list of transport_block, or of dicts of transport_block's arguments
  (dict(llrs=..., tbs=..., G=..., rv=...)). A HARQ process appears at most once in a
  call; a retransmission (new_data=False) needs the tbs its buffer was started with.
  Either error, or a bad block (its format, its LLRs, a code block the turbo decoder
  does not take), raises ValueError naming the block, and leaves every soft buffer as
  it was.
Returns a list of (data, crc_ok, iterations), one per block, in order: data uint8
  (tbs,), the decoded bits; crc_ok bool, whether it was received (its CRC-24A checked
  and each code block's CRC, and its decision agrees with the values received, as far
  as their noise allows); iterations int32
  (C,), the iterations each of its C code blocks ran.)";

const char* decode_doc =
    R"(Decodes one transport block: decode_batch([transport_block(llrs, tbs, G, ...)])[0].

decode(llrs, tbs, G, Qm=2, rv=0, layers=1, soft_buffer=0, c_init=None,
       harq_process=None, new_data=True)

The arguments are transport_block's. Returns (data, crc_ok, iterations): data uint8
(tbs,), crc_ok bool (received, as decode_batch), iterations int32 (C,) per code
block.)";

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

// transport_block() and transport_engine.decode() take a block alike: the arguments,
// their keywords and defaults once.
transport_block make_block(const py::object& llrs,
                           int tbs,
                           int G,
                           int Qm,
                           int rv,
                           int layers,
                           long soft_buffer,
                           const std::optional<long>& c_init,
                           const std::optional<int>& harq_process,
                           bool new_data)
{
    return transport_block(llrs,
                           tbs,
                           G,
                           format_fields{ Qm, rv, layers, soft_buffer, c_init },
                           harq_process,
                           new_data);
}

auto block_keywords()
{
    const format_fields defaults;
    return std::make_tuple(py::arg("llrs"),
                           py::arg("tbs"),
                           py::arg("G"),
                           py::arg("Qm") = defaults.Qm,
                           py::arg("rv") = defaults.rv,
                           py::arg("layers") = defaults.layers,
                           py::arg("soft_buffer") = defaults.soft_buffer,
                           py::arg("c_init") = py::none(),
                           py::arg("harq_process") = py::none(),
                           py::arg("new_data") = true);
}

//! engine.decode(arguments) of what make(arguments) makes.
template <class... Args>
auto decode_made(transport_block (*make)(Args...))
{
    return [make](transport_engine& e, Args... args) { return e.decode(make(args...)); };
}

void bind_parameter_tables(py::module& m)
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
    m.def(
        "control_parameters",
        [] {
            py::list out;
            for (const auto& p : ::gputurbo::lte::control_parameters())
                out.append(parameter_dict(p));
            return out;
        },
        "The LTE control channel's parameters (engine/lte/parameters.h: mode, "
        "min_correlation, max_false_alarm, n_prb, cfi, antenna_ports, ng, phich_mi, "
        "duplex, subframe, "
        "cell_id, descramble), each a dict as transport_parameters() gives them.");
}

void bind_transport_encode(py::module& m)
{
    const format_fields defaults;
    m.def(
        "transport_encode",
        [](const py::object& data,
           int G,
           int Qm,
           int rv,
           int layers,
           long soft_buffer,
           const std::optional<long>& c_init,
           const std::optional<int>& tbs) {
            return transport_encode(
                data, G, tbs, format_fields{ Qm, rv, layers, soft_buffer, c_init });
        },
        py::arg("data"),
        py::arg("G"),
        py::arg("Qm") = defaults.Qm,
        py::arg("rv") = defaults.rv,
        py::arg("layers") = defaults.layers,
        py::arg("soft_buffer") = defaults.soft_buffer,
        py::arg("c_init") = py::none(),
        py::arg("tbs") = py::none(),
        transport_encode_doc.c_str());
}

void bind_transport_block(py::module& m)
{
    py::class_<transport_block> block_class(
        m, "transport_block", transport_block_doc.c_str());
    std::apply(
        [&](const auto&... keywords) {
            block_class.def(py::init(&make_block), keywords...);
        },
        block_keywords());
    block_class.def_readonly("llrs", &transport_block::llrs, "The LLRs, as made.")
        .def_property_readonly("tbs",
                               [](const transport_block& b) { return b.format.tbs; })
        .def_property_readonly("G", [](const transport_block& b) { return b.format.G; })
        .def_property_readonly("Qm", [](const transport_block& b) { return b.format.Qm; })
        .def_property_readonly("rv", [](const transport_block& b) { return b.format.rv; })
        .def_property_readonly("layers",
                               [](const transport_block& b) { return b.format.layers; })
        .def_property_readonly(
            "soft_buffer", [](const transport_block& b) { return b.format.soft_buffer; })
        .def_property_readonly("c_init",
                               [](const transport_block& b) -> std::optional<long> {
                                   if (b.format.c_init == lte::no_scrambling)
                                       return std::nullopt;
                                   return b.format.c_init;
                               })
        .def_readonly("harq_process", &transport_block::harq_process)
        .def_readonly("new_data", &transport_block::new_data)
        .def("__repr__", &transport_block::repr);
}

using transport_engine_class = py::class_<transport_engine>;

// The constructor, with the turbo decoder's keywords and the transport channel's own.
void bind_engine_init(transport_engine_class& engine_class)
{
    engine_class.def(
        py::init<const std::string&,
                 const std::string&,
                 float,
                 const std::string&,
                 int,
                 float,
                 int,
                 const std::string&,
                 int,
                 bool,
                 int,
                 const std::string&,
                 const std::string&,
                 int>(),
        py::arg("backend") = "auto",
        keyword("llr_sign"),
        keyword("int8_scale"),
        keyword("algorithm"),
        keyword("iterations"),
        keyword("scaling"),
        keyword("subblocks"),
        keyword("guard"),
        keyword("guard_window"),
        keyword("early_stop", ::gputurbo::lte::transport_parameters()),
        keyword("threads"),
        keyword("devices"),
        keyword("arithmetic"),
        keyword("max_harq_processes", ::gputurbo::lte::transport_parameters()));
}

// decode(), decode_batch() and the HARQ processes' soft buffers.
void bind_engine_decoding(transport_engine_class& engine_class)
{
    std::apply(
        [&](const auto&... keywords) {
            engine_class.def("decode", decode_made(&make_block), keywords..., decode_doc);
        },
        block_keywords());
    engine_class
        .def("decode_batch",
             &transport_engine::decode_batch,
             py::arg("blocks"),
             decode_batch_doc)
        .def("release",
             &transport_engine::release,
             py::arg("harq_process"),
             "Forgets a HARQ process's soft buffer (no error when there is none).")
        .def_property_readonly("harq_processes",
                               &transport_engine::harq_processes,
                               "How many HARQ processes have a soft buffer.")
        .def_property_readonly("dropped_harq_processes",
                               &transport_engine::dropped_harq_processes,
                               "How many soft buffers were dropped, since the engine was "
                               "made, to keep max_harq_processes (the least recently "
                               "used go).")
        .def_property_readonly("max_harq_processes",
                               &transport_engine::max_harq_processes,
                               "The most HARQ processes with a soft buffer, as made.")
        .def("soft_buffer",
             &transport_engine::soft_buffer,
             py::arg("harq_process"),
             "A copy of a HARQ process's soft buffer: int8 of shape "
             "(soft_buffer_length(tbs),), its code blocks' codewords one after another "
             "(see transport_engine). ValueError when the process has none.")
        .def("set_soft_buffer",
             &transport_engine::set_soft_buffer,
             py::arg("harq_process"),
             py::arg("tbs"),
             py::arg("values"),
             "Sets a HARQ process's soft buffer, for a transport block of tbs bits, from "
             "what soft_buffer() returned (saved to a file, say): a retransmission with "
             "new_data=False then adds into it. ValueError when values is no 1-D int8 "
             "array of soft_buffer_length(tbs) values.");
}

// What the engine was made with and runs on.
void bind_engine_properties(transport_engine_class& engine_class)
{
    engine_class
        .def_property_readonly("backend",
                               &transport_engine::backend,
                               "The backend in use: \"cpu\", \"cuda\" or \"reference\".")
        .def_property_readonly("device",
                               &transport_engine::device,
                               "A description of the device the backend runs on.")
        .def_property_readonly("llr_sign",
                               &transport_engine::llr_sign,
                               "\"positive-one\" or \"positive-zero\", as made.")
        .def_property_readonly("iterations",
                               &transport_engine::iterations,
                               "The most iterations a code block runs.")
        .def_property_readonly("early_stop",
                               &transport_engine::early_stop,
                               "Whether a code block stops once its CRC checks.")
        .def("__repr__", &transport_engine::repr);
}

void bind_transport_engine(py::module& m)
{
    transport_engine_class engine_class(m, "transport_engine", transport_engine_doc);
    bind_engine_init(engine_class);
    bind_engine_decoding(engine_class);
    bind_engine_properties(engine_class);
}

void bind_soft_buffer_length(py::module& m)
{
    m.def(
        "soft_buffer_length",
        &lte::soft_buffer_length,
        py::arg("tbs"),
        "The values a HARQ soft buffer holds for a transport block of tbs bits: the sum "
        "of 3K+12 over its code blocks.");
}

} // namespace

void bind_lte(py::module& m)
{
    bind_parameter_tables(m);
    bind_transport_encode(m);
    bind_transport_block(m);
    bind_transport_engine(m);
    bind_soft_buffer_length(m);
}
