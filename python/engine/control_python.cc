/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The LTE control channels on numpy arrays: gputurbo.control_engine (DCI and MIB blocks
 * encoded and decoded, the PDCCH's blind search, the PBCH), the DCI formats' sizes and
 * fields (dci_size, parse_dci, pack_dci) and the PDCCH's search spaces (cce_count,
 * common_search_space, ue_search_space, every_candidate, default_dci_sizes,
 * descramble_pdcch). This file converts arrays, dicts and names and calls the engine
 * (engine/lte/control.h, dci.h, search_space.h, pdcch.h, pbch.h), whose checks and
 * wording it keeps (its std::invalid_argument reaches Python as ValueError).
 */

#include "numpy_arrays.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/dci.h>
#include <gnuradio/gputurbo/engine/lte/pbch.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/search_space.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

using namespace gputurbo::python;
namespace lte = ::gputurbo::lte;
namespace conv = ::gputurbo::conv;
namespace core = ::gputurbo::core;

std::string
out_of_range(const std::string& name, long long value, const std::string& range)
{
    return name + "=" + std::to_string(value) + " is out of range: use " + range;
}

//! \p value as an int, or ValueError naming \p name and what was given.
int int_of(const std::string& name, const py::handle& value)
{
    try {
        return value.cast<int>();
    } catch (const py::cast_error&) {
        throw py::value_error(name + " must be an int; got " + text(py::repr(value)));
    }
}

std::vector<int> ints_of(const std::string& name, const py::handle& value)
{
    try {
        return value.cast<std::vector<int>>();
    } catch (const py::cast_error&) {
        throw py::value_error(name + " must be a list of ints; got " +
                              text(py::repr(value)));
    }
}

/*!
 * One integer for each of \p n rows: \p given an integer (each row's) or a 1-D integer
 * array of n. ValueError naming \p name: another type or length, or a value outside
 * \p least ... \p most or that \p ok refuses (\p range says what is taken; [i] names
 * the row of an array's).
 */
std::vector<long long> per_row(const py::object& given,
                               const std::string& name,
                               std::size_t n,
                               long long least,
                               long long most,
                               const std::string& range,
                               bool (*ok)(long long) = nullptr)
{
    py::array a = py::array::ensure(given);
    const char kind = a ? a.dtype().kind() : '?';
    if (!a || (kind != 'i' && kind != 'u') || a.ndim() > 1 ||
        (a.ndim() == 1 && std::size_t(a.shape(0)) != n))
        throw py::value_error(name +
                              " must be an int, or a 1-D integer array of one a "
                              "row (" +
                              std::to_string(n) + ",); got " + given_text(given, a));
    const auto values = py::array_t<long long, py::array::forcecast>::ensure(a);
    std::vector<long long> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const long long v = values.data()[a.ndim() == 0 ? 0 : i];
        if (v < least || v > most || (ok && !ok(v)))
            throw py::value_error(out_of_range(
                a.ndim() == 0 ? name : name + "[" + std::to_string(i) + "]", v, range));
        out[i] = v;
    }
    return out;
}

//! "normal" | "extended": the names of the cyclic prefix and of the PHICH duration.
template <class Enum>
Enum normal_or_extended(const std::string& what, const std::string& name)
{
    if (name == "normal")
        return Enum::normal;
    if (name == "extended")
        return Enum::extended;
    throw py::value_error("unknown " + what + " '" + name + "': use normal, extended");
}

template <class Enum>
const char* normal_or_extended_name(Enum value)
{
    return value == Enum::normal ? "normal" : "extended";
}

lte::cyclic_prefix cyclic_prefix_of(const std::string& cp)
{
    return normal_or_extended<lte::cyclic_prefix>("cp", cp);
}

lte::pdcch_search_mode mode_of(const std::string& name)
{
    for (const auto m :
         { lte::pdcch_search_mode::ue, lte::pdcch_search_mode::exhaustive })
        if (name == lte::to_string(m))
            return m;
    throw py::value_error("unknown mode '" + name + "': use ue, exhaustive");
}

lte::dci_config dci_config_of(int n_prb, const std::string& duplex, int antenna_ports)
{
    return { n_prb, lte::parse_duplex_mode(duplex), antenna_ports };
}

//! A 1-D uint8 array of 0/1 values named \p name, \p what it holds in its message.
py::array
bits_of(const py::object& given, const std::string& name, const std::string& what)
{
    py::array a = py::array::ensure(given);
    if (!a || a.ndim() != 1 || !holds<std::uint8_t>(a))
        throw py::value_error(name + " must be a 1-D uint8 array of 0/1 values, " + what +
                              "; got " + given_text(given, a));
    a = in_engine_layout(a, name);
    check_binary(a, name);
    return a;
}

template <class Bytes>
py::array_t<std::uint8_t> bits_array(const Bytes& bits)
{
    return py::array_t<std::uint8_t>(py::ssize_t(bits.size()), bits.data());
}

// --- DCI formats ---------------------------------------------------------------------

py::dict message_dict(const lte::dci_message& m)
{
    py::dict fields;
    for (const auto& f : m.fields)
        fields[py::str(std::string(f.name))] = f.value;
    py::dict d;
    d["format"] = lte::to_string(m.format);
    d["fields"] = fields;
    if (m.allocation) {
        py::dict allocation;
        allocation["start"] = m.allocation->start;
        allocation["length"] = m.allocation->length;
        d["allocation"] = allocation;
    } else {
        d["allocation"] = py::none();
    }
    return d;
}

