/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gputurbo/engine/lte/pdcch.h>

#include "control_check.h"
#include "core/names.h"
#include "core/thread_pool.h"
#ifdef GPUTURBO_HAVE_CUDA
#include "cuda/pdcch_search.h"
#endif

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/core/parameters.h>
#include <gnuradio/gputurbo/engine/lte/control.h>
#include <gnuradio/gputurbo/engine/lte/parameters.h>
#include <gnuradio/gputurbo/engine/lte/rate_matching.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace gputurbo::lte {
namespace {

const core::name_table<pdcch_space, 3> space_names = {
    { "common", pdcch_space::common },
    { "ue-specific", pdcch_space::ue_specific },
    { "exhaustive", pdcch_space::exhaustive },
};

const core::name_table<pdcch_search_mode, 2> mode_names = {
    { "ue", pdcch_search_mode::ue },
    { "exhaustive", pdcch_search_mode::exhaustive },
};

std::string out_of_range(const std::string& name, long value, const std::string& range)
{
    return name + "=" + std::to_string(value) + " is out of range: use " + range;
}

// A candidate holds a DCI all over when each of its halves correlates with it at
// least this share of the best detection of the DCI: one around a DCI holds it only
// in part (its other half, noise, zeros or another DCI, correlates about 0).
constexpr float half_share = 0.5f;

// The sum of term(0) … term(n - 1) in 8 partial sums: floating-point sums in one
// order would keep the compiler from vectorising them.
template <class Term>
float sum_in_lanes(int n, Term term)
{
    constexpr int lanes = 8;
    float part[lanes] = {};
    int i = 0;
    for (; i + lanes <= n; i += lanes)
        for (int l = 0; l < lanes; ++l)
            part[l] += term(i + l);
    float total = 0.0f;
    for (; i < n; ++i)
        total += term(i);
    for (const float p : part)
        total += p;
    return total;
}

void sort_unique(std::vector<int>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Pieces of [0, n) of grain items (the last may be shorter).
std::size_t piece_count(std::size_t n, std::size_t grain)
{
    return (n + grain - 1) / grain;
}

/*!
 * Calls body(worker, piece, begin, end) for each piece of [0, n) (piece_count()) on
 * up to \p threads workers of the shared pool, each worker taking the next piece left.
 * What a piece writes to its own place is the same whatever the threads; a call of
 * one piece runs on the calling thread alone.
 */
template <class Body>
void for_each_piece(int threads, std::size_t n, std::size_t grain, const Body& body)
{
    const std::size_t pieces = piece_count(n, grain);
    const int workers = int(std::min<std::size_t>(std::size_t(threads), pieces));
    std::atomic<std::size_t> next{ 0 };
    core::thread_pool::shared().run(workers, [&](int worker) {
        for (std::size_t p; (p = next.fetch_add(1)) < pieces;)
            body(worker, p, p * grain, std::min(n, (p + 1) * grain));
    });
}

// Items of a piece: each worth a wake-up of the pool's threads (tens of microseconds),
// by what one costs (a subframe's plan or merge; a candidate's frame or check).
constexpr std::size_t subframe_grain = 8;
constexpr std::size_t block_grain = 512;
// The fewest subframes of a chunk on a GPU search: kernels of some 250,000 blocks.
constexpr std::size_t least_device_chunk = 512;

} // namespace

const char* to_string(pdcch_space s) { return core::name_of(s, space_names); }
const char* to_string(pdcch_search_mode m) { return core::name_of(m, mode_names); }

long pdcch_c_init(int subframe, int cell_id)
{
    if (subframe < 0 || subframe > 9)
        throw std::invalid_argument(out_of_range("subframe", subframe, "0 ... 9"));
    if (cell_id < 0 || cell_id > max_cell_id)
        throw std::invalid_argument(
            out_of_range("cell_id", cell_id, "0 ... " + std::to_string(max_cell_id)));
    return long(subframe) * 512 + cell_id;
}

void descramble_pdcch(int subframe, int cell_id, float* llrs, std::size_t n)
{
    std::vector<std::uint8_t> c(n);
    scrambling_sequence(pdcch_c_init(subframe, cell_id), n, c.data());
    for (std::size_t i = 0; i < n; ++i)
        if (c[i])
            llrs[i] = -llrs[i];
}

std::vector<int> default_dci_sizes(const dci_config& cell)
{
    std::vector<dci_format> formats = { dci_format::f1a,
                                        dci_format::f1c,
                                        dci_format::f1 };
    if (cell.antenna_ports != 1)
        formats.push_back(dci_format::f2a);
    std::vector<int> sizes;
    for (const dci_format f : formats) {
        const int A = dci_size(f, cell);
        if (std::find(sizes.begin(), sizes.end(), A) == sizes.end())
            sizes.push_back(A);
    }
    return sizes;
}

namespace {

// The checks of one subframe's arguments, each message naming the subframe.
class subframe_checker
{
public:
    explicit subframe_checker(std::size_t index) : d_index(index) {}

    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::invalid_argument("subframe " + std::to_string(d_index) + ": " + what);
    }

