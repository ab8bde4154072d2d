/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_PDU_BATCHER_H
#define INCLUDED_GPUTURBO_COMMON_PDU_BATCHER_H

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/host_memory.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gputurbo {
namespace common {

//! The soft output of a batch: its kind (none: bits only), as float or as int8 in units
//! of int8_scale (core::soft_values).
struct soft_format
{
    ::gputurbo::core::soft_output kind = ::gputurbo::core::soft_output::none;
    bool int8 = false;
    float int8_scale = 0.0f;
};

//! One PDU of a batch: what the family's block parsed, and what decoding gave it.
struct pdu_job
{
    int block = 0;               //!< information bits; set when error is empty
    const float* llrs = nullptr; //!< input_length(block) LLRs, alive until decode returns
    std::string error;           //!< why it cannot be, or was not, decoded
    const std::uint8_t* bits = nullptr; //!< after decode(): its block bits
    //! after a decode() of soft output: its engine.soft_length(block, kind) values,
    //! float or std::int8_t as the soft_format says
    const void* soft = nullptr;
    ::gputurbo::core::codeword_status status;
};

/*!
 * \brief Decodes a batch of PDUs of any block sizes with one engine: one engine call per
 * block size among them, all submitted before any is collected (so on CUDA they run
 * concurrently), through page-locked buffers that are kept and grown.
 */
class pdu_batcher
{
public:
    //! Decodes every job without an error, with the soft values of \p soft beside the
    //! bits unless its kind is none. A job whose block size the engine refuses, or whose
    //! engine call fails, gets the reason in its error; none is skipped.
    void decode(::gputurbo::core::batch_decoder& engine,
                std::vector<pdu_job>& jobs,
                const soft_format& soft);

private:
    ::gputurbo::core::host_buffer<float> d_llrs; // one block size's LLRs, gathered
    ::gputurbo::core::host_buffer<std::uint8_t> d_bits;
    // With soft output, beside d_bits: float values, or int8 ones.
    ::gputurbo::core::host_buffer<float> d_soft;
    ::gputurbo::core::host_buffer<std::int8_t> d_soft_int8;
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
