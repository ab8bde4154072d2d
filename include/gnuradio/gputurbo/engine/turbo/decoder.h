/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_TURBO_DECODER_H
#define INCLUDED_GPUTURBO_ENGINE_TURBO_DECODER_H

/*!
 * \file decoder.h
 * \brief The batched LTE turbo decoder: configuration, decoder, factory.
 *
 * LLR convention: the engine's (core/llr.h), L = ln P(bit = 0) / P(bit = 1), so a
 * positive value means 0; decoder_config::invert_llr takes the opposite sign. NaN is an
 * erasure and every value is clamped to +-core::llr_limit.
 *
 * Input: n codewords of 3K+12 float LLRs each, in the layout of turbo/code.h
 * (interleaved triples by default), or the same as int8: q = round(L * int8_scale)
 * saturated to +-127 (core::quantize_llrs()), read back as L = q / int8_scale.
 * Output: n * K unpacked hard bits (one byte per bit, 0 or 1) and, optionally, one
 * codeword_status per codeword.
 *
 * K is given per call: one decoder decodes batches of any of the 188 sizes. The calls
 * without one use decoder_config::K.
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/core/host_memory.h>
#include <gnuradio/gputurbo/engine/core/llr.h>
#include <gnuradio/gputurbo/engine/core/crc.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gputurbo::turbo {

using core::codeword_status;

/*!
 * \brief SISO metric arithmetic.
 *  - log_map: exact max*(a, b) = max(a, b) + ln(1 + e^-|a-b|).
 *  - max_log: max*(a, b) ~ max(a, b).
 *  - scaled_max_log: max_log whose extrinsic output is multiplied by `scaling` before it
 *    becomes the other decoder's a-priori input.
 */
enum class algorithm { log_map, max_log, scaled_max_log };

/*!
 * \brief How a sub-block starts its recursions when a codeword is split in P sub-blocks.
 *  - none: equiprobable states at each inner sub-block edge.
 *  - pivi: alpha (beta) at the edge taken from the neighbouring sub-block in the previous
 *    iteration.
 *  - dstw: a training window of g stages on each side, started from equiprobable states.
 *  - pividstw: the training windows start from the metrics stored at their far end in the
 *    previous iteration.
 * The first sub-block's alpha and the last one's beta are always exact.
 */
enum class guard { none, pivi, dstw, pividstw };

/*!
 * \brief Per-codeword early termination, checked after every full iteration.
 *  - off: always decode `iterations` iterations.
 *  - crc24a / crc24b: stop once the hard decisions pass the CRC (36.212 §5.1.1) whose 24
 *    bits end the block.
 *  - mean_llr / min_llr: stop once mean |L_app| (min |L_app|) over the K bits reaches
 *    stop_threshold.
 *  - hard: stop once the hard decisions equal those of the previous iteration.
 */
enum class stop_rule { off, crc24a, crc24b, mean_llr, min_llr, hard };

/*!
 * \brief Metric arithmetic (decoder_config::cuda_arithmetic; both backends read it).
 *  - automatic: int16 on CUDA; on the CPU int16 where an AVX2 or AVX-512 kernel runs
 *    and takes the configured P (at most its 16 or 32 lanes), else float32.
 *  - float32: the exact reference arithmetic. On CUDA one codeword per GPU thread;
 *    max-log and scaled-max-log decode bit-identically to the CPU backends, log-map
 *    within its stated tolerance. On the CPU SIMD over codewords.
 *  - int16: 16-bit fixed point, several times faster. LLRs (float, or int8 read as
 *    q / int8_scale) are rounded to steps of 1/16 and saturated to +-255/16; extrinsic
 *    values saturate at +-40 (log-map +-37.5). log-map's correction ln(1 + e^-|a-b|)
 *    becomes max(0, 27/32 - |a-b|/2), within 0.17 of it. On CUDA two codewords per
 *    GPU thread (Hopper's DPX add-max instructions); on the CPU the P <= 16 (AVX2) or
 *    32 (AVX-512) sub-blocks of a codeword side by side in SIMD lanes, the same units,
 *    limits and max* (for the same P and guarding, the same decisions as CUDA int16).
 *    The faster of the two CPU kernels is measured once per process;
 *    GPUTURBO_CPU_KERNEL=avx2|avx512 names one instead.
 */
enum class arithmetic { automatic, float32, int16 };

// The names of the choices; parse_*() throw std::invalid_argument naming the parameter
// and its choices (turbo/parameters.h).
algorithm
parse_algorithm(std::string_view name);   //!< "log-map" | "max-log" | "scaled-max-log"
guard parse_guard(std::string_view name); //!< "none" | "pivi" | "dstw" | "pividstw"
stop_rule parse_stop_rule(std::string_view name);   //!< "off" | "crc24a" | "crc24b" |
                                                    //!< "mean-llr" | "min-llr" | "hard"
arithmetic parse_arithmetic(std::string_view name); //!< "auto" | "float32" | "int16"
const char* to_string(algorithm a);
const char* to_string(arithmetic a);
const char* to_string(guard g);
const char* to_string(stop_rule r);

//! The CRC a stop rule checks (crc24a, crc24b), or none.
std::optional<core::crc> stop_crc(stop_rule r);

constexpr int max_iterations = 32;

/*!
 * \brief Everything that defines a decoding. validate() says what is wrong, if anything.
 * Names, ranges and defaults: turbo/parameters.h (a test holds the initialisers equal to
 * the table's defaults).
 */
