/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdcch_metadata.h"
#include "../common/pdu_messages.h"

#include <gnuradio/gputurbo/engine/lte/dci.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gr {
namespace gputurbo {

namespace core = ::gputurbo::core;
namespace lte = ::gputurbo::lte;

namespace {

struct keys
{
    const pmt::pmt_t subframe = pmt::mp("subframe");
    const pmt::pmt_t n_prb = pmt::mp("n_prb");
    const pmt::pmt_t cfi = pmt::mp("cfi");
    const pmt::pmt_t antenna_ports = pmt::mp("antenna_ports");
    const pmt::pmt_t ng = pmt::mp("ng");
    const pmt::pmt_t phich_mi = pmt::mp("phich_mi");
    const pmt::pmt_t duplex = pmt::mp("duplex");
    const pmt::pmt_t cell_id = pmt::mp("cell_id");
    const pmt::pmt_t descramble = pmt::mp("descramble");
    const pmt::pmt_t rntis = pmt::mp("rntis");
    const pmt::pmt_t dci_sizes = pmt::mp("dci_sizes");
    const pmt::pmt_t first_cce = pmt::mp("first_cce");
    const pmt::pmt_t level = pmt::mp("level");
    const pmt::pmt_t size = pmt::mp("size");
    const pmt::pmt_t rnti = pmt::mp("rnti");
    const pmt::pmt_t space = pmt::mp("space");
    const pmt::pmt_t formats = pmt::mp("formats");
    const pmt::pmt_t correlation = pmt::mp("correlation");
};

const keys& key()
{
    static const keys k;
    return k;
}

// An integer parameter of the control table from the metadata, or \p fallback where
// absent; false with the reason when it is no integer or out of the table's range.
bool read_integer(const pmt::pmt_t& meta,
                  const pmt::pmt_t& k,
                  int fallback,
                  int& out,
                  std::string& error)
{
    const std::optional<long> v = common::metadata_integer(meta, k, error);
    if (!error.empty())
        return false;
    if (!v) {
        out = fallback;
        return true;
    }
    try {
        lte::check_control_value(pmt::symbol_to_string(k), *v);
    } catch (const std::invalid_argument& e) {
        error = std::string("metadata ") + e.what();
        return false;
    }
    out = int(*v);
    return true;
}

// A choice of the control table from the metadata, a string, or nullopt where absent
// (or wrong, with the reason in error).
std::optional<std::string>
read_choice(const pmt::pmt_t& meta, const pmt::pmt_t& k, std::string& error)
{
    const core::parameter& p = lte::control_parameter(pmt::symbol_to_string(k));
    const std::string wanted = "use " + core::range_text(p);
    const auto text = common::metadata_text(meta, k, wanted, error);
    if (!text)
        return std::nullopt;
    if (std::find(p.choices.begin(), p.choices.end(), *text) == p.choices.end()) {
        error = "metadata " + std::string(p.name) + "=\"" + *text +
                "\" is not a choice: " + wanted;
        return std::nullopt;
    }
    return text;
}

// N_g, a choice's name ("1/6") or its value as a number (1/6 from Python's 1 / 6).
bool read_ng(const pmt::pmt_t& meta,
             lte::phich_resource fallback,
             lte::phich_resource& out,
             std::string& error)
{
    using lte::phich_resource;
    static const std::pair<double, phich_resource> values[] = {
        { 1.0 / 6.0, phich_resource::one_sixth },
        { 0.5, phich_resource::half },
        { 1.0, phich_resource::one },
        { 2.0, phich_resource::two },
    };
    out = fallback;
    const pmt::pmt_t value = pmt::dict_ref(meta, key().ng, pmt::PMT_NIL);
    if (pmt::is_integer(value) || pmt::is_real(value)) {
        const double x = pmt::to_double(value);
        for (const auto& [ng, resource] : values)
            if (std::fabs(x - ng) < 1e-9) {
                out = resource;
                return true;
            }
        error = "metadata ng=" + pmt::write_string(value) +
                " is no PHICH resource N_g: use one of 1/6, 1/2, 1, 2 (a string, or "
                "that number)";
        return false;
    }
    const auto text = read_choice(meta, key().ng, error);
    if (text)
        out = lte::parse_phich_resource(*text);
    return error.empty();
}

// A list of integers each within low ... high (high < 0: no upper bound).
bool read_list(const pmt::pmt_t& meta,
               const pmt::pmt_t& k,
               long low,
               long high,
               std::vector<int>& out,
               std::string& error)
{
    const auto values = common::metadata_integers(meta, k, error);
    out.clear();
    if (!values)
        return error.empty();
    for (std::size_t i = 0; i < values->size(); ++i) {
        const long v = (*values)[i];
        if (v < low || (high >= 0 && v > high)) {
            error = "metadata " + pmt::symbol_to_string(k) + "[" + std::to_string(i) +
                    "]=" + std::to_string(v) + " is out of range: use " +
                    std::to_string(low) +
                    (high >= 0 ? " ... " + std::to_string(high) : " or more");
            return false;
        }
        out.push_back(int(v));
    }
    return true;
}

} // namespace

bool read_pdcch_request(const pmt::pmt_t& meta,
                        const pdcch_defaults& d,
                        pdcch_request& request,
                        std::string& error)
{
    const keys& k = key();
    lte::pdcch_subframe& sf = request.subframe;
    lte::control_region& r = sf.region;
    if (!pmt::dict_has_key(meta, k.subframe)) {
        error = "the metadata has no subframe (its index 0 ... 9, floor(n_s / 2))";
        return false;
    }
    if (!read_integer(meta, k.subframe, 0, sf.subframe, error) ||
        !read_integer(meta, k.n_prb, d.region.n_prb, r.n_prb, error) ||
        !read_integer(meta, k.cfi, d.region.cfi, r.cfi, error) ||
        !read_integer(
            meta, k.antenna_ports, d.region.antenna_ports, r.antenna_ports, error) ||
        !read_integer(meta, k.phich_mi, d.region.phich_mi, r.phich_mi, error) ||
        !read_integer(meta, k.cell_id, d.cell_id, request.cell_id, error) ||
        !read_ng(meta, d.region.ng, r.ng, error))
        return false;
    const auto duplex = read_choice(meta, k.duplex, error);
    if (!error.empty())
        return false;
    sf.duplex = duplex ? lte::parse_duplex_mode(*duplex) : d.duplex;
    request.descramble =
        common::metadata_flag(meta, k.descramble, error).value_or(d.descramble);
    return error.empty() && read_list(meta, k.rntis, 1, 65535, sf.rntis, error) &&
           read_list(meta, k.dci_sizes, 1, lte::max_dci_bits, sf.dci_sizes, error);
}

pmt::pmt_t dci_dict(const lte::pdcch_detection& dci, const lte::dci_config& cell)
{
    const keys& k = key();
    std::vector<pmt::pmt_t> names;
    for (const lte::dci_format f : lte::dci_formats) {
        try {
            if (lte::dci_size(f, cell) == dci.size)
                names.push_back(pmt::mp(lte::to_string(f)));
        } catch (const std::invalid_argument&) {
            // a format the cell cannot have (precoding with one port)
        }
    }
    const pmt::pmt_t formats = pmt::make_vector(names.size(), pmt::PMT_NIL);
    for (std::size_t i = 0; i < names.size(); ++i)
        pmt::vector_set(formats, i, names[i]);
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, k.first_cce, pmt::from_long(dci.candidate.first_cce));
    d = pmt::dict_add(d, k.level, pmt::from_long(dci.candidate.level));
    d = pmt::dict_add(d, k.size, pmt::from_long(dci.size));
    d = pmt::dict_add(d, k.rnti, pmt::from_long(dci.rnti));
    d = pmt::dict_add(d, k.space, pmt::mp(lte::to_string(dci.space)));
    d = pmt::dict_add(d, k.formats, formats);
    return pmt::dict_add(d, k.correlation, pmt::from_double(dci.correlation));
}

} // namespace gputurbo
} // namespace gr