py::dict parse_dci(const py::object& bits,
                   const std::string& format,
                   int n_prb,
                   const std::string& duplex,
                   int antenna_ports)
{
    const py::array a = bits_of(bits, "bits", "the payload of a DCI");
    return message_dict(lte::parse_dci(lte::parse_dci_format(format),
                                       dci_config_of(n_prb, duplex, antenna_ports),
                                       static_cast<const std::uint8_t*>(a.data()),
                                       std::size_t(a.size())));
}

py::array_t<std::uint8_t> pack_dci(const py::dict& fields,
                                   const std::string& format,
                                   int n_prb,
                                   const std::string& duplex,
                                   int antenna_ports)
{
    const lte::dci_config config = dci_config_of(n_prb, duplex, antenna_ports);
    lte::dci_message m = lte::dci_fields(lte::parse_dci_format(format), config);
    for (const auto& [key, value] : fields) {
        const std::string name = text(key);
        long long v = 0;
        try {
            v = value.cast<long long>();
        } catch (const py::cast_error&) {
            throw py::value_error("fields['" + name + "'] must be an int; got " +
                                  text(py::repr(value)));
        }
        if (v < 0 || v > UINT32_MAX)
            throw py::value_error(out_of_range("fields['" + name + "']", v, "0 or more"));
        m.set(name, std::uint32_t(v));
    }
    return bits_array(lte::pack_dci(m, config));
}

// --- Search spaces -----------------------------------------------------------------

lte::control_region
region_of(int n_prb, int cfi, int antenna_ports, const py::object& ng, int phich_mi)
{
    lte::control_region r;
    r.n_prb = n_prb;
    r.cfi = cfi;
    r.antenna_ports = antenna_ports;
    r.ng = lte::parse_phich_resource(text(ng));
    r.phich_mi = phich_mi;
    return r;
}

//! Candidates as (first_cce, level) tuples.
py::list candidate_list(const std::vector<lte::pdcch_candidate>& candidates)
{
    py::list out;
    for (const auto& c : candidates)
        out.append(py::make_tuple(c.first_cce, c.level));
    return out;
}

py::array_t<float> descramble_pdcch(const py::object& llrs, int subframe, int cell_id)
{
    py::array a = py::array::ensure(llrs);
    if (!a || a.ndim() != 1 || !holds<float>(a))
        throw py::value_error("llrs must be a 1-D float32 array of a subframe's control "
                              "region; got " +
                              given_text(llrs, a));
    py::array_t<float> out(a.size());
    std::copy_n(static_cast<const float*>(in_engine_layout(a, "llrs").data()),
                a.size(),
                out.mutable_data());
    lte::descramble_pdcch(subframe, cell_id, out.mutable_data(), std::size_t(a.size()));
    return out;
}

// --- The engine ----------------------------------------------------------------------

// What a subframe of search() may set: the keywords of search(), the keys of a dict.
const char* const subframe_field_names[] = { "n_prb",    "cfi",      "antenna_ports",
                                             "ng",       "phich_mi", "duplex",
                                             "subframe", "rntis",    "dci_sizes" };
const char* const subframe_keys =
    "n_prb, cfi, antenna_ports, ng, phich_mi, duplex, subframe, rntis, dci_sizes";

//! Sets \p key of \p sf from \p value; false for a key that is none of subframe_keys.
bool set_subframe_field(lte::pdcch_subframe& sf,
                        const std::string& key,
                        const py::handle& value)
{
    if (key == "n_prb")
        sf.region.n_prb = int_of(key, value);
    else if (key == "cfi")
        sf.region.cfi = int_of(key, value);
    else if (key == "antenna_ports")
        sf.region.antenna_ports = int_of(key, value);
    else if (key == "ng")
        sf.region.ng = lte::parse_phich_resource(text(value));
    else if (key == "phich_mi")
        sf.region.phich_mi = int_of(key, value);
    else if (key == "duplex")
        sf.duplex = lte::parse_duplex_mode(text(value));
    else if (key == "subframe")
        sf.subframe = int_of(key, value);
    else if (key == "rntis")
        sf.rntis = value.is_none() ? std::vector<int>{} : ints_of(key, value);
    else if (key == "dci_sizes")
        sf.dci_sizes = value.is_none() ? std::vector<int>{} : ints_of(key, value);
    else
        return false;
    return true;
}

/*!
 * The subframes of search(): each one's LLRs (held) and its description. \p given: a
 * float32 array (n, L) or (L,), or a list of 1-D float32 arrays or of dicts of "llrs"
 * and keys of subframe_keys that replace \p common's.
 */
struct search_input
{
    std::vector<py::array> held;
    std::vector<lte::pdcch_subframe> subframes;