    //! f()'s result, its std::invalid_argument named after the subframe.
    template <class F>
    auto named(F f) const
    {
        try {
            return f();
        } catch (const std::invalid_argument& e) {
            fail(e.what());
        }
    }

private:
    std::size_t d_index;
};

#ifdef GPUTURBO_HAVE_CUDA
//! \p first + \p count as a 32-bit offset of the GPU's tables, or an error that says
//! what to do.
std::uint32_t offset_after(std::uint32_t first, std::size_t count)
{
    if (count > std::numeric_limits<std::uint32_t>::max() - first)
        throw std::invalid_argument("pdcch search: more than 2^32 - 1 candidates or "
                                    "RNTIs in a call: search fewer subframes a call");
    return first + std::uint32_t(count);
}
#endif

void check_options(const pdcch_search_options& options)
{
    if (options.mode != pdcch_search_mode::ue &&
        options.mode != pdcch_search_mode::exhaustive)
        throw std::invalid_argument(
            out_of_range("mode", long(options.mode), "ue or exhaustive"));
    if (!(options.min_correlation >= -1.0 && options.min_correlation <= 1.0))
        throw std::invalid_argument(
            "min_correlation=" + std::to_string(options.min_correlation) +
            " is out of range: use -1 ... 1");
    core::check(control_parameter("max_false_alarm"), options.max_false_alarm);
    if (options.threads < 0)
        throw std::invalid_argument(
            out_of_range("threads", options.threads, "0 (one per core) or more"));
}

/*!
 * Whether each half of the candidate of detection \p d carries its DCI: the
 * correlation of the half's LLRs with the DCI's bits sent there (control_encode()) is
 * positive and at least \p least. A candidate of one CCE has no halves: it does.
 */
bool both_halves_carry(const pdcch_detection& d, const float* llrs, float least)
{
    const int E = cce_llrs * d.candidate.level, half = E / 2;
    if (d.candidate.level == 1)
        return true;
    std::vector<std::uint8_t> e(static_cast<std::size_t>(E));
    control_encode(d.size, d.payload.data(), d.rnti, E, e.data());
    llrs += std::size_t(cce_llrs) * std::size_t(d.candidate.first_cce);
    for (const int from : { 0, half }) {
        float agreement = 0.0f, magnitude = 0.0f;
        for (int k = from; k < from + half; ++k) {
            const float L = core::sanitize_llr(llrs[k], false);
            agreement += e[std::size_t(k)] ? L : -L;
            magnitude += std::fabs(L);
        }
        if (!(agreement > 0.0f && agreement >= least * magnitude))
            return false;
    }
    return true;
}

/*!
 * One DCI found at overlapping candidates (the same subframe, RNTI, size and payload)
 * is reported once: at the highest level of them whose halves both carry it (the
 * lower ones within it send its first bits; the higher ones around it hold it in part),
 * or, where none does, the one of the best correlation. Ordered as search() says.
 */
std::vector<pdcch_detection> merge_duplicates(std::vector<pdcch_detection> found,
                                              const pdcch_subframe* subframes)
{
    // Each DCI's detections one after another, the outermost of nested candidates
    // first (CCE-aligned candidates are nested or apart).
    auto dci = [](const pdcch_detection& d) {
        return std::make_tuple(d.subframe, d.rnti, d.size, std::cref(d.payload));
    };
    auto place = [](const pdcch_detection& d) {
        return std::make_tuple(d.candidate.first_cce, -d.candidate.level);
    };
    std::sort(found.begin(),
              found.end(),
              [&](const pdcch_detection& a, const pdcch_detection& b) {
                  return std::tuple_cat(dci(a), place(a)) <
                         std::tuple_cat(dci(b), place(b));
              });
    std::vector<pdcch_detection> out;
    for (std::size_t i = 0; i < found.size();) {
        // found[i … j): one DCI's detections on CCEs that overlap in a chain.
        int end = found[i].candidate.first_cce + found[i].candidate.level;
        std::size_t j = i + 1, best = i;
        for (; j < found.size() && dci(found[j]) == dci(found[i]) &&
               found[j].candidate.first_cce < end;
             ++j) {
            end = std::max(end, found[j].candidate.first_cce + found[j].candidate.level);
            if (found[j].correlation > found[best].correlation)
                best = j;
        }
        std::size_t keep = best;
        if (j - i > 1) {
            const float least = half_share * found[best].correlation;
            std::size_t highest = j;
            for (std::size_t k = i; k < j; ++k)
                if ((highest == j ||
                     found[k].candidate.level > found[highest].candidate.level) &&
                    both_halves_carry(found[k], subframes[found[k].subframe].llrs, least))
                    highest = k;
            if (highest != j)
                keep = highest;
        }
        out.push_back(std::move(found[keep]));
        i = j;
    }
    std::sort(
        out.begin(), out.end(), [](const pdcch_detection& a, const pdcch_detection& b) {
            return std::tie(
                       a.subframe, a.candidate.first_cce, a.candidate.level, a.size) <
                   std::tie(b.subframe, b.candidate.first_cce, b.candidate.level, b.size);
        });
    return out;
}

} // namespace

