/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "turbo_decoder_pdu_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"
#include "../common/pdu_messages.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace {

// One engine for every block size: its config names none (K = 0), and an explicit P
// is checked against each PDU's K.
std::unique_ptr<::gputurbo::turbo::decoder> make_engine(
    ::gputurbo::turbo::decoder_config config, const std::string& backend, int max_batch)
{
    check_max_batch(max_batch);
    config.K = 0;
    route_engine_log();
    return ::gputurbo::turbo::make_decoder(config, backend);
}

} // namespace

turbo_decoder_pdu::sptr turbo_decoder_pdu::make(const turbo_options& options)
{
    return gnuradio::make_block_sptr<turbo_decoder_pdu_impl>(options);
}

turbo_decoder_pdu_impl::turbo_decoder_pdu_impl(const turbo_options& options)
    : gr::block("turbo_decoder_pdu", common::no_streams(), common::no_streams()),
      pdu_decoder(
          options.block,
          options.decoder.int8_scale,
          make_engine(options.decoder, options.block.backend, options.block.max_batch),
          "K",
          true,
          &turbo_decoder_pdu_impl::block_of)
{
}

void turbo_decoder_pdu_impl::set_iterations(int iterations)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_engine->set_iterations(iterations); // throws for a bad count, changing nothing
}

int turbo_decoder_pdu_impl::iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_engine->config().iterations;
}

int turbo_decoder_pdu_impl::block_of(const pmt::pmt_t& meta,
                                     std::size_t length,
                                     std::string& error)
{
    static const pmt::pmt_t K_key = pmt::mp("K");
    if (const auto k_of_meta = common::metadata_integer(meta, K_key, error)) {
        const long k = *k_of_meta;
        if (k < 1 || k > ::gputurbo::turbo::max_block_size ||
            !::gputurbo::turbo::is_valid_block_size(int(k))) {
            error = "metadata K=" + std::to_string(k) +
                    " is not one of the 188 LTE block sizes";
            return 0;
        }
        if (length != ::gputurbo::turbo::codeword_length(int(k))) {
            error = "K=" + std::to_string(k) + " needs 3K+12=" +
                    std::to_string(::gputurbo::turbo::codeword_length(int(k))) +
                    " LLRs; the PDU has " + std::to_string(length);
            return 0;
        }
        return int(k);
    }
    if (!error.empty())
        return 0;
    const bool fits =
        length >= 12 && (length - 12) % 3 == 0 &&
        length <= ::gputurbo::turbo::codeword_length(::gputurbo::turbo::max_block_size);
    const int K = fits ? int((length - 12) / 3) : 0;
    if (!fits || !::gputurbo::turbo::is_valid_block_size(K)) {
        error = std::to_string(length) +
                " LLRs are not 3K+12 for any LTE block size K (or put K in the "
                "metadata)";
        return 0;
    }
    return K;
}

} // namespace gputurbo
} // namespace gr
