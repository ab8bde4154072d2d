/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdcch_decoder_pdu_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"
#include "../common/pdu_messages.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>

#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace core = ::gputurbo::core;
namespace lte = ::gputurbo::lte;

namespace {

const pmt::pmt_t& dcis_port()
{
    static const pmt::pmt_t port = pmt::mp("dcis");
    return port;
}

std::unique_ptr<lte::pdcch_searcher> make_searcher(const pdcch_options& options)
{
    check_max_batch(options.block.max_batch);
    lte::cce_count(options.defaults.region); // names a bad default of the cell
    lte::check_control_value("cell_id", options.defaults.cell_id);
    route_engine_log();
    return std::make_unique<lte::pdcch_searcher>(
        ::gputurbo::conv::make_viterbi_decoder(options.decoder, options.block.backend));
}

// A real parameter's value, checked against the control table.
double checked_real(const char* name, double value)
{
    core::check(lte::control_parameter(name), value);
    return value;
}

lte::pdcch_search_options checked(lte::pdcch_search_options search)
{
    checked_real("min_correlation", search.min_correlation);
    checked_real("max_false_alarm", search.max_false_alarm);
    if (search.mode != lte::pdcch_search_mode::ue &&
        search.mode != lte::pdcch_search_mode::exhaustive)
        throw std::invalid_argument("mode=" + std::to_string(int(search.mode)) +
                                    " is no search mode: use ue or exhaustive");
    return search;
}

// "n_prb=100, cfi=3, antenna_ports=2, ng=1, phich_mi=1": a region in messages.
std::string region_text(const lte::control_region& r)
{
    return "n_prb=" + std::to_string(r.n_prb) + ", cfi=" + std::to_string(r.cfi) +
           ", antenna_ports=" + std::to_string(r.antenna_ports) +
           ", ng=" + lte::to_string(r.ng) + ", phich_mi=" + std::to_string(r.phich_mi);
}

} // namespace

pdcch_decoder_pdu::sptr pdcch_decoder_pdu::make(const pdcch_options& options)
{
    return gnuradio::make_block_sptr<pdcch_decoder_pdu_impl>(options);
}

pdcch_decoder_pdu_impl::pdcch_decoder_pdu_impl(const pdcch_options& options)
    : gr::block("pdcch_decoder_pdu", common::no_streams(), common::no_streams()),
      d_searcher(make_searcher(options)),
      d_search(checked(options.search)),
      d_defaults(options.defaults),
      d_max_batch(pdu_batch_for(options.block.max_batch, d_searcher->decoder().kind()))
{
    if (options.block.backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}", backend(), device());
    common::serve_pdus(*this, d_mutex, [this](const pmt::pmt_t& msg) { handle(msg); });
    message_port_register_out(dcis_port());
}

bool pdcch_decoder_pdu_impl::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (auto line = d_failures.flush())
            d_logger->error(*line);
    }
    return gr::block::stop();
}

void pdcch_decoder_pdu_impl::handle(const pmt::pmt_t& msg)
{
    d_pending.push_back(parse(msg));
    // PDUs queued behind this one join its batch; the last of a burst searches it.
    if (common::batch_complete(*this, d_pending.size(), d_max_batch))
        search_pending();
}

pdcch_decoder_pdu_impl::pending pdcch_decoder_pdu_impl::parse(const pmt::pmt_t& msg) const
{
    pending p;
    pmt::pmt_t data;
    if (!common::split_pdu(msg, "an f32vector of LLRs", p.meta, data, p.error))
        return p;
    if (!pmt::is_f32vector(data)) {
        p.error = "the PDU's data is not an f32vector of LLRs";
        return p;
    }
    if (!read_pdcch_request(p.meta, d_defaults, p.request, p.error))
        return p;
    const std::vector<int>& sizes = p.request.subframe.dci_sizes;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        try { // control_decode() of no blocks checks that the decoder takes the size
            lte::control_decode(d_searcher->decoder(),
                                sizes[i],
                                lte::cce_llrs,
                                nullptr,
                                0,
                                nullptr,
                                nullptr);
        } catch (const std::invalid_argument& e) {
            p.error = "metadata dci_sizes[" + std::to_string(i) +
                      "]=" + std::to_string(sizes[i]) + ": " + e.what();
            return p;
        }
    }
    read_llrs(p, data);
    return p;
}