    search_input(const py::object& given, const lte::pdcch_subframe& common)
    {
        if (py::isinstance<py::list>(given) || py::isinstance<py::tuple>(given)) {
            std::size_t i = 0;
            for (const py::handle item : given)
                add_item(item, "subframes[" + std::to_string(i++) + "]", common);
            return;
        }
        const rows in(
            given,
            "subframes",
            any_width,
            holds<float>,
            "subframes must be float32 of shape (n, L), a subframe's L LLRs a "
            "row, or (L,) for one, or a list of 1-D float32 arrays or of dicts");
        held.push_back(in.array);
        const auto* first = static_cast<const float*>(in.array.data());
        for (std::size_t s = 0; s < in.count; ++s) {
            lte::pdcch_subframe sf = common;
            sf.llrs = first + s * in.width;
            sf.llr_count = in.width;
            subframes.push_back(sf);
        }
    }

private:
    void add_item(const py::handle& item,
                  const std::string& name,
                  const lte::pdcch_subframe& common)
    {
        lte::pdcch_subframe sf = common;
        py::object llrs = py::reinterpret_borrow<py::object>(item);
        if (py::isinstance<py::dict>(item)) {
            const py::dict d = py::reinterpret_borrow<py::dict>(item);
            if (!d.contains("llrs"))
                throw py::value_error(name + ": a subframe's dict needs \"llrs\"");
            llrs = d["llrs"];
            for (const auto& [key, value] : d) {
                const std::string k = text(key);
                if (k != "llrs" && !set_subframe_field(sf, k, value))
                    throw py::value_error(name + ": unknown key '" + k + "': use llrs, " +
                                          subframe_keys);
            }
        }
        py::array a = py::array::ensure(llrs);
        if (!a || a.ndim() != 1 || !holds<float>(a))
            throw py::value_error(name +
                                  ": llrs must be a 1-D float32 array of the "
                                  "subframe's 72 N_CCE LLRs; got " +
                                  given_text(llrs, a));
        a = in_engine_layout(a, name);
        sf.llrs = static_cast<const float*>(a.data());
        sf.llr_count = std::size_t(a.size());
        held.push_back(a);
        subframes.push_back(sf);
    }
};

py::dict detection_dict(const lte::pdcch_detection& d)
{
    py::dict out;
    out["subframe"] = d.subframe;
    out["first_cce"] = d.candidate.first_cce;
    out["level"] = d.candidate.level;
    out["size"] = d.size;
    out["rnti"] = d.rnti;
    out["payload"] = bits_array(d.payload);
    out["space"] = lte::to_string(d.space);
    out["correlation"] = d.correlation;
    return out;
}

const char* const mib_keys = "n_prb, duration, ng, sfn_msbs, spare";

py::dict mib_dict(const lte::mib& m)
{
    py::dict d;
    d["n_prb"] = m.n_prb;
    d["duration"] = normal_or_extended_name(m.duration);
    d["ng"] = lte::to_string(m.ng);
    d["sfn_msbs"] = m.sfn_msbs;
    d["spare"] = m.spare;
    return d;
}

//! A MIB from a dict of mib_keys (the others lte::mib's defaults) or its 24 bits.
lte::mib mib_of(const py::object& given)
{
    lte::mib m;
    if (py::isinstance<py::dict>(given)) {
        for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(given)) {
            const std::string k = text(key);
            if (k == "n_prb")
                m.n_prb = int_of(k, value);
            else if (k == "duration")
                m.duration = normal_or_extended<lte::phich_duration>(k, text(value));
            else if (k == "ng")
                m.ng = lte::parse_phich_resource(text(value));
            else if (k == "sfn_msbs")
                m.sfn_msbs = int_of(k, value);
            else if (k == "spare")
                m.spare = int_of(k, value);
            else
                throw py::value_error("mib: unknown key '" + k + "': use " + mib_keys);
        }
        return m;
    }
    const py::array bits =
        bits_of(given, "mib", "its 24 bits, or a dict of " + std::string(mib_keys));
    if (bits.size() != lte::mib_bits)
        throw py::value_error("mib holds " + std::to_string(bits.size()) +
                              " bits: a MIB has " + std::to_string(lte::mib_bits));
    const auto parsed = lte::parse_mib(static_cast<const std::uint8_t*>(bits.data()));
    if (!parsed)
        throw py::value_error("mib: its dl-Bandwidth bits name no bandwidth (codes 6 "
                              "and 7 are undefined)");
    return *parsed;
}

py::object pbch_result_dict(const std::optional<lte::pbch_result>& r)
{
    if (!r)
        return py::none();
    py::dict d;
    d["mib"] = r->message ? py::object(mib_dict(*r->message)) : py::object(py::none());
    d["bits"] = bits_array(r->bits);
    d["ports"] = r->ports;
    d["offset"] = r->offset;
    d["sfn"] = r->sfn();
    return d;
}

// The range of a control block's payload bits, in messages.
const std::string payload_bits = "1 ... " + std::to_string(lte::max_control_bits);

class control_engine
{
public:
    control_engine(const std::string& backend, int threads, const std::string& devices)
    {
        conv::viterbi_config config = lte::control_decoder_config();
        config.threads = threads;
        config.devices = devices;
        d_searcher = std::make_unique<lte::pdcch_searcher>(
            conv::make_viterbi_decoder(config, backend));
        d_threads = threads;
    }

