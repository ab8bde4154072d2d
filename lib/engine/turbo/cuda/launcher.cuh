/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CUDA_LAUNCHER_CUH
#define INCLUDED_GPUTURBO_TURBO_CUDA_LAUNCHER_CUH

// The turbo kernels of one GPU for whoever holds codewords in device memory: the batch
// decoder's pipeline (cuda_decoder.cu) and the transport-block pipeline (lte/cuda). It
// works out what a block size needs once (thread-block shape, CRC and interleaver
// tables) and launches with the caller's parameters, which may change between launches
// (iterations, the stop rule).

#include "core/cuda/memory.h"
#include "core/cuda/pipeline.h"
#include "turbo_kernel.cuh"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gputurbo::turbo::cuda {

//! A GPU as the CUDA turbo decoders describe it: name, SMs, the arithmetic of \p lanes,
//! P at K, and the CUDA \p versions.
std::string describe(const cudaDeviceProp& prop,
                     int device,
                     int lanes,
                     int K,
                     int P,
                     const std::string& versions);

//! Tables the kernels read, on the device, each made once under its key.
using device_tables =
    std::map<std::pair<int, int>, core::cuda::device_array<std::uint32_t>>;

class launcher
{
public:
    //! For decoders of \p config's arithmetic and algorithm on a GPU of \p prop (the
    //! current device).
    launcher(const decoder_config& config, const cudaDeviceProp& prop);

    //! Throws std::invalid_argument when K in P sub-blocks does not fit this GPU.
    void check(int K, int P) const;
    //! Codewords per GPU thread group: 2 with int16 metrics, else 1.
    int lanes() const { return d_lanes; }
    //! Codewords of K in P sub-blocks that the GPU runs at once.
    std::size_t resident_codewords(const decoder_config& c, int K, int P) const;
    //! Scratch bytes of n codewords.
    std::size_t
    workspace_bytes(const decoder_config& c, int K, int P, std::size_t n) const;
    //! Enqueues the kernels that decode n codewords of \p b on \p s, with \p c's
    //! parameters (its early_stop picks the CRC table).
    void launch(const decoder_config& c,
                int K,
                int P,
                std::size_t n,
                const core::cuda::batch_buffers& b,
                cudaStream_t s);

private:
    int per_block(int K, int P) const; // groups of codewords side by side in a block
    kernel_config config_of(const decoder_config& c, int K, int P, bool int8) const;

    const int d_lanes;
    const int d_multiprocessors;
    std::size_t d_shared_limit = 0;
    // CRC remainder of a 1 at each bit of a block, by (CRC, K), for the CRC stop rules.
    device_tables d_crc;
    // interleaved_stages(K, P), by (K, P).
    device_tables d_interleaved;
};

} // namespace gputurbo::turbo::cuda

#endif