/*
 * A search's work, its buffers kept from call to call:
 * - each subframe's plan: its distinct candidates (the union of its spaces), which are
 *   the common space's, the (candidate, RNTI) pairs of the UE-specific spaces, and
 *   those whose LLRs carry information (the others are not decoded);
 * - each size's batch: every subframe's live candidates of that size, de-rate-matched
 *   into the decoder's frames as int8 (quantize_control_frame(): the frame's own scale,
 *   a quarter of float's bytes to write and copy), decoded in one call.
 * The subframes' plans, the frames and the checks of the decoded frames are shared over
 * the threads in pieces; each piece writes its own place, so the result is the same
 * with any threads. With a CUDA decoder on one GPU the frames are made, decoded and
 * checked there instead (search_on_device()); the batches only name the sizes.
 */
struct pdcch_searcher::workspace
{
    struct plan
    {
        int n_cce = 0;
        std::vector<pdcch_candidate> candidates;
        std::vector<std::uint8_t> common; // per candidate
        std::vector<float> magnitudes;    // per candidate: sum |L|
        //! per candidate: the level whose false-alarm floor it takes (floor_level())
        std::vector<std::uint8_t> floor_levels;
        std::vector<std::uint32_t> live;              // candidates not erased
        std::vector<std::pair<int, int>> ue_specific; // (candidate, RNTI), sorted
        std::vector<int> rntis;                       // sorted, each once
        std::vector<int> sizes;                       // sorted, each once
    };

    //! A candidate of a subframe, decoded for one size.
    struct block
    {
        std::uint32_t subframe;
        std::uint32_t candidate;
    };

    //! One size's blocks and the decoder's answer.
    struct size_batch
    {
        int A = 0;
        std::vector<block> blocks;
        std::vector<std::int8_t> frames; // 3 (A + 16) a block, the decoder's input order
        std::vector<std::uint8_t> bits;  // A + 16 a block
        std::vector<core::codeword_status> status;
        core::batch_decoder::ticket ticket = 0;
    };

    //! A worker's scratch.
    struct scratch
    {
        std::vector<std::tuple<int, int, int>> spaces; // (level, first CCE, RNTI or 0)
        std::vector<float> sums;                       // a frame's LLRs added up
        std::vector<float> frame;          // a block's combined LLRs, the decoder's order
        std::vector<float> cce_magnitudes; // a subframe's CCEs' sums of |L|
    };

    std::vector<plan> plans;
    std::map<int, size_batch> batches;
    std::map<int, std::vector<std::int32_t>> sent_orders;
    std::vector<scratch> scratches;                   // a worker's
    std::vector<std::vector<pdcch_detection>> pieces; // a piece's detections
    //! The control code's coded bits of each register (conv::code::coded_bits())
    std::vector<std::uint8_t> code_outputs;
    std::vector<int> sizes_taken; //!< DCI sizes the decoder takes, sorted
#ifdef GPUTURBO_HAVE_CUDA
    //! A CUDA decoder's: the frames combined, decoded and checked on its GPU
    std::vector<std::unique_ptr<cuda::pdcch_device_search>> devices;
    //! A size's blocks that passed there, and their payloads
    struct size_answer
    {
        int A = 0;
        std::vector<cuda::passed_block> passed;
        std::vector<std::uint8_t> payloads;
    };
    std::vector<size_answer> answers;
    //! Each piece of subframes' passed blocks: (answer, index in it)
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> piece_blocks;
#endif

    workspace()
    {
        const conv::code code = control_decoder_config().generator;
        for (unsigned reg = 0; reg < 1u << code.constraint; ++reg)
            code_outputs.push_back(std::uint8_t(code.coded_bits(reg)));
    }

    /*!
     * For A + 16 = \p D bits: the coded bit (in the decoder's input order) of each of
     * the first 3 D bits sent. Rate matching reads the circular buffer round from its
     * start, skipping its NULL bits (conv_select_bits()): a round sends every coded
     * bit once, so sent bit e is coded bit order[e mod 3 D].
     */
    const std::vector<std::int32_t>& sent_order(int D)
    {
        auto& order = sent_orders[D];
        if (order.empty())
            for (const std::int32_t at : conv_circular_buffer(D))
                if (at != null_bit)
                    order.push_back(at);
        return order;
    }

    //! Checks subframe \p index: its N_CCE, sizes and RNTIs into its plan.
    void check_subframe(const pdcch_subframe& sf,
                        std::size_t index,
                        core::batch_decoder& decoder)
    {
        const subframe_checker check(index);
        plan& p = plans[index];
        p.n_cce = check.named([&] { return cce_count(sf.region); });
        const std::size_t least = std::size_t(cce_llrs) * std::size_t(p.n_cce),
                          most = 8 * std::size_t(pdcch_regs(sf.region));
        if (sf.llr_count < least || sf.llr_count > most)
            check.fail("llr_count=" + std::to_string(sf.llr_count) +
                       " does not fit the control region: use " + std::to_string(least) +
                       " (72 N_CCE) ... " + std::to_string(most) + " (8 N_REG)");
        if (!sf.llrs && sf.llr_count > 0)
            check.fail("llrs is null");
        if (sf.subframe < 0 || sf.subframe > 9)
            check.fail(out_of_range("subframe", sf.subframe, "0 ... 9"));
        for (std::size_t i = 0; i < sf.rntis.size(); ++i)
            if (sf.rntis[i] < 1 || sf.rntis[i] > 65535)
                check.fail(out_of_range(
                    "rntis[" + std::to_string(i) + "]", sf.rntis[i], "1 ... 65535"));
        p.sizes = sf.dci_sizes;
        if (p.sizes.empty())
            p.sizes = check.named([&] {
                return default_dci_sizes(
                    { sf.region.n_prb, sf.duplex, sf.region.antenna_ports });
            });
        for (std::size_t i = 0; i < p.sizes.size(); ++i) {
            if (p.sizes[i] < 1 || p.sizes[i] > max_dci_bits)
                check.fail(out_of_range("dci_sizes[" + std::to_string(i) + "]",
                                        p.sizes[i],
                                        "1 ... " + std::to_string(max_dci_bits)));
            // control_decode() of no blocks checks that the decoder takes the size,
            // once a size.
            if (!std::binary_search(sizes_taken.begin(), sizes_taken.end(), p.sizes[i])) {
                check.named([&] {
                    control_decode(
                        decoder, p.sizes[i], cce_llrs, nullptr, 0, nullptr, nullptr);
                    return 0;
                });
                sizes_taken.insert(
                    std::upper_bound(sizes_taken.begin(), sizes_taken.end(), p.sizes[i]),
                    p.sizes[i]);
            }
        }
        sort_unique(p.sizes);
        p.rntis = sf.rntis;
        sort_unique(p.rntis);
    }

