/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_DECODER_H
#define INCLUDED_GPUTURBO_ENGINE_DECODER_H

/*!
 * \file decoder.h
 * \brief The batched LTE turbo decoder engine: configuration, result, backend factory.
 *
 * LLR convention: L = ln P(bit = 0) / P(bit = 1), so a positive value means 0 (BPSK
 * 0 -> +1). decoder_config::invert_llr takes the opposite sign. Input values are
 * sanitised before decoding: NaN is an erasure (0), and every value is clamped to
 * [-llr_limit, +llr_limit], so +-Inf becomes +-llr_limit.
 *
 * Input: n codewords of 3K+12 float LLRs each, in the layout of lte.h (interleaved
 * triples by default), or the same as int8: q = round(L * int8_scale) saturated to
 * +-127 (quantize_llrs()), read back as L = q * (1 / int8_scale). int8 carries a third of
 * float's bytes over the bus. Output: n * K unpacked hard bits (one byte per bit, 0 or 1)
 * and, optionally, one codeword_status per codeword.
 */

#include <gnuradio/gputurbo/engine/lte.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gputurbo {

//! Magnitude to which input LLRs are clamped (+-Inf becomes +-llr_limit).
constexpr float llr_limit = 1000.0f;

/*!
 * \brief Quantises float LLRs to int8: round(L * scale) (halves away from zero),
 * saturated to [-127, 127]; NaN becomes 0.
 */
void quantize_llrs(const float* llrs, std::size_t n, std::int8_t* out, float scale);

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
 * \brief Metric arithmetic of the CUDA backend (the CPU backends always decode in float).
 *  - automatic: int16.
 *  - float32: one codeword per GPU thread; max-log and scaled-max-log decode
 *    bit-identically to the CPU backends, log-map within its stated tolerance.
 *  - int16: two codewords per GPU thread in packed 16-bit fixed point (Hopper's DPX
 *    add-max instructions), several times faster. LLRs (float, or int8 read as
 *    q / int8_scale) are rounded to steps of 1/16 and saturated to +-255/16; extrinsic
 *    values saturate at +-40 (log-map +-37.5). log-map's correction ln(1 + e^-|a-b|)
 *    becomes max(0, 27/32 - |a-b|/2), within 0.17 of it.
 */
enum class arithmetic { automatic, float32, int16 };

algorithm
parse_algorithm(std::string_view name);   //!< "log-map" | "max-log" | "scaled-max-log"
guard parse_guard(std::string_view name); //!< "none" | "pivi" | "dstw" | "pividstw"
stop_rule parse_stop_rule(std::string_view name);   //!< "off" | "crc24a" | "crc24b" |
                                                    //!< "mean-llr" | "min-llr" | "hard"
arithmetic parse_arithmetic(std::string_view name); //!< "auto" | "float32" | "int16"
const char* to_string(algorithm a);
const char* to_string(arithmetic a);
//! The CRC a stop rule checks (crc24a, crc24b), or none.
std::optional<lte::crc24> stop_crc(stop_rule r);
const char* to_string(guard g);
const char* to_string(stop_rule r);

/*! \brief Everything that defines a decoding. validate() says what is wrong, if anything.
 */
struct decoder_config
{
    int K = 6144;                               //!< block size, one of the 188 LTE sizes
    algorithm algo = algorithm::scaled_max_log; //!< SISO arithmetic
    float scaling = 0.75f;                      //!< extrinsic factor (scaled_max_log)
    int iterations = 6;                         //!< full iterations, 1 … 32
    int subblocks = 1; //!< P: sub-blocks per codeword, divides K; 0: automatic
    guard guarding = guard::pividstw;          //!< sub-block edges (P > 1)
    int guard_window = 8;                      //!< g for dstw/pividstw, 1 … K/P
    stop_rule early_stop = stop_rule::off;     //!< per-codeword early termination
    float stop_threshold = 40.0f;              //!< T for mean_llr / min_llr
    layout input_layout = layout::interleaved; //!< order of the 3K+12 input LLRs
    bool invert_llr = false;                   //!< true: L = ln P(1)/P(0)
    float int8_scale = 8.0f;                   //!< int8 input: L = q / int8_scale
    int threads = 0;                           //!< CPU worker threads, 0 = all cores
    std::string devices = "0";                 //!< CUDA devices: "0", "0,1" or "all"
    arithmetic cuda_arithmetic = arithmetic::automatic; //!< CUDA metric arithmetic

