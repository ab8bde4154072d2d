/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "node_sync.h"

#include <gnuradio/gputurbo/engine/core/llr.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace gputurbo::conv {
namespace {

// Hypotheses side by side: a vector of floats, kept in float arrays.
constexpr int columns = 8;
typedef float column __attribute__((vector_size(columns * sizeof(float))));

// (By reference: a vector returned by value would take another ABI with AVX.)
inline void load(column& v, const float* p) { std::memcpy(&v, p, sizeof v); }

struct float_tables
{
    int states, outputs;
    std::vector<std::uint8_t> pattern; // [s * 2 + b]: the coded bits of p_b -> s
};

float_tables tables_of(const code& c)
{
    float_tables t{ c.states(), c.outputs(), {} };
    const int K = c.constraint;
    for (int s = 0; s < t.states; ++s)
        for (int b = 0; b < 2; ++b) {
            // As float_trellis: p_b = ((s << 1) & (S-1)) | b, the input bit s >> (K-2).
            const unsigned p = unsigned(((s << 1) & (t.states - 1)) | b);
            t.pattern.push_back(
                std::uint8_t(c.coded_bits((unsigned(s >> (K - 2)) << (K - 1)) | p)));
        }
    return t;
}

// The growth of the best metric over \p steps steps of \p llrs ([step][output][column]),
// from every state alike, per column, added to \p growth.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void grow(const float_tables& t, const float* llrs, std::int64_t steps, double* growth)
{
    const int S = t.states, n = t.outputs;
    column metric[256] = {}, next[256]; // K <= 9
    column branch[16];
    for (std::int64_t k = 0; k < steps; ++k) {
        const float* l = llrs + k * n * columns;
        for (int c = 0; c < (1 << n); ++c) {
            column m = {}, v;
            for (int o = 0; o < n; ++o) {
                load(v, l + o * columns);
                m += (c >> o & 1) ? -v : v;
            }
            branch[c] = m;
        }
        for (int s = 0; s < S; ++s) {
            const int p = (s << 1) & (S - 1);
            const column a = metric[p] + branch[t.pattern[2 * s]];
            const column b = metric[p | 1] + branch[t.pattern[2 * s + 1]];
            next[s] = a < b ? b : a;
        }
        // Metrics stay near 0 (state 0's taken off), so float keeps their differences.
        const column zero = next[0];
        for (int s = 0; s < S; ++s)
            metric[s] = next[s] - zero;
        for (int j = 0; j < columns; ++j)
            growth[j] += zero[j];
    }
    for (int j = 0; j < columns; ++j) {
        float best = metric[0][j];
        for (int s = 1; s < S; ++s)
            best = std::max(best, metric[s][j]);
        growth[j] += best;
    }
}

} // namespace

bool transparent(const code& c)
{
    return std::all_of(c.polynomials.begin(), c.polynomials.end(), [](unsigned g) {
        return __builtin_parity(g) == 1;
    });
}

std::vector<double> sync_metrics(const viterbi_config& config,
                                 const std::vector<std::int32_t>& period_index,
                                 const float* llrs,
                                 std::int64_t steps,
                                 const std::vector<sync_hypothesis>& hypotheses)
{
    const code& c = config.generator;
    const int n = c.outputs();
    const std::int64_t period = config.punctured.period();
    const std::size_t span = std::size_t(n) * period;
    const std::size_t kept = config.punctured.kept_per_period(n);
    const float_tables t = tables_of(c);
    // Columns a vector has to spare take parts of the window (whole periods), each run
    // from every state alike: a few hypotheses cost a fraction of the window's steps.
    const std::size_t count = hypotheses.size();
    std::int64_t parts = 1;
    while (std::size_t(2 * parts) * std::min<std::size_t>(count, columns) <= columns &&
           steps / period % (2 * parts) == 0)
        parts *= 2;
    const std::int64_t part_steps = steps / parts;
    const std::size_t per_call = columns / std::size_t(parts); // hypotheses a call
    std::vector<double> magnitude(count), growth(count);
    std::vector<float> columned(std::size_t(part_steps) * n * columns);
    for (std::size_t first = 0; first < count; first += per_call) {
        std::fill(columned.begin(), columned.end(), 0.0f);
        for (std::size_t col = 0; col < columns; ++col) {
            const std::size_t j = first + col / parts;
            if (j >= count)
                break;
            const sync_hypothesis& h = hypotheses[j];
            const float sign = h.inverted ? -1.0f : 1.0f;
            const std::size_t from = std::size_t(col % parts * part_steps) * n;
            for (std::size_t i = 0; i < std::size_t(part_steps) * n; ++i) {
                // The LLR of coded bit `bit` of a stream whose steps start at offset.
                const std::size_t bit = from + i;
                const std::int32_t r = period_index.empty() ? std::int32_t(bit % span)
                                                            : period_index[bit % span];
                if (r < 0)
                    continue; // punctured: an erasure
                const float v = sign * llrs[h.offset + bit / span * kept + r];
                columned[i * columns + col] = v;
                magnitude[j] += std::fabs(v);
            }
        }
        double grown[columns] = {};
        grow(t, columned.data(), part_steps, grown);
        for (std::size_t col = 0; col < columns && first + col / parts < count; ++col)
            growth[first + col / parts] += grown[col];
    }
    std::vector<double> out(count);
    for (std::size_t j = 0; j < count; ++j)
        out[j] = magnitude[j] > 0.0 ? growth[j] / magnitude[j] : 0.0;
    return out;
}

