/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "transport_metadata.h"
#include "../common/pdu_messages.h"

#include <gnuradio/gputurbo/engine/lte/parameters.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace lte = ::gputurbo::lte;

namespace {

struct keys
{
    const pmt::pmt_t tbs = pmt::mp("tbs");
    const pmt::pmt_t G = pmt::mp("G");
    const pmt::pmt_t resource_elements = pmt::mp("resource_elements");
    const pmt::pmt_t Qm = pmt::mp("Qm");
    const pmt::pmt_t layers = pmt::mp("layers");
    const pmt::pmt_t rv = pmt::mp("rv");
    const pmt::pmt_t soft_buffer = pmt::mp("soft_buffer");
    const pmt::pmt_t c_init = pmt::mp("c_init");
};

const keys& key()
{
    static const keys k;
    return k;
}

// A long field of the metadata, or its default; false with the reason when the value is
// no integer.
bool read_long(const pmt::pmt_t& meta,
               const pmt::pmt_t& k,
               long fallback,
               long& out,
               std::string& error)
{
    const std::optional<long> v = common::metadata_integer(meta, k, error);
    out = v.value_or(fallback);
    return error.empty();
}

// An int field: as read_long(), and false with the reason when the value is outside int.
bool read_int(const pmt::pmt_t& meta,
              const pmt::pmt_t& k,
              int fallback,
              int& out,
              std::string& error)
{
    long v = 0;
    if (!read_long(meta, k, fallback, v, error))
        return false;
    if (v < INT_MIN || v > INT_MAX) {
        error = "metadata " + pmt::symbol_to_string(k) + "=" + std::to_string(v) +
                " is out of range";
        return false;
    }
    out = int(v);
    return true;
}

} // namespace

transport_defaults
checked_transport_defaults(int Qm, int layers, int rv, long soft_buffer, long c_init)
{
    lte::check_transport_value("Qm", Qm);
    lte::check_transport_value("layers", layers);
    lte::check_transport_value("rv", rv);
    lte::check_transport_value("soft_buffer", soft_buffer);
    lte::check_transport_value("c_init", c_init);
    return { Qm, layers, rv, soft_buffer, c_init };
}

bool read_transport_format(const pmt::pmt_t& meta,
                           const transport_defaults& d,
                           long tbs_of_data,
                           long G_of_data,
                           lte::transport_format& f,
                           std::string& error)
{
    const keys& k = key();
    if (!read_int(meta, k.Qm, d.Qm, f.Qm, error) ||
        !read_int(meta, k.layers, d.layers, f.layers, error) ||
        !read_int(meta, k.rv, d.rv, f.rv, error) ||
        !read_long(meta, k.soft_buffer, d.soft_buffer, f.soft_buffer, error) ||
        !read_long(meta, k.c_init, d.c_init, f.c_init, error))
        return false;
    if (!pmt::dict_has_key(meta, k.tbs) && tbs_of_data <= 0) {
        error = "the metadata has no tbs (the transport block's size in bits)";
        return false;
    }
    if (tbs_of_data > INT_MAX)
        tbs_of_data = INT_MAX; // no LTE size: validate() refuses it
    if (!read_int(meta, k.tbs, int(tbs_of_data), f.tbs, error))
        return false;
    if (pmt::dict_has_key(meta, k.G) || !pmt::dict_has_key(meta, k.resource_elements)) {
        if (!pmt::dict_has_key(meta, k.G) && G_of_data <= 0) {
            error = "the metadata has no G (the bits sent) and no resource_elements to "
                    "count them from";
            return false;
        }
        return read_int(meta, k.G, int(std::min<long>(G_of_data, INT_MAX)), f.G, error);
    }
    long re = 0;
    if (!read_long(meta, k.resource_elements, 0, re, error))
        return false;
    try { // before they multiply
        lte::check_transport_value("Qm", f.Qm);
        lte::check_transport_value("layers", f.layers);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
    if (re < 1 || re > INT_MAX / 32) { // Qm * layers <= 32: G fits an int
        error = "metadata resource_elements=" + std::to_string(re) +
                " gives no G: use 1 ... " + std::to_string(INT_MAX / 32) +
                " (G = resource_elements * Qm * layers)";
        return false;
    }
    f.G = int(re) * f.Qm * f.layers;
    return true;
}

bool valid_transport_format(const lte::transport_format& f, std::string& error)
{
    try {
        f.validate();
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
    return true;
}

pmt::pmt_t with_transport_format(pmt::pmt_t meta, const lte::transport_format& f)
{
    const keys& k = key();
    meta = pmt::dict_add(meta, k.tbs, pmt::from_long(f.tbs));
    meta = pmt::dict_add(meta, k.G, pmt::from_long(f.G));
    meta = pmt::dict_add(meta, k.Qm, pmt::from_long(f.Qm));
    meta = pmt::dict_add(meta, k.layers, pmt::from_long(f.layers));
    meta = pmt::dict_add(meta, k.rv, pmt::from_long(f.rv));
    meta = pmt::dict_add(meta, k.soft_buffer, pmt::from_long(f.soft_buffer));
    meta = pmt::dict_add(meta, k.c_init, pmt::from_long(f.c_init));
    return meta;
}

} // namespace gputurbo
} // namespace gr
