/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H
#define INCLUDED_GPUTURBO_CONV_CPU_CPU_DECODER_H

#include "../segments.h"
#include "viterbi_kernel.h"

#include <gnuradio/gputurbo/engine/conv/decoder.h>

#include <cstdint>
#include <vector>

namespace gputurbo::conv::cpu {

//! The widest kernel this CPU runs (core::cpu::choose(): GPUTURBO_CPU_KERNEL may pick
//! one by name).
const viterbi_kernel& best_kernel();

/*!
 * \brief The SIMD Viterbi over segments (conv/segments.h), the work both CPU decoders
 * share: groups of kernel.lanes segments, one per lane, on the shared thread pool. Each
 * segment's float LLRs are quantised to -127 … 127 at the scale that maps the mean
 * magnitude of its nonzero LLRs below the clamp (core::llr_limit) to 32: Viterbi
 * decisions do not depend on a common scale, values beyond four times that mean are
 * clipped, and saturated ones (+-Inf) cost the others no precision. int8 LLRs are
 * metrics as they are (window::codes).
 */
class segment_decoder final : public segment_engine
{
public:
    segment_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    void decode(const std::vector<window>& windows,
                std::int64_t run,
                const std::vector<segment>& segments,
                double* owned) override;
    core::backend kind() const override { return core::backend::cpu; }
    std::string device() const override;
    //! The fast BCJR's (gives_fast_soft()).
    bool gives_soft() const override
    {
        return gives_fast_soft(d_config, core::soft_output::app);
    }
    //! A group of lanes for every thread.
    std::size_t preferred_segments() const override
    {
        return std::size_t(d_kernel.lanes) * std::size_t(d_threads);
    }

private:
    //! One worker's buffers, kept from call to call: allocating them anew for every
    //! call costs page faults.
    struct workspace
    {
        std::vector<float> values;            // one lane's LLRs, sanitised
        std::vector<std::int8_t> codes;       // or its punctured int8 LLRs, gathered
        std::vector<std::int16_t> metrics;    // the kernel's input
        std::vector<std::uint32_t> decisions; // its output
        std::vector<std::int16_t> final_metrics;
        std::vector<std::uint32_t> bits; // the traceback's: a word of lanes per step
        std::vector<std::int16_t> soft_scratch, soft_outputs; // the BCJR's
    };

    //! Where a group's lanes write: each lane's decided run steps [lo, hi), its bits
    //! and its LLRs (window::soft).
    struct lanes_out
    {
        std::int64_t lo[32], hi[32];
        std::uint8_t* bits[32]; // of run step lo
        float* soft[32];        // or nullptr
        float factor[32];       // from a BCJR output to the LLR
        bool soft_wanted;       // by any lane
    };

    //! The LLRs of the \p count lanes of a group that want them (window::soft), by the
    //! kernel's BCJR over the group's metrics (\p ws.metrics) and the lanes' segments.
    void write_llrs(const trellis& t,
                    int run,
                    const segment* lane_segments,
                    int count,
                    const lanes_out& to,
                    workspace& ws) const;

    const viterbi_config d_config;
    const viterbi_kernel& d_kernel;
    const int d_threads;
    std::vector<std::uint8_t> d_branch_outputs; // the trellis's, see viterbi_kernel.h
    std::vector<workspace> d_workspaces;        // one per worker
};

/*!
 * \brief The fast CPU Viterbi decoder of frames. A frame is one segment when it fits in
 * a full run of config.geometry (exact Viterbi over the frame; tail-biting: wrap-around
 * Viterbi over the frame extended by training steps before and depth steps after),
 * else it is cut into segments, and all of a batch's segments share the lanes.
 */
class cpu_decoder final : public core::batch_decoder
{
public:
    cpu_decoder(const viterbi_config& config, const viterbi_kernel& kernel);

    void check_block(int frame_bits) const override;
    std::size_t input_length(int frame_bits) const override;
    core::backend kind() const override { return core::backend::cpu; }
    std::string device() const override;
    //! Soft output: the a-posteriori LLRs (app) of the max-log BCJR by the SIMD kernel
    //! over the Viterbi's segments (fast_bcjr.h); log-MAP, code_extrinsic and codes
    //! whose metrics do not fit in int16 by the BCJR reference (write_soft(),
    //! reference_decoder.h).
    bool gives_soft(core::soft_output kind) const override;

private:
    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override;

    const viterbi_config d_config;
    const segment_geometry d_geometry;
    segment_decoder d_segments;
    int d_index_block = 0;                  // the frame size d_sent_index is for
    std::vector<std::int32_t> d_sent_index; // see window; empty when unpunctured
    std::vector<window> d_windows;
    std::vector<segment> d_cut;
    std::vector<double> d_owned;
};

} // namespace gputurbo::conv::cpu

#endif
