/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "transport_plan.h"

#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>

#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/transport_decoder.h"
#endif

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

namespace gputurbo::lte {
namespace {

void check_range(const char* name, long value, long low, long high)
{
    if (value < low || value > high)
        throw std::invalid_argument(std::string(name) + "=" + std::to_string(value) +
                                    " is out of range: use " + std::to_string(low) +
                                    " ... " + std::to_string(high));
}

transport_plan plan_of(const transport_format& f, plan_cache& cache)
{
    f.validate();
    transport_plan p;
    p.s = segment(f.tbs + 24);
    std::size_t llr = 0, codeword = 0;
    for (int r = 0; r < p.s.C; ++r) {
        code_block_plan b;
        b.K = p.s.block_size(r);
        b.filler = r == 0 ? p.s.F : 0;
        b.E = block_bits(f.G, p.s.C, f.Qm, f.layers, r);
        b.llr_first = llr;
        b.codeword_first = codeword;
        const int Kw = 3 * 32 * ((b.K + 4 + 31) / 32);
        const int Ncb = circular_buffer_bits(Kw, p.s.C, f.soft_buffer);
        try {
            b.table = &cache.sent(b.K, b.filler, Ncb);
        } catch (const std::invalid_argument&) { // no bit to send in its N_cb
            throw std::invalid_argument(
                "soft_buffer=" + std::to_string(f.soft_buffer) + " leaves code block " +
                std::to_string(r) + " (K=" + std::to_string(b.K) +
                ") a circular buffer of N_cb=" + std::to_string(Ncb) +
                " bits with none to send: use a larger soft_buffer (N_IR), or 0 (no "
                "limit)");
        }
        b.start = b.table->start[std::size_t(f.rv)];
        llr += std::size_t(b.E);
        codeword += turbo::codeword_length(b.K);
        p.blocks.push_back(b);
    }
    p.soft_buffer_length = codeword;
    return p;
}

} // namespace

void transport_format::validate() const
{
    check_range("tbs", tbs, 1, max_tbs);
    // The ranges of the other fields: the transport channel's parameter table.
    check_transport_value("Qm", Qm);
    check_transport_value("layers", layers);
    check_transport_value("rv", rv);
    check_transport_value("soft_buffer", soft_buffer);
    check_transport_value("c_init", c_init);
    const int C = segment(tbs + 24).C;
    const long symbols = long(Qm) * layers;
    if (G < 1 || G % symbols != 0 || G / symbols < C)
        throw std::invalid_argument(
            "G=" + std::to_string(G) + " does not fit tbs=" + std::to_string(tbs) +
            ": use a multiple of Qm * layers = " + std::to_string(symbols) +
            " of at least " + std::to_string(C * symbols) +
            " (a symbol for each of its " + std::to_string(C) + " code blocks)");
}

void transport_encode(const transport_format& f,
                      const std::uint8_t* data,
                      std::uint8_t* e)
{
    plan_cache cache;
    const transport_plan& p = cache.plan(f);
    std::vector<std::uint8_t> b(data, data + f.tbs);
    b.resize(std::size_t(f.tbs) + 24);
    attach_crc(crc::crc24a, b.data(), b.size());
    for (int r = 0; r < p.s.C; ++r) {
        const code_block_plan& cb = p.blocks[std::size_t(r)];
        std::vector<std::uint8_t> block(std::size_t(cb.K)),
            codeword(turbo::codeword_length(cb.K));
        code_block(p.s, b.data(), r, block.data());
        turbo::encode(cb.K, block.data(), 1, codeword.data());
        const auto& sent = cb.table->sent;
        for (int j = 0; j < cb.E; ++j)
            e[cb.llr_first + std::size_t(j)] = codeword[std::size_t(
                sent[(std::size_t(cb.start) + std::size_t(j)) % sent.size()])];
    }
    if (f.c_init != no_scrambling) {
        std::vector<std::uint8_t> c(std::size_t(f.G));
        scrambling_sequence(f.c_init, c.size(), c.data());
        for (std::size_t k = 0; k < c.size(); ++k)
            e[k] ^= c[k];
    }
}

std::size_t soft_buffer_length(int tbs)
{
    check_range("tbs", tbs, 1, max_tbs);
    const segmentation s = segment(tbs + 24);
    std::size_t n = 0;
    for (int r = 0; r < s.C; ++r)
        n += turbo::codeword_length(s.block_size(r));
    return n;
}

const transport_plan& plan_cache::plan(const transport_format& f)
{
    const auto key = std::make_tuple(f.tbs, f.G, f.Qm, f.layers, f.rv, f.soft_buffer);
    if (const auto it = d_plans.find(key); it != d_plans.end()) {
        if (f.c_init != no_scrambling) // the one field the plan does not depend on
            check_transport_value("c_init", f.c_init);
        return it->second;
    }
    transport_plan p = plan_of(f, *this);
    for (const int K : { p.s.K_plus, p.s.K_minus }) {
        if (K == 0 || !d_check_block)
            continue;
        try {
            d_check_block(K);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("code block size K=" + std::to_string(K) +
                                        " of tbs=" + std::to_string(f.tbs) + ": " +
                                        e.what());
        }
    }
    return d_plans.emplace(key, std::move(p)).first->second;
}

bool plan_cache::trim()
{
    if (d_table_bytes > most_table_bytes) { // the plans point into the tables
        d_plans.clear();
        d_tables.clear();
        d_table_bytes = 0;
        return true;
    }
    if (d_plans.size() > most_plans)
        d_plans.clear();
    return false;
}

const sent_bits& plan_cache::sent(int K, int filler, int Ncb)
{
    const auto key = std::make_tuple(K, filler, Ncb);
    if (const auto it = d_tables.find(key); it != d_tables.end())
        return it->second;
    const std::vector<std::int32_t> w = circular_buffer(K, filler);
    if (Ncb < 1 || std::size_t(Ncb) > w.size())
        throw std::invalid_argument("rate matching: N_cb " + std::to_string(Ncb) +
                                    " outside the circular buffer's 1 ... " +
                                    std::to_string(w.size()));
    sent_bits t;
    std::vector<int> before(std::size_t(Ncb) + 1, 0); // non-NULL bits before position i
    for (int i = 0; i < Ncb; ++i) {
        before[std::size_t(i) + 1] =
            before[std::size_t(i)] + (w[std::size_t(i)] != null_bit);
        if (w[std::size_t(i)] != null_bit)
            t.sent.push_back(w[std::size_t(i)]);
    }
    if (t.sent.empty())
        throw std::invalid_argument("rate matching: the first N_cb bits of the circular "
                                    "buffer are all NULL");
    for (int rv = 0; rv < 4; ++rv)
        t.start[std::size_t(rv)] =
            before[std::size_t(start_position(K, Ncb, rv) % Ncb)] % int(t.sent.size());
    d_table_bytes += sizeof(t) + t.sent.capacity() * sizeof(std::int32_t);
    return d_tables.emplace(key, std::move(t)).first->second;
}

harq_book::harq_book(int most_processes) : d_most(std::size_t(most_processes))
{
    check_transport_value("max_harq_processes", most_processes);
}

const transport_plan& harq_book::check(const transport_block& t, plan_cache& cache) const
{
    const transport_plan& p = cache.plan(t.format);
    if (!t.f32 == !t.i8)
        throw std::invalid_argument("give exactly one of float or int8 LLRs");
    if (t.harq_process < no_harq)
        throw std::invalid_argument("harq_process=" + std::to_string(t.harq_process) +
                                    " is out of range: use 0 or more, or -1 (none)");
    const auto it = d_processes.find(t.harq_process);
    if (t.harq_process != no_harq && !t.new_data && it != d_processes.end() &&
        it->second.tbs != t.format.tbs)
        throw std::invalid_argument(
            "a retransmission of tbs=" + std::to_string(t.format.tbs) +
            " into HARQ process " + std::to_string(t.harq_process) +
            ", whose buffer holds tbs=" + std::to_string(it->second.tbs) +
            ": set new_data for a new transport block");
    return p;
}

batch_plan
harq_book::plan(const transport_block* blocks, std::size_t n, plan_cache& cache) const
{
    if (n > 0 && !blocks)
        throw std::invalid_argument("decode: null transport blocks");
    batch_plan b;
    b.blocks.reserve(n);
    b.fresh.reserve(n);
    std::set<int> seen;
    std::size_t starting = 0; // processes without a buffer yet
    for (std::size_t i = 0; i < n; ++i) {
        const transport_block& t = blocks[i];
        try {
            b.blocks.push_back(&check(t, cache));
            if (t.harq_process != no_harq && !seen.insert(t.harq_process).second)
                throw std::invalid_argument(
                    "HARQ process " + std::to_string(t.harq_process) +
                    " appears twice in one call: combine its transmissions over calls");
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("transport block " + std::to_string(i) + ": " +
                                        e.what());
        }
        const bool held = d_processes.count(t.harq_process) != 0;
        b.fresh.push_back(t.harq_process == no_harq || t.new_data || !held);
        starting += t.harq_process != no_harq && !held;
    }
    if (seen.size() > d_most)
        throw std::invalid_argument("decode: " + std::to_string(seen.size()) +
                                    " HARQ processes in one call, more than "
                                    "max_harq_processes=" +
                                    std::to_string(d_most));
    // Room for the new processes: the least recently used of the others go.
    for (auto it = d_by_use.begin();
         it != d_by_use.end() &&
         d_processes.size() + starting - b.dropped.size() > d_most;
         ++it)
        if (!seen.count(it->second))
            b.dropped.push_back(it->second);
    return b;
}

batch_plan harq_book::begin_call(const transport_block* blocks,
                                 std::size_t n,
                                 const std::uint8_t* data,
                                 plan_cache& cache)
{
    batch_plan b = plan(blocks, n, cache);
    if (n > 0 && !data)
        throw std::invalid_argument("decode: null output buffer");
    commit(blocks, b);
    return b;
}

void harq_book::commit(const transport_block* blocks, const batch_plan& b)
{
    drop(b.dropped);
    for (std::size_t i = 0; i < b.blocks.size(); ++i) {
        const transport_block& t = blocks[i];
        if (t.harq_process != no_harq)
            use(t.harq_process, t.format.tbs); // a retransmission's is its buffer's
    }
}

std::vector<int> harq_book::set(int process, int tbs)
{
    std::vector<int> room;
    if (!d_processes.count(process) && d_processes.size() >= d_most)
        room.push_back(d_by_use.begin()->second);
    drop(room);
    use(process, tbs);
    return room;
}

void harq_book::release(int process)
{
    const auto it = d_processes.find(process);
    if (it == d_processes.end())
        return;
    d_by_use.erase({ it->second.used, process });
    d_processes.erase(it);
}

void harq_book::use(int process, int tbs)
{
    release(process);
    d_processes[process] = { tbs, ++d_clock };
    d_by_use.insert({ d_clock, process });
}

void harq_book::drop(const std::vector<int>& processes)
{
    for (const int p : processes)
        release(p);
    d_dropped = processes;
    d_dropped_count += processes.size();
}

int harq_book::tbs(int process) const
{
    const auto it = d_processes.find(process);
    if (it == d_processes.end())
        throw std::invalid_argument("HARQ process " + std::to_string(process) +
                                    " has no soft buffer");
    return it->second.tbs;
}

std::vector<std::size_t> filler_positions(const transport_plan& p)
{
    std::vector<std::size_t> at;
    for (int k = 0; k < p.blocks.front().filler; ++k)
        for (int s = 0; s < 2; ++s)
            at.push_back(3 * std::size_t(k) + std::size_t(s));
    return at;
}

turbo::stop_rule block_stop_rule(const transport_config& c, int C)
{
    if (!c.early_stop)
        return turbo::stop_rule::off;
    return C > 1 ? turbo::stop_rule::crc24b : turbo::stop_rule::crc24a;
}

turbo::decoder_config block_decoder_config(const transport_config& c,
                                           turbo::stop_rule rule)
{
    turbo::decoder_config t = c.turbo;
    t.early_stop = rule;
    t.invert_llr = false;
    return t;
}

void check_soft_buffer(int process, int tbs, std::size_t values)
{
    if (process < 0)
        throw std::invalid_argument("set_soft_buffer: HARQ process " +
                                    std::to_string(process) + ": use 0 or more");
    if (values != soft_buffer_length(tbs))
        throw std::invalid_argument("set_soft_buffer: " + std::to_string(values) +
                                    " values for tbs=" + std::to_string(tbs) +
                                    ", whose code blocks take " +
                                    std::to_string(soft_buffer_length(tbs)));
}

transport_decoder::transport_decoder(const transport_config& config) : d_config(config)
{
    d_config.turbo.K = 0;
    d_config.turbo.early_stop = turbo::stop_rule::off;
    d_config.turbo.input_layout = turbo::layout::interleaved;
    d_config.turbo.validate();
}

transport_decoder::~transport_decoder() = default;

std::unique_ptr<transport_decoder> make_transport_decoder(const transport_config& config,
                                                          std::string_view backend)
{
    config.turbo.validate();
    const core::backend kind = core::choose_backend(backend, config.turbo.devices);
#ifdef GPUTURBO_HAVE_CUDA
    if (kind == core::backend::cuda)
        return cuda::make_cuda_transport_decoder(config);
#endif
    return make_host_transport_decoder(config, kind);
}

} // namespace gputurbo::lte