    /*!
     * The candidates of a checked subframe \p sf (its plan \p p), with the spaces each
     * is in, its LLRs' magnitude (of \p llrs: sf.llrs or a copy) and whether they carry
     * information.
     */
    static void plan_candidates(const pdcch_subframe& sf,
                                const float* llrs,
                                pdcch_search_mode mode,
                                plan& p,
                                scratch& s)
    {
        p.ue_specific.clear();
        if (mode == pdcch_search_mode::exhaustive) {
            p.candidates = every_candidate(p.n_cce);
            p.common.assign(p.candidates.size(), 0);
        } else {
            // The union of the spaces, each candidate once, with the spaces it is in.
            auto& spaces = s.spaces;
            spaces.clear();
            for (const pdcch_candidate& c : common_search_space(p.n_cce))
                spaces.emplace_back(c.level, c.first_cce, 0);
            for (const int rnti : p.rntis)
                for (const pdcch_candidate& c :
                     ue_search_space(p.n_cce, rnti, sf.subframe))
                    spaces.emplace_back(c.level, c.first_cce, rnti);
            std::sort(spaces.begin(), spaces.end());
            p.candidates.clear();
            p.common.clear();
            for (const auto& [level, first, rnti] : spaces) {
                if (p.candidates.empty() ||
                    !(p.candidates.back() == pdcch_candidate{ first, level })) {
                    p.candidates.push_back({ first, level });
                    p.common.push_back(0);
                }
                const int c = int(p.candidates.size()) - 1;
                if (rnti == 0)
                    p.common[c] = 1;
                else
                    p.ue_specific.emplace_back(c, rnti);
            }
        }
        // Each CCE's sum of |L|, which a candidate's add up: the correlation's divisor,
        // its erasure and its CCEs' effective count.
        auto& sums = s.cce_magnitudes;
        sums.resize(std::size_t(p.n_cce));
        for (int cce = 0; cce < p.n_cce; ++cce) {
            const float* l = llrs + std::size_t(cce_llrs) * std::size_t(cce);
            sums[std::size_t(cce)] = sum_in_lanes(cce_llrs, [&](int e) {
                return std::fabs(core::sanitize_llr(l[e], false));
            });
        }
        p.magnitudes.resize(p.candidates.size());
        p.floor_levels.resize(p.candidates.size());
        p.live.clear();
        for (std::size_t c = 0; c < p.candidates.size(); ++c) {
            const pdcch_candidate& candidate = p.candidates[c];
            float magnitude = 0.0f, squares = 0.0f;
            for (int k = 0; k < candidate.level; ++k) {
                const float m = sums[std::size_t(candidate.first_cce + k)];
                magnitude += m;
                squares += m * m;
            }
            p.magnitudes[c] = magnitude;
            // An erased candidate (all 0, a CCE the caller left empty) decodes to
            // nothing: it is not decoded.
            if (magnitude >= core::information_floor * float(cce_llrs * candidate.level))
                p.live.push_back(std::uint32_t(c));
            p.floor_levels[c] = std::uint8_t(
                floor_level(candidate.level,
                            squares > 0.0f ? magnitude * magnitude / squares : 0.0f));
        }
    }

    //! A batch for each size the subframes try (and those of calls before), empty.
    void list_sizes(std::size_t n)
    {
        for (std::size_t s = 0; s < n; ++s)
            for (const int A : plans[s].sizes)
                batches[A].A = A;
        for (auto& [A, batch] : batches)
            batch.blocks.clear();
    }

    //! Each size's blocks: the live candidates of the subframes that try it, in order.
    void list_blocks(std::size_t n)
    {
        for (std::size_t s = 0; s < n; ++s)
            for (const int A : plans[s].sizes)
                for (const std::uint32_t c : plans[s].live)
                    batches[A].blocks.push_back({ std::uint32_t(s), c });
    }

