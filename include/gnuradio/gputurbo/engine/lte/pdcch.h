/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_PDCCH_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_PDCCH_H

/*!
 * \file pdcch.h
 * \brief The PDCCH receiver's blind search (3GPP TS 36.213 §9.1.1): the DCIs of one or
 *        many subframes found by decoding the candidates of their search spaces for
 *        each DCI size, many subframes in one call of a Viterbi decoder of any backend;
 *        and the descrambling of the control region (36.211 §6.8.2).
 *
 * Input: the LLRs of a subframe's CCEs in CCE order, cce_llrs (72) a CCE: the bits
 * b(72 n) … b(72 n + 71) of CCE n, 36 QPSK symbols of its 9 REGs, as they come after
 * REG de-interleaving (36.211 §6.8.5: the caller undoes the quadruplets' permutation
 * and cyclic shift) and descrambling (descramble_pdcch()), in GNU Radio's sign
 * (positive means 1).
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/lte/control.h> // control_crc_bits
#include <gnuradio/gputurbo/engine/lte/dci.h>
#include <gnuradio/gputurbo/engine/lte/scrambling.h> // max_cell_id
#include <gnuradio/gputurbo/engine/lte/search_space.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gputurbo::lte {

//! LLRs a CCE carries: 9 REGs of 4 QPSK symbols, 2 bits each.
constexpr int cce_llrs = 72;
//! The largest DCI size a search tries: a block of it and its CRC has as many bits as a
//! candidate of level 8 sends (larger ones come as fewer bits than they have).
constexpr int max_dci_bits = 8 * cce_llrs - control_crc_bits;

//! The RNTIs of the common search space's broadcasts (36.321 Table 7.1-1): system
//! information, paging, and the random-access responses' 1 … 60.
constexpr int si_rnti = 0xFFFF;
constexpr int p_rnti = 0xFFFE;
constexpr int min_ra_rnti = 1;
constexpr int max_ra_rnti = 60;

/*!
 * \brief c_init of the PDCCH's scrambling (36.211 §6.8.2): floor(n_s / 2) 2^9 +
 * N_ID^cell, \p subframe = floor(n_s / 2) (0 … 9), \p cell_id 0 … 503. Throws
 * std::invalid_argument naming either out of range.
 */
long pdcch_c_init(int subframe, int cell_id);

/*!
 * \brief Descrambles \p n LLRs of a subframe's control region in place: LLR i, bit
 * b(i) of the PDCCHs' block (CCE order, after REG de-interleaving), is negated where
 * the sequence c(i) of pdcch_c_init() is 1. Either sign convention alike. Throws as
 * pdcch_c_init() does.
 */
void descramble_pdcch(int subframe, int cell_id, float* llrs, std::size_t n);

/*!
 * \brief The DCI sizes (payload bits, without the CRC) a search tries by default: those
 * of formats 0/1A, 1C, 1 and, with 2 or 4 antenna ports, 2A in a cell of \p cell
 * (dci_size()), each once, in that order. Throws as dci_size() does.
 */
std::vector<int> default_dci_sizes(const dci_config& cell);

//! What a search decodes.
enum class pdcch_search_mode {
    /*!
     * The common search space and the UE-specific space of each RNTI the subframe
     * lists. A decoded candidate is a detection when its CRC mask is an RNTI of its
     * space: in a UE-specific candidate, the RNTI whose space holds it; in a common
     * one, SI-RNTI, P-RNTI, an RA-RNTI (1 … 60) or a listed RNTI. About 2^-16 of the
     * decoded candidates pass a CRC for each RNTI they are checked against.
     */
    ue,
    /*!
     * Every CCE-aligned candidate of levels 1, 2, 4 and 8 (every_candidate()), the
     * RNTI read from the CRC: any RNTI where the subframe lists none (a mask that is no
     * RNTI, 0x0000 and 0xFFF4 … 0xFFFC, is none), else a listed RNTI, SI-, P- or an
     * RA-RNTI. With any RNTI nearly every decoded candidate has one, and the
     * re-encoding check (pdcch_search_options::min_correlation) is what tells DCIs
     * from noise.
     */
    exhaustive
};

//! Where a detection was found.
enum class pdcch_space { common, ue_specific, exhaustive };
const char* to_string(pdcch_space s);       //!< "common", "ue-specific", "exhaustive"
const char* to_string(pdcch_search_mode m); //!< "ue", "exhaustive"

