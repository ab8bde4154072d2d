/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_BLOCK_OPTIONS_H
#define INCLUDED_GPUTURBO_BLOCK_OPTIONS_H

/*!
 * \file block_options.h
 * \brief What the decoder blocks' make() takes: one options object of the block's code
 *        family (the engine's config, the blocks' shared options, the block's own),
 *        and the blocks' arguments by name (Python's keywords, GRC's parameters),
 *        each a row of the family's parameter table (engine/.../parameters.h) with the
 *        block's default. The options are made from arguments by name and checked
 *        against the table, so that C++, Python and GRC accept the same values with
 *        the same messages:
 *
 * \code
 * auto options = gr::gputurbo::turbo_options_from("turbo_decoder", { { "K", 6144LL } });
 * options.decoder.iterations = 8;
 * auto decoder = gr::gputurbo::turbo_decoder::make(options);
 * \endcode
 */

#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/pdcch.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <map>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {

//! Which codewords of a stream get a "codeword" tag; the names are the choices of the
//! codeword_tags parameter (core::block_parameters()), in this order.
enum class codeword_tags { failed, all, none };

//! The options every family's decoder blocks share besides the engine config (the
//! stream ones are read by the stream blocks only). Defaults: the table's.
struct block_options
{
    std::string backend = "auto"; //!< "auto", "cpu" or "cuda"
    bool int8 = false;            //!< input_type "int8" (else "float")
    int max_batch = 0;            //!< 0: automatic
    int batches_in_flight = 0;    //!< 0: automatic
    codeword_tags tags = codeword_tags::failed;
    std::string length_tag_key = "packet_len";
    //! output: the information bits' hard decisions (none, "bits"), or their float
    //! a-posteriori ("llr") or extrinsic LLRs, or the code bits' extrinsic LLRs
    //! ("code-extrinsic"), in the sign of llr_sign
    ::gputurbo::core::soft_output output = ::gputurbo::core::soft_output::none;
    //! output_type "int8": soft values as int8 in the units of int8 input, q =
    //! round(L * int8_scale) saturated to +-127 (the engine config's int8_scale; a byte
    //! a value instead of a float's 4), else float
    bool int8_output = false;
};

//! The options of turbo_decoder, turbo_decoder_pdu and turbo_decoder_fec. The engine
//! config's invert_llr is the blocks' llr_sign: true for "positive-one".
struct turbo_options
{
    ::gputurbo::turbo::decoder_config decoder;
    block_options block;
};

//! The options of viterbi_decoder and viterbi_decoder_pdu.
struct viterbi_options
{
    ::gputurbo::conv::viterbi_config decoder;
    int frame_bits = 1024; //!< information bits per frame (viterbi_decoder's frames)
    block_options block;
};

//! The fields of a transport format that a PDU's metadata may leave out.
struct transport_defaults
{
    int Qm = 2;
    int layers = 1;
    int rv = 0;
    long soft_buffer = 0;
    long c_init = ::gputurbo::lte::no_scrambling;
};

//! The options of dlsch_decoder_pdu.
struct dlsch_options
{
    ::gputurbo::lte::transport_config decoder;
    transport_defaults defaults;
    block_options block;
};

//! What a PDCCH subframe's metadata may leave out: its cell, and whether its LLRs come
//! scrambled.
struct pdcch_defaults
{
    ::gputurbo::lte::control_region region; //!< n_prb, cfi, antenna_ports, ng, phich_mi
    ::gputurbo::lte::duplex_mode duplex = ::gputurbo::lte::duplex_mode::fdd;
    int cell_id = 0;         //!< N_ID^cell, for descrambling
    bool descramble = false; //!< the LLRs come scrambled: descramble_pdcch() first
};

//! The options of pdcch_decoder_pdu: the control channel's Viterbi decoder
//! (control_decoder_config(); its threads and devices are the block's), the search, the
//! cell's defaults.
struct pdcch_options
{
    ::gputurbo::conv::viterbi_config decoder = ::gputurbo::lte::control_decoder_config();
    ::gputurbo::lte::pdcch_search_options search;
    pdcch_defaults defaults;
    block_options block;
};

//! One argument of a block's make() as Python and GRC name it.
struct block_argument
{
    std::string name; //!< the keyword ("frame_size" names the parameter K)
    //! Its table row, with the block's default and the choices the block offers.
    ::gputurbo::core::parameter parameter;
    bool required = false; //!< no default: Python's positional K
};

//! Argument values by name.
using block_values = std::map<std::string, ::gputurbo::core::value>;

//! The decoder blocks that take their options from arguments by name.
GPUTURBO_API const std::vector<std::string>& option_blocks();

//! A block's arguments ("turbo_decoder", …; option_blocks()) in Python's positional
//! order; std::invalid_argument for another block.
GPUTURBO_API const std::vector<block_argument>& block_arguments(const std::string& block);

/*!
 * \brief A block's options from its arguments by name, a missing one at its default:
 * each value of its parameter's kind and a choice by name, checked against the table;
 * std::invalid_argument naming the parameter (ValueError in Python). What depends on
 * the block size is checked when the block is made. std::logic_error for a name that is
 * not an argument of the block.
 */
GPUTURBO_API turbo_options turbo_options_from(const std::string& block,
                                              const block_values& values = {});
GPUTURBO_API viterbi_options viterbi_options_from(const std::string& block,
                                                  const block_values& values = {});
GPUTURBO_API dlsch_options dlsch_options_from(const std::string& block,
                                              const block_values& values = {});
GPUTURBO_API pdcch_options pdcch_options_from(const std::string& block,
                                              const block_values& values = {});

} // namespace gputurbo
} // namespace gr

#endif