    /*!
     * De-rate-matches block \p k of size \p A into \p s.frame, in the decoder's input
     * order: the LLRs of each coded bit added up, 0 where none was sent
     * (conv_combine_bits()). sent_order(A + 16) must be there already (the threads
     * only read it).
     */
    void combine_frame(const block& k, int A, const pdcch_subframe* subframes, scratch& s)
    {
        const int D = A + control_crc_bits, K = 3 * D;
        const auto& order = sent_orders.at(D);
        const pdcch_candidate& c = plans[k.subframe].candidates[k.candidate];
        const float* llrs =
            subframes[k.subframe].llrs + std::size_t(cce_llrs) * std::size_t(c.first_cce);
        // The E LLRs added up round by round of the circular buffer, in the order sent:
        // contiguous sums the compiler vectorises.
        const int E = cce_llrs * c.level, first_round = std::min(E, K);
        s.sums.resize(std::size_t(K));
        s.frame.resize(std::size_t(K));
        for (int j = 0; j < first_round; ++j)
            s.sums[j] = core::sanitize_llr(llrs[j], false);
        for (int from = K; from < E; from += K)
            for (int j = 0, n = std::min(K, E - from); j < n; ++j)
                s.sums[j] += core::sanitize_llr(llrs[from + j], false);
        if (E < K)
            std::fill(s.frame.begin(), s.frame.end(), 0.0f);
        for (int j = 0; j < first_round; ++j)
            s.frame[order[j]] = s.sums[j];
    }

    //! Each block of \p b combined (combine_frame()) and quantised into its int8 frame
    //! of the decoder's input (quantize_control_frame()).
    void combine(size_batch& b, const pdcch_subframe* subframes, int threads)
    {
        const int K = 3 * (b.A + control_crc_bits);
        sent_order(b.A + control_crc_bits); // made here, before the workers read it
        b.frames.resize(b.blocks.size() * std::size_t(K));
        for_each_piece(
            threads,
            b.blocks.size(),
            block_grain,
            [&](int worker, std::size_t, std::size_t begin, std::size_t end) {
                scratch& s = scratches[std::size_t(worker)];
                for (std::size_t i = begin; i < end; ++i) {
                    combine_frame(b.blocks[i], b.A, subframes, s);
                    quantize_control_frame(
                        s.frame.data(), K, b.frames.data() + i * std::size_t(K));
                }
            });
    }

    /*!
     * The space where a block of candidate \p c of plan \p p whose CRC mask is \p
     * mask is a DCI by the rule of \p mode (pdcch_search_mode), or none.
     */
    static std::optional<pdcch_space>
    space_of(const plan& p, std::uint32_t c, int mask, pdcch_search_mode mode)
    {
        const int space = dci_space(
            mask,
            mode == pdcch_search_mode::exhaustive,
            !p.rntis.empty(),
            p.common[c],
            [&](int rnti) {
                return std::binary_search(p.rntis.begin(), p.rntis.end(), rnti);
            },
            [&](int rnti) {
                return std::binary_search(p.ue_specific.begin(),
                                          p.ue_specific.end(),
                                          std::pair{ int(c), rnti });
            });
        if (space < 0)
            return std::nullopt;
        return pdcch_space(space);
    }

    //! The RNTIs the rule of \p mode takes for candidate \p c of plan \p p.
    static int hypotheses_of(const plan& p, std::uint32_t c, pdcch_search_mode mode)
    {
        const auto [first, last] = std::equal_range(
            p.ue_specific.begin(),
            p.ue_specific.end(),
            std::pair{ int(c), 0 },
            [](const auto& x, const auto& y) { return x.first < y.first; });
        return rnti_hypotheses(mode == pdcch_search_mode::exhaustive,
                               int(p.rntis.size()),
                               p.common[c],
                               int(last - first));
    }

    /*!
     * Takes the decoder's answer for \p b and adds to \p found its blocks that the
     * mode's CRC rule and the re-encoding check pass, in the blocks' order (pieces of
     * blocks checked on \p threads). The check reads the float frame, combined again
     * from \p subframes for the few blocks that the CRC rule passes.
     */
    void find_dcis(size_batch& b,
                   const pdcch_subframe* subframes,
                   core::batch_decoder& decoder,
                   const pdcch_search_options& options,
                   int threads,
                   std::vector<pdcch_detection>& found)
    {
        const int A = b.A, D = A + control_crc_bits;
        const correlation_floors floors =
            least_correlations(A, options.min_correlation, options.max_false_alarm);
        decoder.collect(b.ticket, b.bits.data(), b.status.data());
        pieces.resize(piece_count(b.blocks.size(), block_grain));
        for_each_piece(
            threads,
            b.blocks.size(),
            block_grain,
            [&](int worker, std::size_t piece, std::size_t begin, std::size_t end) {
                std::vector<pdcch_detection>& out = pieces[piece];
                scratch& s = scratches[std::size_t(worker)];
                out.clear();
                for (std::size_t i = begin; i < end; ++i) {
                    if (!b.status[i].passed)
                        continue;
                    const block& k = b.blocks[i];
                    const plan& p = plans[k.subframe];
                    const std::uint8_t* decoded = b.bits.data() + i * std::size_t(D);
                    const int mask = crc_mask(A, decoded);
                    const auto space = space_of(p, k.candidate, mask, options.mode);
                    if (!space)
                        continue;
                    // The re-encoding check, against the frame's combined float LLRs
                    // (not the decoder's int8 ones: the measure is the LLRs'): sent
                    // bit e carries coded bit order[e mod 3 D], so sum_e L_e (2 c_e -
                    // 1) is that of the coded bits.
                    combine_frame(k, A, subframes, s);
                    const float correlation =
                        reencoded_agreement(decoded,
                                            D,
                                            code_outputs.data(),
                                            [&](int i) { return s.frame[i]; }) /
                        p.magnitudes[k.candidate];
                    if (correlation <
                        floors.of(p.floor_levels[k.candidate],
                                  hypotheses_of(p, k.candidate, options.mode)))
                        continue;
                    out.push_back({ k.subframe,
                                    p.candidates[k.candidate],
                                    A,
                                    std::vector<std::uint8_t>(decoded, decoded + A),
                                    mask,
                                    *space,
                                    correlation });
                }
            });
        for (auto& piece : pieces)
            std::move(piece.begin(), piece.end(), std::back_inserter(found));
    }

#ifdef GPUTURBO_HAVE_CUDA
    //! A chunk of a call's subframes submitted to one of the GPU searches.
    struct device_chunk
    {
        std::size_t first = 0, n = 0; //!< the call's subframes first ... first + n - 1
        cuda::pdcch_device_search* device = nullptr;
        //! its candidates (the device's room), their subframes numbered in the chunk
        const cuda::device_block* candidates = nullptr;
        std::vector<int> submitted; //!< its sizes, in order
        std::size_t decoded = 0;    //!< its blocks
    };