//! One subframe to search.
struct pdcch_subframe
{
    //! The LLRs of its CCEs (see the file's comment): cce_llrs · N_CCE of them, or as
    //! many as the control region's REGs carry (8 pdcch_regs(); those after the last
    //! whole CCE are not read)
    const float* llrs = nullptr;
    std::size_t llr_count = 0;
    //! The cell and the CFI: N_CCE = cce_count(region)
    control_region region;
    //! With region's bandwidth and ports, the DCI sizes of default_dci_sizes()
    duplex_mode duplex = duplex_mode::fdd;
    int subframe = 0; //!< k = floor(n_s / 2), 0 … 9: Y_k of the UE-specific spaces
    //! RNTIs (1 … 65535): mode ue searches their UE-specific spaces; mode exhaustive
    //! accepts only them (and the broadcasts' RNTIs) where any are listed
    std::vector<int> rntis;
    //! DCI sizes A to try, 1 … max_dci_bits (each once; the decoder must take A + 16);
    //! none: default_dci_sizes()
    std::vector<int> dci_sizes;
};

//! How a search decides.
struct pdcch_search_options
{
    pdcch_search_mode mode = pdcch_search_mode::ue;
    /*!
     * The re-encoding check: a decoded candidate is reported only when the correlation
     * of its re-encoded bits with its LLRs (pdcch_detection::correlation) is at least
     * this, -1 … 1 (-1 reports every candidate the CRC rule passes). The default keeps
     * the DCIs decoded at Es/N0 = 0 dB (their correlation is about 0.85) and rejects
     * the decoded noise of level 8 and most of level 4; at levels 1 and 2 (code rates
     * 0.2 … 0.9) the codeword nearest to noise correlates with it about as well, and
     * a higher value (0.9, 0.99) rejects more where the SNR is high enough to keep the
     * DCIs (docs/usage.md gives the measured rates).
     */
    double min_correlation = 0.6;
    /*!
     * The false alarms allowed: a decoded candidate is reported only where a block of
     * noise alone would pass its CRC rule with a correlation as high with probability
     * at most this, 0 < max_false_alarm <= 1 (false_alarm_floor() gives the least
     * correlation that takes, by size, level and the RNTIs the rule takes; 1 turns it
     * off). The default changes nothing where the CRC alone bounds it (a candidate
     * checked against at most 6 RNTIs, counted exactly; a level-1 candidate that the
     * spaces of 7 or 8 listed RNTIs share asks 0.84 ... 0.995 for sizes 15 ... 48) and
     * raises the bar
     * where the CRC cannot: mode
     * exhaustive with any RNTI, where about 0.7 of the decoded candidates of noise
     * reach 0.6, asks a DCI at level 1 for 0.93 ... 1 (larger sizes more; none of 43
     * bits or more: a level-1 candidate then holds nearly every word of its length),
     * at level 2 for 0.74 ... 0.90 (sizes 15 ... 48). The bound is for LLRs of one
     * power: a candidate whose CCEs differ (a DCI's CCE beside empty ones; erased
     * CCEs) takes the floor of the lower level that its strong CCEs count for.
     */
    double max_false_alarm = 1e-4;
    /*!
     * CPU threads of the search's own work (the subframes planned, the candidates'
     * LLRs combined into the decoder's frames, the decoded ones checked, duplicates
     * merged), 0 = one per core; the decoder's are its config's. A small call takes
     * fewer (one subframe, one thread). The detections do not depend on it.
     */
    int threads = 0;
};

/*!
 * \brief The least correlation (pdcch_detection::correlation) at which a decoded
 * candidate of \p level (1, 2, 4, 8: E = 72 level LLRs) and DCI size \p A, checked
 * against \p hypotheses RNTIs (those its CRC rule takes, 1 ... 65536), is noise with
 * probability at most \p max_false_alarm (0 < p <= 1): -1 where the CRC alone bounds
 * it (hypotheses 2^-16 <= p), infinity where no correlation does.
 *
 * For LLRs of noise (zero-mean Gaussian), a given codeword's correlation reaches t
 * with probability at most exp(-E I(t)) (Chernoff; I(t) the rate function of sum L s
 * - t |L| over E LLRs, from 0 at t = 0 to ln 2 at t = 1), so a search passes noise at
 * t with probability at most min(hypotheses 2^-16, hypotheses 2^A exp(-E I(t))): the
 * CRC's share, and the union over the 2^A codewords of each RNTI taken. The floor is
 * the least t where that is at most p. Throws std::invalid_argument for arguments out
 * of range.
 */
