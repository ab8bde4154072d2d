/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_CORE_BATCH_DECODER_H
#define INCLUDED_GPUTURBO_ENGINE_CORE_BATCH_DECODER_H

/*!
 * \file batch_decoder.h
 * \brief The batch API every code family's decoder has: LLRs of n codewords in, n blocks
 *        of hard bits and n statuses out, synchronously (decode) or asynchronously
 *        (submit / collect, with tickets). The block size is given per call, so one
 *        decoder object decodes batches of any size its code allows.
 *
 * LLRs are float or int8 (core/llr.h). Bits are unpacked, one byte per bit (0 or 1), or,
 * on request, packed 8 to a byte (bit_format). A decoder that gives soft output
 * (gives_soft()) also writes LLRs of the information bits or of the code bits
 * (decode_soft()), as float or as int8 in the units of int8 input (soft_values).
 */

#include <gnuradio/gputurbo/engine/core/backend.h>
#include <gnuradio/gputurbo/engine/core/llr.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gputurbo::core {

/*!
 * \brief How decode() and collect() write hard bits.
 *
 * - unpacked: one byte per bit, 0 or 1; block bytes per codeword.
 * - packed: 8 bits per byte, the first bit in the most significant bit (the order of
 *   GNU Radio's unpacked_to_packed_bb(1, GR_MSB_FIRST) and of numpy.packbits). Each
 *   codeword starts on a byte boundary and takes ceil(block / 8) bytes; the unused low
 *   bits of its last byte are 0. For n codewords: numpy.packbits(unpacked.reshape(n,
 *   block), axis=1).
 *
 * Both formats carry the same bits: the packed output is the unpacked output, packed.
 */
enum class bit_format { unpacked, packed };

//! Output bytes per codeword of \p block bits (block >= 0) in format \p f.
constexpr std::size_t output_bytes(bit_format f, int block)
{
    return f == bit_format::packed ? (std::size_t(block) + 7) / 8 : std::size_t(block);
}

//! What happened to one codeword.
struct codeword_status
{
    int iterations = 0; //!< iterations run before its output was taken (0: none apply)
    //! its check held at the end (always true when none is set), and it carries
    //! information: mean |a-posteriori LLR| >= information_floor (core/llr.h)
    bool passed = false;
};

/*!
 * \brief The soft values decode_soft() writes, one float per information bit, in the
 * sign convention of the decoder's input (the engine's L = ln P(0)/P(1), or GNU Radio's
 * opposite where the decoder's config inverts its input).
 *
 * - app: the a-posteriori LLR, L_app(u) = ln P(u = 0 | all LLRs) / P(u = 1 | all LLRs),
 *   of the iteration that gave the bits; its sign is the hard decision (0 where it is
 *   positive or zero, in the engine's convention).
 * - extrinsic: L_app minus the bit's own input LLR (as the decoder read it: clamped,
 *   NaN as 0, quantised where the arithmetic is): what the code adds to the channel,
 *   the value an iterative receiver feeds back as a-priori information.
 * - code_extrinsic: for each code bit the decoder read (input_length(block) of them, in
 *   its input's order), its a-posteriori LLR less its input LLR: what a decoder of a
 *   code without systematic bits of its own gives back to an equaliser or demapper.
 */
enum class soft_output { none, app, extrinsic, code_extrinsic };

//! The name of a kind, as the parameter output names it: "bits" (none), "llr",
//! "extrinsic", "code-extrinsic" (core/parameters.h: parse_output()).
const char* to_string(soft_output kind);

/*!
 * \brief Where a soft decode writes its count * soft_length() values of \p kind: as
 * float into \p values (4 bytes a value), or as int8 into \p int8 (1 byte a value),
 * exactly one of them.
 *
 * int8 values are in the units of int8 input: q = round(L * int8_scale), halves away
 * from zero, saturated to +-127 (core/llr.h: quantize_llrs()), so L = q / int8_scale
 * up to the rounding, with the float value's sign. Pass the decoder's own int8_scale
 * (its config's) for values that read back as its input. Every backend computes the
 * float values; batch_decoder quantises them on the host, the same way for every family
 * and backend (a GPU still copies back 4 bytes a value; the caller keeps 1).
 */
struct soft_values
{
    float* values = nullptr;
    soft_output kind = soft_output::none;
    std::int8_t* int8 = nullptr; //!< int8 output instead of values
    float int8_scale = 0.0f;     //!< int8: the value q means q / int8_scale (> 0)
};

