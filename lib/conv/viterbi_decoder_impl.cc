/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "viterbi_decoder_impl.h"
#include "../common/block_parameters.h"
#include "../common/engine_log.h"
#include "../common/io_signatures.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gputurbo/engine/conv/parameters.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace gr {
namespace gputurbo {

namespace conv = ::gputurbo::conv;

namespace {
// How long a stream's LLRs wait for a batch's worth on the CPU: a slow stream is decoded
// in smaller calls rather than later.
constexpr auto batch_wait = std::chrono::milliseconds(5);
} // namespace

viterbi_decoder::sptr viterbi_decoder::make(const viterbi_options& options)
{
    // A stream's soft output: its bits' LLRs (conv/decoder.h: set_soft_output()).
    if (options.decoder.mode == conv::termination::streaming &&
        options.block.output != ::gputurbo::core::soft_output::none &&
        options.block.output != ::gputurbo::core::soft_output::app)
        throw std::invalid_argument(
            std::string("output=") + ::gputurbo::core::to_string(options.block.output) +
            ": termination streaming gives bits or llr: use output=bits or llr, or "
            "frames (termination terminated, truncated or tail-biting)");
    if (options.decoder.mode != conv::termination::streaming) {
        ::gputurbo::core::check(conv::parameter("frame_bits"), options.frame_bits);
        conv::check_frame_bits(
            options.decoder.generator, options.decoder.mode, options.frame_bits);
    }
    return gnuradio::make_block_sptr<viterbi_decoder_impl>(options);
}

viterbi_decoder_impl::viterbi_decoder_impl(const viterbi_options& options)
    : gr::block("viterbi_decoder",
                common::llr_stream(options.block.int8),
                common::decoded_stream(options.block.output, options.block.int8_output)),
      d_config(options.decoder),
      d_frame_bits(options.frame_bits),
      d_int8(options.block.int8)
{
    const conv::viterbi_config& config = options.decoder;
    const std::string& backend = options.block.backend;
    route_engine_log();
    if (config.mode == conv::termination::streaming) {
        // max_batch is for frames; it is still checked, so that a flowgraph that
        // switches to frames later does not meet a new error.
        check_max_batch(options.block.max_batch);
        d_stream = conv::make_stream_decoder(config, backend);
        if (options.block.output == ::gputurbo::core::soft_output::app &&
            !d_stream->gives_soft())
            throw std::invalid_argument(
                "output=llr: termination streaming gives it on the cpu and cuda "
                "backends with soft_algorithm max-log, for every code but K = 9 with "
                "four outputs (this stream: " +
                d_stream->backend() + " backend): use output=bits, or frames");
        d_stream->set_soft_output(options.block.output ==
                                  ::gputurbo::core::soft_output::app);
        d_int8_output = options.block.int8_output;
        d_stream->set_batches_in_flight(
            batches_in_flight_for(options.block.batches_in_flight, true));
        const int n = config.generator.outputs(), period = config.punctured.period();
        const int kept = config.punctured.kept_per_period(n);
        set_relative_rate(std::uint64_t(period), std::uint64_t(kept));
        // GNU Radio gives the upstream block an output buffer of two output multiples'
        // input: room for two batches that keep the engine busy (every CPU thread's
        // lanes; 2^20 bits on a GPU), so that a work call can find one waiting; and this
        // block one of two batches' bits, no more: GNU Radio tells a block that its
        // downstream has finished only once its output buffer is full.
        d_batch_llrs = d_stream->preferred_llrs();
        d_output_multiple = int(d_batch_llrs / std::size_t(kept) * std::size_t(period));
        set_output_multiple(d_output_multiple);
    } else {
        d_frames = conv::make_viterbi_decoder(config, backend);
        d_batcher = std::make_unique<common::stream_batcher>(
            *this, d_logger, *d_frames, d_frame_bits, options.block, config.int8_scale);
    }
    const std::string chosen = viterbi_decoder_impl::backend();
    if (backend == "auto")
        d_logger->info("backend auto chose {:s}: {:s}", chosen, device());
    else
        d_logger->debug("backend {:s}: {:s}", chosen, device());
}

int viterbi_decoder_impl::frame_length() const
{
    return streaming() ? 0 : int(d_frames->input_length(d_frame_bits));
}

std::string viterbi_decoder_impl::backend() const
{
    return streaming() ? d_stream->backend()
                       : ::gputurbo::core::to_string(d_frames->kind());
}

std::string viterbi_decoder_impl::device() const
{
    return streaming() ? d_stream->device() : d_frames->device();
}

std::uint64_t viterbi_decoder_impl::bits() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return streaming() ? d_stream_bits
                       : d_batcher->codewords() * std::uint64_t(d_frame_bits);
}

