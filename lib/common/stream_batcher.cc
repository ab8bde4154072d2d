/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream_batcher.h"
#include "block_parameters.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gputurbo {
namespace common {

namespace {

// max_batch = 0 on CUDA: enough information bits per batch to fill the GPU, and no
// more: smaller batches overlap better with the blocks around the decoder.
constexpr int cuda_batch_bits = 1 << 22;
constexpr int cpu_batch = 64;
// Most iterations a status dict is kept for (more share none).
constexpr int cached_iterations = 64;
// Dropped length tags logged one by one; further ones are counted, and stop() logs how
// many.

} // namespace

int stream_batcher::checked_batch(int max_batch,
                                  const ::gputurbo::core::batch_decoder& engine,
                                  int block_size)
{
    check_max_batch(max_batch);
    const int n = int(engine.input_length(block_size));
    if (max_batch > max_batch_for(n))
        throw std::invalid_argument(
            "max_batch=" + std::to_string(max_batch) + " codewords of " +
            std::to_string(n) + " LLRs is too many: use at most " +
            std::to_string(max_batch_for(n)) + " at this block size");
    return max_batch > 0 ? max_batch : automatic_batch(engine, block_size);
}

int stream_batcher::automatic_batch(const ::gputurbo::core::batch_decoder& engine,
                                    int block_size)
{
    if (engine.kind() != ::gputurbo::core::backend::cuda)
        return cpu_batch;
    return std::clamp(cuda_batch_bits / block_size,
                      1,
                      max_batch_for(int(engine.input_length(block_size))));
}

stream_batcher::stream_batcher(gr::block& block,
                               gr::logger_ptr logger,
                               ::gputurbo::core::batch_decoder& engine,
                               int block_size,
                               const block_options& options,
                               float int8_scale)
    : d_block(block),
      d_logger(logger),
      d_engine(engine),
      d_K(block_size),
      d_n(int(engine.input_length(block_size))),
      d_output_length(int(engine.soft_length(block_size, options.output))),
      d_int8(options.int8),
      d_max_batch(checked_batch(options.max_batch, engine, block_size)),
      d_batches_in_flight(batches_in_flight_for(options.batches_in_flight, false)),
      d_tags(options.tags),
      d_output(options.output),
      d_int8_output(options.int8_output),
      d_int8_scale(int8_scale),
      d_bits(d_output == ::gputurbo::core::soft_output::none
                 ? 0
                 : std::size_t(d_max_batch) * d_K),
      d_status(d_max_batch),
      d_tag_key(pmt::intern("codeword")),
      d_index_key(pmt::intern("index")),
      d_iterations_key(pmt::intern("iterations")),
      d_passed_key(pmt::intern("passed")),
      d_length_key(options.length_tag_key.empty() ? pmt::PMT_NIL
                                                  : pmt::intern(options.length_tag_key)),
      d_restart_key(pmt::intern("restart")),
      d_status_dicts(2 * (cached_iterations + 1), pmt::PMT_NIL)
{
    check_output(d_output, engine);
    // Output space for one whole batch per call. GNU Radio sizes the upstream buffer
    // from it: two batches of input (2 * max_batch * output_length items, over the
    // relative rate).
    block.set_output_multiple(d_max_batch * d_output_length);
    block.set_relative_rate(std::uint64_t(d_output_length), std::uint64_t(d_n));
    // Tags move with their codeword, which may leave a later call than it came in.
    block.set_tag_propagation_policy(gr::block::TPP_DONT);
}

void stream_batcher::start()
{
    const auto detail = d_block.detail();
    if (!detail || detail->ninputs() == 0)
        return;
    // A restart, by top_block::start() after stop() or by unlock() after lock(), gives
    // the blocks empty buffers (GNU Radio 3.10): what they held is gone, upstream too,
    // so the new stream's first item starts a codeword and the output says where.
    if (d_started) {
        d_pending_restart = d_pending_restart.value_or(0) + d_partial_items;
        d_logger->info("restarted, {:d} input LLR(s) held at stop discarded: codewords "
                       "start again at the first new item (tag \"restart\")",
                       d_partial_items);
    }
    d_started = true;
    d_partial_items = 0;
    // GNU Radio sizes the input buffer for two batches unless the upstream block caps it
    // (max_output_buffer): say so rather than run with small batches unnoticed.
    const int fits = detail->input(0)->max_possible_items_available() / d_n;
    if (fits < d_max_batch)
        d_logger->info("the input buffer holds {:d} codeword(s), fewer than "
                       "max_batch={:d}: let the upstream block's output buffer "
                       "grow to {:d} items or more for full batches",
                       fits,
                       d_max_batch,
                       2L * d_max_batch * d_n);

    if (d_engine.kind() == ::gputurbo::core::backend::cuda)
        d_locked_input.lock(d_block, d_logger);
}

void stream_batcher::stop()
{
    // At the end of a stream every batch has been returned; batches still in flight
    // mean the flowgraph was stopped, or downstream finished, before taking them.
    std::uint64_t undelivered = 0;
    std::vector<std::uint8_t> discard(std::size_t(d_max_batch) * d_K);
    while (!d_in_flight.empty()) {
        const batch b = d_in_flight.front();
        d_in_flight.pop_front();
        undelivered += b.codewords;
        try {
            d_engine.collect(b.ticket, discard.data(), nullptr);
        } catch (const std::exception& e) {
            d_logger->error("collecting a batch at stop: {:s}", e.what());
        }
    }
    d_locked_input.unlock();
    if (undelivered > 0)
        d_logger->warn("{:d} decoded codeword(s) not delivered: the flowgraph "
                       "stopped, or downstream finished, before taking them",
                       undelivered);

    if (const auto line = d_dropped_length_tags.flush())
        d_logger->warn("{:s}", *line);

    // What the scheduler left in the input buffer: at the end of a stream, fewer LLRs
    // than a codeword has.
    const auto detail = d_block.detail();
    if (detail && detail->ninputs() > 0) {
        const std::uint64_t left = detail->input(0)->items_available();
        d_partial_items = left;
        if (left > 0)
            d_logger->warn("{:d} input LLR(s) left undecoded when the block "
                           "stopped ({:d} whole codeword(s) of {:d} values and "
                           "{:d} value(s) of a partial one)",
                           left,
                           left / d_n,
                           d_n,
                           left % d_n);
    }
}

void stream_batcher::forecast(gr_vector_int& ninput_items_required) const
{
    // With batches in flight a call can always return one, so it needs no input: that
    // is also how the last batches leave once the upstream block has finished.
    ninput_items_required[0] = d_in_flight.empty() ? d_n : 0;
}

void stream_batcher::submit(const void* llrs, int codewords)
{
    const std::uint64_t first = d_block.nitems_read(0);
    batch b{ 0, codewords, d_submitted, {} };
    d_block.detail()->get_tags_in_range(
        b.tags, 0, first, first + std::uint64_t(codewords) * d_n, d_block.unique_id());
    for (auto& t : b.tags)
        t.offset -= first;
    b.ticket =
        d_int8
            ? d_engine.submit(d_K,
                              static_cast<const std::int8_t*>(llrs),
                              std::size_t(codewords),
                              d_output)
            : d_engine.submit(
                  d_K, static_cast<const float*>(llrs), std::size_t(codewords), d_output);
    d_in_flight.push_back(std::move(b));
    d_submitted += codewords;
}

pmt::pmt_t stream_batcher::status_dict(const ::gputurbo::core::codeword_status& status)
{
    auto make = [&] {
        const pmt::pmt_t dict =
            pmt::dict_add(pmt::make_dict(), d_passed_key, pmt::from_bool(status.passed));
        return pmt::dict_add(dict, d_iterations_key, pmt::from_long(status.iterations));
    };
    if (status.iterations < 0 || status.iterations > cached_iterations)
        return make();
    pmt::pmt_t& dict = d_status_dicts[std::size_t(status.iterations) * 2 + status.passed];
    if (!pmt::is_pair(dict))
        dict = make();
    return dict;
}

pmt::pmt_t stream_batcher::decoded_length(const gr::tag_t& t,
                                          std::uint64_t codeword_index)
{
    // t.offset: relative to its batch, whose first item starts a codeword
    const std::uint64_t item = t.offset % d_n;
    // The value as a count: a positive integer (pmt long or uint64), else 0.
    std::uint64_t length = 0;
    if (pmt::is_integer(t.value))
        length = std::uint64_t(std::max(0L, pmt::to_long(t.value)));
    else if (pmt::is_uint64(t.value))
        length = pmt::to_uint64(t.value);
    std::string reason;
    if (item != 0)
        reason = "it is not on a codeword boundary (" + std::to_string(item) +
                 " input item(s) into the codeword)";
    else if (length == 0 || length % d_n != 0)
        reason = "its value is not a whole number of codewords of " +
                 std::to_string(d_n) + " input items";
    if (reason.empty()) {
        const std::uint64_t decoded = length / d_n * d_output_length;
        return pmt::is_integer(t.value) ? pmt::from_long(long(decoded))
                                        : pmt::from_uint64(decoded);
    }

    if (const auto line = d_dropped_length_tags.count(
            "\"" + pmt::symbol_to_string(t.key) + "\" = " + pmt::write_string(t.value) +
            " in codeword " + std::to_string(codeword_index) + " dropped: " + reason))
        d_logger->warn("{:s}", *line);
    return pmt::PMT_NIL;
}

int stream_batcher::return_oldest(void* out)
{
    const batch b = std::move(d_in_flight.front());
    d_in_flight.pop_front(); // the engine frees its slot whatever collect() meets
    const auto unpacked = ::gputurbo::core::bit_format::unpacked;
    if (d_output == ::gputurbo::core::soft_output::none)
        d_engine.collect(b.ticket, static_cast<std::uint8_t*>(out), d_status.data());
    else if (d_int8_output)
        d_engine.collect(b.ticket,
                         d_bits.data(),
                         d_status.data(),
                         unpacked,
                         static_cast<std::int8_t*>(out),
                         d_int8_scale);
    else
        d_engine.collect(
            b.ticket, d_bits.data(), d_status.data(), unpacked, static_cast<float*>(out));
    d_codewords += b.codewords;
    for (int i = 0; i < b.codewords; ++i)
        d_failed += !d_status[i].passed;

    const std::uint64_t first_item = d_block.nitems_written(0);
    const pmt::pmt_t srcid = d_block.alias_pmt();
    auto tag = [&](std::uint64_t offset,
                   const pmt::pmt_t& key,
                   const pmt::pmt_t& value,
                   const pmt::pmt_t& source) {
        gr::tag_t t;
        t.offset = offset;
        t.key = key;
        t.value = value;
        t.srcid = source;
        d_block.detail()->add_item_tag(0, t);
    };
    if (d_tags != codeword_tags::none)
        for (int i = 0; i < b.codewords; ++i) {
            if (d_tags == codeword_tags::failed && d_status[i].passed)
                continue;
            const pmt::pmt_t info = pmt::dict_add(status_dict(d_status[i]),
                                                  d_index_key,
                                                  pmt::from_uint64(b.first_index + i));
            tag(first_item + std::uint64_t(i) * d_output_length, d_tag_key, info, srcid);
        }
    if (d_pending_restart) {
        tag(first_item, d_restart_key, pmt::from_uint64(*d_pending_restart), srcid);
        d_pending_restart.reset();
    }
    for (const auto& t : b.tags) {
        const std::uint64_t codeword = t.offset / d_n, item = t.offset % d_n;
        const std::uint64_t offset =
            first_item + codeword * d_output_length + item * d_output_length / d_n;
        if (!pmt::is_null(d_length_key) && pmt::eq(t.key, d_length_key)) {
            const pmt::pmt_t length = decoded_length(t, b.first_index + codeword);
            if (!pmt::is_null(length))
                tag(offset, t.key, length, t.srcid);
        } else
            tag(offset, t.key, t.value, t.srcid);
    }
    return b.codewords * d_output_length;
}

int stream_batcher::work(int noutput_items,
                         const gr_vector_int& ninput_items,
                         gr_vector_const_void_star& input_items,
                         gr_vector_void_star& output_items)
{
    // Each call either submits a batch or returns one, never both: a call that submits
    // returns at once, so its input space goes back to the upstream block while the GPU
    // decodes and the next call hands out an earlier batch.
    const int waiting = ninput_items[0] / d_n; // whole codewords in the input
    if (waiting > 0 && int(d_in_flight.size()) < d_batches_in_flight) {
        const int n = std::min(waiting, d_max_batch);
        submit(input_items[0], n);
        d_block.consume_each(n * d_n);
        return 0;
    }
    // The pipeline is full, or no codeword waits: then holding a batch gains nothing,
    // and the stream may have ended. noutput_items always holds a batch (the output
    // multiple).
    if (!d_in_flight.empty() &&
        noutput_items >= d_in_flight.front().codewords * d_output_length)
        return return_oldest(output_items[0]);
    return 0;
}

} // namespace common
} // namespace gputurbo
} // namespace gr