//! One batch's LLRs (exactly one of the pointers is set) and its shape.
struct llr_batch
{
    int block = 0;         //!< information bits per codeword
    std::size_t count = 0; //!< codewords
    const float* f32 = nullptr;
    const std::int8_t* i8 = nullptr;
    const int4_pair* i4 = nullptr; //!< one int4 sequence: codeword c from LLR c * length
    //! the bits decode_batch() writes: packed only from a backend that packs_bits()
    bit_format format = bit_format::unpacked;
    //! soft output wanted beside the bits (decode_soft(), backends that gives_soft() it)
    soft_values soft;

    //! The batch of \p n codewords of \p block bits whose LLRs \p llrs point to.
    static llr_batch of(int block, const float* llrs, std::size_t n)
    {
        return { block, n, llrs, nullptr, nullptr, bit_format::unpacked, {} };
    }
    static llr_batch of(int block, const std::int8_t* llrs, std::size_t n)
    {
        return { block, n, nullptr, llrs, nullptr, bit_format::unpacked, {} };
    }
    static llr_batch of(int block, const int4_pair* llrs, std::size_t n)
    {
        return { block, n, nullptr, nullptr, llrs, bit_format::unpacked, {} };
    }
};

/*!
 * \brief A batched decoder. Not safe for concurrent calls on one object.
 */
class batch_decoder
{
public:
    using ticket = std::uint64_t;
    //! Most batches submitted and not yet collected.
    static constexpr int max_in_flight = 4;

    virtual ~batch_decoder();

    //! Decoder objects alive in this process (a multi-GPU decoder counts its parts):
    //! lets tests see how many engines a block holds.
    static std::size_t objects_alive();

    /*!
     * \brief Decodes n_codewords codewords of \p block information bits each.
     * \param block the block size (e.g. the turbo code's K); check_block() says which
     * \param llrs n_codewords * input_length(block) LLRs: float, std::int8_t, or
     * int4_pair (core/llr.h: int4_bytes(n_codewords * input_length(block)) bytes, the
     * codewords one after another, nibble by nibble)
     * \param n_codewords may be 0 (returns at once)
     * \param bits n_codewords * output_bytes(format, block) bytes of hard bits out
     * \param status n_codewords results, or nullptr
     * \param format unpacked (default) or packed, see bit_format
     */
    template <class LLR>
    void decode(int block,
                const LLR* llrs,
                std::size_t n_codewords,
                std::uint8_t* bits,
                codeword_status* status,
                bit_format format = bit_format::unpacked)
    {
        decode_checked(llr_batch::of(block, llrs, n_codewords), bits, status, format);
    }

    /*!
     * \brief Decodes as decode() does and writes soft values too: \p soft.values (or
     * \p soft.int8) gets n_codewords * soft_length(block, soft.kind) values of the kind
     * \p soft.kind (soft_output; not none). The bits are each the sign of its
     * a-posteriori LLR (a family's decoder says how they relate to decode()'s); \p bits
     * (unpacked) and \p status may be nullptr. Throws std::invalid_argument for a kind
     * this decoder does not give (gives_soft()), for none or both of values and int8, and
     * for an int8_scale out of range.
     */
    template <class LLR>
    void decode_soft(int block,
                     const LLR* llrs,
                     std::size_t n_codewords,
                     soft_values soft,
                     std::uint8_t* bits = nullptr,
                     codeword_status* status = nullptr)
    {
        decode_soft_checked(llr_batch::of(block, llrs, n_codewords), soft, bits, status);
    }

    //! Whether decode_soft() gives soft values of kind \p kind here: this family and
    //! backend compute them.
    virtual bool gives_soft(soft_output kind) const
    {
        (void)kind;
        return false;
    }
    //! Soft values per codeword of kind \p kind: block, or input_length(block) for
    //! code_extrinsic.
    std::size_t soft_length(int block, soft_output kind) const
    {
        return kind == soft_output::code_extrinsic ? input_length(block)
                                                   : std::size_t(block);
    }

    /*!
     * \brief Asynchronous decoding. submit() starts decoding a batch and returns a ticket
     * at once (the LLRs have been read: their buffer may be reused); collect() waits for
     * that batch and writes its bits and statuses. Batches may be collected in any
     * order; at most max_in_flight may be outstanding (submit() throws
     * std::runtime_error beyond). On CUDA the GPU decodes while the caller prepares the
     * next batch; the CPU backends decode inside submit(). collect() writes the batch's
     * n_codewords * output_bytes(format, block) bytes of bits in \p format (bit_format),
     * whatever the format of the other batches. A batch submitted with \p soft (not
     * none: a decoder that gives_soft() it) has its soft values too, n_codewords *
     * soft_length() floats into collect()'s \p soft (nullptr: dropped;
     * decode_soft() says what they are), or as int8 (the second collect(): soft_values
     * says how they are quantised).
     */
    template <class LLR>
    ticket submit(int block,
                  const LLR* llrs,
                  std::size_t n_codewords,
                  soft_output soft = soft_output::none)
    {
        llr_batch b = llr_batch::of(block, llrs, n_codewords);
        b.soft.kind = soft;
        return submit_checked(b);
    }
    void collect(ticket t,
                 std::uint8_t* bits,
                 codeword_status* status,
                 bit_format format = bit_format::unpacked,
                 float* soft = nullptr);
    void collect(ticket t,
                 std::uint8_t* bits,
                 codeword_status* status,
                 bit_format format,
                 std::int8_t* soft,
                 float int8_scale);