std::uint64_t viterbi_decoder_impl::partial_items() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return streaming() ? d_partial_items : d_batcher->partial_items();
}

std::uint64_t viterbi_decoder_impl::misaligned_length_tags() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return streaming() ? 0 : d_batcher->misaligned_length_tags();
}

std::uint64_t viterbi_decoder_impl::failed_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return streaming() ? 0 : d_batcher->failed();
}

bool viterbi_decoder_impl::start()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (streaming()) {
            // A restart starts a new stream from state 0 at the first new item: right
            // where the upstream starts one too (an encoder does). Where it resumes
            // mid-stream nothing in the LLRs tells: the first bit out is tagged.
            if (d_started) {
                d_pending_restart = d_pending_restart.value_or(0) + d_held_at_stop;
                d_logger->info("restarted, {:d} input LLR(s) held at stop discarded: a "
                               "new stream starts from state 0 at the first new item "
                               "(tag \"restart\")",
                               d_held_at_stop);
            }
            d_started = true;
            d_held_at_stop = 0;
            drop_stream("");
            // GNU Radio calls a block with at most max_noutput_items, rounded down to
            // its output multiple: a smaller cap set on the block must not round to 0.
            set_output_multiple(is_set_max_noutput_items()
                                    ? std::min(d_output_multiple, max_noutput_items())
                                    : d_output_multiple);
            d_waiting_since.reset();
            if (d_stream->kind() == ::gputurbo::core::backend::cuda)
                d_locked_input.lock(*this, d_logger);
        } else {
            d_batcher->start();
        }
    }
    return block::start();
}

bool viterbi_decoder_impl::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (streaming()) {
            drop_stream("stopped mid-stream");
            d_locked_input.unlock();
            // What GNU Radio discards of the input (the restart tag's value).
            const auto d = detail();
            d_held_at_stop = d && d->ninputs() > 0 ? d->input(0)->items_available() : 0;
        } else {
            d_batcher->stop();
        }
    }
    return block::stop();
}

void viterbi_decoder_impl::drop_stream(const char* why)
{
    if (*why && (d_stream->received_llrs() > 0 || waiting() > 0))
        d_logger->warn("{:s}: {:d} decoded or undecided bits discarded",
                       why,
                       d_stream->pending_bits() + waiting());
    d_stream->reset();
    d_next = d_end = 0;
    d_stream_out = 0;
    d_sync.clear();
}

void viterbi_decoder_impl::note_sync_changes()
{
    for (const auto& c : d_stream->take_sync_changes()) {
        d_logger->info(
            "node sync: from output bit {:d} of the stream on, its steps start "
            "at input LLR {:d} (phase {:d}){:s}",
            c.bit,
            c.llr,
            c.offset,
            c.inverted ? ", inverted" : "");
        d_sync.push_back(c);
    }
}

void viterbi_decoder_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    if (!streaming())
        return d_batcher->forecast(ninput_items_required);
    // None while decided bits wait or a batch's are ready, or once the upstream is done
    // and the stream still has bits to write: the work call then writes them. (A batch
    // still decoding waits for input instead: waiting for it here would keep the
    // upstream block from filling the buffer meanwhile; the scheduler asks again when
    // input comes, or within a quarter of a second.)
    ninput_items_required[0] = 1;
    if (!detail())
        return;
    const gr::buffer_reader_sptr reader = detail()->input(0);
    const bool ended = reader->done();
    if (waiting() > 0 || d_stream->batch_ready() ||
        (ended && d_stream->received_llrs() > 0)) {
        ninput_items_required[0] = 0;
        return;
    }
    // On the CPU, a batch's worth (every thread's lanes), as far as the buffer holds,
    // unless the first LLRs have waited batch_wait already; any input on a GPU, which
    // gathers what comes while its batches decode.
    const int available = reader->items_available();
    const int batch = int(std::min<std::size_t>(
        d_batch_llrs, std::size_t(reader->max_possible_items_available())));
    if (d_stream->kind() == ::gputurbo::core::backend::cuda || available == 0 ||
        available >= batch || ended)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (!d_waiting_since)
        d_waiting_since = now;
    if (now - *d_waiting_since < batch_wait)
        ninput_items_required[0] = batch;
}

std::uint8_t* viterbi_decoder_impl::decided_room(std::size_t bits)
{
    const bool soft = d_stream->soft_output();
    if (d_next > 0) { // the bits before d_next are gone
        std::copy(
            d_decided.begin() + d_next, d_decided.begin() + d_end, d_decided.begin());
        if (soft)
            std::copy(d_soft.begin() + d_next, d_soft.begin() + d_end, d_soft.begin());
        d_end -= d_next;
        d_next = 0;
    }
    if (d_decided.size() < d_end + bits)
        d_decided.resize(d_end + bits);
    if (soft && d_soft.size() < d_end + bits)
        d_soft.resize(d_end + bits);
    return d_decided.data() + d_end;
}

