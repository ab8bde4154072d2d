/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "presets.h"
#include "core/names.h"

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace gputurbo::conv {
namespace {

const std::pair<const char*, termination> termination_names[] = {
    { "terminated", termination::terminated },
    { "truncated", termination::truncated },
    { "tail-biting", termination::tail_biting },
    { "streaming", termination::streaming },
};

// The punctured rates of the K=7 code of generators 171 and 133: X, the 171 output, and
// Y, the 133 output, of DVB-S (ETSI EN 300 421 Table 2); 802.11's A (133) and B (171)
// patterns (§17.3.5.7, and 5/6 of 802.11n) and CCSDS 131.0-B's are the same.
struct named_puncturing
{
    const char* rate;
    const char* x; // the 171 output
    const char* y; // the 133 output
};
const named_puncturing rates[] = {
    { "2/3", "10", "11" },
    { "3/4", "101", "110" },
    { "5/6", "10101", "11010" },
    { "7/8", "1000101", "1111010" },
};

std::vector<std::string> split(std::string_view text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        parts.emplace_back(text.substr(start, comma - start));
        if (comma == std::string_view::npos)
            return parts;
        start = comma + 1;
    }
}

void check_constraint(int constraint)
{
    if (constraint < min_constraint || constraint > max_constraint)
        throw std::invalid_argument("constraint length K=" + std::to_string(constraint) +
                                    " is out of range: use " +
                                    std::to_string(min_constraint) + " ... " +
                                    std::to_string(max_constraint));
}

std::string wider_than(const std::string& octal, int constraint)
{
    return "polynomial " + octal +
           " (octal) is wider than K=" + std::to_string(constraint) + " bits";
}

} // namespace

const char* to_string(termination t) { return core::name_of(t, termination_names); }

termination parse_termination(std::string_view name)
{
    // The table lists the names in the enum's order.
    return termination(core::choice_index(parameter("termination"), name));
}

void code::validate() const
{
    check_constraint(constraint);
    if (outputs() < min_outputs || outputs() > max_outputs)
        throw std::invalid_argument(
            std::to_string(outputs()) + " polynomial(s): a rate-1/n code needs n = " +
            std::to_string(min_outputs) + " ... " + std::to_string(max_outputs));
    if (inverted.size() != polynomials.size())
        throw std::invalid_argument("inverted has " + std::to_string(inverted.size()) +
                                    " entries for " + std::to_string(outputs()) +
                                    " polynomials");
    for (const unsigned g : polynomials) {
        char octal[16];
        std::snprintf(octal, sizeof octal, "%o", g);
        if (g == 0)
            throw std::invalid_argument("polynomial 0 taps nothing");
        if (g >> constraint)
            throw std::invalid_argument(wider_than(octal, constraint));
    }
}

std::string code::text() const
{
    std::string out = "K=" + std::to_string(constraint) + " ";
    for (int s = 0; s < outputs(); ++s) {
        char octal[16];
        std::snprintf(octal, sizeof octal, "%o", polynomials[s]);
        out += (s ? "," : "") + std::string(inverted[s] ? "-" : "") + octal;
    }
    return out;
}

code parse_code(int constraint, std::string_view text)
{
    check_constraint(constraint);
    code c;
    c.constraint = constraint;
    for (const std::string& part : split(text)) {
        const bool minus = !part.empty() && part[0] == '-';
        const std::string digits = part.substr(minus ? 1 : 0);
        if (digits.empty() || digits.find_first_not_of("01234567") != std::string::npos)
            throw std::invalid_argument("polynomial '" + part +
                                        "' is not an octal number (e.g. 171, or -133 "
                                        "for an inverted output)");
        // Wider than any code's K bits: refused before the value could overflow.
        const std::size_t first = std::min(digits.find_first_not_of('0'), digits.size());
        if ((digits.size() - first) * 3 > std::size_t(max_constraint))
            throw std::invalid_argument(wider_than(digits.substr(first), constraint));
        c.polynomials.push_back(unsigned(std::stoul(digits, nullptr, 8)));
        c.inverted.push_back(minus);
    }
    c.validate();
    return c;
}

