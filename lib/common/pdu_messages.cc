/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdu_messages.h"

#include <climits>
#include <cmath>
#include <functional>
#include <utility>

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

// What a metadata value is, for messages (write_string shows 2.0 as 2): the first kind
// that fits, in this order.
std::string type_name(const pmt::pmt_t& value)
{
    static const std::pair<std::function<bool(const pmt::pmt_t&)>, const char*>
        kinds[] = {
            { pmt::is_bool, "a bool" },       { pmt::is_integer, "a long" },
            { pmt::is_uint64, "a uint64" },   { pmt::is_real, "a double" },
            { pmt::is_complex, "a complex" }, { pmt::is_symbol, "a string" },
            { pmt::is_null, "nil" },          { pmt::is_uniform_vector, "a vector" },
            { pmt::is_vector, "a vector" },   { pmt::is_pair, "a pair" },
        };
    for (const auto& [is, name] : kinds)
        if (is(value))
            return name;
    return "another PMT type";
}

// "metadata rv=2.5 is not an integer but a double: " + wanted
std::string refusal(const pmt::pmt_t& key,
                    const pmt::pmt_t& value,
                    const std::string& kind,
                    const std::string& wanted)
{
    return "metadata " + pmt::symbol_to_string(key) + "=" + value_text(value) +
           " is not " + kind + " but " + type_name(value) + ": " + wanted;
}

// The value as a long where it is one exactly: a long, a uint64 up to LONG_MAX, a
// double of a whole value within a long's range (Python's float, a GRC real).
std::optional<long> exact_long(const pmt::pmt_t& value)
{
    if (pmt::is_integer(value))
        return pmt::to_long(value);
    if (pmt::is_uint64(value) && pmt::to_uint64(value) <= std::uint64_t(LONG_MAX))
        return long(pmt::to_uint64(value));
    if (pmt::is_real(value)) {
        const double d = pmt::to_double(value);
        if (d == std::trunc(d) && d >= -0x1p63 && d < 0x1p63)
            return long(d);
    }
    return std::nullopt;
}
// Item i of a uniform vector of integers as a long; none for another PMT (a u64vector's
// items may not fit).
using vector_ref = long (*)(const pmt::pmt_t&, std::size_t);
vector_ref integer_vector_ref(const pmt::pmt_t& v)
{
    static const std::pair<bool (*)(pmt::pmt_t), vector_ref> kinds[] = {
        { pmt::is_u8vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::u8vector_ref(v, i);
          } },
        { pmt::is_s8vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::s8vector_ref(v, i);
          } },
        { pmt::is_u16vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::u16vector_ref(v, i);
          } },
        { pmt::is_s16vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::s16vector_ref(v, i);
          } },
        { pmt::is_u32vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::u32vector_ref(v, i);
          } },
        { pmt::is_s32vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return pmt::s32vector_ref(v, i);
          } },
        { pmt::is_s64vector,
          [](const pmt::pmt_t& v, std::size_t i) -> long {
              return long(pmt::s64vector_ref(v, i));
          } },
    };
    for (const auto& [is, ref] : kinds)
        if (is(v))
            return ref;
    return nullptr;
}

} // namespace

const pmt::pmt_t& pdus_port()
{
    static const pmt::pmt_t port = pmt::mp("pdus");
    return port;
}

void serve_pdus(gr::block& block,
                std::mutex& mutex,
                std::function<void(const pmt::pmt_t&)> handle)
{
    block.message_port_register_in(pdus_port());
    block.message_port_register_out(pdus_port());
    block.set_msg_handler(pdus_port(), [&mutex, handle](const pmt::pmt_t& msg) {
        std::lock_guard<std::mutex> lock(mutex);
        handle(msg);
    });
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
    if (const auto v = exact_long(value))
        return v;
    error = refusal(key,
                    value,
                    "an integer",
                    "use a long, or a uint64 or a double of a whole value within a "
                    "long's range");
    return std::nullopt;
}

std::optional<std::vector<long>>
metadata_integers(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error)
{
    if (!pmt::dict_has_key(meta, key))
        return std::nullopt;
    const pmt::pmt_t value = pmt::dict_ref(meta, key, pmt::PMT_NIL);
    const std::string wanted = "use a list of integers (a PMT vector or list of longs, "
                               "or a uniform vector of integers)";
    std::vector<long> out;
    // Each item as metadata_integer() reads it; false for one that is no integer.
    auto add = [&](const pmt::pmt_t& item) {
        const auto v = exact_long(item);
        if (v)
            out.push_back(*v);
        else
            error = "metadata " + pmt::symbol_to_string(key) + " holds " +
                    value_text(item) + ", which is not an integer but " +
                    type_name(item) + ": " + wanted;
        return bool(v);
    };
    if (pmt::is_vector(value) || pmt::is_tuple(value)) {
        for (std::size_t i = 0; i < pmt::length(value); ++i)
            if (!add(pmt::is_vector(value) ? pmt::vector_ref(value, i)
                                           : pmt::tuple_ref(value, i)))
                return std::nullopt;
    } else if (pmt::is_pair(value) || pmt::is_null(value)) {
        for (pmt::pmt_t rest = value; pmt::is_pair(rest); rest = pmt::cdr(rest))
            if (!add(pmt::car(rest)))
                return std::nullopt;
    } else if (const auto ref = integer_vector_ref(value)) {
        for (std::size_t i = 0; i < pmt::length(value); ++i)
            out.push_back(ref(value, i));
    } else {
        error = refusal(key, value, "a list of integers", wanted);
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> metadata_text(const pmt::pmt_t& meta,
                                         const pmt::pmt_t& key,
                                         const std::string& wanted,
                                         std::string& error)
{
    if (!pmt::dict_has_key(meta, key))
        return std::nullopt;
    const pmt::pmt_t value = pmt::dict_ref(meta, key, pmt::PMT_NIL);
    if (pmt::is_symbol(value))
        return pmt::symbol_to_string(value);
    error = refusal(key, value, "a string", wanted);
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
    const auto v = exact_long(value);
    if (v && (*v == 0 || *v == 1))
        return *v == 1;
    error = refusal(key, value, "a flag", "use a bool (True or False), or 0 or 1");
    return std::nullopt;
}

pmt::pmt_t failure_pdu(pmt::pmt_t meta,
                       const pmt::pmt_t& flag_key,
                       const std::string& reason,
                       const pmt::pmt_t& empty_data)
{
    static const pmt::pmt_t error_key = pmt::mp("error");
    if (!pmt::eq(flag_key, pmt::PMT_NIL))
        meta = pmt::dict_add(meta, flag_key, pmt::PMT_F);
    meta = pmt::dict_add(meta, error_key, pmt::string_to_symbol(reason));
    return pmt::cons(meta, empty_data);
}

bool batch_complete(gr::block& block, std::size_t collected, int max_batch)
{
    return collected >= std::size_t(max_batch) || block.nmsgs(pdus_port()) == 0;
}

} // namespace common
} // namespace gputurbo
} // namespace gr