// ---------------------------------------------------------------------------------------
// node_sync_decoder

node_sync_decoder::node_sync_decoder(const viterbi_config& config,
                                     const std::string& backend)
    : stream_decoder(config),
      d_backend(backend),
      d_period(config.punctured.period()),
      d_kept(std::size_t(config.punctured.kept_per_period(config.generator.outputs())))
{
    for (int offset = 0; offset < int(d_kept); ++offset)
        for (const bool inverted : { false, true })
            if (!inverted || !transparent(config.generator))
                d_hypotheses.push_back({ offset, inverted });
    make_inner(false);
}

void node_sync_decoder::make_inner(bool inverted)
{
    viterbi_config inner = d_config;
    inner.node_sync = false;
    inner.invert_llr = d_config.invert_llr != inverted;
    d_inner = make_stream_decoder(inner, d_backend);
    d_inner->set_start_known(false);
    d_inner->reset(); // a stream from any state
    d_inverted = inverted;
    if (soft_output())
        d_inner->set_soft_output(true);
}

stream_decoder::decided node_sync_decoder::inner_out(decided out)
{
    // Soft output is set between streams, where the inner decoder is between streams too.
    if (d_inner->soft_output() != soft_output())
        d_inner->set_soft_output(soft_output());
    return out;
}

std::size_t node_sync_decoder::in_outer_sign(std::size_t n, float* soft) const
{
    // The inner decoder's LLRs are in its own sign, the other one where it is inverted.
    if (soft && d_inverted)
        for (std::size_t i = 0; i < n; ++i)
            soft[i] = -soft[i];
    return n;
}

std::uint64_t node_sync_decoder::preferred_steps() const
{
    return d_inner->preferred_llrs() / d_kept * std::uint64_t(d_period);
}

std::uint64_t node_sync_decoder::pending_bits() const
{
    // The inner stream's steps from its first LLR on (all of them before acquisition).
    const std::uint64_t total = received_llrs();
    return d_start_bit + whole_steps(total - std::min(d_start, total)) - written_bits();
}

std::uint64_t node_sync_decoder::partial_llrs() const
{
    // What the inner stream will have been given, from its first LLR on; where no
    // window has come yet, from the phase flush() will find.
    const std::uint64_t total = received_llrs();
    const std::uint64_t start =
        d_acquired || total == 0 ? d_start : d_hypotheses[weigh_short()].offset;
    return partial_of(total - std::min(start, total));
}

std::size_t node_sync_decoder::weigh_short() const
{
    // A stream shorter than a window: the hypotheses over what came (every one of them
    // held, from LLR 0).
    const std::uint64_t total = received_llrs();
    const std::uint64_t whole = total > d_kept ? (total - d_kept) / d_kept : 0;
    return weigh(
        span{ d_held.data(), nullptr, total },
        std::min<std::int64_t>(std::int64_t(whole) * d_period, node_sync_window));
}

std::vector<sync_change> node_sync_decoder::take_sync_changes()
{
    return std::exchange(d_changes, {});
}

std::size_t node_sync_decoder::feed(const span& s, std::uint64_t to, decided out)
{
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    std::size_t written = 0;
    d_inner->set_batches_in_flight(batches_in_flight());
    while (d_fed < to) {
        const bool held = d_fed < s.fresh_from;
        const std::uint64_t end = held ? std::min(to, s.fresh_from) : to;
        const std::uint8_t* llrs = held ? s.held + (d_fed - d_held_start) * size
                                        : s.fresh + (d_fed - s.fresh_from) * size;
        const std::size_t count = std::size_t(end - d_fed);
        const decided at = inner_out(out.at(written));
        written += in_outer_sign(
            int8_stream()
                ? d_inner->decode(
                      reinterpret_cast<const std::int8_t*>(llrs), count, at.bits, at.soft)
                : d_inner->decode(
                      reinterpret_cast<const float*>(llrs), count, at.bits, at.soft),
            at.soft);
        d_fed = end;
    }
    return written;
}