float* viterbi_decoder_impl::soft_room()
{
    return d_stream->soft_output() ? d_soft.data() + d_end : nullptr;
}

void viterbi_decoder_impl::end_stream()
{
    const std::uint64_t partial = d_stream->partial_llrs();
    if (partial > 0) {
        d_logger->warn("the stream ended in the middle of a step: its {:d} LLRs are not "
                       "decoded",
                       partial);
        d_partial_items += partial;
    }
    std::uint8_t* room = decided_room(d_stream->output_bound(0));
    d_end += d_stream->flush(room, soft_room());
    note_sync_changes();
}

bool viterbi_decoder_impl::ended(int ninput_items) const
{
    // The upstream block sets done after its last items: read done first, and then no
    // items beyond this call's means none will come.
    const gr::buffer_reader_sptr reader = detail()->input(0);
    gr::thread::scoped_lock guard(*reader->mutex());
    return reader->done() && reader->items_available() == ninput_items;
}

int viterbi_decoder_impl::stream_work(int noutput_items,
                                      int ninput_items,
                                      const void* in,
                                      void* out)
{
    // The LLRs that came, decoded into the bits waiting to go out, unless a call's worth
    // of bits waits already: the output lags the input by the decoder's delay and its
    // batches in flight, not by what GNU Radio's buffers hold.
    const bool take = waiting() < std::size_t(noutput_items);
    if (take && ninput_items > 0) {
        std::uint8_t* room =
            decided_room(d_stream->output_bound(std::size_t(ninput_items)));
        float* soft = soft_room();
        d_end += d_int8
                     ? d_stream->decode(
                           static_cast<const std::int8_t*>(in), ninput_items, room, soft)
                     : d_stream->decode(
                           static_cast<const float*>(in), ninput_items, room, soft);
        consume(0, ninput_items);
        d_waiting_since.reset();
        note_sync_changes();
    } else if (take && d_stream->batch_ready()) {
        // No new LLRs (the upstream block is slow, or done): the oldest batch's bits.
        std::uint8_t* room = decided_room(d_stream->output_bound(0));
        d_end += d_stream->wait(room, soft_room());
    }
    if (take && d_stream->received_llrs() > 0 && ended(ninput_items))
        end_stream(); // every item of the stream has come: its last bits
    const int written = int(std::min<std::size_t>(waiting(), std::size_t(noutput_items)));
    if (written > 0 && d_pending_restart) {
        add_item_tag(0,
                     nitems_written(0),
                     pmt::intern("restart"),
                     pmt::from_uint64(*d_pending_restart),
                     alias_pmt());
        d_pending_restart.reset();
    }
    // Node synchronisation's changes, on the first bit decoded with each.
    for (; !d_sync.empty() && d_sync.front().bit < d_stream_out + std::uint64_t(written);
         d_sync.pop_front()) {
        const auto& c = d_sync.front();
        const pmt::pmt_t value = pmt::dict_add(
            pmt::dict_add(pmt::make_dict(), d_offset_key, pmt::from_long(c.offset)),
            d_inverted_key,
            pmt::from_bool(c.inverted));
        add_item_tag(0,
                     nitems_written(0) + (c.bit - d_stream_out),
                     d_node_sync_key,
                     value,
                     alias_pmt());
    }
    if (!d_stream->soft_output())
        std::copy_n(d_decided.data() + d_next, written, static_cast<std::uint8_t*>(out));
    else if (d_int8_output)
        ::gputurbo::core::quantize_llrs(d_soft.data() + d_next,
                                        std::size_t(written),
                                        static_cast<std::int8_t*>(out),
                                        d_config.int8_scale);
    else
        std::copy_n(d_soft.data() + d_next, written, static_cast<float*>(out));
    d_next += std::size_t(written);
    d_stream_bits += std::uint64_t(written);
    d_stream_out += std::uint64_t(written);
    return written;
}

int viterbi_decoder_impl::general_work(int noutput_items,
                                       gr_vector_int& ninput_items,
                                       gr_vector_const_void_star& input_items,
                                       gr_vector_void_star& output_items)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (!streaming())
        return d_batcher->work(noutput_items, ninput_items, input_items, output_items);
    return stream_work(noutput_items, ninput_items[0], input_items[0], output_items[0]);
}

} // namespace gputurbo
} // namespace gr
