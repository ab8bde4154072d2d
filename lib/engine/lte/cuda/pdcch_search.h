/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_LTE_CUDA_PDCCH_SEARCH_H
#define INCLUDED_GPUTURBO_LTE_CUDA_PDCCH_SEARCH_H

// Host-side view of the PDCCH search's GPU part; no CUDA header, so pdcch.cc can include
// it.

#include "../control_check.h" // correlation_floors

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gputurbo::lte::cuda {

//! A call's candidate, decoded for each DCI size its subframe tries, with what the CRC
//! rule needs of it.
struct device_block
{
    std::uint64_t llr_offset; //!< its first LLR in the call's LLRs
    float magnitude;          //!< the sum of its LLRs' |L|: the correlation's divisor
    std::uint16_t level;      //!< L: E = 72 L LLRs
    std::uint8_t common;      //!< it is in the common search space
    std::uint8_t floor_level; //!< the level of its false-alarm floor (floor_level())
    std::uint32_t subframe;   //!< whose listed RNTIs it takes (device_rntis)
    std::uint32_t candidate;  //!< its index among its subframe's candidates
    //! the RNTIs whose UE-specific space holds it: ue_rntis[ue_first … + ue_count)
    std::uint32_t ue_first, ue_count;
};
static_assert(sizeof(device_block) == 32, "a candidate in 32 bytes");

//! A call's RNTIs: each subframe's listed ones, sorted (listed[first[s] … first[s + 1])),
//! and the UE-specific RNTIs of the candidates (device_block::ue_first).
struct device_rntis
{
    std::vector<std::uint32_t> first;
    std::vector<std::int32_t> listed;
    std::vector<std::int32_t> ue;
};

//! A block that the CRC rule and the re-encoding check pass: its candidate (an index
//! into the call's), its RNTI (the CRC's mask), its space (pdcch_space as an int) and
//! correlation.
struct passed_block
{
    std::uint32_t index;
    std::int32_t rnti;
    std::int32_t space;
    float correlation;
};

/*!
 * \brief The search's decoding on one GPU: a call's LLRs go there once; each DCI size's
 * candidates are de-rate-matched into int8 frames there (the CPU search's arithmetic:
 * the same frames, value for value), decoded by the Viterbi kernels of the searcher's
 * decoder (the same decisions), given the CRC rule of the search's mode and the
 * re-encoding check there (the same values); only the blocks that pass both come back,
 * with their payloads.
 */
class pdcch_device_search
{
public:
    virtual ~pdcch_device_search() = default;
    //! Starts a call: page-locked room for its \p count LLRs, every subframe's CCEs one
    //! after another (sanitised on the GPU), to fill before send().
    virtual float* llr_room(std::size_t count) = 0;
    //! Page-locked room for the call's \p count candidates (after llr_room()), to fill
    //! before send().
    virtual device_block* candidate_room(std::size_t count) = 0;
    //! Sends the rooms' LLRs and candidates and the call's RNTIs to the GPU.
    virtual void
    send(std::size_t llrs, std::size_t candidates, const device_rntis& rntis) = 0;
    /*!
     * Enqueues the decoding of \p n of the call's candidates for DCI size \p A, those
     * at \p picks (copied: the caller may reuse them) or, with none, all, in mode \p
     * exhaustive or ue, the correlation a block needs by level and hypotheses \p
     * least; one size's at a time in flight for each A, so that the host prepares the
     * next size while the GPU works.
     */
    virtual void submit_size(int A,
                             const std::uint32_t* picks,
                             std::size_t n,
                             bool exhaustive,
                             const correlation_floors& least) = 0;
    /*!
     * Waits for size \p A's blocks of this call (none where the call did not submit
     * the size: a new call, llr_room(), forgets what the last one left) and fills \p
     * blocks and \p payloads ([blocks.size()][A]) with those whose frame status
     * passed, whose RNTI the mode's rule takes and whose correlation is at least what
     * the floors submitted ask of it, in any order.
     */
    virtual void collect_size(int A,
                              std::vector<passed_block>& blocks,
                              std::vector<std::uint8_t>& payloads) = 0;
};

//! The device search of \p decoder (make_viterbi_decoder(control_decoder_config(),
//! "cuda") on one GPU), or nullptr for any other decoder.
std::unique_ptr<pdcch_device_search>
make_pdcch_device_search(const core::batch_decoder& decoder);

} // namespace gputurbo::lte::cuda

#endif
