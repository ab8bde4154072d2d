/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CONV_CUDA_VITERBI_KERNEL_CUH
#define INCLUDED_GPUTURBO_CONV_CUDA_VITERBI_KERNEL_CUH

// Host launchers of the CUDA Viterbi kernel (viterbi_kernel.cu) and their contract.
//
// Work layout: a preparing kernel measures each segment (conv/segments.h) and quantises
// its LLRs as the CPU decoder does (conv/quantize.h; int8 LLRs are metrics) into int8
// metrics laid out for the decoding kernel, a block per 32 pairs of segments, its loads
// and stores coalesced. int8 LLRs are metrics already; where they lie side by side in
// words (one per coded bit, not circular, two or four outputs, every segment's first
// on a 4-byte boundary), the decoding kernel reads them itself, sums the owned steps'
// magnitudes (for the frame status) as it goes (and, for soft output, writes the
// metrics as the preparing kernel would), and no preparing kernel runs. A
// decoding thread decodes a pair of segments at a time, the two in the halves of packed
// int16 registers (core/cuda/s16x2.cuh), so that one instruction serves both; the grid
// is what the GPU holds at once, each thread taking pairs one after another. A thread
// reads the metrics of up to four steps with one load (two words a segment when it
// reads the LLRs itself), runs the trellis with every path metric in a
// register (up to K = 7), writes one decision bit per state, step and segment to its
// region of the scratch (a row of a step with one store), and traces both segments back
// from there while it runs the next pair (which writes its rows over the traced ones),
// gathering the decided bits 32 to a word; a last kernel writes them to the output,
// consecutive threads on consecutive bits. The path metrics are the CPU
// decoder's integers (wrapping, or renormalised where an add-max needs them not to) and
// ties go the same way, so that the decisions are the CPU decoder's, bit for bit. The
// presets' codes (presets.h) have kernels of their own, whose branch metrics are
// registers chosen when compiling; a symmetric code (every generator taps the current
// and the oldest bit, as all presets' do) runs each butterfly on one branch metric:
// beta, -beta, -beta, beta.

#include "core/cuda/s16x2.cuh"
#include <gnuradio/gputurbo/engine/conv/code.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gputurbo::conv::cuda {

constexpr int max_states = 256; // K = 9
constexpr int max_outputs = 4;  // rate 1/4

// Steps whose metrics of a pair of segments make a group of 16 bytes (int8, both
// segments, padded to an even count of coded bits): two words a segment where the
// decoding kernel reads int8 LLRs itself.
__host__ __device__ constexpr int group_steps_of(int outputs)
{
    return outputs <= 2 ? 4 : 2;
}

//! The metrics of step k of a prepared group (prepared_metrics()), k < group_steps_of(N)
//! (a constant where the caller knows it): bytes A_o and B_o sign-extended to the halves
//! of m[o].
template <int N>
__device__ __forceinline__ void
group_step_metrics(const uint4& group, int k, core::cuda::s16x2 (&m)[N])
{
    using core::cuda::sign_extend_pair;
    if constexpr (N <= 2) { // 4 bytes a step: word k
        const unsigned w = k == 0   ? group.x
                           : k == 1 ? group.y
                           : k == 2 ? group.z
                                    : group.w;
        m[0].v = sign_extend_pair<0>(w);
        m[1].v = sign_extend_pair<2>(w);
    } else { // 8 bytes a step: words 2k and 2k + 1
        const unsigned w0 = k == 0 ? group.x : group.z, w1 = k == 0 ? group.y : group.w;
        m[0].v = sign_extend_pair<0>(w0);
        m[1].v = sign_extend_pair<2>(w0);
        m[2].v = sign_extend_pair<0>(w1);
        if constexpr (N == 4)
            m[3].v = sign_extend_pair<2>(w1);
    }
}

//! viterbi_job::owned of a segment that ends in state 0 (the tail of a terminated
//! frame) where another state's metric is the best: its frame fails.
constexpr long long missed_end_state = -1;

//! A segment relative to its window (conv/segments.h).
struct device_segment
{
    long long first; //!< the run's first step
    long long begin; //!< the bits it decides: [begin, end)
    long long end;
    long long owned_end; //!< its owned steps: [begin, owned_end)
    int start_zero;      //!< the run starts in state 0
    int end_zero;        //!< the traceback starts in state 0
};