void pdcch_decoder_pdu_impl::read_llrs(pending& p, const pmt::pmt_t& data) const
{
    const lte::control_region& r = p.request.subframe.region;
    std::size_t least = 0, most = 0;
    int n_cce = 0;
    try {
        n_cce = lte::cce_count(r);
        least = std::size_t(lte::cce_llrs) * std::size_t(n_cce);
        most = 8 * std::size_t(lte::pdcch_regs(r));
    } catch (const std::invalid_argument& e) {
        p.error = e.what();
        return;
    }
    const std::size_t length = pmt::length(data);
    if (length < least || length > most) {
        p.error = "the PDU has " + std::to_string(length) +
                  " LLRs; the control region of " + region_text(r) + " has " +
                  std::to_string(n_cce) + " CCEs: give " + std::to_string(least) +
                  " (72 N_CCE) ... " + std::to_string(most) + " (8 N_REG) LLRs";
        return;
    }
    p.llrs = data;
    if (p.request.descramble) {
        std::size_t n = 0;
        const float* llrs = pmt::f32vector_elements(data, n);
        p.descrambled.assign(llrs, llrs + n);
        lte::descramble_pdcch(p.request.subframe.subframe,
                              p.request.cell_id,
                              p.descrambled.data(),
                              p.descrambled.size());
    }
}

void pdcch_decoder_pdu_impl::search_pending()
{
    d_subframes.clear();
    for (const pending& p : d_pending)
        if (p.error.empty()) {
            lte::pdcch_subframe sf = p.request.subframe;
            std::size_t n = 0;
            const float* raw = pmt::f32vector_elements(p.llrs, n);
            sf.llrs = p.request.descramble ? p.descrambled.data() : raw;
            sf.llr_count = n;
            d_subframes.push_back(std::move(sf));
        }
    std::vector<lte::pdcch_detection> found;
    std::string failure;
    if (!d_subframes.empty()) {
        try {
            found = d_searcher->search(d_subframes, d_search);
            d_candidates += d_searcher->decoded_candidates();
            d_logger->debug("searched {:d} subframes: {:d} candidates decoded, {:d} DCIs",
                            d_subframes.size(),
                            d_searcher->decoded_candidates(),
                            found.size());
        } catch (const std::exception& e) {
            failure = std::string("search failed: ") + e.what();
        }
        ++d_batches;
    }
    // found is ordered by subframe: each PDU's detections follow the previous one's.
    std::size_t subframe = 0, next = 0;
    for (const pending& p : d_pending) {
        if (!p.error.empty() || !failure.empty()) {
            publish_failure(p.meta, p.error.empty() ? failure : p.error);
            continue;
        }
        const std::size_t first = next;
        while (next < found.size() && found[next].subframe == subframe)
            ++next;
        publish(p, found.data() + first, found.data() + next);
        ++subframe;
    }
    d_pending.clear();
}

void pdcch_decoder_pdu_impl::publish(const pending& p,
                                     const lte::pdcch_detection* first,
                                     const lte::pdcch_detection* last)
{
    static const pmt::pmt_t dcis_key = pmt::mp("dcis");
    static const pmt::pmt_t payload_key = pmt::mp("payload");
    const lte::pdcch_subframe& sf = p.request.subframe;
    const lte::dci_config cell{ sf.region.n_prb, sf.duplex, sf.region.antenna_ports };
    const pmt::pmt_t list = pmt::make_vector(std::size_t(last - first), pmt::PMT_NIL);
    for (const lte::pdcch_detection* d = first; d != last; ++d) {
        const pmt::pmt_t fields = dci_dict(*d, cell);
        const pmt::pmt_t bits = pmt::init_u8vector(d->payload.size(), d->payload);
        pmt::vector_set(
            list, std::size_t(d - first), pmt::dict_add(fields, payload_key, bits));
        message_port_pub(dcis_port(), pmt::cons(pmt::dict_update(p.meta, fields), bits));
        ++d_found;
    }
    ++d_searched;
    message_port_pub(
        common::pdus_port(),
        pmt::cons(pmt::dict_add(p.meta, dcis_key, list), pmt::make_u8vector(0, 0)));
}

void pdcch_decoder_pdu_impl::publish_failure(const pmt::pmt_t& meta,
                                             const std::string& reason)
{
    if (auto line = d_failures.count(reason))
        d_logger->error(*line);
    message_port_pub(common::pdus_port(),
                     common::failure_pdu(meta, pmt::PMT_NIL, reason));
}

void pdcch_decoder_pdu_impl::set_min_correlation(double min_correlation)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_search.min_correlation = checked_real("min_correlation", min_correlation);
}

double pdcch_decoder_pdu_impl::min_correlation() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_search.min_correlation;
}

void pdcch_decoder_pdu_impl::set_max_false_alarm(double max_false_alarm)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_search.max_false_alarm = checked_real("max_false_alarm", max_false_alarm);
}

double pdcch_decoder_pdu_impl::max_false_alarm() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_search.max_false_alarm;
}

std::string pdcch_decoder_pdu_impl::mode() const { return lte::to_string(d_search.mode); }

std::uint64_t pdcch_decoder_pdu_impl::found_dcis() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_found;
}

std::uint64_t pdcch_decoder_pdu_impl::decoded_candidates() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_candidates;
}

std::uint64_t pdcch_decoder_pdu_impl::decoded_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_searched;
}

std::uint64_t pdcch_decoder_pdu_impl::failed_pdus() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failures.total();
}

std::uint64_t pdcch_decoder_pdu_impl::batches() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_batches;
}

} // namespace gputurbo
} // namespace gr
