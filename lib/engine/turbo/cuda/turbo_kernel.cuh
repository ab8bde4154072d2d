/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CUDA_TURBO_KERNEL_CUH
#define INCLUDED_GPUTURBO_TURBO_CUDA_TURBO_KERNEL_CUH

// Host launchers of the CUDA turbo decoder kernels (turbo_kernel.cu), and their
// contract: the configuration of a launch, the buffers and their sizes, the units.
//
// Work layout: one thread per sub-block of a group of codewords (one codeword in float
// arithmetic, two in packed int16 arithmetic), the P threads of a group in one thread
// block (with `per_block` groups side by side), all iterations in one launch. The
// extrinsic LLRs of a group live in shared memory, so a half-iteration ends with a
// __syncthreads() and decoder 2 gathers through the interleaver without touching
// global memory. The forward recursion keeps alpha only every 4 stages (checkpoints
// in shared memory); the backward recursion recomputes the alphas of 4 stages at a time
// in registers, which trades a fifth more arithmetic for 4 times less memory.

#include "core/cuda/pipeline.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputurbo::turbo::cuda {

//! The turbo kernels' tuning, in one place: the kernels and their launcher read it.
struct turbo_policy
{
    //! Decoding threads per block at most: up to 384, so that one codeword may take P =
    //! 384 sub-blocks (its shortest decoding time). Their register budget, 168 a thread
    //! (min_blocks blocks an SM), is the one that two blocks of 192 share (P = 192, the
    //! throughput configuration, two blocks per SM): enough for the 8-state recursions
    //! with 4 stages of alpha in registers.
    static constexpr int max_threads = 384;
    static constexpr int min_blocks = 1;
    //! Decoding threads per block the launcher aims at, groups side by side.
    static constexpr int threads_target = 128;
    //! Stages whose loads are issued together (the automatic P's multiple, decoder.h).
    static constexpr int segment = cuda_segment_length;
    //! The forward pass keeps alpha every half segment: the backward pass recomputes the
    //! alphas of 4 stages at a time from there (4 stages of alpha fit in registers).
    static constexpr int half_segment = segment / 2;
    //! Training steps per run of loads (in_runs): log-map's steps are three times
    //! max-log's work, and its code must stay small: 4 cover their loads.
    static constexpr int training_run(bool exact) { return exact ? 4 : 8; }
    //! Stages a recursion's loads are issued for together, and whether the segment or
    //! half segment that holds the edge stage runs a copy of its own (so that the others
    //! test nothing). log-map's stages, three times max-log's work, cover their loads 4
    //! at a time, and its code must stay small: with 8-stage segments in two copies its
    //! warps waited on instruction fetch more than on anything else (notes, experiment
    //! 32).
    static constexpr int segment_stages(bool exact)
    {
        return exact ? half_segment : segment;
    }
    static constexpr bool edge_copy(bool exact) { return !exact; }
    //! Stages a preparing thread reads at a time: 12 values, three 4-value vector loads.
    static constexpr int unit_stages = 4;
    //! Preparing threads per block at most, and the blocks an SM holds at least (three
    //! fit its shared memory at K = 6144): a thread keeps both lanes' 6 vector loads in
    //! flight, 24 registers from float input (two blocks: up to 64 registers a thread,
    //! no spills), 6 from int8 (three: up to 40).
    static constexpr int prepare_max_threads = 512;
    static constexpr int prepare_min_blocks(bool int8) { return int8 ? 3 : 2; }
};

struct kernel_config
{
    int K;                   //!< block size
    int P;                   //!< sub-blocks per codeword = threads per codeword
    int w;                   //!< K / P
    int g;                   //!< training window (dstw, pividstw)
    int guarding;            //!< turbo::guard
    int iterations;          //!< full iterations
    int stop;                //!< turbo::stop_rule
    float threshold;         //!< of mean_llr / min_llr, in the metrics' units
    float information_floor; //!< core::information_floor in the metrics' units
    float scale;             //!< extrinsic scaling (1 unless scaled-max-log)
    bool exact;              //!< log-map
    bool invert;             //!< input is ln P(1)/P(0)
    bool streams;            //!< input layout d0 | d1 | d2
    bool int8;               //!< raw holds int8 values instead of float
    float input_scale;       //!< the kernels read an input value x as x * input_scale
    int lanes;        //!< codewords per group: 1 (float metrics) or 2 (int16 metrics)
    int scale_q15;    //!< int16: the extrinsic scaling times 2^15
    unsigned w_magic; //!< ceil(2^32 / w): k / w = umulhi(k, w_magic) for k, w < 2^16
    int per_block;    //!< groups per thread block
    std::size_t shared_bytes; //!< dynamic shared memory per thread block
};

