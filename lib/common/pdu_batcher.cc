/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pdu_batcher.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>

namespace gr {
namespace gputurbo {
namespace common {

namespace {

// A host buffer of at least `count` elements, grown by half again to keep the slow
// allocations of page-locked memory rare.
template <class T>
void reserve(::gputurbo::core::host_buffer<T>& buffer, std::size_t count)
{
    if (buffer.size() < count)
        buffer = ::gputurbo::core::host_buffer<T>(std::max(count, buffer.size() * 3 / 2));
}

} // namespace

void pdu_batcher::decode(::gputurbo::core::batch_decoder& engine,
                         std::vector<pdu_job>& jobs,
                         const soft_format& format)
{
    const auto output = format.kind;
    const bool soft = output != ::gputurbo::core::soft_output::none;
    std::map<int, std::vector<pdu_job*>> by_size;
    std::size_t total_bits = 0, total_soft = 0;
    for (auto& job : jobs) {
        if (!job.error.empty())
            continue;
        try {
            engine.check_block(job.block);
        } catch (const std::exception& e) {
            job.error = e.what();
            continue;
        }
        by_size[job.block].push_back(&job);
        total_bits += std::size_t(job.block);
        total_soft += engine.soft_length(job.block, output);
    }
    reserve(d_bits, total_bits);
    if (soft && format.int8)
        reserve(d_soft_int8, total_soft);
    else if (soft)
        reserve(d_soft, total_soft);

    // Calls are collected oldest first, as late as the engine's in-flight limit allows.
    struct call
    {
        ::gputurbo::core::batch_decoder::ticket ticket;
        std::vector<pdu_job*>* jobs;
        std::size_t first_bit;
        std::size_t first_soft;
    };
    std::deque<call> in_flight;
    std::vector<::gputurbo::core::codeword_status> status;
    auto collect_oldest = [&] {
        const call c = in_flight.front();
        in_flight.pop_front();
        status.resize(c.jobs->size());
        try {
            std::uint8_t* bits = d_bits.data() + c.first_bit;
            const auto unpacked = ::gputurbo::core::bit_format::unpacked;
            if (soft && format.int8)
                engine.collect(c.ticket,
                               bits,
                               status.data(),
                               unpacked,
                               d_soft_int8.data() + c.first_soft,
                               format.int8_scale);
            else
                engine.collect(c.ticket,
                               bits,
                               status.data(),
                               unpacked,
                               soft ? d_soft.data() + c.first_soft : nullptr);
            std::size_t bit = c.first_bit, value = c.first_soft;
            for (std::size_t i = 0; i < c.jobs->size(); ++i) {
                pdu_job& job = *(*c.jobs)[i];
                job.bits = d_bits.data() + bit;
                if (soft)
                    job.soft = format.int8
                                   ? static_cast<const void*>(d_soft_int8.data() + value)
                                   : d_soft.data() + value;
                job.status = status[i];
                bit += std::size_t(job.block);
                value += engine.soft_length(job.block, output);
            }
        } catch (const std::exception& e) {
            for (auto* job : *c.jobs)
                job->error = std::string("decoding failed: ") + e.what();
        }
    };
    std::size_t next_bit = 0, next_soft = 0;
    for (auto& [block, group] : by_size) {
        if (in_flight.size() == std::size_t(engine.max_in_flight))
            collect_oldest();
        const std::size_t n = engine.input_length(block);
        try {
            reserve(d_llrs, group.size() * n);
            for (std::size_t i = 0; i < group.size(); ++i)
                std::memcpy(d_llrs.data() + i * n, group[i]->llrs, n * sizeof(float));
            // submit() has read the LLRs when it returns: d_llrs is free again.
            in_flight.push_back(
                { engine.submit(block, d_llrs.data(), group.size(), output),
                  &group,
                  next_bit,
                  next_soft });
            next_bit += group.size() * std::size_t(block);
            next_soft += group.size() * engine.soft_length(block, output);
        } catch (const std::exception& e) {
            for (auto* job : group)
                job->error = std::string("decoding failed: ") + e.what();
        }
    }
    while (!in_flight.empty())
        collect_oldest();
}

} // namespace common
} // namespace gputurbo
} // namespace gr