    py::array_t<std::uint8_t>
    encode(const py::object& payload, const py::object& mask, int E)
    {
        const rows in(payload,
                      "payload",
                      any_width,
                      holds<std::uint8_t>,
                      "payload must be uint8 (0 or 1) of shape (n, A), or (A,) for one "
                      "block");
        check_binary(in.array, "payload");
        if (in.width < 1 || in.width > std::size_t(lte::max_control_bits))
            throw py::value_error(out_of_range("A", (long long)in.width, payload_bits));
        if (E < 1)
            throw py::value_error(out_of_range("E", E, "1 or more"));
        const std::vector<long long> masks =
            per_row(mask, "mask", in.count, 0, 0xFFFF, "0 ... 65535 (16 bits)");
        const int A = int(in.width);
        auto e = in.result<std::uint8_t>(std::size_t(E));
        const auto* bits = static_cast<const std::uint8_t*>(in.array.data());
        std::uint8_t* out = e.mutable_data();
        {
            py::gil_scoped_release release;
            for (std::size_t i = 0; i < in.count; ++i)
                lte::control_encode(A, bits + i * A, long(masks[i]), E, out + i * E);
        }
        return e;
    }

    py::tuple decode(const py::object& llrs, int A)
    {
        if (A < 1 || A > lte::max_control_bits)
            throw py::value_error(out_of_range("A", A, payload_bits));
        const rows in(llrs,
                      "llrs",
                      any_width,
                      holds<float>,
                      "llrs must be float32 of shape (n, E), or (E,) for one block");
        if (in.width > INT_MAX)
            throw py::value_error(out_of_range(
                "E", (long long)in.width, "1 ... " + std::to_string(INT_MAX)));
        auto payload = in.result<std::uint8_t>(std::size_t(A));
        auto masks = in.result<std::uint16_t>();
        auto passed = in.result<bool>();
        std::vector<core::codeword_status> status(in.count);
        {
            const auto* x = static_cast<const float*>(in.array.data());
            std::uint8_t* bits = payload.mutable_data();
            std::uint16_t* m = masks.mutable_data();
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            lte::control_decode(
                decoder(), A, int(in.width), x, in.count, bits, m, status.data());
        }
        bool* ok = passed.mutable_data();
        for (std::size_t i = 0; i < status.size(); ++i)
            ok[i] = status[i].passed;
        return py::make_tuple(payload, masks, passed);
    }

    //! \p fields: the keywords of subframe_keys, in its order.
    py::list search(const py::object& subframes,
                    const std::string& mode,
                    double min_correlation,
                    double max_false_alarm,
                    const std::vector<py::object>& fields)
    {
        lte::pdcch_subframe common;
        for (std::size_t i = 0; i < fields.size(); ++i)
            set_subframe_field(common, subframe_field_names[i], fields[i]);
        lte::pdcch_search_options options;
        options.mode = mode_of(mode);
        options.min_correlation = min_correlation;
        options.max_false_alarm = max_false_alarm;
        options.threads = d_threads;
        const search_input input(subframes, common);
        std::vector<lte::pdcch_detection> found;
        {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            found = d_searcher->search(input.subframes, options);
            d_decoded = d_searcher->decoded_candidates();
        }
        py::list out;
        for (const auto& d : found)
            out.append(detection_dict(d));
        return out;
    }

    py::array_t<std::uint8_t>
    pbch_encode(const py::object& mib, int ports, int cell_id, const std::string& cp)
    {
        return bits_array(
            lte::pbch_encode(mib_of(mib), ports, cell_id, cyclic_prefix_of(cp)));
    }

    py::object pbch_decode(const py::object& llrs,
                           const py::object& cell_id,
                           const py::object& parts,
                           const std::string& cp)
    {
        const lte::cyclic_prefix c = cyclic_prefix_of(cp);
        const std::size_t E = std::size_t(lte::pbch_bits(c));
        const std::string e = std::to_string(E);
        const rows in(llrs,
                      "llrs",
                      E,
                      holds<float>,
                      "llrs must be float32 of shape (n, " + e + "), or (" + e +
                          ",) for one window, with cp=\"" + cp + "\"");
        const auto cells = per_row(cell_id,
                                   "cell_id",
                                   in.count,
                                   0,
                                   lte::max_cell_id,
                                   "0 ... " + std::to_string(lte::max_cell_id));
        const auto received =
            per_row(parts,
                    "parts",
                    in.count,
                    1,
                    15,
                    "1 ... 15 with bit 0 set (the window's first frame received)",
                    [](long long v) { return (v & 1) == 1; });
        std::vector<lte::pbch_window> windows(in.count);
        for (std::size_t j = 0; j < in.count; ++j)
            windows[j] = { int(cells[j]), unsigned(received[j]) };
        std::vector<std::optional<lte::pbch_result>> found;
        {
            const auto* x = static_cast<const float*>(in.array.data());
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> guard(d_mutex);
            found = lte::pbch_decode(decoder(), c, windows.data(), x, in.count);
        }
        if (in.single)
            return pbch_result_dict(found[0]);
        py::list out;
        for (const auto& r : found)
            out.append(pbch_result_dict(r));
        return out;
    }

    std::string backend() const { return decoder().backend(); }
    std::string device() const { return decoder().device(); }
    std::size_t decoded_candidates() const { return d_decoded; }

    std::string repr() const
    {
        return "gputurbo.control_engine(backend='" + backend() + "')";
    }

private:
    core::batch_decoder& decoder() const { return d_searcher->decoder(); }

