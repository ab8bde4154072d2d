/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "viterbi_decoder_pdu_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"
#include "../common/pdu_messages.h"

#include <gnuradio/gputurbo/engine/conv/parameters.h>

#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

namespace {

std::unique_ptr<::gputurbo::core::batch_decoder>
make_engine(const conv::viterbi_config& config, const std::string& backend, int max_batch)
{
    check_max_batch(max_batch);
    if (config.mode == conv::termination::streaming)
        throw std::invalid_argument(
            "termination streaming: a PDU is a frame (terminated, "
            "truncated or tail-biting); viterbi_decoder decodes "
            "streams");
    route_engine_log();
    return conv::make_viterbi_decoder(config, backend);
}

} // namespace

viterbi_decoder_pdu::sptr viterbi_decoder_pdu::make(const viterbi_options& options)
{
    return gnuradio::make_block_sptr<viterbi_decoder_pdu_impl>(options);
}

viterbi_decoder_pdu_impl::viterbi_decoder_pdu_impl(const viterbi_options& options)
    : gr::block("viterbi_decoder_pdu", common::no_streams(), common::no_streams()),
      pdu_decoder(
          options.block,
          options.decoder.int8_scale,
          make_engine(options.decoder, options.block.backend, options.block.max_batch),
          "frame_bits",
          false,
          [this](const pmt::pmt_t& meta, std::size_t length, std::string& error) {
              return frame_bits_of(meta, length, error);
          }),
      d_config(options.decoder)
{
}

int viterbi_decoder_pdu_impl::frame_bits_of(const pmt::pmt_t& meta,
                                            std::size_t length,
                                            std::string& error) const
{
    const conv::code& c = d_config.generator;
    auto sent = [&](long f) {
        return conv::punctured_length(c, d_config.punctured, d_config.mode, int(f));
    };
    auto fits = [&](long f) {
        try {
            conv::check_frame_bits(c, d_config.mode, int(f));
        } catch (const std::invalid_argument&) {
            return false;
        }
        return f <= conv::max_frame_bits && sent(f) == length;
    };
    static const pmt::pmt_t key = pmt::mp("frame_bits");
    if (const auto f = common::metadata_integer(meta, key, error)) {
        if (*f < 1 || *f > conv::max_frame_bits || !fits(*f)) {
            error = "metadata frame_bits=" + std::to_string(*f) + " does not send " +
                    std::to_string(length) + " code bits of " + c.text() + " (" +
                    conv::to_string(d_config.mode) + ")";
            return 0;
        }
        return int(*f);
    }
    if (!error.empty())
        return 0;
    // The sent length grows with the frame by at most n a bit: the frame lies a few bits
    // from length / n (less the tail), or not at all.
    const int n = c.outputs(), period = d_config.punctured.period();
    const int kept = d_config.punctured.kept_per_period(n);
    const long tail =
        d_config.mode == conv::termination::terminated ? c.constraint - 1 : 0;
    const long estimate = long(length / kept) * period - tail;
    for (long f = std::max(1L, estimate - period); f <= estimate + 2L * period; ++f)
        if (fits(f))
            return int(f);
    error = std::to_string(length) + " LLRs are not the sent code bits of any frame of " +
            c.text() + " (" + conv::to_string(d_config.mode) +
            (d_config.punctured.none() ? "" : ", punctured") +
            ") (or put frame_bits in the metadata)";
    return 0;
}

} // namespace gputurbo
} // namespace gr
