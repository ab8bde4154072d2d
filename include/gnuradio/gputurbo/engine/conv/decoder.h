/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CONV_DECODER_H
#define INCLUDED_GPUTURBO_ENGINE_CONV_DECODER_H

/*!
 * \file decoder.h
 * \brief Viterbi decoding of the convolutional codes of conv/code.h: configuration and
 *        factory. A decoder is a core::batch_decoder whose block size is the frame's
 *        information bits.
 *
 * Input per frame: the punctured_length() LLRs of the sent coded bits, in the order of
 * conv/code.h, with the engine's sign (core/llr.h: L = ln P(0)/P(1), positive means 0;
 * invert_llr takes the other). NaN is an erasure and values are clamped to
 * +-core::llr_limit, as for every family. Output: frame_bits hard bits per frame.
 * Status: iterations 0, passed true unless the frame carries no information (the mean
 * |L| of its sent LLRs, after the clamp, is below core::information_floor) or, when
 * terminated, a state other than 0, where the tail leads, has the best end metric (of
 * equals, the lower state wins): a frame cut from the wrong place of a stream fails so,
 * but for a chance of about 2^-(K-1). Truncated and tail-biting frames have no such
 * test. Ties between paths go to the lower state, so an erased frame decodes to zeros.
 *
 * Soft output (core::batch_decoder::decode_soft(), frames), in the sign of the input,
 * within +-core::llr_limit: kind app, each information bit's a-posteriori LLR; kind
 * code_extrinsic, each sent code bit's a-posteriori LLR less its input (what an
 * equaliser or demapper takes back). The reference backend computes both by the BCJR
 * algorithm of viterbi_config::soft_algorithm over the whole frame in double (the exact
 * reference, conv/bcjr.h), its bits the information bits' signs (1 where the engine's
 * LLR is negative), which with max-log are the exact Viterbi decoder's for terminated and
 * truncated frames (but for exact ties), at the reference's cost (one core, K = 7 rate
 * 1/2: about gr-trellis's siso_f, docs/PERFORMANCE.md; tail-biting, 2^(K-1) passes, 40
 * to 60 times slower). The cpu and cuda backends compute app with max-log by the fast
 * BCJR (conv/fast_bcjr.h): the int16 metrics of their Viterbi over the same segments,
 * the same values on both bit for bit, the exact reference's where the metrics are the
 * LLRs themselves (int8 input at int8_scale 1, a frame of one segment; else within the
 * quantisation of the LLRs to metrics); the bits are decode()'s, the values' signs but
 * where a value is 0 (a tie). The cpu backend gives the rest (log-MAP, code_extrinsic,
 * codes of K = 9 with four outputs, whose metrics do not fit in int16) by the
 * reference, the frames shared over config.threads; the cuda backend refuses them
 * (std::invalid_argument). The status is decode()'s (the backend's hard decoder runs
 * too, for it). Kind extrinsic is refused: an information bit of a convolutional code
 * has no input LLR of its own to take away. Streams (stream_decoder) give hard bits
 * only.
 */

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputurbo::conv {

/*!
 * \brief How long frames and streams are cut into overlapping segments, decoded side by
 * side (on SIMD lanes, cores, GPU threads). Segment i decides bits [i*bits, (i+1)*bits)
 * of its frame or stream from a run of the trellis that starts \p training steps before
 * them, in every state alike (in state 0 at the start of a frame or stream), and goes
 * on \p depth steps after them, traced back from the best state there (from state 0 at
 * the end of a terminated frame). A frame that fits in one run, bits + training + depth
 * steps, is decoded in one piece; a tail-biting frame's run goes round it, training
 * steps before its start and depth steps past its end (wrap-around Viterbi). 0 takes
 * the value derived from the code: see derived_geometry().
 */
struct segment_geometry
{
    int bits = 0;     //!< f: bits a segment decides
    int training = 0; //!< v1: steps before them whose decisions are not kept
    int depth = 0;    //!< v2, the decision depth D: steps after them to trace back over
};

//! How the BCJR of soft output combines paths: log-sum-exp, or only the best one.
enum class soft_algorithm {
    log_map, //!< exact: max*(a, b) = max(a, b) + log1p(exp(-|a - b|))
    max_log  //!< max(a, b): the best path's metric, as Viterbi compares them
};

struct viterbi_config
{
    code generator = preset("802.11"); //!< the code
    termination mode = termination::terminated;
    puncturing punctured;      //!< none by default
    segment_geometry geometry; //!< 0s: derived_geometry()
    //! Streams: find the phase of the steps in the LLRs and follow it (sync_change)
    bool node_sync = false;
    bool invert_llr = false; //!< true: the input is L = ln P(1)/P(0)
    //! int8 input: L = q / int8_scale. The fast decoders (CPU and CUDA) take each q of a
    //! frame or stream as its metric as it is (-128 as -127): the scale sets only the
    //! magnitudes behind the frame status; the reference decoder reads L.
    float int8_scale = 8.0f;
    int threads = 0;           //!< CPU worker threads, 0 = all cores
    std::string devices = "0"; //!< CUDA devices: "0", "0,1" or "all"
    //! Soft output only (decode_soft()): the BCJR's arithmetic
    conv::soft_algorithm soft_algorithm = conv::soft_algorithm::max_log;

    //! Throws std::invalid_argument naming what is wrong.
    void validate() const;
};

/*!
 * \brief The geometry with every 0 of \p config.geometry replaced by its default: depth
 * = 5 K / (1 - R) steps, R the punctured code's rate (10 K unpunctured at rate 1/2, 20 K
 * at 3/4), rounded up to whole puncturing periods; training = depth; bits = 32 depth, so
 * that the overlaps cost a sixteenth. Measured BER: docs/journal.md.
 */
segment_geometry derived_geometry(const viterbi_config& config);

/*!
 * \brief A Viterbi decoder of frames. \p backend: "reference" (the exact full-length
 * Viterbi in float, the oracle every fast path is tested against; tail-biting: exact
 * maximum likelihood over every start state), "cpu" (the SIMD decoder: int16 metrics,
 * one segment per lane, AVX-512, AVX2 or SSE2 as the CPU has them; frames longer than
 * a segment are cut as config.geometry says; tail-biting by wrap-around Viterbi; see
 * conv/cpu/cpu_decoder.h), "cuda" (the same segments and arithmetic on the GPUs of
 * config.devices, two segments per thread: the CPU decoder's decisions, bit for bit)
 * or "auto" (cuda where it can run, else cpu). Throws std::invalid_argument for a bad
 * configuration, an unknown backend name, and for termination streaming
 * (make_stream_decoder() decodes streams); std::runtime_error for cuda where it cannot
 * run.
 */
std::unique_ptr<core::batch_decoder> make_viterbi_decoder(const viterbi_config& config,
                                                          const std::string& backend);

/*!
 * \brief A change of a stream's node synchronisation (viterbi_config::node_sync): where
 * its steps start in the LLRs, and whether they are decoded negated.
 *
 * A receiver that joins a stream, or whose symbol clock slips, does not know which
 * LLRs make a step: with rate 1/n, n phases (with puncturing, the LLRs of a period).
 * Node synchronisation runs a Viterbi over a window of node_sync_window steps for each
 * phase, and each inversion where the code shows it, and takes the one whose best path
 * metric grows fastest for its LLRs' magnitudes (a sequence out of phase is no code
 * sequence, and its best path agrees with it less). It checks again every
 * node_sync_interval steps of the stream (a grid of its LLRs, so that the output does
 * not depend on how the stream comes in), and takes another hypothesis when it does
 * better by node_sync_margin: the stream decoded so far ends (its last bits traced back
 * from the best state) and a stream from any state starts at the first LLR of the new
 * phase, a few LLRs dropped. The first window's LLRs wait for it: no bit is decoded
 * before the phase is known. Output bits count from the stream's start. The metrics
 * run on the CPU (about a sixth of the CPU decoder's time at rate 1/2), the stream on the
 * backend. A code whose generators all have odd weight (CCSDS, 802.11, DVB, LTE, CDMA)
 * is transparent: the negated LLRs of a code sequence are another code sequence, whose
 * bits are the complements; no metric tells them apart, so its streams decode as they
 * come, inverted bits for an inverted stream, which a frame synchroniser (an attached
 * sync marker in both polarities) or NRZ-M resolves, as CCSDS intends. Other codes
 * (GSM's 23,33) are checked inverted too.
 */
struct sync_change
{
    //! the first output bit decoded so, counted from the stream's start
    std::uint64_t bit;
    //! the first LLR of its first step, counted from the stream's start
    std::uint64_t llr;
    int offset;    //!< llr modulo the LLRs of a puncturing period (n unpunctured)
    bool inverted; //!< the LLRs are decoded negated (a 180 degree phase)
};

//! Node synchronisation's steps per window, between checks, and the margin (of the
//! growth of the best metric over the LLRs' magnitudes) another hypothesis must beat.
constexpr std::int64_t node_sync_window = 1024;
constexpr std::int64_t node_sync_interval = std::int64_t(1) << 16;
constexpr double node_sync_margin = 0.02;

/*!
 * \brief A decoder of one continuous stream (termination streaming): the coded bits of
 * an endless input sequence, from encoder state 0, punctured by a pattern that runs on
 * from call to call. LLRs go in as they come, any number per call (a step's LLRs may be
 * split between calls); decided bits come out in order, each once, never ahead of the
 * decision depth. The output does not depend on how the input is cut into calls, nor
 * on how many batches are in flight. flush() ends the stream (the last bits traced back
 * from the best state) and the next decode() starts a new one. A stream's LLRs are all
 * float or all int8 (the fast decoders read int8 as frames do: each q its metric).
 * Not safe for concurrent calls on one object.
 *
 * Batches in flight (set_batches_in_flight()): with 1, the default, decode() returns
 * once every bit more than depth + bits steps behind the newest is out (the "reference"
 * backend releases each bit as soon as every survivor agrees on it). A GPU decodes
 * a call's segments in one launch whose time hardly depends on its size: with n > 1, a
 * decode() returns once the GPU has read the LLRs (page-locked ones by DMA, straight
 * from the caller's memory), and its bits come with a later call, wait() or flush().
 * While n batches are in flight, small calls are gathered into the next batch (copied,
 * up to gather_limit LLRs held); a larger one waits for the oldest batch instead. Host
 * backends decode each batch at once whatever n is.
 */
class stream_decoder
{
public:
    //! LLRs held for the next batch at most while every batch is in flight.
    static constexpr std::size_t gather_limit = std::size_t(1) << 18;
    //! Steps of a batch's window at most: a call's segments beyond go in further
    //! batches (so that device buffers and the kernels' 32-bit counts stay bounded).
    static constexpr std::int64_t batch_steps = std::int64_t(1) << 23;

    virtual ~stream_decoder();

    /*!
     * \brief Takes \p count LLRs (the engine's sign, or invert_llr; NaN is an erasure,
     * values clamped as for frames) and writes the bits it decides to \p bits: at most
     * output_bound(count). Returns how many. With soft output (set_soft_output()), each
     * bit's a-posteriori LLR goes to \p soft beside it (soft[i] for bits[i]). Throws
     * std::invalid_argument for a stream whose LLRs change type, and for \p soft given
     * without soft output or missing with it.
     */
    std::size_t decode(const float* llrs,
                       std::size_t count,
                       std::uint8_t* bits,
                       float* soft = nullptr);
    std::size_t decode(const std::int8_t* llrs,
                       std::size_t count,
                       std::uint8_t* bits,
                       float* soft = nullptr);

    //! Waits for the oldest batch in flight and writes its bits (at most
    //! output_bound(0)), and their LLRs with soft output; returns how many, 0 when none
    //! is in flight.
    std::size_t wait(std::uint8_t* bits, float* soft = nullptr);

    //! Ends the stream: writes its undecided bits (at most output_bound(0)), and their
    //! LLRs with soft output, returns how many, and starts a new stream. A step whose
    //! LLRs came only in part is dropped.
    std::size_t flush(std::uint8_t* bits, float* soft = nullptr);

    /*!
     * \brief Soft output: each decided bit's a-posteriori LLR beside it, the max-log of
     * the fast BCJR over the same segments as the bits (conv/fast_bcjr.h), in the sign
     * of the input, within +-core::llr_limit; a value of 0 is a tie (the bit is the
     * Viterbi's). Between streams only (std::logic_error once a stream has LLRs); throws
     * std::invalid_argument where this decoder gives none (gives_soft()).
     */
    void set_soft_output(bool on);
    bool soft_output() const { return d_soft; }
    //! Whether this decoder gives soft output: the cpu and cuda backends, max-log, codes
    //! whose metrics fit in int16 (conv/segments.h: gives_fast_soft()).
    virtual bool gives_soft() const { return false; }

    //! Forgets the stream without output and starts a new one.
    void reset();

    //! 1 … 4 (std::invalid_argument otherwise); takes effect with the next batch.
    void set_batches_in_flight(int n);
    int batches_in_flight() const { return d_batches_in_flight; }
    //! Batches decoding now, whose bits wait() or a later call writes.
    virtual std::size_t batches_pending() const { return 0; }
    //! Whether the oldest batch in flight is decoded, so that wait() returns at once.
    virtual bool batch_ready() const { return false; }

    //! Most bits one decode() of \p count LLRs, or flush() with 0, writes.
    std::size_t output_bound(std::size_t count) const;
    //! Most information bits preferred_llrs() asks for.
    static constexpr std::uint64_t preferred_bits_limit = std::uint64_t(1) << 20;
    /*!
     * \brief LLRs a call had best bring to keep the backend busy, whole puncturing
     * periods: the segments of every CPU thread's lanes, or preferred_bits_limit bits'
     * worth on a GPU. Smaller calls decode alike, only at a higher cost per bit.
     */
    std::size_t preferred_llrs() const;
    //! Bits received (whole steps) and not yet written.
    virtual std::uint64_t pending_bits() const { return whole_steps(d_sent) - d_written; }
    //! Bits written since the stream started.
    std::uint64_t written_bits() const { return d_written; }
    //! LLRs received since the stream started.
    std::uint64_t received_llrs() const { return d_sent; }
    //! The LLRs of a step that has come only in part (flush() drops them).
    virtual std::uint64_t partial_llrs() const { return partial_of(d_sent); }

    //! The node synchronisation's changes since the last call, oldest first (the first
    //! one its acquisition); none without node_sync.
    virtual std::vector<sync_change> take_sync_changes() { return {}; }

    //! Whether a stream starts in state 0 (the default: an encoder's start) or in any
    //! state alike (a stream joined anywhere); from the next stream on.
    void set_start_known(bool known) { d_start_known = known; }
    bool start_known() const { return d_start_known; }

    const viterbi_config& config() const { return d_config; }
    virtual core::backend kind() const = 0;
    std::string backend() const { return to_string(kind()); }
    virtual std::string device() const = 0;

protected:
    explicit stream_decoder(const viterbi_config& config);

    //! LLRs as they came (one of values, codes), the stream's sent LLRs
    //! [sent - count, sent) where sent counts every one received so far.
    struct sent_llrs
    {
        const float* values;
        const std::int8_t* codes;
        std::size_t count;
        std::uint64_t sent;
    };

    //! Where decisions go: the bits, and their LLRs with soft output (else nullptr).
    struct decided
    {
        std::uint8_t* bits;
        float* soft;
        //! The place of the decision \p n further on.
        decided at(std::size_t n) const
        {
            return { bits + n, soft ? soft + n : nullptr };
        }
    };

    //! The backend's part: takes \p in, writes the bits it decides, returns how many.
    virtual std::size_t advance(const sent_llrs& in, decided out) = 0;
    //! The oldest batch in flight's bits (waiting for it), or 0 when none.
    virtual std::size_t wait_oldest(decided out) { return (void)out, 0; }
    //! The rest of the stream's bits (batches in flight first); then the backend starts
    //! a new stream.
    virtual std::size_t finish(decided out) = 0;
    //! Forgets the stream (and any batch in flight).
    virtual void restart() = 0;
    //! Steps a call had best bring (preferred_llrs()); the default: as many as come.
    virtual std::uint64_t preferred_steps() const { return preferred_bits_limit; }

    //! Whole trellis steps that the first \p sent sent LLRs of a stream complete.
    std::uint64_t whole_steps(std::uint64_t sent) const;
    //! The LLRs of a partial step after the first \p sent of a stream.
    std::uint64_t partial_of(std::uint64_t sent) const;
    //! Sent LLRs before step \p step, a multiple of the puncturing period.
    std::uint64_t sent_before(std::uint64_t step) const;
    //! For each coded bit of a period, its index among the period's sent LLRs, -1 where
    //! punctured (empty when unpunctured).
    const std::vector<std::int32_t>& period_index() const { return d_period_index; }
    std::size_t sent_per_period() const { return d_kept; }
    //! The stream's LLRs are int8 (else float), once it has any.
    bool int8_stream() const { return d_int8; }

    const viterbi_config d_config;

private:
    template <class T>
    std::size_t take(const T* llrs, std::size_t count, decided out);
    //! \p out, checked against soft output (\p what names the call in errors).
    decided checked(std::uint8_t* bits, float* soft, const char* what) const;

    std::vector<std::int32_t> d_period_index;
    std::vector<std::uint32_t> d_sent_through; // [s]: sent LLRs of a period's steps 0 … s
    std::vector<std::uint32_t> d_steps_by_sent; // [r]: whole steps of r sent in a period
    std::size_t d_kept = 0;                     // sent LLRs per period
    bool d_int8 = false;                        // the stream's type, once it has LLRs
    bool d_start_known = true;
    bool d_soft = false;
    int d_batches_in_flight = 1;
    std::uint64_t d_sent = 0;    // sent LLRs received
    std::uint64_t d_written = 0; // bits written
};

/*!
 * \brief A stream decoder (config.mode must be streaming). \p backend: "reference" (the
 * exact Viterbi over the whole stream, path metrics and survivors carried from call to
 * call), "cpu", "cuda" or "auto" (segments of config.geometry on the SIMD decoder or
 * the GPU, as make_viterbi_decoder()). With config.node_sync, the stream goes through
 * node synchronisation (sync_change; its metrics run on the CPU, the stream on the
 * backend) to a decoder whose streams start in any state. Throws as
 * make_viterbi_decoder().
 */
std::unique_ptr<stream_decoder> make_stream_decoder(const viterbi_config& config,
                                                    const std::string& backend);

} // namespace gputurbo::conv

#endif
