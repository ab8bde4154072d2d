/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/names.h"

#include <gnuradio/gputurbo/engine/lte/dci.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

const std::pair<const char*, dci_format> format_names[] = {
    { "0", dci_format::f0 },   { "1", dci_format::f1 },   { "1A", dci_format::f1a },
    { "1B", dci_format::f1b }, { "1C", dci_format::f1c }, { "1D", dci_format::f1d },
    { "2", dci_format::f2 },   { "2A", dci_format::f2a }, { "2B", dci_format::f2b },
    { "2C", dci_format::f2c },
};

const std::pair<const char*, duplex_mode> duplex_names[] = {
    { "fdd", duplex_mode::fdd },
    { "tdd", duplex_mode::tdd },
};

// Table 5.3.3.1.2-1: the sizes that get a zero bit appended.
constexpr int ambiguous_sizes[] = { 12, 14, 16, 20, 24, 26, 32, 40, 44, 56 };

bool ambiguous(int bits)
{
    return std::find(std::begin(ambiguous_sizes), std::end(ambiguous_sizes), bits) !=
           std::end(ambiguous_sizes);
}

void check_prb(const char* name, int n_prb)
{
    if (n_prb < min_cell_prb || n_prb > max_cell_prb)
        throw std::invalid_argument(
            std::string(name) + "=" + std::to_string(n_prb) + " is out of range: use " +
            std::to_string(min_cell_prb) + " ... " + std::to_string(max_cell_prb));
}

void check_config(dci_format format, const dci_config& c)
{
    check_prb("n_prb", c.n_prb);
    if (c.duplex != duplex_mode::fdd && c.duplex != duplex_mode::tdd)
        throw std::invalid_argument("duplex=" + std::to_string(int(c.duplex)) +
                                    " is no duplex mode: use fdd or tdd");
    if (c.antenna_ports != 1 && c.antenna_ports != 2 && c.antenna_ports != 4)
        throw std::invalid_argument("antenna_ports=" + std::to_string(c.antenna_ports) +
                                    " is out of range: use 1, 2 or 4");
    const bool precoded = format == dci_format::f1b || format == dci_format::f1d ||
                          format == dci_format::f2 || format == dci_format::f2a;
    if (precoded && c.antenna_ports == 1)
        throw std::invalid_argument(std::string("DCI format ") + to_string(format) +
                                    " needs a cell of 2 or 4 antenna ports: got "
                                    "antenna_ports=1");
}

int ceil_log2(long x)
{
    int bits = 0;
    while ((1L << bits) < x)
        ++bits;
    return bits;
}

// The width of a resource indication value over n blocks: ceil(log2(n (n + 1) / 2)).
int riv_bits(int n) { return ceil_log2(long(n) * (n + 1) / 2); }

// The RBG size P of allocation types 0 and 1 (36.213 Table 7.1.6.1-1).
int rbg_size(int n_prb)
{
    return n_prb <= 10 ? 1 : n_prb <= 26 ? 2 : n_prb <= 63 ? 3 : 4;
}

// N_VRB^DL of distributed VRBs with N_gap,1: 2 min(N_gap, N_RB - N_gap) (36.211
// §6.2.3.2, N_gap,1 of Table 6.2.3.2-1).
int distributed_vrbs(int n_prb)
{
    const int gap = n_prb <= 10   ? (n_prb + 1) / 2
                    : n_prb == 11 ? 4
                    : n_prb <= 19 ? 8
                    : n_prb <= 26 ? 12
                    : n_prb <= 44 ? 18
                    : n_prb <= 63 ? 27
                    : n_prb <= 79 ? 32
                                  : 48;
    return 2 * std::min(gap, n_prb - gap);
}

// N_RB^step of format 1C (36.213 Table 7.1.6.3-1).
int rb_step(int n_prb) { return n_prb < 50 ? 2 : 4; }

