/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_PIPELINE_H
#define INCLUDED_GPUTURBO_CORE_CUDA_PIPELINE_H

// The CUDA side of the batch API for any code family: batches travel through the slots
// of a slot_ring (a stream, its events, page-locked staging and device buffers each), so
// that copies in, kernels and copies out of different batches overlap. A family supplies
// the kernels.

#include "memory.h"
#include "slot_ring.h"

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/device_batch.h>

#include <memory>
#include <string>
#include <vector>

namespace gputurbo::core::cuda {

//! Bytes past a batch's LLRs that its kernels may read (and must not use): whole words
//! may be loaded where the last ones end mid-word.
constexpr std::size_t llr_padding = 16;

//! Checks device \p device (runtime.h's check_device()), makes it current and returns
//! its properties.
cudaDeviceProp open_device(int device);

//! Whether the DMA engines can read or write [p, p + bytes) directly: page-locked memory
//! (host_buffer, cudaHostAlloc, cudaHostRegister) needs no staging copy.
bool page_locked(const void* p, std::size_t bytes);

//! memcpy spread over a few threads: one core cannot keep up with the bus.
void parallel_copy(void* dst, const void* src, std::size_t bytes);

//! The device buffers of one batch, reserved by the pipeline for the family's kernels.
struct batch_buffers
{
    const void* llrs;         //!< [n][input_length(block)] as given: float or int8,
                              //!< then llr_padding bytes
    bool int8;                //!< llrs holds int8 values
    std::uint8_t* bits;       //!< [n][block] hard decisions out, one byte per bit, or
                              //!< [n][(block + 7) / 8] packed (bit_format::packed)
    bool packed_bits;         //!< bits are packed (the batch asked; see packs_bits())
    float* soft;              //!< [n][block] soft output (llr_batch::soft), or nullptr
    soft_output soft_kind;    //!< what soft holds
    int* iterations;          //!< [n] out
    unsigned char* passed;    //!< [n] out
    unsigned char* workspace; //!< workspace_bytes(block, n) bytes of scratch
};

//! A caller's int8 launch on the device (device_batch) as the pipeline's buffers: no soft
//! output, the bits one a byte.
inline batch_buffers buffers_of(const device_batch& b)
{
    batch_buffers buffers{};
    buffers.llrs = b.llrs;
    buffers.int8 = true;
    buffers.bits = b.bits;
    buffers.iterations = b.iterations;
    buffers.passed = b.passed;
    buffers.workspace = b.workspace;
    return buffers;
}

//! What a code family gives the pipeline: its shapes and its kernels.
class family_kernels
{
public:
    virtual ~family_kernels() = default;
    //! LLRs per codeword of a block size.
    virtual std::size_t input_length(int block) const = 0;
    //! Scratch bytes the kernels need for n codewords of a block size.
    virtual std::size_t workspace_bytes(int block, std::size_t n) const = 0;
    //! Codewords per chunk of a decode() of \p count codewords: enough to fill the GPU a
    //! few times over.
    virtual std::size_t chunk_codewords(int block, std::size_t count) = 0;
    //! Enqueues the kernels that decode n codewords on \p s.
    virtual void
    launch(int block, std::size_t n, const batch_buffers& b, cudaStream_t s) = 0;
};

/*!
 * \brief Batches of one family on one GPU. decode() cuts a batch into chunks that go
 * through two slots in turn (while the GPU decodes one chunk, the host copies the next
 * one in and the previous one out); submit() takes a slot of its own until collected.
 * Page-locked input and output are moved by DMA with no staging copy. int4 input is
 * copied as it is and unpacked to int8 on the GPU (a kernel counted in the device time),
 * so the family's kernels see int8.
 */
class pipeline
{
public:
    //! Makes device \p device current; throws std::runtime_error when it does not exist
    //! or cannot run this build.
    pipeline(int device, family_kernels& kernels);
    ~pipeline();
    pipeline(const pipeline&) = delete;
    pipeline& operator=(const pipeline&) = delete;

    //! b's soft values (b.soft) go to b.soft.values.
    void decode(const llr_batch& b, std::uint8_t* bits, codeword_status* status);
    //! Starts a batch under ticket \p t; returns once the input has been read.
    void submit(batch_decoder::ticket t, const llr_batch& b);
    //! Waits for batch \p t; throws std::invalid_argument for an unknown ticket. Its
    //! soft values, if it was submitted with some, go to \p soft.
    void collect(batch_decoder::ticket t,
                 std::uint8_t* bits,
                 codeword_status* status,
                 float* soft = nullptr);
    //! Batches submitted and not yet collected.
    std::size_t outstanding() const;

    //! Kernel time of the last decode() or collect().
    double device_seconds() const { return d_device_seconds; }
    int device() const { return d_device; }
    const cudaDeviceProp& properties() const { return d_prop; }
    //! "CUDA driver 13.0, runtime 13.0"
    const std::string& versions() const { return d_versions; }

private:
    struct batch_slot;
    void enqueue(batch_slot& sl, const llr_batch& b, std::uint8_t* bits_out);
    void finish(batch_slot& sl, std::uint8_t* bits, codeword_status* status, float* soft);

    const int d_device;
    family_kernels& d_kernels;
    const cudaDeviceProp d_prop;
    const std::string d_versions;
    // Up to max_in_flight for submitted batches (the caller checks their count) and two
    // more, so that decode() also runs while batches are outstanding.
    std::unique_ptr<slot_ring<batch_slot>> d_slots;
    batch_slot* d_last_enqueued = nullptr; // whose kernels the next batch's wait for
    double d_device_seconds = 0.0;
};

} // namespace gputurbo::core::cuda

#endif