    /*!
     * Each size's blocks combined, decoded, given the mode's CRC rule and the
     * re-encoding check on the GPU, the subframes' LLRs, live candidates and RNTIs
     * sent once: \p found, the detections that find_dcis() and merge() give, and the
     * blocks decoded. The call's subframes go in chunks to the GPU searches in turn,
     * so that the host plans a chunk and makes the detections of the one before while
     * the GPU decodes.
     */
    std::size_t search_on_device(const pdcch_subframe* subframes,
                                 std::size_t n,
                                 const pdcch_search_options& options,
                                 int threads,
                                 std::vector<pdcch_detection>& found)
    {
        list_sizes(n);
        const std::size_t per_chunk = std::max(
            least_device_chunk, (n + devices.size() * 2 - 1) / (devices.size() * 2));
        std::deque<device_chunk> in_flight;
        std::size_t decoded = 0;
        auto collect_first = [&] {
            decoded += in_flight.front().decoded;
            collect_chunk(in_flight.front(), subframes, threads, found);
            in_flight.pop_front();
        };
        for (std::size_t first = 0, k = 0; first < n; first += per_chunk, ++k) {
            if (in_flight.size() == devices.size())
                collect_first();
            in_flight.push_back(submit_chunk(*devices[k % devices.size()],
                                             subframes,
                                             first,
                                             std::min(per_chunk, n - first),
                                             options,
                                             threads));
        }
        while (!in_flight.empty())
            collect_first();
        return decoded;
    }