//! The code as the kernel reads it. An inverted output is the uninverted one with its
//! LLRs negated, so the branches are those of the uninverted polynomials.
struct trellis
{
    int constraint;
    int outputs;
    unsigned polynomials[max_outputs];
    unsigned inverted; //!< bit o: output o is inverted
    //! [ns * 2 + b]: the coded bits (bit o: output o) of the branch p_b -> ns, p_b =
    //! ((ns << 1) & (S - 1)) | b, as in conv/segments.h's branch_outputs()
    unsigned char branch_outputs[2 * max_states];
};

trellis make_trellis(const code& c);

/*!
 * \brief One launch: windows of LLRs (the frames of a batch, or a stream's held part),
 * each cut into the same segments.
 */
struct viterbi_job
{
    //! window w's LLRs start at llrs + w * window_stride; int8: the buffer is readable
    //! core::cuda::llr_padding bytes past the last window
    const void* llrs;
    bool int8; //!< llrs holds int8 values: metrics, whose magnitudes are q * int8_unit
    float int8_unit; //!< 1 / int8_scale
    bool invert;     //!< the LLRs are ln P(1)/P(0)
    std::size_t window_stride;
    const int* sent_index; //!< [steps * outputs]: the index of each coded bit's LLR,
                           //!< -1 where punctured; nullptr: one LLR per coded bit
    long long steps;       //!< trellis steps of a window
    bool circular;         //!< tail-biting: step -1 is the last
    //! window w's bit k goes to bits[w * out_stride + k - out_origin]
    std::uint8_t* bits;
    std::size_t out_stride;
    long long out_origin;
    //! [per_window], the same for every window, sorted by their first decided bit
    const device_segment* segments;
    long long decided_begin; //!< the bits a window's segments decide: [begin, end)
    long long decided_end;
    int per_window;
    int windows;
    int run; //!< steps of every segment's run
    //! every segment's first LLR lies a multiple of 4 bytes from its window's start
    bool firsts_aligned;
    //! decoding_threads(): the decoding kernel's threads at most (each decodes pairs
    //! of segments one after another)
    std::size_t threads;
    unsigned char* scratch; //!< scratch_bytes() bytes, 16-byte aligned
    //! [windows * per_window] fixed-point |L| sums of the owned steps
    //! (conv/quantize.h), missed_end_state where an end_zero segment's best end state
    //! is not 0; or nullptr
    long long* owned;
    //! [windows * per_window] out, or nullptr: each segment's scale, the metric of an
    //! LLR of 1 (conv/quantize.h; int8: int8_scale). Set, the metrics stay in the
    //! scratch as prepared_metrics() lays them out, for launch_bcjr() after it: the
    //! preparing kernel's, or those of a decoding kernel that reads int8 LLRs itself.
    float* scales = nullptr;
};

//! Segment pairs (threads) of a job.
__host__ __device__ inline std::size_t segment_pairs(std::size_t segments)
{
    return (segments + 1) / 2;
}

/*!
 * \brief Threads of t's decoding kernels that the current GPU holds at once: the grid of
 * a launch, at most. The scratch keeps the decision rows of one pair a thread, which the
 * thread's next pair overwrites as it traces them.
 */
std::size_t decoding_threads(const trellis& t);

//! Scratch bytes a launch over \p segments segments of \p run steps needs, with at most
//! \p threads decoding threads.
std::size_t
scratch_bytes(const trellis& t, std::size_t segments, int run, std::size_t threads);

//! Enqueues the Viterbi over every segment of \p job on \p s.
void launch_viterbi(const trellis& t, const viterbi_job& job, cudaStream_t s);

/*!
 * \brief Where launch_viterbi() leaves a job's prepared metrics in its scratch (a job
 * with scales): groups of 16 bytes, [group][pair], each group_steps_of(outputs) steps of
 * both segments of a pair, a step's int8 metrics A0 B0 A1 B1 … (segment A of pair p is
 * the job's segment 2 p; B of an odd count's last pair repeats A).
 */
const uint4* prepared_metrics(const trellis& t, const viterbi_job& job);

/*!
 * \brief Enqueues the status of each of \p windows frames: iterations 0, passed when no
 * segment missed its end state and the mean |L| over its \p sent LLRs (the sum of its
 * segments' owned sums) reaches core::information_floor.
 */
void launch_frame_status(const long long* owned,
                         int per_window,
                         int windows,
                         std::size_t sent,
                         int* iterations,
                         unsigned char* passed,
                         cudaStream_t s);

} // namespace gputurbo::conv::cuda

#endif
