/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/names.h"

#include <gnuradio/gputurbo/engine/lte/dci.h>
#include <gnuradio/gputurbo/engine/lte/search_space.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

const std::pair<const char*, phich_resource> phich_names[] = {
    { "1/6", phich_resource::one_sixth },
    { "1/2", phich_resource::half },
    { "1", phich_resource::one },
    { "2", phich_resource::two },
};

std::string out_of_range(const char* name, int value, const std::string& range)
{
    return std::string(name) + "=" + std::to_string(value) + " is out of range: use " +
           range;
}

void check_region(const control_region& r)
{
    if (r.n_prb < min_cell_prb || r.n_prb > max_cell_prb)
        throw std::invalid_argument(out_of_range("n_prb",
                                                 r.n_prb,
                                                 std::to_string(min_cell_prb) + " ... " +
                                                     std::to_string(max_cell_prb)));
    if (r.cfi < 1 || r.cfi > 3)
        throw std::invalid_argument(out_of_range("cfi", r.cfi, "1 ... 3"));
    if (r.antenna_ports != 1 && r.antenna_ports != 2 && r.antenna_ports != 4)
        throw std::invalid_argument(
            out_of_range("antenna_ports", r.antenna_ports, "1, 2 or 4"));
    if (int(r.ng) < int(phich_resource::one_sixth) ||
        int(r.ng) > int(phich_resource::two))
        throw std::invalid_argument(out_of_range("ng", int(r.ng), "1/6, 1/2, 1 or 2"));
    if (r.phich_mi < 0 || r.phich_mi > 2)
        throw std::invalid_argument(out_of_range("phich_mi", r.phich_mi, "0 ... 2"));
}

void check_cces(int n_cce)
{
    // The most CCEs of any control region: 110 PRB, 3 symbols, one port, no PHICH.
    static const int most =
        cce_count(control_region{ max_cell_prb, 3, 1, phich_resource::one_sixth, 0 });
    if (n_cce < 0 || n_cce > most)
        throw std::invalid_argument(
            out_of_range("n_cce",
                         n_cce,
                         "0 ... " + std::to_string(most) + " (a control region's most)"));
}

constexpr int aggregation_levels[] = { 1, 2, 4, 8 };

// Candidates m = 0 … count - 1 of level L at L ((y + m) mod floor(n_cce / L)), each
// once.
void add_candidates(
    std::vector<pdcch_candidate>& out, int n_cce, int level, int count, std::uint32_t y)
{
    const auto places = std::uint32_t(n_cce / level);
    const std::size_t first = out.size();
    for (int m = 0; m < count && places > 0; ++m) {
        const pdcch_candidate c{ int(level * ((y + std::uint32_t(m)) % places)), level };
        if (std::find(out.begin() + std::ptrdiff_t(first), out.end(), c) == out.end())
            out.push_back(c);
    }
}

} // namespace

const char* to_string(phich_resource ng) { return core::name_of(ng, phich_names); }

phich_resource parse_phich_resource(std::string_view name)
{
    return core::value_of(name, phich_names, "PHICH resource ng");
}

int control_symbols(const control_region& r)
{
    check_region(r);
    return r.n_prb <= 10 ? r.cfi + 1 : r.cfi;
}

int phich_groups(const control_region& r)
{
    check_region(r);
    // ceil(N_g · n_prb / 8) with N_g = numerator / denominator.
    const int numerator = r.ng == phich_resource::two ? 2 : 1;
    const int denominator = r.ng == phich_resource::one_sixth ? 6
                            : r.ng == phich_resource::half    ? 2
                                                              : 1;
    const int groups = (numerator * r.n_prb + 8 * denominator - 1) / (8 * denominator);
    return groups * r.phich_mi;
}

int pdcch_regs(const control_region& r)
{
    // REGs a resource block in symbols 0 … 3: reference signals take 2 of the 6 of
    // symbol 0, and of symbol 1 with 4 antenna ports.
    const int regs_per_rb[] = { 2, r.antenna_ports == 4 ? 2 : 3, 3, 3 };
    int regs = 0;
    for (int l = 0; l < control_symbols(r); ++l)
        regs += regs_per_rb[l] * r.n_prb;
    constexpr int pcfich_regs = 4;
    constexpr int regs_per_phich_group = 3;
    return regs - pcfich_regs - regs_per_phich_group * phich_groups(r);
}

int cce_count(const control_region& r) { return pdcch_regs(r) / 9; }

std::uint32_t ue_search_space_y(int rnti, int subframe)
{
    if (rnti < 1 || rnti > 65535)
        throw std::invalid_argument(out_of_range("rnti", rnti, "1 ... 65535"));
    if (subframe < 0 || subframe > 9)
        throw std::invalid_argument(out_of_range("subframe", subframe, "0 ... 9"));
    constexpr std::uint32_t A = 39827, D = 65537;
    auto y = std::uint32_t(rnti);
    for (int k = 0; k <= subframe; ++k)
        y = A * y % D; // below 2^32: A · (D - 1) < 2^32
    return y;
}

std::vector<pdcch_candidate> common_search_space(int n_cce)
{
    check_cces(n_cce);
    // CCEs 0 … 15 hold 4 candidates of level 4 and 2 of level 8; with Y_k = 0 the
    // formula's candidates that wrap round floor(n_cce / L) repeat earlier ones.
    std::vector<pdcch_candidate> out;
    add_candidates(out, n_cce, 4, 4, 0);
    add_candidates(out, n_cce, 8, 2, 0);
    return out;
}

std::vector<pdcch_candidate> ue_search_space(int n_cce, int rnti, int subframe)
{
    check_cces(n_cce);
    const std::uint32_t y = ue_search_space_y(rnti, subframe);
    constexpr int candidates[] = { 6, 6, 2, 2 }; // 36.213 Table 9.1.1-1
    std::vector<pdcch_candidate> out;
    for (int i = 0; i < 4; ++i)
        add_candidates(out, n_cce, aggregation_levels[i], candidates[i], y);
    return out;
}

std::vector<pdcch_candidate> every_candidate(int n_cce)
{
    check_cces(n_cce);
    std::vector<pdcch_candidate> out;
    for (const int level : aggregation_levels)
        for (int first = 0; first + level <= n_cce; first += level)
            out.push_back({ first, level });
    return out;
}

} // namespace gputurbo::lte
