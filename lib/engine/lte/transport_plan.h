/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_TRANSPORT_PLAN_H
#define INCLUDED_GPUTURBO_LTE_TRANSPORT_PLAN_H

// What every transport-block decoder works out before it touches an LLR: each block's
// segmentation and, per code block, where its LLRs come from and go to; and the HARQ
// bookkeeping (which buffers start afresh, which retransmissions fit their buffer), so
// that a bad call fails before any buffer changes. The backends differ only in where
// the buffers live and who does the arithmetic.

#include <gnuradio/gputurbo/engine/lte/segmentation.h>
#include <gnuradio/gputurbo/engine/lte/transport.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace gputurbo::lte {

/*!
 * The bits a code block's circular buffer sends, NULLs left out: sent[i] is the
 * codeword index of the i-th non-NULL bit of its first N_cb, and start[rv] the index
 * in sent of the first bit of redundancy version rv. Bit j of a transmission (E bits)
 * is codeword bit sent[(start[rv] + j) mod sent.size()].
 */
struct sent_bits
{
    std::vector<std::int32_t> sent;
    std::array<int, 4> start{};
};

//! One code block of a transport block.
struct code_block_plan
{
    int K = 0;
    int filler = 0;                 //!< F in block 0, else 0
    int E = 0;                      //!< bits sent
    std::size_t llr_first = 0;      //!< its first LLR among the block's G
    std::size_t codeword_first = 0; //!< its codeword's first value in the soft buffer
    const sent_bits* table = nullptr;
    int start = 0; //!< table->start[rv]
};

struct transport_plan
{
    segmentation s;
    std::vector<code_block_plan> blocks;
    std::size_t soft_buffer_length = 0; //!< its code blocks' codeword values
};

/*!
 * Plans and rate-matching tables, made on first use: a receiver meets few formats, and
 * working a plan out again for every transport block would cost more host time than
 * the GPU spends on it. What it keeps is bounded (trim()): formats come from the input,
 * and a stream of distinct ones must not grow the memory.
 */
class plan_cache
{
public:
    //! \param check_block called with each code-block size of a new plan: the
    //!        receiver's turbo decoder says there whether it takes it (throwing
    //!        std::invalid_argument); none for a transmitter
    explicit plan_cache(std::function<void(int K)> check_block = {})
        : d_check_block(std::move(check_block))
    {
    }

    //! The rate-matching table of (K, filler, N_cb).
    const sent_bits& sent(int K, int filler, int Ncb);
    //! The plan of a format (checked: std::invalid_argument naming the field, or the
    //! code-block size the receiver's decoder does not take).
    const transport_plan& plan(const transport_format& f);
    //! Forgets the plans when there are many (a receiver whose allocations vary meets
    //! G after G), and the tables too once they hold more than most_table_bytes; true
    //! when the tables went (what a backend keeps per table goes with them). Call it
    //! only while no plan or table is in use.
    bool trim();
    //! Bytes the tables hold, and how many there are.
    std::size_t table_bytes() const { return d_table_bytes; }
    std::size_t tables() const { return d_tables.size(); }

    //! Plans kept between calls.
    static constexpr std::size_t most_plans = 4096;
    //! Table bytes kept between calls: some 900 tables of K = 6144 (72 KiB each), or
    //! many more of smaller blocks.
    static constexpr std::size_t most_table_bytes = std::size_t(64) << 20;

private:
    std::function<void(int)> d_check_block;
    std::map<std::tuple<int, int, int>, sent_bits> d_tables;
    std::map<std::tuple<int, int, int, int, int, long>, transport_plan> d_plans;
    std::size_t d_table_bytes = 0;
};

//! Each transport block's plan, checked; whether its soft buffer starts afresh; and the
//! processes whose buffers go to make room for the call's new ones.
struct batch_plan
{
    std::vector<const transport_plan*> blocks; // in the cache
    std::vector<bool> fresh;
    std::vector<int> dropped; // least recently used first
};

/*!
 * The HARQ bookkeeping every backend shares: which process holds a buffer of which
 * tbs, and which was used least recently. check() and plan() check transport blocks
 * (formats, LLR pointers, one appearance per process, retransmissions of the right tbs,
 * no more processes than the book keeps) before anything changes; then the backend
 * calls commit(), drops the buffers of batch_plan::dropped and updates the others.
 */
class harq_book
{
public:
    //! \param most_processes transport_config::max_harq_processes
    explicit harq_book(int most_processes);

    //! One transport block's checks (transport_decoder::check()): its plan.
    const transport_plan& check(const transport_block& t, plan_cache& cache) const;
    batch_plan
    plan(const transport_block* blocks, std::size_t n, plan_cache& cache) const;
    //! Books a planned call: its processes used now, the fresh ones started with their
    //! tbs, the dropped ones forgotten.
    void commit(const transport_block* blocks, const batch_plan& b);
    //! A decode() call's bookkeeping: plan(), a null \p data with blocks to decode
    //! refused (std::invalid_argument), commit(). The backend then drops the buffers of
    //! batch_plan::dropped.
    batch_plan begin_call(const transport_block* blocks,
                          std::size_t n,
                          const std::uint8_t* data,
                          plan_cache& cache);
    //! Books a process's buffer set whole (set_soft_buffer()); returns the processes
    //! dropped to make room (their buffers are the backend's to free).
    std::vector<int> set(int process, int tbs);
    void release(int process);
    std::size_t size() const { return d_processes.size(); }
    //! The tbs of a process's buffer; std::invalid_argument when it has none.
    int tbs(int process) const;
    //! The processes the last commit() or set() dropped, and how many went in all.
    const std::vector<int>& dropped() const { return d_dropped; }
    std::uint64_t dropped_count() const { return d_dropped_count; }

private:
    struct entry
    {
        int tbs;
        std::uint64_t used; // when last in a call
    };
    void use(int process, int tbs);
    void drop(const std::vector<int>& processes);

    const std::size_t d_most;
    std::map<int, entry> d_processes;
    std::set<std::pair<std::uint64_t, int>> d_by_use; // (used, process), oldest first
    std::uint64_t d_clock = 0;
    std::vector<int> d_dropped;
    std::uint64_t d_dropped_count = 0;
};

//! The codeword positions of the filler bits of a soft buffer (known zeros): d0 and d1
//! of block 0's first F bits.
std::vector<std::size_t> filler_positions(const transport_plan& p);

//! A code block's stop rule: its own CRC (CRC-24B when its transport block has several
//! blocks, else the transport block's CRC-24A), or off without early_stop.
turbo::stop_rule block_stop_rule(const transport_config& c, int C);

//! The turbo decoder's parameters for code blocks of a stop rule: the soft buffers hold
//! the engine's sign.
turbo::decoder_config block_decoder_config(const transport_config& c,
                                           turbo::stop_rule rule);

//! set_soft_buffer()'s checks: a process number, and as many values as tbs's code blocks
//! take (std::invalid_argument).
void check_soft_buffer(int process, int tbs, std::size_t values);

//! The transport-block decoder whose soft buffers live in host memory, with a turbo
//! decoder of backend \p kind.
std::unique_ptr<transport_decoder>
make_host_transport_decoder(const transport_config& config, core::backend kind);

} // namespace gputurbo::lte

#endif