    // The searcher holds the engine's one Viterbi decoder, which decode() and
    // pbch_decode() use as well.
    std::unique_ptr<lte::pdcch_searcher> d_searcher;
    int d_threads = 0; // the search's own, as the decoder's
    std::mutex d_mutex;
    std::size_t d_decoded = 0;
};

const char* control_engine_doc =
    R"(The LTE control channels on numpy arrays (3GPP TS 36.212 §5.3.1, §5.3.3, 36.213
§9.1.1): DCI and MIB blocks encoded and decoded in batches, the PDCCH's blind search of
many subframes in one pass, and the PBCH's MIB from windows of radio frames, on one
Viterbi decoder (the tail-biting K = 7 rate-1/3 code, preset "lte") made once and used
by every call.

control_engine(backend="auto", threads=0, devices="0")

backend: "auto" (CUDA where this build and machine can run it, else the CPU), "cpu" (the
  SIMD Viterbi decoder), "cuda" (the same decisions on the GPU) or "reference" (the
  exact float Viterbi); the backend property says which one runs. A backend this build
  or machine lacks raises RuntimeError with the reason.
threads: CPU worker threads (the decoder's and the search's own), 0 = all cores.
devices: CUDA devices, "0", "0,1" or "all".

A control block: A payload bits, their CRC-16 XORed with a 16-bit mask (a DCI's RNTI, a
MIB's antenna-port mask: 0x0000, 0xFFFF, 0x5555 for 1, 2, 4 ports), the tail-biting
code and rate matching for convolutional codes to E bits (repeated LLRs add up, bits
not sent are erasures). LLRs are float32 in GNU Radio's sign: positive means 1
(digital.constellation_soft_decoder_cf's).

One object decodes one call at a time (concurrent calls from several threads wait for
each other); the GIL is released while it encodes and decodes.)";

const char* encode_doc =
    R"(The E bits sent for control blocks (36.212 §5.3.3.2 - 5.3.3.4).

payload: uint8 of shape (n, A), each row a block's A payload bits (0 or 1), or (A,)
  for one block.
mask: the 16-bit mask over each block's CRC, 0 ... 65535: an int for every block or a
  1-D integer array of one a block (n,). A DCI's is its RNTI, a MIB's its antenna-port
  mask (0x0000, 0xFFFF, 0x5555 for 1, 2, 4 ports; pbch_encode() sends a whole MIB).
E: the bits sent for each block, 1 or more (72 L on a PDCCH candidate of L CCEs): the
  3 (A + 16) coded bits repeated or punctured.
Returns uint8 of shape (n, E) ((E,) for a 1-D payload), each 0 or 1. Bad input raises
ValueError naming the argument, its value and the range.)";

const char* decode_doc =
    R"(Decodes control blocks of A payload bits, n in one decoder call.

llrs: float32 of shape (n, E), each row the E LLRs received for one block (GNU Radio's
  sign: positive means 1), or (E,) for one block.
A: the payload bits of every block, 1 ... 65536.
Returns (payload, masks, passed): payload uint8 (n, A), the decoded bits; masks uint16
(n,), each block's CRC as received XOR the CRC computed from its payload: the RNTI a
DCI was sent to (a receiver that does not know it finds it so), the port mask of a MIB,
any value for a block received in error; passed bool (n,), False for a block that
carries no information (LLRs all 0, say). A 1-D llrs gives payload (A,) and 0-d masks
and passed. A block sent as fewer bits than it has (E < A + 16) cannot be told from the
others sent as the same bits: what comes out is one of them at best.)";

const char* search_doc =
    R"(The blind search of the PDCCH (36.213 §9.1.1): the DCIs of many subframes, every
candidate of their search spaces decoded for every DCI size, each size's candidates of
all the subframes in one decoder call.

search(subframes, mode="ue", min_correlation=0.6, n_prb=100, cfi=3, antenna_ports=2,
       ng="1", phich_mi=1, duplex="fdd", subframe=0, rntis=None, dci_sizes=None,
       max_false_alarm=1e-4)

subframes: each subframe's LLRs in CCE order, 72 a CCE (the bits of its 9 REGs after
  REG de-interleaving, 36.211 §6.8.5, and descrambling, descramble_pdcch()), float32 in
  GNU Radio's sign: 72 N_CCE of them (cce_count()), or as many as the control region's
  REGs carry (8 N_REG; those after the last whole CCE are not read). A float32 array
  (n, L), a subframe a row, or (L,) for one; or a list of 1-D float32 arrays, or of
  dicts of "llrs" and any of the keywords below, which replace the keywords' values for
  that subframe ({"llrs": x, "subframe": 3, "rntis": [0x4601]}).
mode: "ue", the common search space and the UE-specific space of each RNTI listed (a
  candidate is a DCI when its CRC's mask is an RNTI of its space: in a UE-specific
  candidate the RNTI whose space holds it; in a common one SI-RNTI 0xFFFF, P-RNTI
  0xFFFE, an RA-RNTI 1 ... 60 or an RNTI listed); or "exhaustive", every CCE-aligned
  candidate of levels 1, 2, 4 and 8 (every_candidate()), the RNTI read from the CRC:
  any where rntis lists none, else those listed and the broadcasts'.
