/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/pbch.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

// dl-Bandwidth's values n6 … n100, in the order of their 3-bit codes.
constexpr int mib_bandwidths[] = { 6, 15, 25, 50, 75, 100 };

// The MIB's fields: where each starts and its width.
struct field
{
    int first, width;
};
constexpr field bandwidth_field{ 0, 3 }, duration_field{ 3, 1 }, resource_field{ 4, 2 },
    sfn_field{ 6, 8 }, spare_field{ 14, 10 };

void write_field(field f, int value, std::uint8_t* bits)
{
    for (int i = 0; i < f.width; ++i)
        bits[f.first + i] = std::uint8_t((value >> (f.width - 1 - i)) & 1);
}

int read_field(field f, const std::uint8_t* bits)
{
    int value = 0;
    for (int i = 0; i < f.width; ++i)
        value = value << 1 | (bits[f.first + i] & 1);
    return value;
}

std::string out_of_range(const std::string& name, long value, const std::string& range)
{
    return name + "=" + std::to_string(value) + " is out of range: use " + range;
}

void check_field(const char* name, int value, field f)
{
    if (value < 0 || value >= 1 << f.width)
        throw std::invalid_argument(
            out_of_range(name, value, "0 ... " + std::to_string((1 << f.width) - 1)));
}

void check_cell_id(const std::string& name, int cell_id)
{
    if (cell_id < 0 || cell_id > max_cell_id)
        throw std::invalid_argument(
            out_of_range(name, cell_id, "0 ... " + std::to_string(max_cell_id)));
}

// The cell's scrambling sequence over the E bits of a period (36.211 §6.6.1).
std::vector<std::uint8_t> cell_sequence(int cell_id, int E)
{
    std::vector<std::uint8_t> c(static_cast<std::size_t>(E));
    scrambling_sequence(cell_id, c.size(), c.data());
    return c;
}

constexpr unsigned all_parts = (1u << pbch_parts) - 1;

// The window's frames from its first to its last part received.
int span(unsigned parts)
{
    int frames = 0;
    while (parts >> frames)
        ++frames;
    return frames;
}

void check_window(const pbch_window& w, std::size_t j)
{
    const std::string name = "windows[" + std::to_string(j) + "].";
    check_cell_id(name + "cell_id", w.cell_id);
    if (w.parts > all_parts || !(w.parts & 1u))
        throw std::invalid_argument(
            out_of_range(name + "parts",
                         long(w.parts),
                         "1 ... 15 with bit 0 set (the window's first frame received)"));
}

// A window's frames at one place in the period.
struct hypothesis
{
    std::size_t window;
    int offset;
};

// Every window's hypotheses, window by window, offsets rising: those where the period
// holds all of its parts received.
std::vector<hypothesis> hypotheses_of(const pbch_window* windows, std::size_t n)
{
    std::vector<hypothesis> hypotheses;
    for (std::size_t j = 0; j < n; ++j) {
        check_window(windows[j], j);
        for (int offset = 0; offset + span(windows[j].parts) <= pbch_parts; ++offset)
            hypotheses.push_back({ j, offset });
    }
    return hypotheses;
}

// Each hypothesis as the E LLRs of a period: its window's parts descrambled in their
// places, the others erased.
std::vector<float> periods_of(const std::vector<hypothesis>& hypotheses,
                              const pbch_window* windows,
                              const float* llrs,
                              int E)
{
    const int part = E / pbch_parts;
    std::vector<std::vector<std::uint8_t>> sequences(max_cell_id + 1);
    std::vector<float> blocks(hypotheses.size() * std::size_t(E), 0.0f);
    for (std::size_t h = 0; h < hypotheses.size(); ++h) {
        const pbch_window& w = windows[hypotheses[h].window];
        auto& c = sequences[std::size_t(w.cell_id)];
        if (c.empty())
            c = cell_sequence(w.cell_id, E);
        for (int k = 0; k < pbch_parts; ++k) {
            if (!(w.parts >> k & 1u))
                continue;
            const std::size_t at = std::size_t(hypotheses[h].offset + k) * part;
            const float* in = llrs + hypotheses[h].window * E + std::size_t(k) * part;
            float* out = blocks.data() + h * E + at;
            for (int i = 0; i < part; ++i)
                out[i] = c[at + i] ? -in[i] : in[i];
        }
    }
    return blocks;
}

} // namespace