    //! Subframes \p first ... \p first + \p n - 1 of \p subframes planned, sent to
    //! \p device and each size's blocks submitted there.
    device_chunk submit_chunk(cuda::pdcch_device_search& device,
                              const pdcch_subframe* subframes,
                              std::size_t first,
                              std::size_t n,
                              const pdcch_search_options& options,
                              int threads)
    {
        device_chunk chunk;
        chunk.first = first;
        chunk.n = n;
        chunk.device = &device;
        plan* const plans = this->plans.data() + first;
        subframes += first;
        // Each subframe's LLRs into page-locked memory and planned from there (one
        // pass over them from memory); its listed RNTIs.
        std::vector<std::uint64_t> first_llr(n + 1, 0);
        cuda::device_rntis rntis;
        rntis.first.assign(n + 1, 0);
        for (std::size_t s = 0; s < n; ++s) {
            first_llr[s + 1] =
                first_llr[s] + std::uint64_t(cce_llrs) * std::uint64_t(plans[s].n_cce);
            rntis.first[s + 1] = offset_after(rntis.first[s], plans[s].rntis.size());
        }
        const std::size_t llr_count = first_llr[n];
        float* llrs = device.llr_room(llr_count);
        rntis.listed.resize(rntis.first[n]);
        for_each_piece(threads,
                       n,
                       subframe_grain,
                       [&](int worker, std::size_t, std::size_t b, std::size_t e) {
                           for (std::size_t s = b; s < e; ++s) {
                               plan& p = plans[s];
                               float* copy = llrs + first_llr[s];
                               std::copy(subframes[s].llrs,
                                         subframes[s].llrs +
                                             (first_llr[s + 1] - first_llr[s]),
                                         copy);
                               plan_candidates(subframes[s],
                                               copy,
                                               options.mode,
                                               p,
                                               scratches[std::size_t(worker)]);
                               std::copy(p.rntis.begin(),
                                         p.rntis.end(),
                                         rntis.listed.begin() + rntis.first[s]);
                           }
                       });
        // Each subframe's first live candidate in the call's, and its UE-specific
        // RNTIs' first (plan::ue_specific, sorted by candidate and RNTI).
        std::vector<std::uint32_t> first_candidate(n + 1, 0), ue_first(n + 1, 0);
        for (std::size_t s = 0; s < n; ++s) {
            first_candidate[s + 1] =
                offset_after(first_candidate[s], plans[s].live.size());
            ue_first[s + 1] = offset_after(ue_first[s], plans[s].ue_specific.size());
        }
        const std::size_t candidate_count = first_candidate[n];
        cuda::device_block* candidates = device.candidate_room(candidate_count);
        chunk.candidates = candidates;
        rntis.ue.resize(ue_first[n]);
        for_each_piece(
            threads,
            n,
            subframe_grain,
            [&](int, std::size_t, std::size_t b, std::size_t e) {
                for (std::size_t s = b; s < e; ++s) {
                    const plan& p = plans[s];
                    for (std::size_t i = 0; i < p.ue_specific.size(); ++i)
                        rntis.ue[ue_first[s] + i] = p.ue_specific[i].second;
                    // The live candidates rise, as the (candidate, RNTI) pairs do.
                    auto pair = p.ue_specific.begin();
                    cuda::device_block* out = candidates + first_candidate[s];
                    for (const std::uint32_t c : p.live) {
                        while (pair != p.ue_specific.end() && pair->first < int(c))
                            ++pair;
                        const auto pairs_begin = pair;
                        while (pair != p.ue_specific.end() && pair->first == int(c))
                            ++pair;
                        const pdcch_candidate& k = p.candidates[c];
                        *out++ = { first_llr[s] + std::uint64_t(cce_llrs) *
                                                      std::uint64_t(k.first_cce),
                                   p.magnitudes[c],
                                   std::uint16_t(k.level),
                                   p.common[c],
                                   p.floor_levels[c],
                                   std::uint32_t(s),
                                   c,
                                   ue_first[s] +
                                       std::uint32_t(pairs_begin - p.ue_specific.begin()),
                                   std::uint32_t(pair - pairs_begin) };
                    }
                }
            });
        device.send(llr_count, candidate_count, rntis);
        // Each size's blocks: every candidate where every subframe tries it, else
        // those of the subframes that do.
        std::vector<std::uint32_t> picks;
        for (const auto& [A, unused] : batches) {
            const auto tries = [&, A = A](std::size_t s) {
                return std::binary_search(
                    plans[s].sizes.begin(), plans[s].sizes.end(), A);
            };
            std::size_t blocks = 0;
            bool every = true;
            for (std::size_t s = 0; s < n; ++s) {
                if (tries(s))
                    blocks += first_candidate[s + 1] - first_candidate[s];
                else
                    every = false;
            }
            if (blocks == 0)
                continue;
            picks.clear();
            for (std::size_t s = 0; s < n && !every; ++s)
                if (tries(s))
                    for (std::uint32_t c = first_candidate[s]; c < first_candidate[s + 1];
                         ++c)
                        picks.push_back(c);
            device.submit_size(
                A,
                every ? nullptr : picks.data(),
                blocks,
                options.mode == pdcch_search_mode::exhaustive,
                least_correlations(A, options.min_correlation, options.max_false_alarm));
            chunk.submitted.push_back(A);
            chunk.decoded += blocks;
        }
        return chunk;
    }

    //! The detections of \p chunk (submit_chunk()) added to \p found: each size's
    //! answer as it comes (the GPU decoding the sizes after it), its blocks listed by
    //! their subframes' piece; then each piece's detections made and merged on the
    //! pool.
    void collect_chunk(const device_chunk& chunk,
                       const pdcch_subframe* subframes,
                       int threads,
                       std::vector<pdcch_detection>& found)
    {
        const std::size_t n = chunk.n;
        const cuda::device_block* candidates = chunk.candidates;
        answers.resize(chunk.submitted.size());
        const std::size_t piece_total = piece_count(n, subframe_grain);
        piece_blocks.resize(piece_total);
        for (auto& blocks : piece_blocks)
            blocks.clear();
        for (std::size_t a = 0; a < chunk.submitted.size(); ++a) {
            size_answer& answer = answers[a];
            answer.A = chunk.submitted[a];
            chunk.device->collect_size(answer.A, answer.passed, answer.payloads);
            for (std::uint32_t i = 0; i < answer.passed.size(); ++i)
                piece_blocks[candidates[answer.passed[i].index].subframe / subframe_grain]
                    .push_back({ std::uint32_t(a), i });
        }
        pieces.resize(piece_total);
        for_each_piece(threads,
                       n,
                       subframe_grain,
                       [&](int, std::size_t piece, std::size_t, std::size_t) {
                           std::vector<pdcch_detection>& out = pieces[piece];
                           out.clear();
                           for (const auto& [answer_index, i] : piece_blocks[piece]) {
                               const size_answer& answer = answers[answer_index];
                               const cuda::passed_block& b = answer.passed[i];
                               const cuda::device_block& k = candidates[b.index];
                               const std::uint8_t* payload =
                                   answer.payloads.data() + i * std::size_t(answer.A);
                               const std::size_t subframe = chunk.first + k.subframe;
                               out.push_back({ subframe,
                                               plans[subframe].candidates[k.candidate],
                                               answer.A,
                                               std::vector<std::uint8_t>(
                                                   payload, payload + answer.A),
                                               b.rnti,
                                               pdcch_space(b.space),
                                               b.correlation });
                           }
                           out = merge_duplicates(std::move(out), subframes);
                       });
        std::vector<pdcch_detection> detections = gather_pieces();
        found.insert(found.end(),
                     std::make_move_iterator(detections.begin()),
                     std::make_move_iterator(detections.end()));
    }
#endif