    //! Throws std::invalid_argument with a message naming the parameter and its range.
    void validate() const;
};

constexpr int max_iterations = 32;

//! What happened to one codeword.
struct codeword_status
{
    int iterations = 0; //!< full iterations run before its output was taken
    bool passed =
        false; //!< its stop rule held at the end (always true for stop_rule::off)
};

/*!
 * \brief A batched decoder. Not safe for concurrent calls on one object.
 */
class decoder
{
public:
    virtual ~decoder() = default;

    /*!
     * \brief Decodes n_codewords codewords.
     * \param llrs n_codewords * (3K+12) LLRs (see the file comment)
     * \param n_codewords may be 0 (returns at once)
     * \param bits n_codewords * K hard bits out
     * \param status n_codewords results, or nullptr
     */
    void decode(const float* llrs,
                std::size_t n_codewords,
                std::uint8_t* bits,
                codeword_status* status);

    /*!
     * \brief Decodes int8 LLRs (see the file comment). The CPU backends convert them to
     * float; the CUDA backend moves the int8 values over the bus and converts on the GPU.
     */
    void decode(const std::int8_t* llrs,
                std::size_t n_codewords,
                std::uint8_t* bits,
                codeword_status* status);

    /*!
     * \brief Asynchronous decoding. submit() starts decoding a batch and returns a
     * ticket at once (the LLRs have been copied: their buffer may be reused); collect()
     * waits for that batch and writes its n_codewords * K bits and its statuses. Batches
     * may be collected in any order; at most max_in_flight may be outstanding (submit()
     * throws std::runtime_error beyond). On the CUDA backend the GPU decodes while the
     * caller prepares the next batch; the CPU backends decode inside submit().
     */
    using ticket = std::uint64_t;
    static constexpr int max_in_flight = 4;
    ticket submit(const float* llrs, std::size_t n_codewords);
    ticket submit(const std::int8_t* llrs, std::size_t n_codewords);
    void collect(ticket t, std::uint8_t* bits, codeword_status* status);

    //! Convenience: sizes checked, vectors resized.
    void decode(const std::vector<float>& llrs,
                std::vector<std::uint8_t>& bits,
                std::vector<codeword_status>* status = nullptr);

    const decoder_config& config() const { return d_config; }

    //! Runtime setters; each validates and throws std::invalid_argument.
    virtual void set_iterations(int iterations);
    virtual void set_stop_threshold(float threshold);

    //! Device time of the kernels of the last decode() call (transfers excluded); 0 for
    //! the CPU backends.
    virtual double device_seconds() const { return 0.0; }

    virtual std::string backend() const = 0; //!< "cpu", "reference", "cuda"
    virtual std::string device() const = 0;  //!< human-readable description

protected:
    explicit decoder(const decoder_config& config);

    //! A batch's LLRs: exactly one of the two pointers is set.
    struct llr_input
    {
        const float* f32 = nullptr;
        const std::int8_t* i8 = nullptr;
    };

    //! What a backend implements; decode() has checked the pointers and n_codewords > 0.
    virtual void decode_batch(const llr_input& llrs,
                              std::size_t n_codewords,
                              std::uint8_t* bits,
                              codeword_status* status) = 0;

    //! Asynchronous pair; by default submit_batch() decodes at once and keeps the result.
    virtual ticket submit_batch(const llr_input& llrs, std::size_t n_codewords);
    virtual void collect_batch(ticket t, std::uint8_t* bits, codeword_status* status);

    //! The batch as float LLRs (int8 is converted into a buffer of the decoder's).
    const float* as_float(const llr_input& llrs, std::size_t n_codewords);