std::array<std::uint8_t, mib_bits> pack_mib(const mib& m)
{
    const auto bandwidth =
        std::find(std::begin(mib_bandwidths), std::end(mib_bandwidths), m.n_prb);
    if (bandwidth == std::end(mib_bandwidths))
        throw std::invalid_argument(
            out_of_range("n_prb", m.n_prb, "6, 15, 25, 50, 75 or 100"));
    if (m.duration != phich_duration::normal && m.duration != phich_duration::extended)
        throw std::invalid_argument(
            out_of_range("duration", int(m.duration), "normal (0) or extended (1)"));
    if (int(m.ng) < int(phich_resource::one_sixth) ||
        int(m.ng) > int(phich_resource::two))
        throw std::invalid_argument(out_of_range("ng", int(m.ng), "1/6, 1/2, 1 or 2"));
    check_field("sfn_msbs", m.sfn_msbs, sfn_field);
    check_field("spare", m.spare, spare_field);
    std::array<std::uint8_t, mib_bits> bits{};
    write_field(
        bandwidth_field, int(bandwidth - std::begin(mib_bandwidths)), bits.data());
    write_field(duration_field, int(m.duration), bits.data());
    write_field(resource_field, int(m.ng), bits.data());
    write_field(sfn_field, m.sfn_msbs, bits.data());
    write_field(spare_field, m.spare, bits.data());
    return bits;
}

std::optional<mib> parse_mib(const std::uint8_t* bits)
{
    const int bandwidth = read_field(bandwidth_field, bits);
    if (bandwidth >= int(std::size(mib_bandwidths)))
        return std::nullopt;
    mib m;
    m.n_prb = mib_bandwidths[bandwidth];
    m.duration = phich_duration(read_field(duration_field, bits));
    m.ng = phich_resource(read_field(resource_field, bits));
    m.sfn_msbs = read_field(sfn_field, bits);
    m.spare = read_field(spare_field, bits);
    return m;
}

int pbch_bits(cyclic_prefix cp)
{
    switch (cp) {
    case cyclic_prefix::normal:
        return 1920;
    case cyclic_prefix::extended:
        return 1728;
    }
    throw std::invalid_argument(
        out_of_range("cp", int(cp), "normal (0) or extended (1)"));
}

std::vector<std::uint8_t>
pbch_encode(const mib& m, int ports, int cell_id, cyclic_prefix cp)
{
    const auto bits = pack_mib(m);
    const std::uint16_t mask = bch_mask(ports);
    check_cell_id("cell_id", cell_id);
    const int E = pbch_bits(cp);
    std::vector<std::uint8_t> e(static_cast<std::size_t>(E));
    control_encode(mib_bits, bits.data(), mask, E, e.data());
    const auto c = cell_sequence(cell_id, E);
    for (int k = 0; k < E; ++k)
        e[k] ^= c[k];
    return e;
}

int pbch_result::sfn() const
{
    return pbch_parts * read_field(sfn_field, bits.data()) + offset;
}

std::vector<std::optional<pbch_result>> pbch_decode(core::batch_decoder& decoder,
                                                    cyclic_prefix cp,
                                                    const pbch_window* windows,
                                                    const float* llrs,
                                                    std::size_t n)
{
    const int E = pbch_bits(cp);
    const auto hypotheses = hypotheses_of(windows, n);
    const auto blocks = periods_of(hypotheses, windows, llrs, E);
    std::vector<std::uint8_t> payload(hypotheses.size() * mib_bits);
    std::vector<std::uint16_t> masks(hypotheses.size());
    std::vector<core::codeword_status> status(hypotheses.size());
    control_decode(decoder,
                   mib_bits,
                   E,
                   blocks.data(),
                   hypotheses.size(),
                   payload.data(),
                   masks.data(),
                   status.data());

    // Each window's first hypothesis (its lowest offset) that carries a MIB.
    std::vector<std::optional<pbch_result>> results(n);
    for (std::size_t h = 0; h < hypotheses.size(); ++h) {
        auto& result = results[hypotheses[h].window];
        const int ports = bch_ports(masks[h]);
        if (result || !status[h].passed || ports == 0)
            continue;
        result.emplace();
        std::copy_n(payload.begin() + h * mib_bits, mib_bits, result->bits.begin());
        result->message = parse_mib(result->bits.data());
        result->ports = ports;
        result->offset = hypotheses[h].offset;
        result->status = status[h];
    }
    return results;
}

} // namespace gputurbo::lte