    /*!
     * merge_duplicates() of \p found, subframes apart (a DCI's detections are all of
     * its subframe): pieces of subframes merged at once, put together in their order.
     */
    std::vector<pdcch_detection> merge(std::vector<pdcch_detection> found,
                                       const pdcch_subframe* subframes,
                                       std::size_t n,
                                       int threads)
    {
        pieces.resize(piece_count(n, subframe_grain));
        for (auto& piece : pieces)
            piece.clear();
        for (pdcch_detection& d : found)
            pieces[d.subframe / subframe_grain].push_back(std::move(d));
        for_each_piece(threads,
                       n,
                       subframe_grain,
                       [&](int, std::size_t piece, std::size_t, std::size_t) {
                           pieces[piece] =
                               merge_duplicates(std::move(pieces[piece]), subframes);
                       });
        return gather_pieces();
    }

    //! The pieces' detections one after another.
    std::vector<pdcch_detection> gather_pieces()
    {
        std::size_t total = 0;
        for (const auto& piece : pieces)
            total += piece.size();
        std::vector<pdcch_detection> found;
        found.reserve(total);
        for (auto& piece : pieces)
            std::move(piece.begin(), piece.end(), std::back_inserter(found));
        return found;
    }
};

pdcch_searcher::pdcch_searcher(std::unique_ptr<core::batch_decoder> decoder)
    : d_decoder(std::move(decoder)), d_work(std::make_unique<workspace>())
{
    if (!d_decoder)
        throw std::invalid_argument(
            "pdcch_searcher: the decoder is null: use "
            "conv::make_viterbi_decoder(control_decoder_config(), "
            "backend)");
#ifdef GPUTURBO_HAVE_CUDA
    // Two, so that the host works on one chunk of a call while the GPU works on another.
    for (int i = 0; i < 2; ++i)
        if (auto device = cuda::make_pdcch_device_search(*d_decoder))
            d_work->devices.push_back(std::move(device));
#endif
}

pdcch_searcher::~pdcch_searcher() = default;

bool pdcch_searcher::searches_on_device() const
{
#ifdef GPUTURBO_HAVE_CUDA
    return !d_work->devices.empty();
#else
    return false;
#endif
}

std::vector<pdcch_detection> pdcch_searcher::search(const pdcch_subframe* subframes,
                                                    std::size_t n,
                                                    const pdcch_search_options& options)
{
    d_decoded = 0;
    check_options(options);
    if (n > 0 && !subframes)
        throw std::invalid_argument("subframes is null for n=" + std::to_string(n));
    const int threads = core::thread_count(options.threads);
    workspace& w = *d_work;
    w.plans.resize(n);
    w.scratches.resize(std::size_t(threads));
    // Every subframe checked before anything is planned: the first bad one named.
    for (std::size_t s = 0; s < n; ++s)
        w.check_subframe(subframes[s], s, *d_decoder);
#ifdef GPUTURBO_HAVE_CUDA
    if (!w.devices.empty()) {
        std::vector<pdcch_detection> found;
        d_decoded = w.search_on_device(subframes, n, options, threads, found);
        return found;
    }
#endif
    for_each_piece(threads,
                   n,
                   subframe_grain,
                   [&](int worker, std::size_t, std::size_t begin, std::size_t end) {
                       for (std::size_t s = begin; s < end; ++s)
                           workspace::plan_candidates(subframes[s],
                                                      subframes[s].llrs,
                                                      options.mode,
                                                      w.plans[s],
                                                      w.scratches[std::size_t(worker)]);
                   });
    w.list_sizes(n);
    w.list_blocks(n);

    // Each size's blocks of every subframe in one batch, up to max_in_flight batches
    // decoding at once (a GPU decodes one while the CPU combines the next).
    std::vector<pdcch_detection> found;
    std::deque<workspace::size_batch*> in_flight;
    try {
        for (auto& [A, batch] : w.batches) {
            if (batch.blocks.empty())
                continue;
            w.combine(batch, subframes, threads);
            if (in_flight.size() == std::size_t(core::batch_decoder::max_in_flight)) {
                w.find_dcis(
                    *in_flight.front(), subframes, *d_decoder, options, threads, found);
                in_flight.pop_front();
            }
            batch.bits.resize(batch.blocks.size() * std::size_t(A + control_crc_bits));
            batch.status.resize(batch.blocks.size());
            batch.ticket = d_decoder->submit(
                A + control_crc_bits, batch.frames.data(), batch.blocks.size());
            in_flight.push_back(&batch);
            d_decoded += batch.blocks.size();
        }
        for (; !in_flight.empty(); in_flight.pop_front())
            w.find_dcis(
                *in_flight.front(), subframes, *d_decoder, options, threads, found);
    } catch (...) {
        // The decoder forgets the batches it was decoding.
        for (workspace::size_batch* batch : in_flight)
            try {
                d_decoder->collect(
                    batch->ticket, batch->bits.data(), batch->status.data());
            } catch (...) {
            }
        throw;
    }
    return w.merge(std::move(found), subframes, n, threads);
}

} // namespace gputurbo::lte
