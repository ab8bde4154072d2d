/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_PDU_MESSAGES_H
#define INCLUDED_GPUTURBO_COMMON_PDU_MESSAGES_H

// What every PDU block of the module does with a message: take it from its port, split
// it into metadata and data, read integers and flags of the metadata with a clear reason
// when they are not, answer a PDU that fails in its place, and decide when a batch of
// PDUs is complete.

#include <gnuradio/block.h>
#include <pmt/pmt.h>

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {
namespace common {

//! The message port of every PDU block, in and out: "pdus".
const pmt::pmt_t& pdus_port();

//! Registers \p block's "pdus" ports, in and out, and \p handle as the input's handler,
//! called with \p mutex held (the block's getters and stop() take it too).
void serve_pdus(gr::block& block,
                std::mutex& mutex,
                std::function<void(const pmt::pmt_t&)> handle);

/*!
 * \brief Splits a PDU into its metadata dict and its data. False, with the reason in
 * \p error, when \p msg is not a pair or its metadata not a dict (\p meta is then an
 * empty dict, for the answer to carry the error); \p data_kind names what the data
 * should be in that reason ("an f32vector").
 */
bool split_pdu(const pmt::pmt_t& msg,
               const std::string& data_kind,
               pmt::pmt_t& meta,
               pmt::pmt_t& data,
               std::string& error);

/*!
 * \brief An integer of the metadata (a PMT long, a uint64 up to LONG_MAX, or a double of
 * a whole value within a long's range): nullopt when \p key is absent, or, with the
 * reason in \p error (the key, the value, its type and what to give), when its value is
 * no such integer.
 */
std::optional<long>
metadata_integer(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error);

/*!
 * \brief A list of integers of the metadata: a PMT vector, tuple or list whose items
 * are integers as metadata_integer() reads them (what pmt.to_pmt makes of a Python list
 * or tuple), or a uniform vector of integers (s32vector, u16vector, …: a NumPy integer
 * array): nullopt when \p key is absent, or, with the reason in \p error, when its value
 * is no such list.
 */
std::optional<std::vector<long>>
metadata_integers(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error);

/*!
 * \brief A text of the metadata (a PMT symbol, what pmt.to_pmt makes of a Python str):
 * nullopt when \p key is absent, or, with the reason in \p error (\p wanted says what to
 * give), when its value is no symbol.
 */
std::optional<std::string> metadata_text(const pmt::pmt_t& meta,
                                         const pmt::pmt_t& key,
                                         const std::string& wanted,
                                         std::string& error);

/*!
 * \brief A flag of the metadata (a PMT bool, or 0 or 1 as metadata_integer() reads
 * them): nullopt when \p key is absent, or, with the reason in \p error, when its value
 * is neither.
 */
std::optional<bool>
metadata_flag(const pmt::pmt_t& meta, const pmt::pmt_t& key, std::string& error);

/*!
 * \brief The answer to a PDU that failed: its metadata plus \p flag_key = false (unless
 * \p flag_key is PMT_NIL) and "error" = \p reason, with \p empty_data: an empty vector
 * of the type the block answers with (a u8vector of bits by default; an f32vector or
 * s8vector of soft values).
 */
pmt::pmt_t failure_pdu(pmt::pmt_t meta,
                       const pmt::pmt_t& flag_key,
                       const std::string& reason,
                       const pmt::pmt_t& empty_data = pmt::make_u8vector(0, 0));

/*!
 * \brief Whether a block that collects the PDUs of its "pdus" port into batches should
 * process the \p collected ones now: the batch is full, or no message waits behind the
 * one just taken (a burst's last message completes its batch; a lone PDU goes at once).
 */
bool batch_complete(gr::block& block, std::size_t collected, int max_batch);

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