// The fields of §5.3.3.1.1 - §5.3.3.1.5C in the order they are sent (dci.h lists them).
std::vector<dci_field> layout(dci_format f, const dci_config& c)
{
    check_config(f, c);
    const int n = c.n_prb;
    const bool tdd = c.duplex == duplex_mode::tdd;
    const bool four_ports = c.antenna_ports == 4;
    const int harq = tdd ? 4 : 3;
    const int dai = tdd ? 2 : 0;
    const int type2 = riv_bits(n);                          // 0, 1A, 1B, 1D
    const int type01 = (n + rbg_size(n) - 1) / rbg_size(n); // 1, 2, 2A, 2B, 2C
    const int ra_header = n > 10 ? 1 : 0;                   // type 0 alone up to 10 PRB

    std::vector<dci_field> v;
    auto add = [&v](std::string_view name, int bits) {
        if (bits > 0)
            v.push_back({ name, bits, 0 });
    };
    auto add_pdsch = [&](int ra_type_bits, int assignment_bits) {
        add("ra_type", ra_type_bits);
        add("rb_assignment", assignment_bits);
        add("mcs", 5);
        add("harq_process", harq);
        add("ndi", 1);
        add("rv", 2);
        add("tpc", 2);
        add("dai", dai);
    };
    auto add_two_blocks = [&add] {
        add("mcs1", 5);
        add("ndi1", 1);
        add("rv1", 2);
        add("mcs2", 5);
        add("ndi2", 1);
        add("rv2", 2);
    };
    switch (f) {
    case dci_format::f0:
        add("format_flag", 1);
        add("hopping", 1);
        add("rb_assignment", type2);
        add("mcs", 5);
        add("ndi", 1);
        add("tpc", 2);
        add("dmrs_cyclic_shift", 3);
        add("ul_index_or_dai", dai);
        add("csi_request", 1);
        add("ra_type", 1);
        break;
    case dci_format::f1a:
        add("format_flag", 1);
        add("distributed_vrb", 1);
        add_pdsch(0, type2);
        break;
    case dci_format::f1b:
    case dci_format::f1d:
        add("distributed_vrb", 1);
        add_pdsch(0, type2);
        add("tpmi", four_ports ? 4 : 2);
        add(f == dci_format::f1b ? "pmi_confirmation" : "power_offset", 1);
        break;
    case dci_format::f1c:
        add("gap", n >= 50 ? 1 : 0);
        add("rb_assignment", riv_bits(distributed_vrbs(n) / rb_step(n)));
        add("tbs_index", 5);
        break;
    case dci_format::f1:
        add_pdsch(ra_header, type01);
        break;
    case dci_format::f2:
    case dci_format::f2a:
    case dci_format::f2b:
    case dci_format::f2c:
        add("ra_type", ra_header);
        add("rb_assignment", type01);
        add("tpc", 2);
        add("dai", dai);
        add("harq_process", harq);
        if (f == dci_format::f2b)
            add("scrambling_identity", 1);
        else if (f == dci_format::f2c)
            add("ports_scrambling_layers", 3);
        else
            add("tb_swap", 1);
        add_two_blocks();
        if (f == dci_format::f2)
            add("precoding", four_ports ? 6 : 3);
        else if (f == dci_format::f2a)
            add("precoding", four_ports ? 2 : 0);
        break;
    }
    return v;
}

int field_bits(dci_format f, const dci_config& c)
{
    int bits = 0;
    for (const auto& field : layout(f, c))
        bits += field.bits;
    return bits;
}

void check_format_flag(const dci_message& m)
{
    if (m.format != dci_format::f0 && m.format != dci_format::f1a)
        return;
    const std::uint32_t flag = m.value("format_flag");
    if (flag != (m.format == dci_format::f1a ? 1u : 0u))
        throw std::invalid_argument("format_flag=" + std::to_string(flag) +
                                    " names format " + (flag ? "1A" : "0") + ", not " +
                                    to_string(m.format));
}

// The allocation that dci_message::allocation describes.
std::optional<rb_allocation> type2_allocation(const dci_message& m, const dci_config& c)
{
    bool distributed = false;
    switch (m.format) {
    case dci_format::f0:
        if (m.value("hopping") != 0 || m.value("ra_type") != 0)
            return std::nullopt;
        break;
    case dci_format::f1a:
    case dci_format::f1b:
    case dci_format::f1d:
        distributed = m.value("distributed_vrb") != 0;
        if (distributed && c.n_prb >= 50)
            return std::nullopt;
        break;
    default:
        return std::nullopt;
    }
    const auto a = decode_riv(m.value("rb_assignment"), c.n_prb);
    if (a && distributed && a->start + a->length > distributed_vrbs(c.n_prb))
        return std::nullopt;
    return a;
}

} // namespace

const char* to_string(dci_format f) { return core::name_of(f, format_names); }

dci_format parse_dci_format(std::string_view name)
{
    return core::value_of(name, format_names, "DCI format");
}

const char* to_string(duplex_mode d) { return core::name_of(d, duplex_names); }

duplex_mode parse_duplex_mode(std::string_view name)
{
    return core::value_of(name, duplex_names, "duplex mode");
}

int dci_size(dci_format format, const dci_config& config)
{
    const int bits = field_bits(format, config);
    switch (format) {
    case dci_format::f0:
    case dci_format::f1a: {
        // Each is padded to the other's length, then 1A (and 0 with it) past Table
        // 5.3.3.1.2-1.
        const int n = std::max(field_bits(dci_format::f0, config),
                               field_bits(dci_format::f1a, config));
        return ambiguous(n) ? n + 1 : n;
    }
    case dci_format::f1: {
        const int size_0_1a = dci_size(dci_format::f1a, config);
        int n = bits;
        while (n == size_0_1a || ambiguous(n))
            ++n;
        return n;
    }
    case dci_format::f1c:
        return bits;
    default: // no two sizes of the table are adjacent: one bit is enough
        return ambiguous(bits) ? bits + 1 : bits;
    }
}

