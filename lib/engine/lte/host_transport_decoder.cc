/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transport-block receiver on the CPU: the exact reference of the CUDA one (the same
// soft buffers, value for value), with the CPU backends' turbo decoders.

#include "decision_check.h"
#include "transport_plan.h"

#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/lte/crc.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace gputurbo::lte {
namespace {

std::int8_t saturating_add(std::int8_t a, std::int8_t b)
{
    const int s = int(a) + int(b);
    return std::int8_t(s > 127 ? 127 : (s < -127 ? -127 : s));
}

class host_transport_decoder final : public transport_decoder
{
public:
    host_transport_decoder(const transport_config& config, core::backend kind)
        : transport_decoder(config),
          d_kind(kind),
          d_odds(make_contradiction_odds(config.turbo.int8_scale))
    {
        decoder(turbo::stop_rule::off); // a bad turbo config fails here, not at first use
    }

    // The phases of the CUDA receiver's, on the host: plan, combine, decode,
    // concatenate.
    void decode(const transport_block* blocks,
                std::size_t n,
                std::uint8_t* data,
                transport_result* results) override
    {
        const batch_plan plan = plan_call(blocks, n, data);
        std::vector<std::vector<std::int8_t>> scratch(n); // buffers without HARQ
        const auto buffers = combine_all(blocks, plan, scratch);
        decode_code_blocks(plan, buffers);
        concatenate(blocks, plan, data, results);
    }

    void check(const transport_block& block) override
    {
        d_cache.trim();
        d_book.check(block, d_cache);
    }

    void release(int process) override
    {
        d_book.release(process);
        d_buffers.erase(process);
    }

    std::size_t harq_processes() const override { return d_book.size(); }
    std::vector<int> dropped_processes() const override { return d_book.dropped(); }
    std::uint64_t dropped_count() const override { return d_book.dropped_count(); }

    std::vector<std::int8_t> soft_buffer(int process) const override
    {
        d_book.tbs(process); // a clear error when it has none
        return d_buffers.at(process);
    }

    void
    set_soft_buffer(int process, int tbs, const std::vector<std::int8_t>& values) override
    {
        check_soft_buffer(process, tbs, values.size());
        d_buffers[process] = values;
        for (const int dropped : d_book.set(process, tbs))
            d_buffers.erase(dropped);
    }

    core::backend kind() const override { return d_kind; }
    std::string device() const override
    {
        return const_cast<host_transport_decoder*>(this)
            ->decoder(turbo::stop_rule::off)
            .device();
    }

private:
    // The call checked and booked before any work: its plans, the HARQ processes it
    // uses, the buffers it drops.
    batch_plan plan_call(const transport_block* blocks, std::size_t n, std::uint8_t* data)
    {
        d_cache.trim(); // before this call takes any plan
        batch_plan plan = d_book.begin_call(blocks, n, data, d_cache);
        for (const int process : plan.dropped)
            d_buffers.erase(process);
        return plan;
    }

    // Each transmission combined into its buffer (\p scratch's without HARQ).
    std::vector<std::vector<std::int8_t>*>
    combine_all(const transport_block* blocks,
                const batch_plan& plan,
                std::vector<std::vector<std::int8_t>>& scratch)
    {
        const std::size_t n = plan.blocks.size();
        std::vector<std::vector<std::int8_t>*> buffers(n);
        for (std::size_t i = 0; i < n; ++i) {
            const transport_block& t = blocks[i];
            const transport_plan& p = *plan.blocks[i];
            std::vector<std::int8_t>& buffer =
                t.harq_process == no_harq ? scratch[i] : d_buffers[t.harq_process];
            if (plan.fresh[i])
                start(buffer, p);
            combine(t, p, buffer);
            buffers[i] = &buffer;
        }
        return buffers;
    }

    // Code blocks back into transport blocks, their CRCs checked.
    void concatenate(const transport_block* blocks,
                     const batch_plan& plan,
                     std::uint8_t* data,
                     transport_result* results)
    {
        const std::size_t n = plan.blocks.size();
        std::uint8_t* out = data;
        for (std::size_t i = 0; i < n; ++i) {
            const transport_plan& p = *plan.blocks[i];
            std::vector<std::uint8_t> b(std::size_t(p.s.B));
            for (int r = 0; r < p.s.C; ++r)
                concatenate_block(p.s, d_bits[i][std::size_t(r)].data(), r, b.data());
            std::copy_n(b.begin(), blocks[i].format.tbs, out);
            out += blocks[i].format.tbs;
            if (results) {
                results[i].crc_ok =
                    check_crc(crc::crc24a, b.data(), b.size()) &&
                    std::all_of(d_status[i].begin(),
                                d_status[i].end(),
                                [](const core::codeword_status& s) { return s.passed; });
                results[i].code_blocks = d_status[i];
            }
        }
    }

    // A fresh buffer: nothing received yet, filler bits known to be 0.
    static void start(std::vector<std::int8_t>& buffer, const transport_plan& p)
    {
        buffer.assign(p.soft_buffer_length, 0);
        for (const std::size_t at : filler_positions(p))
            buffer[at] = 127;
    }

    // Adds the transmission's LLRs, quantised and turned into the engine's sign (the
    // scrambling undone), into the codeword positions they were sent from.
    void combine(const transport_block& t,
                 const transport_plan& p,
                 std::vector<std::int8_t>& buffer)
    {
        const std::size_t G = std::size_t(t.format.G);
        d_q.resize(G);
        if (t.f32)
            core::quantize_llrs(t.f32, G, d_q.data(), d_config.turbo.int8_scale);
        else // -128 read as -127: every value has a negative
            std::transform(t.i8, t.i8 + G, d_q.begin(), [](std::int8_t q) {
                return std::int8_t(std::max<int>(q, -127));
            });
        d_c.assign(G, 0);
        if (t.format.c_init != no_scrambling)
            scrambling_sequence(t.format.c_init, G, d_c.data());
        const bool invert = d_config.turbo.invert_llr;
        for (std::size_t k = 0; k < G; ++k)
            if (bool(d_c[k]) != invert)
                d_q[k] = std::int8_t(-d_q[k]);
        for (const code_block_plan& cb : p.blocks) {
            const auto& sent = cb.table->sent;
            std::int8_t* codeword = buffer.data() + cb.codeword_first;
            for (int j = 0; j < cb.E; ++j) {
                const std::size_t at = std::size_t(
                    sent[(std::size_t(cb.start) + std::size_t(j)) % sent.size()]);
                codeword[at] =
                    saturating_add(codeword[at], d_q[cb.llr_first + std::size_t(j)]);
            }
        }
    }

    // The code blocks of every transport block, in batches of one size and one CRC:
    // into d_bits and d_status.
    void decode_code_blocks(const batch_plan& plan,
                            const std::vector<std::vector<std::int8_t>*>& buffers)
    {
        const std::size_t n = plan.blocks.size();
        d_bits.assign(n, {});
        d_status.assign(n, {});
        std::map<std::pair<int, turbo::stop_rule>,
                 std::vector<std::pair<std::size_t, int>>>
            groups; // (K, rule) -> (transport block, code block)
        for (std::size_t i = 0; i < n; ++i) {
            const transport_plan& p = *plan.blocks[i];
            d_bits[i].resize(std::size_t(p.s.C));
            d_status[i].resize(std::size_t(p.s.C));
            for (int r = 0; r < p.s.C; ++r)
                groups[{ p.blocks[std::size_t(r)].K, block_stop_rule(d_config, p.s.C) }]
                    .emplace_back(i, r);
        }
        for (const auto& [key, members] : groups) {
            const int K = key.first;
            const std::size_t len = turbo::codeword_length(K);
            std::vector<std::int8_t> llrs(members.size() * len);
            for (std::size_t m = 0; m < members.size(); ++m) {
                const auto [i, r] = members[m];
                std::copy_n(buffers[i]->data() +
                                plan.blocks[i]->blocks[std::size_t(r)].codeword_first,
                            len,
                            llrs.begin() + std::ptrdiff_t(m * len));
            }
            std::vector<std::uint8_t> bits(members.size() * std::size_t(K));
            std::vector<core::codeword_status> status(members.size());
            decoder(key.second)
                .decode(K, llrs.data(), members.size(), bits.data(), status.data());
            for (std::size_t m = 0; m < members.size(); ++m) {
                const auto [i, r] = members[m];
                const auto first = bits.begin() + std::ptrdiff_t(m * std::size_t(K));
                // A block whose CRC checks passes only if its values agree with it.
                status[m].passed =
                    status[m].passed &&
                    consistent(agreement_of(K,
                                            plan.blocks[i]->blocks[std::size_t(r)].filler,
                                            llrs.data() + m * len,
                                            &*first,
                                            d_odds));
                d_bits[i][std::size_t(r)].assign(first, first + K);
                d_status[i][std::size_t(r)] = status[m];
            }
        }
    }

    turbo::decoder& decoder(turbo::stop_rule rule)
    {
        auto& d = d_decoders[rule];
        if (!d) {
            d = turbo::make_decoder(block_decoder_config(d_config, rule),
                                    core::to_string(d_kind));
        }
        return *d;
    }

    const core::backend d_kind;
    const contradiction_odds d_odds;
    harq_book d_book{ d_config.max_harq_processes };
    plan_cache d_cache{ [this](int K) {
        decoder(turbo::stop_rule::off).check_block(K);
    } };
    std::map<int, std::vector<std::int8_t>> d_buffers;
    std::map<turbo::stop_rule, std::unique_ptr<turbo::decoder>> d_decoders;
    std::vector<std::int8_t> d_q;
    std::vector<std::uint8_t> d_c;
    std::vector<std::vector<std::vector<std::uint8_t>>> d_bits; // [tb][block][K]
    std::vector<std::vector<core::codeword_status>> d_status;   // [tb][block]
};

} // namespace

std::unique_ptr<transport_decoder>
make_host_transport_decoder(const transport_config& config, core::backend kind)
{
    return std::make_unique<host_transport_decoder>(config, kind);
}

} // namespace gputurbo::lte