min_correlation: the re-encoding check, -1 ... 1: a DCI is reported when the correlation
  of its re-encoded bits with its LLRs is at least this (-1: every one the CRC rule
  passes). 0.6 keeps the DCIs decoded at Es/N0 = 0 dB; an exhaustive search for any RNTI
  needs more (0.9, 0.99) and a good SNR (docs/usage.md gives the measured rates).
max_false_alarm: the false alarms allowed, 0 < p <= 1: a decoded candidate is reported
  only where noise would pass its CRC rule with a correlation as high with probability
  at most this (false_alarm_floor() gives the correlation that takes; 1: off). It
  changes nothing where the CRC alone bounds it (a candidate tried for at most 6 RNTIs
  at 1e-4); an exhaustive search for any RNTI then asks 0.93 ... 1 of level-1 DCIs
  (none of 43 bits or more: noise decodes to as good a word) and 0.74 ... 0.90 of
  level 2's.
n_prb (6 ... 110), cfi (1 ... 3), antenna_ports (1, 2, 4), ng ("1/6", "1/2", "1", "2",
  the PHICH's N_g) and phich_mi (m_i: 1 in FDD; 0, 1 or 2 in TDD): the control region,
  which gives N_CCE (cce_count()).
duplex: "fdd" or "tdd", with n_prb and antenna_ports the default DCI sizes.
subframe: k = floor(n_s / 2), 0 ... 9, for the UE-specific spaces' Y_k.
rntis: the RNTIs (1 ... 65535) whose UE-specific spaces mode "ue" searches, and which
  alone (with the broadcasts') mode "exhaustive" accepts where any are listed; None: none.
dci_sizes: the payload sizes A to try, each 1 ... 560; None: default_dci_sizes() of the
  cell (formats 0/1A, 1C, 1 and, with 2 or 4 ports, 2A).
Returns a list of detections ordered by subframe, first CCE, level and size, each a dict:
  "subframe" (the subframe's index in subframes), "first_cce", "level", "size" (A),
  "rnti", "payload" (uint8 (A,): parse_dci() reads it), "space" ("common",
  "ue-specific" or "exhaustive"; a listed RNTI's DCI on a candidate of both spaces is
  common) and "correlation" (of its re-encoded bits with its LLRs, sum L (2e - 1) /
  sum |L|: 1 where every LLR agrees, about 0.85 at Es/N0 = 0 dB).
A DCI found again at candidates that overlap its own is reported once. A candidate
shared by several spaces is decoded once a size, and one whose LLRs are all 0 not
(decoded_candidates counts those decoded). A bad subframe raises ValueError naming it
and what is wrong, before anything is decoded.)";

const char* pbch_encode_doc =
    R"(The PBCH's bits of a 40 ms period (36.212 §5.3.1, 36.211 §6.6): the MIB's BCH block
(CRC-16 masked by the antenna ports) rate matched to E = 1920 bits (cp="normal") or 1728
("extended") and scrambled by the cell's sequence.

mib: a dict of its fields, "n_prb" (dl-Bandwidth: 6, 15, 25, 50, 75 or 100), "duration"
  ("normal" or "extended"), "ng" ("1/6", "1/2", "1" or "2"), "sfn_msbs" (SFN / 4, 0 ...
  255) and "spare" (0 ... 1023), those left out 100, "normal", "1", 0, 0; or its 24
  bits (uint8, 0 or 1), whose dl-Bandwidth must name one.
ports: the cell's transmit antenna ports, 1, 2 or 4. cell_id: N_ID^cell, 0 ... 503.
Returns uint8 (E,): part i, bits [i E / 4, (i + 1) E / 4), is sent in the radio frames
with SFN mod 4 = i.)";

const char* pbch_decode_doc =
    R"(The MIBs of windows of up to four consecutive radio frames, their place in the
40 ms period unknown: every place a window's frames fit in is decoded, all windows' in
one decoder call, and the first whose CRC carries an antenna-port mask is the MIB.

llrs: float32 (n, E) or (E,) for one window, E = 1920 (cp="normal") or 1728
  ("extended"): part k of a window (E / 4 LLRs of its k-th frame, GNU Radio's sign, not
  descrambled) at k E / 4; the parts not received are not read.
cell_id: N_ID^cell, 0 ... 503: an int for every window or a 1-D integer array of one a
  window.
parts: which of a window's frames were received, bit k for frame k, 1 ... 15 with bit 0
  set (the window starts at a frame received): 0b0001 one frame, 0b1111 four, 0b1011
  frame 2 lost; an int for every window or an array of one a window.
Returns, for each window, None where no place gives a MIB, else a dict: "mib" (the
fields, as pbch_encode() takes them; None where the bits hold an undefined
dl-Bandwidth), "bits" (uint8 (24,), the MIB as decoded), "ports" (1, 2 or 4), "offset"
(SFN mod 4 of the window's first frame) and "sfn" (the SFN of its first frame: 4
sfn_msbs + offset). One dict or None for a 1-D llrs, else a list. Noise passes with one
of the three masks about 3 times in 65536 places tried.)";

const char* parse_dci_doc =
    R"(The fields of a DCI payload (36.212 v10 §5.3.3.1).