struct device_buffers
{
    const void* raw; //!< [n][3K+12] input LLRs as given (float or int8)
    //! [groups][2 decoders][stages in stage_layout order, then the 3 tail stages]
    //! {sys, par} of 8 bytes: float2 | 2 x s16x2
    void* trellis;
    float* edges; //!< [groups][2 decoders][2 buffers][2 alpha|beta][8][P], 4 bytes each
    std::uint8_t* bits;          //!< [n][K] hard decisions, one byte per bit,
                                 //!< or [n][K / 8] packed (packed_bits);
                                 //!< 8-byte aligned
    bool packed_bits;            //!< 8 bits a byte, the first the highest
    float* soft;                 //!< [n][K] soft output (core::soft_values), or nullptr
    core::soft_output soft_kind; //!< what soft gets: app or extrinsic
    int* iterations;             //!< [n]
    unsigned char* passed;       //!< [n]
    const std::uint32_t* crc_contribution; //!< [K] CRC remainder of a 1 at bit k
    const std::uint32_t* interleaved;      //!< interleaved_stages(K, P)
};

constexpr int words_per_codeword(int K) { return (K + 31) / 32; }

//! Codewords per group: 2 with int16 metrics, else 1.
int lanes_for(arithmetic a);

/*!
 * \brief The launch configuration of a batch of block size K in P sub-blocks, of
 * `lanes` codewords per group and per_block groups per thread block, from float or int8
 * input. It holds the decoder's parameters in the kernels' units.
 */
kernel_config make_kernel_config(
    const decoder_config& d, int K, int P, int lanes, int per_block, bool int8);

//! Device scratch (the trellis inputs and the edge metrics) of n codewords.
std::size_t workspace_bytes(const kernel_config& c, std::size_t n);

//! The kernels' buffers inside the pipeline's buffers of one batch.
device_buffers buffers_of(const kernel_config& c,
                          std::size_t n,
                          const core::cuda::batch_buffers& b,
                          const std::uint32_t* crc_contribution,
                          const std::uint32_t* interleaved);

/*!
 * \brief The second decoder's stages in the kernels' order (turbo_kernel.cu's
 * stage_layout, for stage k = q w + j of sub-block q): pi(k) << 16 | the byte offset of
 * the shared-memory slot of pi(k), so that the kernel finds where each interleaved stage
 * reads and writes its extrinsic value by one load.
 */
std::vector<std::uint32_t> interleaved_stages(int K, int P);

//! Shared memory one group of `lanes` codewords needs in the decoding kernel.
std::size_t shared_bytes_per_group(int K, int P, int lanes);

//! Static shared memory of the decoding kernel (beside the dynamic part).
std::size_t static_shared_bytes();

//! Sanitises and reorders n codewords from raw into trellis (groups of c.lanes).
void launch_prepare(const kernel_config& c,
                    const device_buffers& b,
                    int n,
                    cudaStream_t s);

//! Thread blocks of the decoding kernel that run at once on one multiprocessor.
int resident_blocks_per_sm(const kernel_config& c);

//! Decodes n prepared codewords; with soft output wanted, the decode kernel leaves
//! each codeword's a-posteriori LLRs in the kernels' units and a last kernel makes them
//! the values asked for.
void launch_decode(const kernel_config& c,
                   const device_buffers& b,
                   int n,
                   cudaStream_t s);

//! Lets the kernels of an arithmetic (lanes) and algorithm (exact: log-map) use up to
//! \p bytes of dynamic shared memory.
void configure_kernels(int lanes, bool exact, std::size_t bytes);

} // namespace gputurbo::turbo::cuda

#endif
