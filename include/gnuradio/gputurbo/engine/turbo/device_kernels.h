/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_TURBO_DEVICE_KERNELS_H
#define INCLUDED_GPUTURBO_ENGINE_TURBO_DEVICE_KERNELS_H

/*!
 * \file device_kernels.h
 * \brief The CUDA turbo kernels for codewords already in GPU memory, for a pipeline that
 *        prepares them there (the LTE transport-block receiver combines its soft buffers
 *        on the GPU). Host-only: a stream is CUDA's cudaStream_t, declared here without
 *        the CUDA headers.
 */

#include <gnuradio/gputurbo/engine/core/device_batch.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct CUstream_st; // cudaStream_t is CUstream_st*

namespace gputurbo::turbo {

//! A launch's buffers: [n][codeword_length(K)] int8 LLRs, then 16 bytes; the stop
//! rule's CRC checked in passed.
using device_batch = core::device_batch;

/*!
 * \brief The turbo kernels of one GPU for a given decoder_config: what a block size
 * needs, worked out once, and launches with parameters that may change between launches
 * (iterations, the stop rule). Each block size K runs in cuda_subblocks(config, K)
 * sub-blocks.
 */
class device_kernels
{
public:
    virtual ~device_kernels() = default;
    //! Throws std::invalid_argument unless K is an LTE block size whose sub-blocks and
    //! guard window fit the config and this GPU.
    virtual void check_block(int K) const = 0;
    //! Codewords of K the GPU runs at once with \p c.
    virtual std::size_t resident_codewords(const decoder_config& c, int K) const = 0;
    //! Scratch bytes of n codewords of K with \p c.
    virtual std::size_t
    workspace_bytes(const decoder_config& c, int K, std::size_t n) const = 0;
    //! Enqueues the kernels that decode n codewords of K with \p c's parameters on
    //! \p stream (its early_stop picks the CRC).
    virtual void launch(const decoder_config& c,
                        int K,
                        std::size_t n,
                        const device_batch& b,
                        CUstream_st* stream) = 0;
    //! The GPU as make_decoder(config, "cuda")->device() describes it.
    virtual std::string device() const = 0;
};

//! The kernels of \p config on CUDA device \p device (the current device afterwards);
//! throws std::runtime_error with the reason when the device cannot run them, or when
//! this build has no CUDA.
std::unique_ptr<device_kernels> make_device_kernels(const decoder_config& config,
                                                    int device);

} // namespace gputurbo::turbo

#endif