    //! Throws std::invalid_argument, naming the reason, for a block size this decoder
    //! cannot decode.
    virtual void check_block(int block) const = 0;
    //! LLRs per codeword of a block size.
    virtual std::size_t input_length(int block) const = 0;

    //! Device time of the kernels of the last decode() call (transfers excluded); 0 on
    //! the CPU.
    virtual double device_seconds() const { return 0.0; }

    virtual core::backend kind() const = 0;
    std::string backend() const { return to_string(kind()); } //!< "cpu", "cuda", …
    virtual std::string device() const = 0; //!< human-readable description

protected:
    using batch = llr_batch;

    batch_decoder();
    batch_decoder(const batch_decoder&) = delete;
    batch_decoder& operator=(const batch_decoder&) = delete;

    //! Whether decode_batch() takes int4 batches; else decode() unpacks them to int8.
    virtual bool reads_int4() const { return false; }
    //! Whether decode_batch() writes packed bits itself for a batch whose format asks
    //! for them (a GPU: 8 times fewer bytes to copy back); else decode() packs them.
    virtual bool packs_bits() const { return false; }

    //! What a backend implements; decode() has checked the pointers, the block size, and
    //! that count > 0. A batch with soft output wanted (b.soft) comes only to a backend
    //! that gives_soft() its kind.
    virtual void
    decode_batch(const batch& b, std::uint8_t* bits, codeword_status* status) = 0;

    //! Asynchronous pair; by default submit_batch() decodes at once and keeps the
    //! result until collected. A batch with soft output wanted comes with b.soft.kind
    //! set and no values: its values go to collect_batch()'s \p soft.
    virtual ticket submit_batch(const batch& b);
    virtual void
    collect_batch(ticket t, std::uint8_t* bits, codeword_status* status, float* soft);

    //! A new ticket, after checking that fewer than max_in_flight are outstanding
    //! (\p outstanding: how many the backend holds now).
    ticket next_ticket(std::size_t outstanding);

    //! The batch as float LLRs: int8 is converted, q / int8_scale, into a buffer of the
    //! decoder's (for backends that decode float only).
    const float* as_float(const batch& b, float int8_scale);

private:
    //! decode() and submit() of either input type: the checks, then the backend.
    void decode_checked(const llr_batch& b,
                        std::uint8_t* bits,
                        codeword_status* status,
                        bit_format format);
    //! Throws std::invalid_argument for soft output from a decoder that has none.
    void check_soft(const llr_batch& b) const;
    void decode_soft_checked(llr_batch b,
                             soft_values soft,
                             std::uint8_t* bits,
                             codeword_status* status);
    ticket submit_checked(const llr_batch& b);
    //! collect() of either soft type (soft.values or soft.int8; soft.kind unused).
    void collect_checked(ticket t,
                         std::uint8_t* bits,
                         codeword_status* status,
                         bit_format format,
                         soft_values soft);
    //! b, or its int4 LLRs unpacked to int8 (into d_int8) for a backend that does not
    //! read int4.
    llr_batch readable(const llr_batch& b);

    struct finished
    {
        std::vector<std::uint8_t> bits;
        std::vector<codeword_status> status;
        std::vector<float> soft;
    };
    std::map<ticket, finished> d_finished; // decoded by submit_batch(), not yet collected
    ticket d_last_ticket = 0;
    std::vector<float> d_dequantized;
    std::vector<std::int8_t> d_int8; // int4 batches unpacked, for backends that want int8
    // Shape of each batch submitted and not yet collected (its LLR pointers unset): what
    // collect() packs.
    std::map<ticket, llr_batch> d_submitted;
    std::vector<std::uint8_t> d_unpacked; // the bits before packing, or of a soft decode
                                          // that wants none
    std::vector<float> d_soft; // soft values as float, before they are quantised to int8
};

} // namespace gputurbo::core

#endif