bits: uint8 (A,), the payload as decoded (0 or 1), A = dci_size(format, ...).
format: "0", "1", "1A", "1B", "1C", "1D", "2", "2A", "2B" or "2C". Formats 0 and 1A
  have one size: payload bit 0 (the format flag) tells them apart, and a payload whose
  flag names the other format raises ValueError.
n_prb (6 ... 110), duplex ("fdd", "tdd") and antenna_ports (1, 2, 4): the cell's.
Returns a dict: "format", "fields" (a dict of each field's value by name, in the order
sent, padding left out: "format_flag", "distributed_vrb", "rb_assignment", "mcs",
"harq_process", "ndi", "rv", "tpc", ... as engine/lte/dci.h lists them) and
"allocation" ({"start", "length"} of a type 2 allocation where rb_assignment is its
RIV, else None).)";

const char* pack_dci_doc =
    R"(The payload bits of a DCI: parse_dci() undone.

fields: a dict of field values by name (parse_dci()'s "fields"); fields left out are 0,
  but format 0/1A's flag, which is its format's.
format, n_prb, duplex, antenna_ports: as parse_dci().
Returns uint8 (dci_size(format, ...),), the fields' bits in order, MSB first, and the
padding (0). A field the format lacks or a value wider than its field raises
ValueError.)";

// The functions that need no decoder: DCI sizes and fields, search spaces,
// descrambling.
void bind_control_functions(py::module& m)
{
    const lte::dci_config cell;
    const lte::control_region region;

    m.def(
        "dci_size",
        [](const std::string& format, int n_prb, const std::string& duplex, int ports) {
            return lte::dci_size(lte::parse_dci_format(format),
                                 dci_config_of(n_prb, duplex, ports));
        },
        py::arg("format"),
        py::arg("n_prb") = cell.n_prb,
        py::arg("duplex") = lte::to_string(cell.duplex),
        py::arg("antenna_ports") = cell.antenna_ports,
        "The payload bits (without the CRC) of a DCI format in a cell, padding included "
        "(36.212 v10 §5.3.3.1; no carrier indicator, no SRS request, the 1-bit CSI "
        "request). format: \"0\", \"1\", \"1A\", \"1B\", \"1C\", \"1D\", \"2\", \"2A\", "
        "\"2B\" or \"2C\"; n_prb: 6 ... 110; duplex: \"fdd\" or \"tdd\"; antenna_ports: "
        "1, 2 or 4 (1B, 1D, 2 and 2A need 2 or 4). A bad value raises ValueError.");
    m.def("parse_dci",
          &parse_dci,
          py::arg("bits"),
          py::arg("format"),
          py::arg("n_prb") = cell.n_prb,
          py::arg("duplex") = lte::to_string(cell.duplex),
          py::arg("antenna_ports") = cell.antenna_ports,
          parse_dci_doc);
    m.def("pack_dci",
          &pack_dci,
          py::arg("fields"),
          py::arg("format"),
          py::arg("n_prb") = cell.n_prb,
          py::arg("duplex") = lte::to_string(cell.duplex),
          py::arg("antenna_ports") = cell.antenna_ports,
          pack_dci_doc);
    m.def(
        "default_dci_sizes",
        [](int n_prb, const std::string& duplex, int ports) {
            return lte::default_dci_sizes(dci_config_of(n_prb, duplex, ports));
        },
        py::arg("n_prb") = cell.n_prb,
        py::arg("duplex") = lte::to_string(cell.duplex),
        py::arg("antenna_ports") = cell.antenna_ports,
        "The DCI sizes a search tries by default: those of formats 0/1A, 1C, 1 and, with "
        "2 or 4 antenna ports, 2A in the cell, each once, in that order.");
    m.def(
        "cce_count",
        [](int n_prb, int cfi, int ports, const py::object& ng, int phich_mi) {
            return lte::cce_count(region_of(n_prb, cfi, ports, ng, phich_mi));
        },
        py::arg("n_prb") = region.n_prb,
        py::arg("cfi") = region.cfi,
        py::arg("antenna_ports") = region.antenna_ports,
        py::arg("ng") = lte::to_string(region.ng),
        py::arg("phich_mi") = region.phich_mi,
        "N_CCE, the CCEs of a subframe's control region (36.211 §6.8.1; normal cyclic "
        "prefix, the PHICH's normal duration): n_prb 6 ... 110; cfi 1 ... 3 (cfi + 1 "
        "symbols where n_prb <= 10); antenna_ports 1, 2, 4; ng the PHICH's N_g, \"1/6\", "
        "\"1/2\", \"1\" or \"2\"; phich_mi m_i, 1 in FDD, 0 ... 2 in TDD. 84 for the "
        "defaults (20 MHz, CFI 3).");
    m.def(
        "common_search_space",
        [](int n_cce) { return candidate_list(lte::common_search_space(n_cce)); },
        py::arg("n_cce"),
        "The common search space's candidates (36.213 §9.1.1) of a region of n_cce "
        "CCEs, a list of (first_cce, level): levels 4 and 8 on CCEs 0 ... 15, those "
        "that fit.");
    m.def(
        "ue_search_space",
        [](int n_cce, int rnti, int subframe) {
            return candidate_list(lte::ue_search_space(n_cce, rnti, subframe));
        },
        py::arg("n_cce"),
        py::arg("rnti"),
        py::arg("subframe"),
        "The UE-specific search space of an RNTI (1 ... 65535) in subframe k = "
        "floor(n_s / 2) (0 ... 9) of a region of n_cce CCEs (36.213 §9.1.1, Y_k of the "
        "RNTI), a list of (first_cce, level): levels 1, 2, 4, 8 with up to 6, 6, 2, 2 "
        "candidates, none repeated.");
    m.def(
        "every_candidate",
        [](int n_cce) { return candidate_list(lte::every_candidate(n_cce)); },
        py::arg("n_cce"),
        "Every candidate a region of n_cce CCEs can hold, a list of (first_cce, level): "
        "at each level L of 1, 2, 4, 8 those that start on a multiple of L (a search "
        "that knows no RNTI, mode=\"exhaustive\").");
    m.def("false_alarm_floor",
          &lte::false_alarm_floor,
          py::arg("A"),
          py::arg("level"),
          py::arg("hypotheses"),
          py::arg("max_false_alarm"),
          "The least correlation at which a decoded candidate of a level (1, 2, 4, 8) "
          "and DCI size A, checked against a number of RNTI hypotheses (those its CRC "
          "rule takes, 1 ... 65536: 65536 for any RNTI), is noise with probability at "
          "most max_false_alarm (0 < p <= 1): -1 where the CRC alone bounds it, inf "
          "where no correlation does. A Chernoff bound for Gaussian LLRs of noise over "
          "the 2^A codewords of each RNTI (search()'s max_false_alarm applies it).");
    m.def("descramble_pdcch",
          &descramble_pdcch,
          py::arg("llrs"),
          py::arg("subframe"),
          py::arg("cell_id"),
          "The LLRs of a subframe's control region (1-D float32, CCE order after REG "
          "de-interleaving), descrambled (36.211 §6.8.2: c_init = subframe 2^9 + "
          "cell_id; subframe k = floor(n_s / 2), 0 ... 9, cell_id 0 ... 503): a new "
          "array, LLR i negated where c(i) is 1. Either sign convention alike; the same "
          "call scrambles.");
}

} // namespace