struct decoder_config
{
    int K = 6144; //!< block size of the calls that name none: an LTE size, or 0 (none)
    algorithm algo = algorithm::scaled_max_log; //!< SISO arithmetic
    float scaling = 0.75f;                      //!< extrinsic factor (scaled_max_log)
    int iterations = 6;                         //!< full iterations, 1 … 32
    int subblocks = 0; //!< P: sub-blocks per codeword, divides each K; 0: automatic
    guard guarding = guard::pividstw;          //!< sub-block edges (P > 1)
    int guard_window = 8;                      //!< g for dstw/pividstw, 1 … K/P
    stop_rule early_stop = stop_rule::off;     //!< per-codeword early termination
    float stop_threshold = 40.0f;              //!< T for mean_llr / min_llr
    layout input_layout = layout::interleaved; //!< order of the 3K+12 input LLRs
    bool invert_llr = false;                   //!< true: L = ln P(1)/P(0)
    float int8_scale = 8.0f;                   //!< int8 input: L = q / int8_scale
    int threads = 0;                           //!< CPU worker threads, 0 = all cores
    std::string devices = "0";                 //!< CUDA devices: "0", "0,1" or "all"
    arithmetic cuda_arithmetic = arithmetic::automatic; //!< metric arithmetic

    //! Throws std::invalid_argument with a message naming the parameter and its range
    //! (turbo/parameters.h); P and g are checked against K when K is not 0, else per
    //! call, after a check here that some LTE size fits them.
    void validate() const;
};

/*!
 * \brief A batched turbo decoder (core/batch_decoder.h, block = K). Not safe for
 * concurrent calls on one object.
 */
class decoder : public core::batch_decoder
{
public:
    using core::batch_decoder::collect;
    using core::batch_decoder::decode;
    using core::batch_decoder::submit;

    //! decode(config().K, ...): n_codewords * (3K+12) LLRs in, n_codewords * K bits out
    //! (n_codewords * ceil(K/8) bytes packed, see core::bit_format). LLR: float; int8
    //! (the CPU backends convert them to float; the CUDA backend moves the int8 values
    //! over the bus and converts on the GPU); int4 (core/llr.h), unpacked to int8: on
    //! the GPU by the CUDA backend.
    template <class LLR>
    void decode(const LLR* llrs,
                std::size_t n_codewords,
                std::uint8_t* bits,
                codeword_status* status,
                core::bit_format format = core::bit_format::unpacked)
    {
        decode(d_config.K, llrs, n_codewords, bits, status, format);
    }
    template <class LLR>
    ticket submit(const LLR* llrs, std::size_t n_codewords)
    {
        return submit(d_config.K, llrs, n_codewords);
    }

    //! Convenience for config().K: sizes checked, vectors resized.
    void decode(const std::vector<float>& llrs,
                std::vector<std::uint8_t>& bits,
                std::vector<codeword_status>* status = nullptr);

    //! The config as given (subblocks = 0 stays 0: see subblocks()).
    const decoder_config& config() const { return d_config; }

    //! P for block size K: config().subblocks, or the backend's automatic choice.
    int subblocks(int K) const;
    //! P for config().K.
    int subblocks() const { return subblocks(d_config.K); }

    //! The metric arithmetic this decoder runs: float32 or int16 (automatic resolved).
    virtual arithmetic metric_arithmetic() const = 0;

    //! Throws std::invalid_argument unless K is an LTE block size that P and g fit.
    void check_block(int K) const override;
    std::size_t input_length(int K) const override { return codeword_length(K); }

    //! Runtime setters; each validates and throws std::invalid_argument.
    virtual void set_iterations(int iterations);
    virtual void set_stop_threshold(float threshold);

protected:
    explicit decoder(const decoder_config& config);

    //! The automatic P (config().subblocks = 0) of this backend for block size K.
    virtual int automatic_subblocks(int K) const = 0;

    decoder_config d_config;
};

//! Sub-block length at which the CUDA kernels are fastest (P = 192 for K = 6144).
constexpr int cuda_subblock_length = 32;
//! Stages the CUDA kernels take together: sub-blocks of whole segments run faster (K =
//! 1008: P = 21 of 48 stages 12.1 Gbit/s on an H100, P = 28 of 36 stages 7.3).
constexpr int cuda_segment_length = 8;

/*!
 * \brief P for sub-blocks of about \p length bits: K / w for the smallest divisor w of K
 * from length to 4 length that is a multiple of \p multiple, else for the smallest
 * divisor w >= length (P = 1 when there is none below K).
 */
int subblocks_for_length(int K, int length, int multiple = 1);

//! P for block size K on the CUDA backend: config.subblocks, or when that is 0,
//! subblocks_for_length(K, cuda_subblock_length, cuda_segment_length).
int cuda_subblocks(const decoder_config& config, int K);

//! Throws std::invalid_argument unless K is an LTE block size that P sub-blocks and the
//! config's guard window fit (what decoder::check_block() checks on every backend).
void check_block(const decoder_config& config, int K, int P);

/*!
 * \brief Makes a decoder. subblocks = 0 gives, for each K, P = subblocks_for_length(K,
 * cuda_subblock_length, cuda_segment_length) on the CUDA backend; on the CPU P = 1 in
 * float32, and in int16 the most sub-blocks of at least 64 stages that fit the kernel's
 * lanes.
 * \param backend "auto" (CUDA when this build can run on the GPUs here, else the CPU,
 *        with a line to core::log() saying why), "cpu" (SIMD, every core), "cuda", or
 * "reference" (the exact single-lane CPU implementation that the others are tested
 * against; slow). Throws std::invalid_argument for a bad config or unknown backend name,
 * and std::runtime_error, with the reason, for a backend this build or machine lacks.
 */
std::unique_ptr<decoder> make_decoder(const decoder_config& config,
                                      std::string_view backend = "auto");

} // namespace gputurbo::turbo

#endif
