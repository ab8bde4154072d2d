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
#include <map>
#include <tuple>
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
 * the GPU spends on it.
 */
class plan_cache
{
public:
    //! The rate-matching table of (K, filler, N_cb).
    const sent_bits& sent(int K, int filler, int Ncb);
    //! The plan of a format (checked: std::invalid_argument naming the field).
    const transport_plan& plan(const transport_format& f);
    //! Forgets the plans when there are many (a receiver whose allocations vary meets
    //! G after G); call it only while no plan is in use.
    void trim();

private:
    std::map<std::tuple<int, int, int>, sent_bits> d_tables;
    std::map<std::tuple<int, int, int, int, int, long>, transport_plan> d_plans;
};

//! Each transport block's plan, checked; and whether its soft buffer starts afresh.
struct batch_plan
{
    std::vector<const transport_plan*> blocks; // in the cache
    std::vector<bool> fresh;
};

/*!
 * The HARQ bookkeeping every backend shares: which process holds a buffer of which
 * tbs. plan() checks a whole call (formats, LLR pointers, one appearance per process,
 * retransmissions of the right tbs) before anything changes; then the backend updates
 * its buffers and calls started() for the fresh ones.
 */
class harq_book
{
public:
    batch_plan
    plan(const transport_block* blocks, std::size_t n, plan_cache& cache) const;
    void started(int process, int tbs) { d_tbs[process] = tbs; }
    void release(int process) { d_tbs.erase(process); }
    std::size_t size() const { return d_tbs.size(); }
    //! The tbs of a process's buffer; std::invalid_argument when it has none.
    int tbs(int process) const;

private:
    std::map<int, int> d_tbs;
};

//! The codeword positions of the filler bits of a soft buffer (known zeros): d0 and d1
//! of block 0's first F bits.
std::vector<std::size_t> filler_positions(const transport_plan& p);

/*!
 * Whether a transport block's soft values (its codewords, soft-buffer layout) support
 * the all-zero codeword more than chance would. A turbo decoder can settle on that
 * codeword from values that carry little of it (a transmission of parity bits alone),
 * and it passes every CRC; so a transport block decoded to all zeros counts as received
 * only when sum(v) > 5.5 sqrt(sum(v^2)) over the values the channel gave (filler bits
 * left out). Random signs pass about one time in 5 10^7, as rarely as a CRC-24 misses
 * a random error; sent zeros pass far above the threshold (a transport block that
 * decodes has thousands of values whose mean is a good part of their spread).
 */
bool supports_zero_codeword(const transport_plan& p, const std::int8_t* values);

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