code preset(std::string_view name)
{
    for (const preset_code& p : preset_codes)
        if (name == p.name) {
            code c;
            c.constraint = p.constraint;
            c.polynomials.assign(p.polynomials, p.polynomials + p.outputs);
            c.inverted.assign(p.inverted, p.inverted + p.outputs);
            c.validate();
            return c;
        }
    std::string names;
    for (const preset_code& p : preset_codes)
        names += std::string(names.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("unknown code preset '" + std::string(name) +
                                "': use one of " + names);
}

std::vector<std::string> preset_names()
{
    std::vector<std::string> names;
    for (const preset_code& p : preset_codes)
        names.emplace_back(p.name);
    return names;
}

int puncturing::kept_per_period(int outputs) const
{
    if (none())
        return outputs;
    int kept = 0;
    for (const auto& row : keep)
        kept += int(std::count(row.begin(), row.end(), 1));
    return kept;
}

puncturing parse_puncturing(std::string_view text, const code& c)
{
    const int outputs = c.outputs();
    if (text.empty() || text == "none")
        return {};
    std::string patterns(text);
    for (const auto& r : rates)
        if (text == r.rate) {
            const std::vector<unsigned> x_first = { 0171, 0133 },
                                        y_first = { 0133, 0171 };
            if (c.constraint != 7 ||
                (c.polynomials != x_first && c.polynomials != y_first))
                throw std::invalid_argument(
                    "puncturing rate " + std::string(text) +
                    " is defined for the K=7 code of generators 171 and 133, not " +
                    c.text() + ": give a 0/1 pattern per output, e.g. 110,101");
            patterns = c.polynomials == x_first ? std::string(r.x) + "," + r.y
                                                : std::string(r.y) + "," + r.x;
        }
    puncturing p;
    for (const std::string& row : split(patterns)) {
        if (row.empty() || row.find_first_not_of("01") != std::string::npos)
            throw std::invalid_argument(
                "puncturing '" + std::string(text) +
                "': use a rate (2/3, 3/4, 5/6, 7/8) or a 0/1 pattern per output, "
                "e.g. 110,101");
        std::vector<std::uint8_t> keep;
        for (const char ch : row)
            keep.push_back(std::uint8_t(ch == '1'));
        p.keep.push_back(std::move(keep));
    }
    if (int(p.keep.size()) != outputs)
        throw std::invalid_argument("puncturing '" + std::string(text) + "' has " +
                                    std::to_string(p.keep.size()) +
                                    " pattern(s) for a code of " +
                                    std::to_string(outputs) + " outputs");
    for (const auto& row : p.keep)
        if (row.size() != p.keep[0].size())
            throw std::invalid_argument("puncturing '" + std::string(text) +
                                        "': the patterns differ in length");
    if (p.kept_per_period(outputs) == 0)
        throw std::invalid_argument("puncturing '" + std::string(text) +
                                    "' sends no bit");
    return p;
}

void check_frame_bits(const code& c, termination t, int frame_bits)
{
    if (frame_bits < 1)
        throw std::invalid_argument("frame_bits=" + std::to_string(frame_bits) +
                                    " is out of range: a frame has at least 1 bit");
    const int memory = c.constraint - 1;
    if (t == termination::tail_biting && frame_bits < memory)
        throw std::invalid_argument(
            "frame_bits=" + std::to_string(frame_bits) +
            " is shorter than the tail-biting state of K-1=" + std::to_string(memory) +
            " bits: use frame_bits >= " + std::to_string(memory));
}

bool catastrophic(const code& c, const puncturing& p)
{
    // A cycle in the graph of state pairs (a != b) and pattern phases whose edges send
    // the same kept bits on both paths.
    const std::uint32_t S = std::uint32_t(c.states()), period = std::uint32_t(p.period());
    if (std::uint64_t(S) * S * period > (std::uint64_t(1) << 24))
        return false;
    const int memory = c.constraint - 1;
    std::vector<std::uint32_t> sent_mask(period); // per phase: the outputs kept
    for (std::uint32_t ph = 0; ph < period; ++ph) {
        sent_mask[ph] = 0;
        for (int o = 0; o < c.outputs(); ++o)
            if (p.none() || p.keep[o][ph])
                sent_mask[ph] |= 1u << o;
    }
    auto bits = [&](std::uint32_t s, std::uint32_t u) {
        return c.coded_bits((u << memory) | s);
    };
    auto node = [&](std::uint32_t a, std::uint32_t b, std::uint32_t ph) {
        return (std::size_t(ph) * S + a) * S + b;
    };
    // Iterative depth-first search: 1 on the path, 2 done.
    std::vector<std::uint8_t> colour(std::size_t(S) * S * period, 0);
    struct frame
    {
        std::uint32_t a, b, ph, edge;
    };
    std::vector<frame> path;
    for (std::uint32_t ph0 = 0; ph0 < period; ++ph0)
        for (std::uint32_t a0 = 0; a0 < S; ++a0)
            for (std::uint32_t b0 = 0; b0 < S; ++b0) {
                if (a0 == b0 || colour[node(a0, b0, ph0)])
                    continue;
                colour[node(a0, b0, ph0)] = 1;
                path.push_back({ a0, b0, ph0, 0 });
                while (!path.empty()) {
                    frame& f = path.back();
                    if (f.edge == 4) {
                        colour[node(f.a, f.b, f.ph)] = 2;
                        path.pop_back();
                        continue;
                    }
                    const std::uint32_t u = f.edge >> 1, v = f.edge & 1;
                    ++f.edge;
                    if ((bits(f.a, u) ^ bits(f.b, v)) & sent_mask[f.ph])
                        continue; // the paths send different bits
                    const std::uint32_t na = (u << (memory - 1)) | (f.a >> 1);
                    const std::uint32_t nb = (v << (memory - 1)) | (f.b >> 1);
                    if (na == nb)
                        continue; // merged
                    const std::uint32_t nph = (f.ph + 1) % period;
                    std::uint8_t& c_next = colour[node(na, nb, nph)];
                    if (c_next == 1)
                        return true;
                    if (c_next == 0) {
                        c_next = 1;
                        path.push_back({ na, nb, nph, 0 });
                    }
                }
            }
    return false;
}

std::size_t steps(const code& c, termination t, int frame_bits)
{
    return std::size_t(frame_bits) +
           (t == termination::terminated ? std::size_t(c.constraint - 1) : 0);
}

std::size_t coded_length(const code& c, termination t, int frame_bits)
{
    return std::size_t(c.outputs()) * steps(c, t, frame_bits);
}

std::size_t
punctured_length(const code& c, const puncturing& p, termination t, int frame_bits)
{
    if (p.none())
        return coded_length(c, t, frame_bits);
    const std::size_t n = steps(c, t, frame_bits);
    const std::size_t period = std::size_t(p.period());
    std::size_t kept = n / period * std::size_t(p.kept_per_period(c.outputs()));
    for (std::size_t j = 0; j < n % period; ++j)
        for (const auto& row : p.keep)
            kept += row[j];
    return kept;
}

void encode(const code& c,
            termination t,
            int frame_bits,
            const std::uint8_t* bits,
            std::size_t n_frames,
            std::uint8_t* coded,
            unsigned* state)
{
    c.validate();
    check_frame_bits(c, t, frame_bits);
    const int memory = c.constraint - 1;
    const unsigned mask = (1u << c.constraint) - 1;
    const std::size_t n_steps = steps(c, t, frame_bits);
    // The register holds the current input at bit K-1 and the oldest at bit 0.
    // The state: the K-1 most recent inputs, the newest at bit K-2.
    unsigned reg_state = state ? *state : 0;
    for (std::size_t f = 0; f < n_frames; ++f) {
        const std::uint8_t* in = bits + f * std::size_t(frame_bits);
        std::uint8_t* out = coded + f * coded_length(c, t, frame_bits);
        unsigned s = 0;
        if (t == termination::streaming)
            s = reg_state;
        else if (t == termination::tail_biting)
            // The state the last K-1 bits leave.
            for (int i = frame_bits - memory; i < frame_bits; ++i)
                s = (s >> 1) | (unsigned(in[i] & 1) << (memory - 1));
        for (std::size_t k = 0; k < n_steps; ++k) {
            const unsigned u = k < std::size_t(frame_bits) ? in[k] & 1u : 0u;
            const unsigned reg = ((u << memory) | s) & mask;
            const unsigned coded = c.coded_bits(reg);
            for (int o = 0; o < c.outputs(); ++o)
                *out++ = std::uint8_t((coded >> o) & 1);
            s = reg >> 1;
        }
        reg_state = s;
    }
    if (state)
        *state = reg_state;
}

namespace {

// Calls visit(coded index, sent index) for each coded bit of a frame that is sent.
template <class Visit>
void for_each_sent(
    const code& c, const puncturing& p, termination t, int frame_bits, Visit&& visit)
{
    const std::size_t n_steps = steps(c, t, frame_bits);
    const int n = c.outputs();
    std::size_t sent = 0;
    for (std::size_t k = 0; k < n_steps; ++k)
        for (int o = 0; o < n; ++o)
            if (p.none() || p.keep[o][k % std::size_t(p.period())])
                visit(k * std::size_t(n) + std::size_t(o), sent++);
}

} // namespace

std::vector<std::uint32_t>
sent_positions(const code& c, const puncturing& p, termination t, int frame_bits)
{
    std::vector<std::uint32_t> positions(punctured_length(c, p, t, frame_bits));
    for_each_sent(c, p, t, frame_bits, [&](std::size_t i, std::size_t j) {
        positions[j] = std::uint32_t(i);
    });
    return positions;
}

void puncture(const code& c,
              const puncturing& p,
              termination t,
              int frame_bits,
              const std::uint8_t* coded,
              std::size_t n_frames,
              std::uint8_t* sent)
{
    const std::size_t in_len = coded_length(c, t, frame_bits);
    const std::size_t out_len = punctured_length(c, p, t, frame_bits);
    for (std::size_t f = 0; f < n_frames; ++f)
        for_each_sent(c, p, t, frame_bits, [&](std::size_t i, std::size_t j) {
            sent[f * out_len + j] = coded[f * in_len + i];
        });
}

void depuncture(const code& c,
                const puncturing& p,
                termination t,
                int frame_bits,
                const float* received,
                std::size_t n_frames,
                float* llrs)
{
    const std::size_t out_len = coded_length(c, t, frame_bits);
    const std::size_t in_len = punctured_length(c, p, t, frame_bits);
    std::fill(llrs, llrs + n_frames * out_len, 0.0f);
    for (std::size_t f = 0; f < n_frames; ++f)
        for_each_sent(c, p, t, frame_bits, [&](std::size_t i, std::size_t j) {
            llrs[f * out_len + i] = received[f * in_len + j];
        });
}

} // namespace gputurbo::conv