double false_alarm_floor(int A, int level, int hypotheses, double max_false_alarm);

//! A DCI found.
struct pdcch_detection
{
    std::size_t subframe; //!< its subframe's index in the search's input
    pdcch_candidate candidate;
    int size;                          //!< A, the payload bits
    std::vector<std::uint8_t> payload; //!< A bits, one a byte (parse_dci() reads them)
    int rnti;                          //!< the CRC's mask
    //! common where the candidate is in the common space and the RNTI is one it
    //! takes (a listed RNTI's DCI on a candidate of both spaces is common)
    pdcch_space space;
    /*!
     * How well the decoded DCI explains the LLRs: its E = 72 L bits re-encoded
     * (control_encode() of the payload and RNTI), e_k, against the candidate's LLRs L_k
     * as sum L_k (2 e_k - 1) / sum |L_k| (GNU Radio's sign): 1 where every LLR agrees,
     * about 0.85 for a DCI at Es/N0 = 0 dB.
     */
    float correlation;
};

/*!
 * \brief The blind search: the DCIs of many subframes (of one cell or several) in one
 * pass, the candidates of all of them of each DCI size decoded in one call of the
 * decoder (up to core::batch_decoder::max_in_flight sizes decoding at once), or, with
 * a CUDA decoder on one GPU, combined, decoded and checked on that GPU (every size in
 * flight; the same detections). Buffers are kept from call to call. Not safe for
 * concurrent calls on one object.
 */
class pdcch_searcher
{
public:
    /*!
     * \param decoder the Viterbi decoder of every search:
     * conv::make_viterbi_decoder(control_decoder_config(), backend), its threads,
     * devices and geometry as the caller sets them (the sign must be
     * control_decoder_config()'s: GNU Radio's)
     */
    explicit pdcch_searcher(std::unique_ptr<core::batch_decoder> decoder);
    ~pdcch_searcher();
    pdcch_searcher(const pdcch_searcher&) = delete;
    pdcch_searcher& operator=(const pdcch_searcher&) = delete;

    /*!
     * \brief The DCIs of \p n subframes (\p options says how), ordered by subframe,
     * first CCE, level and size.
     *
     * A candidate that several spaces of a subframe share (the same CCEs and level) is
     * decoded once for each size; one whose LLRs are all 0 (CCEs left empty) is not
     * decoded. A DCI is found again at candidates that overlap its own: lower levels
     * within it (their 72 L' bits are its first ones) and higher ones around it
     * (holding it in part). Detections with the same RNTI, size and payload on
     * overlapping CCEs are one DCI, reported once: at the highest level whose two
     * halves both carry it (the LLRs of each correlate with the DCI's bits sent there
     * at least half as well as the best of the detections; the half of a candidate
     * around a DCI that does not hold it, noise, zeros or another DCI, correlates
     * about 0), or, where none does, at the best correlation.
     *
     * Throws std::invalid_argument naming the subframe and what is wrong with it (its
     * LLRs, region, subframe index, an RNTI or a size) or an option out of range,
     * before anything is decoded; and as the decoder does for a size it cannot decode.
     */
    std::vector<pdcch_detection> search(const pdcch_subframe* subframes,
                                        std::size_t n,
                                        const pdcch_search_options& options = {});
    std::vector<pdcch_detection> search(const std::vector<pdcch_subframe>& subframes,
                                        const pdcch_search_options& options = {})
    {
        return search(subframes.data(), subframes.size(), options);
    }

    //! Candidates decoded by the last search: a candidate once for each size, those
    //! whose LLRs are all 0 not.
    std::size_t decoded_candidates() const { return d_decoded; }

    //! The decoder given (on one GPU the search decodes with its kernels, outside its
    //! pipeline: its statistics do not count that work).
    core::batch_decoder& decoder() const { return *d_decoder; }

    //! Whether the search runs on the decoder's GPU (a CUDA decoder on one GPU): the
    //! candidates combined, decoded and checked there, the same detections.
    bool searches_on_device() const;

private:
    struct workspace;
    std::unique_ptr<core::batch_decoder> d_decoder;
    std::unique_ptr<workspace> d_work;
    std::size_t d_decoded = 0;
};

} // namespace gputurbo::lte

#endif
