/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdu_messages.h"

#include <climits>

namespace gr {
namespace gputurbo {
namespace common {

namespace {
// A metadata value as a message shows it: text in quotes, so that "1000" is not 1000.
std::string value_text(const pmt::pmt_t& value)
{
    return pmt::is_symbol(value) ? "\"" + pmt::symbol_to_string(value) + "\""
                                 : pmt::write_string(value);
}
} // namespace

const pmt::pmt_t& pdus_port()
{
    static const pmt::pmt_t port = pmt::mp("pdus");
    return port;
}

bool split_pdu(const pmt::pmt_t& msg,
               const std::string& data_kind,
               pmt::pmt_t& meta,
               pmt::pmt_t& data,
               std::string& error)
{
    meta = pmt::make_dict();
    data = pmt::PMT_NIL;
    if (!pmt::is_pair(msg)) {
        error = "not a PDU: expected a pair of a metadata dict and " + data_kind;
        return false;
    }
    if (!pmt::is_dict(pmt::car(msg))) {
        error = "the PDU's metadata is not a dict";
        return false;
    }
    meta = pmt::car(msg);
    data = pmt::cdr(msg);
    return true;
}

std::optional<long>
metadata_integer(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error)
{
    if (!pmt::dict_has_key(meta, key))
        return std::nullopt;
    const pmt::pmt_t value = pmt::dict_ref(meta, key, pmt::PMT_NIL);
    if (pmt::is_integer(value))
        return pmt::to_long(value);
    if (pmt::is_uint64(value) && pmt::to_uint64(value) <= std::uint64_t(LONG_MAX))
        return long(pmt::to_uint64(value));
    error = "metadata " + pmt::symbol_to_string(key) + "=" + value_text(value) +
            " is not an integer";
    return std::nullopt;
}

std::optional<bool>
metadata_flag(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error)
{
    if (!pmt::dict_has_key(meta, key))
        return std::nullopt;
    const pmt::pmt_t value = pmt::dict_ref(meta, key, pmt::PMT_NIL);
    if (pmt::is_bool(value))
        return pmt::to_bool(value);
    if (pmt::is_integer(value) && (pmt::to_long(value) == 0 || pmt::to_long(value) == 1))
        return pmt::to_long(value) == 1;
    error = "metadata " + pmt::symbol_to_string(key) + "=" + value_text(value) +
            " is not a flag: use True or False";
    return std::nullopt;
}

pmt::pmt_t
failure_pdu(pmt::pmt_t meta, const pmt::pmt_t& flag_key, const std::string& reason)
{
    static const pmt::pmt_t error_key = pmt::mp("error");
    if (!pmt::eq(flag_key, pmt::PMT_NIL))
        meta = pmt::dict_add(meta, flag_key, pmt::PMT_F);
    meta = pmt::dict_add(meta, error_key, pmt::string_to_symbol(reason));
    return pmt::cons(meta, pmt::make_u8vector(0, 0));
}

bool batch_complete(gr::block& block, std::size_t collected, int max_batch)
{
    return collected >= std::size_t(max_batch) || block.nmsgs(pdus_port()) == 0;
}

} // namespace common
} // namespace gputurbo
} // namespace gr