bool dci_message::has(std::string_view name) const
{
    return std::any_of(
        fields.begin(), fields.end(), [&](const dci_field& f) { return f.name == name; });
}

namespace {

template <class Message>
auto& find_field(Message& m, std::string_view name)
{
    for (auto& f : m.fields)
        if (f.name == name)
            return f;
    throw std::invalid_argument("DCI format " + std::string(to_string(m.format)) +
                                " has no field '" + std::string(name) + "'");
}

void check_fits(const dci_field& f, std::uint32_t v)
{
    if (f.bits < 32 && v >> f.bits != 0)
        throw std::invalid_argument(std::string(f.name) + "=" + std::to_string(v) +
                                    " does not fit its " + std::to_string(f.bits) +
                                    " bits: use 0 ... " +
                                    std::to_string((1ul << f.bits) - 1));
}

} // namespace

std::uint32_t dci_message::value(std::string_view name) const
{
    return find_field(*this, name).value;
}

void dci_message::set(std::string_view name, std::uint32_t v)
{
    dci_field& f = find_field(*this, name);
    check_fits(f, v);
    f.value = v;
}

dci_message dci_fields(dci_format format, const dci_config& config)
{
    dci_message m;
    m.format = format;
    m.fields = layout(format, config);
    if (format == dci_format::f1a)
        m.set("format_flag", 1);
    return m;
}

std::vector<std::uint8_t> pack_dci(const dci_message& message, const dci_config& config)
{
    const auto expected = layout(message.format, config);
    const bool same = std::equal(expected.begin(),
                                 expected.end(),
                                 message.fields.begin(),
                                 message.fields.end(),
                                 [](const dci_field& a, const dci_field& b) {
                                     return a.name == b.name && a.bits == b.bits;
                                 });
    if (!same)
        throw std::invalid_argument(
            "the message's fields are not those of DCI format " +
            std::string(to_string(message.format)) + " with n_prb=" +
            std::to_string(config.n_prb) + ", duplex=" + to_string(config.duplex) +
            ", antenna_ports=" + std::to_string(config.antenna_ports) +
            ": start from dci_fields()");
    check_format_flag(message);
    std::vector<std::uint8_t> bits;
    bits.reserve(std::size_t(dci_size(message.format, config)));
    for (const auto& f : message.fields) {
        check_fits(f, f.value);
        for (int i = f.bits - 1; i >= 0; --i)
            bits.push_back(std::uint8_t((f.value >> i) & 1u));
    }
    bits.resize(std::size_t(dci_size(message.format, config)), 0);
    return bits;
}

dci_message parse_dci(dci_format format,
                      const dci_config& config,
                      const std::uint8_t* bits,
                      std::size_t n)
{
    dci_message m = dci_fields(format, config);
    const int size = dci_size(format, config);
    if (n != std::size_t(size))
        throw std::invalid_argument(
            "a payload of DCI format " + std::string(to_string(format)) + " has " +
            std::to_string(size) + " bits here: got " + std::to_string(n));
    std::size_t k = 0;
    for (auto& f : m.fields) {
        f.value = 0;
        for (int i = 0; i < f.bits; ++i)
            f.value = (f.value << 1) | (bits[k++] & 1u);
    }
    check_format_flag(m);
    m.allocation = type2_allocation(m, config);
    return m;
}

std::uint32_t encode_riv(rb_allocation a, int n_rb)
{
    check_prb("n_rb", n_rb);
    if (a.length < 1 || a.start < 0 || a.start + a.length > n_rb)
        throw std::invalid_argument("allocation start=" + std::to_string(a.start) +
                                    " length=" + std::to_string(a.length) +
                                    " is not within n_rb=" + std::to_string(n_rb) +
                                    " blocks: use length >= 1, start >= 0 and start + "
                                    "length <= n_rb");
    const auto n = std::uint32_t(n_rb);
    const auto start = std::uint32_t(a.start);
    const auto length = std::uint32_t(a.length);
    if (length - 1 <= n / 2)
        return n * (length - 1) + start;
    return n * (n - length + 1) + (n - 1 - start);
}

std::optional<rb_allocation> decode_riv(std::uint32_t riv, int n_rb)
{
    check_prb("n_rb", n_rb);
    const auto n = std::uint32_t(n_rb);
    if (riv >= n * (n + 1) / 2)
        return std::nullopt;
    const std::uint32_t a = riv / n;
    const std::uint32_t b = riv % n;
    if (a + b < n)
        return rb_allocation{ int(b), int(a + 1) };
    return rb_allocation{ int(n - 1 - b), int(n - a + 1) };
}

} // namespace gputurbo::lte