    decoder_config d_config;

private:
    struct finished
    {
        std::vector<std::uint8_t> bits;
        std::vector<codeword_status> status;
    };
    std::map<ticket, finished> d_finished; // decoded by submit_batch(), not yet collected
    ticket d_last_ticket = 0;
    std::vector<float> d_dequantized; // int8 input converted for float-only backends
};

//! Host memory for host_buffer: page-locked when CUDA can give it (page_locked is set),
//! else ordinary; zero-filled. release_host_memory() frees either kind.
void* allocate_host_memory(std::size_t bytes, bool& page_locked);
void release_host_memory(void* p, bool page_locked) noexcept;

/*!
 * \brief Page-locks memory allocated elsewhere (e.g. a GNU Radio buffer), so that the
 * CUDA backend's DMA engines read it directly, as they read a host_buffer. Returns false,
 * and changes nothing, without a usable GPU or when the memory cannot be locked. Undo it
 * with unregister_host_memory(p) before the memory is freed.
 */
bool register_host_memory(void* p, std::size_t bytes);
void unregister_host_memory(void* p) noexcept;

/*!
 * \brief Host memory that the CUDA backend's DMA engines read and write directly.
 *
 * decode() on the CUDA backend copies LLRs from ordinary (pageable) memory into
 * page-locked staging buffers before they cross the bus, and bits back out of them: two
 * host copies that cost about half of the end-to-end rate. LLRs and bits held in a
 * host_buffer skip them (decode() detects page-locked memory by itself, however it was
 * allocated). Without a usable GPU a host_buffer is ordinary memory. Zero-filled,
 * move-only; allocating one is slow (milliseconds): keep it.
 */
template <class T>
class host_buffer
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    host_buffer() = default;
    explicit host_buffer(std::size_t count)
    {
        d_data = static_cast<T*>(allocate_host_memory(count * sizeof(T), d_page_locked));
        d_size = count;
    }
    host_buffer(host_buffer&& other) noexcept { swap(other); }
    host_buffer& operator=(host_buffer&& other) noexcept
    {
        host_buffer(std::move(other)).swap(*this);
        return *this;
    }
    ~host_buffer() { release_host_memory(d_data, d_page_locked); }

    T* data() { return d_data; }
    const T* data() const { return d_data; }
    std::size_t size() const { return d_size; }
    T* begin() { return d_data; }
    T* end() { return d_data + d_size; }
    const T* begin() const { return d_data; }
    const T* end() const { return d_data + d_size; }
    T& operator[](std::size_t i) { return d_data[i]; }
    const T& operator[](std::size_t i) const { return d_data[i]; }
    bool page_locked() const { return d_page_locked; }

private:
    void swap(host_buffer& other) noexcept
    {
        std::swap(d_data, other.d_data);
        std::swap(d_size, other.d_size);
        std::swap(d_page_locked, other.d_page_locked);
    }
    T* d_data = nullptr;
    std::size_t d_size = 0;
    bool d_page_locked = false;
};

//! Sub-block length at which the CUDA kernels are fastest (P = 192 for K = 6144).
constexpr int cuda_subblock_length = 32;

/*!
 * \brief P for sub-blocks of about \p length bits: K / w for the smallest divisor w of K
 * that is >= length (P = 1 when there is none below K).
 */
int subblocks_for_length(int K, int length);

/*!
 * \brief Makes a decoder. A config with subblocks = 0 gets P =
 * subblocks_for_length(K, cuda_subblock_length) on the CUDA backend and P = 1 on the CPU
 * (config() of the decoder shows the choice).
 * \param backend "auto" (CUDA when built with it and a GPU is present, else the CPU),
 *        "cpu" (SIMD over codewords, every core), "cuda", or "reference" (the exact
 *        single-lane CPU implementation that the others are tested against; slow).
 * Throws std::invalid_argument for a bad config or unknown backend name, and
 * std::runtime_error, with the reason, for a backend this build or machine lacks.
 */
std::unique_ptr<decoder> make_decoder(const decoder_config& config,
                                      std::string_view backend = "auto");

//! Backends this build and machine can run now ("cpu", "reference", and "cuda" if
//! usable).
std::vector<std::string> available_backends();

} // namespace gputurbo

#endif
