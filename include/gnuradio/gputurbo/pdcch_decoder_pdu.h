/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_H
#define INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gputurbo/api.h>
#include <gnuradio/gputurbo/block_interfaces.h>
#include <gnuradio/gputurbo/block_options.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gputurbo {

/*!
 * \brief LTE PDCCH decoder for PDUs: the blind search of one subframe's control region
 * per message, answered with the DCIs found; many subframes searched at a time.
 * \ingroup gputurbo
 *
 * Message input "pdus": a PDU (pair of a metadata dict and an f32vector) holding the
 * LLRs of one subframe's PDCCH bits in CCE order, 72 a CCE (36 QPSK symbols of its 9
 * REGs, after REG de-interleaving, 36.211 §6.8.5), GNU Radio's sign (a positive LLR
 * means bit 1): 72 N_CCE of them, or as many as the control region's REGs carry (8
 * N_REG; those after the last whole CCE are not read). They are descrambled unless
 * "descramble" says they come scrambled: the block then descrambles them with the
 * sequence of "cell_id" and "subframe" (36.211 §6.8.2). The metadata gives "subframe"
 * (required: k = floor(n_s / 2), 0 … 9), and, each in place of the block's parameter of
 * that name: "n_prb", "cfi", "antenna_ports", "phich_mi" and "cell_id" (integers), "ng"
 * (a string "1/6", "1/2", "1" or "2", or that number), "duplex" ("fdd" or "tdd") and
 * "descramble" (a flag); and "rntis", a list of RNTIs 1 … 65535 (mode "ue" searches
 * their UE-specific spaces beside the common space; mode "exhaustive" accepts only them
 * and the broadcasts' RNTIs where there are any), and "dci_sizes", a list of the DCI
 * payload sizes to try (by default those of formats 0/1A, 1C, 1 and, with 2 or 4 ports,
 * 2A in the cell: lte::default_dci_sizes()).
 *
 * Message output "pdus": for each input PDU, in arrival order, a PDU with an empty
 * u8vector whose metadata is the input's plus "dcis", a list of the DCIs found (ordered
 * by first CCE, level and size), each a dict: "first_cce", "level" (1, 2, 4 or 8),
 * "size" (payload bits), "rnti" (the CRC's mask), "space" ("common", "ue-specific" or
 * "exhaustive"), "formats" (the names of the formats of that size in the cell, such as
 * "0" and "1A"; none for a size of no format), "correlation" (the re-encoding check's,
 * 1 at best) and "payload" (a u8vector, one bit a byte: lte::parse_dci() reads it).
 * Message output "dcis": each DCI found also as a PDU of its own, its payload bits as
 * the data (u8vector) and the input's metadata plus the DCI's fields but "payload", for
 * blocks that take one DCI a message.
 *
 * PDUs that arrive close together are searched together: the block collects messages
 * while more are queued behind them, up to max_batch, and decodes all their candidates
 * of each DCI size in one call of the Viterbi decoder. Each PDU is checked before it
 * joins a batch, so that a bad one fails alone. A PDU that cannot be searched (not a
 * pair, metadata not a dict, data not an f32vector, no subframe, a metadata value of
 * the wrong type or out of its range, a length that does not fit the control region, a
 * DCI size the decoder does not take, or a search error) is answered, in its place, on
 * "pdus" by a PDU with an empty u8vector and metadata "error" = the reason (and no
 * "dcis"). No PDU is dropped. Failures are logged as errors, the first ten one by one,
 * the later ones in a summary line at most once a second (and at stop());
 * failed_pdus() counts them all.
 */
class GPUTURBO_API pdcch_decoder_pdu : virtual public gr::block, public pdu_decoder_status
{
public:
    typedef std::shared_ptr<pdcch_decoder_pdu> sptr;

    /*!
     * \brief Makes a PDCCH PDU decoder of \p options
     * (pdcch_options_from("pdcch_decoder_pdu", …)): the search's mode,
     * min_correlation and max_false_alarm, the cell's defaults for the metadata (n_prb,
     * cfi, antenna_ports, ng, phich_mi, duplex, cell_id, descramble;
     * engine/lte/parameters.h), the Viterbi decoder's backend and devices, and threads
     * (the decoder's and the search's own, 0 = all cores); max_batch is the most
     * subframes searched together (0: automatic, 1024 on CUDA, 64 on the CPU). Bad
     * parameters raise ValueError; a backend this build or machine lacks raises
     * RuntimeError.
     */
    static sptr make(const pdcch_options& options);

    /*!
     * \brief Sets the re-encoding check's threshold, -1 … 1 (ValueError otherwise):
     * a DCI is reported when the correlation of its re-encoded bits with its LLRs is at
     * least this. Applies from the next batch.
     * \param min_correlation the threshold
     */
    virtual void set_min_correlation(double min_correlation) = 0;

    //! The re-encoding check's threshold.
    virtual double min_correlation() const = 0;

    /*!
     * \brief Sets the false alarms allowed, 0 < p <= 1 (ValueError otherwise): a
     * decoded candidate is reported only where noise would pass its CRC rule with a
     * correlation as high with probability at most this (1: off; see
     * lte::pdcch_search_options::max_false_alarm). Applies from the next batch.
     * \param max_false_alarm the probability
     */
    virtual void set_max_false_alarm(double max_false_alarm) = 0;

    //! The false alarms allowed.
    virtual double max_false_alarm() const = 0;

    //! The search mode: "ue" or "exhaustive".
    virtual std::string mode() const = 0;

    //! DCIs found since the block was made.
    virtual std::uint64_t found_dcis() const = 0;

    //! Candidates decoded since the block was made (each once for each DCI size; those
    //! whose LLRs are all 0 not).
    virtual std::uint64_t decoded_candidates() const = 0;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_PDCCH_DECODER_PDU_H */