std::size_t node_sync_decoder::weigh(const span& s, std::int64_t steps) const
{
    // The window's LLRs, sanitised as the decoders read them (int8: q / int8_scale);
    // none for a stream too short to tell (hypothesis 0).
    const std::size_t count =
        steps > 0 ? std::size_t(steps / d_period) * d_kept + d_kept : 0;
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    const float unit = 1.0f / d_config.int8_scale;
    d_window.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t at = d_check + i;
        const std::uint8_t* p = at < s.fresh_from ? s.held + (at - d_held_start) * size
                                                  : s.fresh + (at - s.fresh_from) * size;
        float v;
        if (int8_stream())
            v = float(*reinterpret_cast<const std::int8_t*>(p)) * unit;
        else
            std::memcpy(&v, p, sizeof v);
        d_window[i] = core::sanitize_llr(v, d_config.invert_llr);
    }
    const std::vector<double> growth =
        steps > 0
            ? sync_metrics(d_config, period_index(), d_window.data(), steps, d_hypotheses)
            : std::vector<double>(d_hypotheses.size());
    const std::size_t best =
        std::size_t(std::max_element(growth.begin(), growth.end()) - growth.begin());
    if (!d_acquired ||
        (best != d_current && growth[best] > growth[d_current] + node_sync_margin))
        return best;
    return keep;
}

std::size_t node_sync_decoder::change(std::size_t to, decided out)
{
    // The stream so far ends at the check (its LLRs all given); another starts at the
    // new phase's first LLR.
    const decided at = inner_out(out);
    const std::size_t written =
        d_acquired ? in_outer_sign(d_inner->flush(at.bits, at.soft), at.soft) : 0;
    const sync_hypothesis& h = d_hypotheses[to];
    if (h.inverted != d_inverted)
        make_inner(h.inverted);
    d_acquired = true;
    d_current = to;
    d_start = d_fed = d_check + std::uint64_t(h.offset);
    d_start_bit = d_first_bit + written;
    d_changes.push_back(sync_change{ d_start_bit, d_start, h.offset, h.inverted });
    return written;
}

std::size_t node_sync_decoder::advance(const sent_llrs& in, decided out)
{
    const span s{ d_held.data(),
                  in.codes ? reinterpret_cast<const std::uint8_t*>(in.codes)
                           : reinterpret_cast<const std::uint8_t*>(in.values),
                  in.sent - in.count };
    const std::uint64_t window =
        std::uint64_t(node_sync_window / d_period) * d_kept + d_kept;
    const std::uint64_t interval = std::uint64_t(node_sync_interval / d_period) * d_kept;
    std::size_t written = 0;
    // The checks whose windows have come; the stream goes to the decoder in one piece
    // up to the next check to come, cut only where the hypothesis changes.
    for (; in.sent >= d_check + window; d_check += interval) {
        const std::size_t to = weigh(s, node_sync_window);
        if (to == keep)
            continue;
        if (d_acquired)
            written += feed(s, d_check, out.at(written));
        d_first_bit = written_bits() + written;
        written += change(to, out.at(written));
    }
    if (d_acquired)
        written += feed(s, std::min(in.sent, d_check), out.at(written));
    hold(s, in.sent);
    return written;
}

void node_sync_decoder::hold(const span& s, std::uint64_t total)
{
    const std::size_t size = int8_stream() ? 1 : sizeof(float);
    const std::uint64_t from = d_fed;
    // The held ones from `from` on to the front, then the fresh ones after them.
    const std::uint64_t held_end = std::max(from, s.fresh_from);
    const std::size_t from_held =
        from < s.fresh_from ? std::size_t(s.fresh_from - from) : 0;
    if (from_held > 0)
        std::memmove(d_held.data(),
                     d_held.data() + (from - d_held_start) * size,
                     from_held * size);
    const std::size_t from_fresh = std::size_t(total - held_end);
    d_held.resize((from_held + from_fresh) * size);
    if (from_fresh > 0)
        std::memcpy(d_held.data() + from_held * size,
                    s.fresh + (held_end - s.fresh_from) * size,
                    from_fresh * size);
    d_held_start = from;
}

std::size_t node_sync_decoder::wait_oldest(decided out)
{
    const decided at = inner_out(out);
    return in_outer_sign(d_inner->wait(at.bits, at.soft), at.soft);
}

std::size_t node_sync_decoder::finish(decided out)
{
    const std::uint64_t total = received_llrs();
    const span s{ d_held.data(), nullptr, total };
    std::size_t written = 0;
    if (!d_acquired && total > 0) {
        d_first_bit = written_bits();
        written += change(weigh_short(), out);
    }
    if (d_acquired)
        written += feed(s, total, out.at(written));
    const decided at = inner_out(out.at(written));
    written += in_outer_sign(d_inner->flush(at.bits, at.soft), at.soft);
    forget();
    return written;
}

void node_sync_decoder::forget()
{
    d_acquired = false;
    d_current = 0;
    d_fed = d_start = d_check = d_start_bit = 0;
    d_held.clear();
    d_held_start = 0;
}

void node_sync_decoder::restart()
{
    d_inner->reset();
    forget();
    d_changes.clear();
}

} // namespace gputurbo::conv