void bind_control(py::module& m)
{
    const lte::pdcch_subframe subframe_defaults;
    const lte::pdcch_search_options search_defaults;
    const lte::dci_config cell;
    const lte::control_region region;

    py::class_<control_engine>(m, "control_engine", control_engine_doc)
        .def(py::init<const std::string&, int, const std::string&>(),
             py::arg("backend") = "auto",
             py::arg("threads") = 0,
             py::arg("devices") = "0")
        .def("encode",
             &control_engine::encode,
             py::arg("payload"),
             py::arg("mask"),
             py::arg("E"),
             encode_doc)
        .def("decode", &control_engine::decode, py::arg("llrs"), py::arg("A"), decode_doc)
        .def(
            "search",
            [](control_engine& e,
               const py::object& subframes,
               const std::string& mode,
               double min_correlation,
               const py::object& n_prb,
               const py::object& cfi,
               const py::object& antenna_ports,
               const py::object& ng,
               const py::object& phich_mi,
               const py::object& duplex,
               const py::object& subframe,
               const py::object& rntis,
               const py::object& dci_sizes,
               double max_false_alarm) {
                return e.search(subframes,
                                mode,
                                min_correlation,
                                max_false_alarm,
                                { n_prb,
                                  cfi,
                                  antenna_ports,
                                  ng,
                                  phich_mi,
                                  duplex,
                                  subframe,
                                  rntis,
                                  dci_sizes });
            },
            py::arg("subframes"),
            py::arg("mode") = lte::to_string(search_defaults.mode),
            py::arg("min_correlation") = search_defaults.min_correlation,
            py::arg("n_prb") = subframe_defaults.region.n_prb,
            py::arg("cfi") = subframe_defaults.region.cfi,
            py::arg("antenna_ports") = subframe_defaults.region.antenna_ports,
            py::arg("ng") = lte::to_string(subframe_defaults.region.ng),
            py::arg("phich_mi") = subframe_defaults.region.phich_mi,
            py::arg("duplex") = lte::to_string(subframe_defaults.duplex),
            py::arg("subframe") = subframe_defaults.subframe,
            py::arg("rntis") = py::none(),
            py::arg("dci_sizes") = py::none(),
            py::arg("max_false_alarm") = search_defaults.max_false_alarm,
            search_doc)
        .def("pbch_encode",
             &control_engine::pbch_encode,
             py::arg("mib"),
             py::arg("ports"),
             py::arg("cell_id"),
             py::arg("cp") = "normal",
             pbch_encode_doc)
        .def("pbch_decode",
             &control_engine::pbch_decode,
             py::arg("llrs"),
             py::arg("cell_id"),
             py::arg("parts") = 0b1111,
             py::arg("cp") = "normal",
             pbch_decode_doc)
        .def_property_readonly("backend",
                               &control_engine::backend,
                               "The backend in use: \"cuda\", \"cpu\" or \"reference\".")
        .def_property_readonly("device",
                               &control_engine::device,
                               "A description of the device the backend runs on.")
        .def_property_readonly("decoded_candidates",
                               &control_engine::decoded_candidates,
                               "Candidates the last search() decoded: each once a "
                               "size, those whose LLRs are all 0 not.")
        .def("__repr__", &control_engine::repr);

    bind_control_functions(m);
}
