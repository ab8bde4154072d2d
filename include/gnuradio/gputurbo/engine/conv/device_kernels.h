/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CONV_DEVICE_KERNELS_H
#define INCLUDED_GPUTURBO_ENGINE_CONV_DEVICE_KERNELS_H

/*!
 * \file device_kernels.h
 * \brief The CUDA Viterbi kernels for frames already in GPU memory, for a pipeline that
 *        prepares them there (the PDCCH's blind search builds its candidates' frames on
 *        the GPU). Host-only: a stream is CUDA's cudaStream_t, declared here without
 *        the CUDA headers.
 */

#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/core/device_batch.h>

#include <cstddef>
#include <cstdint>
#include <memory>

struct CUstream_st; // cudaStream_t is CUstream_st*

namespace gputurbo::conv {

//! Bytes after a launch's LLRs that its kernels may read and do not use.
constexpr std::size_t device_llr_padding = 16;

//! A launch's buffers: [n][input_length(frame_bits)] int8 LLRs, then
//! device_llr_padding bytes; the frame status in passed.
using device_batch = core::device_batch;

/*!
 * \brief The Viterbi kernels of one GPU for a viterbi_config: the decisions of the
 * decoder make_viterbi_decoder(config, "cuda") gives, bit for bit.
 */
class device_kernels
{
public:
    virtual ~device_kernels() = default;
    //! int8 LLRs of a frame of \p frame_bits bits (throws std::invalid_argument for a
    //! size the config cannot decode).
    virtual std::size_t input_length(int frame_bits) const = 0;
    //! Scratch bytes of n frames of \p frame_bits bits.
    virtual std::size_t workspace_bytes(int frame_bits, std::size_t n) const = 0;
    //! The CUDA device they run on.
    virtual int gpu() const = 0;
    //! Enqueues the kernels that decode n frames on \p stream.
    virtual void
    launch(int frame_bits, std::size_t n, const device_batch& b, CUstream_st* stream) = 0;
};

//! The kernels of \p decoder, a CUDA decoder of frames on one GPU (its config and
//! device), or nullptr for any other decoder (and in a build without CUDA).
std::unique_ptr<device_kernels> device_kernels_of(const core::batch_decoder& decoder);

} // namespace gputurbo::conv

#endif
