/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_DEVICE_BATCH_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_DEVICE_BATCH_H

/*!
 * \file device_batch.h
 * \brief The buffers of one launch of a code family's kernels on codewords already in
 *        GPU memory (turbo::device_kernels, conv::device_kernels).
 */

#include <cstdint>

namespace gputurbo::core {

//! A launch's buffers, all in the device memory of the kernels' GPU.
struct device_batch
{
    //! [n][the family's input length] int8 LLRs, then the family's padding bytes, which
    //! may be read and are not used
    const std::int8_t* llrs;
    std::uint8_t* bits;       //!< [n][block] hard decisions out, one byte per bit
    int* iterations;          //!< [n] out (0 where the code does not iterate)
    unsigned char* passed;    //!< [n] out: the codeword status (core::codeword_status)
    unsigned char* workspace; //!< the kernels' workspace_bytes() of scratch
};

} // namespace gputurbo::core

#endif
