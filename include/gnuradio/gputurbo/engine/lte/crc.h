/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_CRC_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_CRC_H

/*!
 * \file crc.h
 * \brief The CRCs of 3GPP TS 36.212 §5.1.1 under the transport layer's names: they are
 *        the core's (core/crc.h), which the turbo decoders' stop rules check too.
 */

#include <gnuradio/gputurbo/engine/core/crc.h>

//! Defined where one enum names all four CRCs; older headers had only crc24 { a, b }, and
//! code built against both (tests/tools/decode_digest.cc) tells them apart by it.
#define GPUTURBO_LTE_CRC_API 2

namespace gputurbo::lte {

using core::attach_crc;
using core::check_crc;
using core::crc;
using core::crc_length;
using core::crc_parity;

} // namespace gputurbo::lte

#endif
