/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_LTE_TRANSPORT_H
#define INCLUDED_GPUTURBO_ENGINE_LTE_TRANSPORT_H

/*!
 * \file transport.h
 * \brief Transport blocks of the LTE DL-SCH (3GPP TS 36.212 §5.3.2 with §5.1): the
 *        transmit chain (CRC-24A, segmentation, CRC-24B, turbo encoding, rate matching,
 *        concatenation, scrambling) and a batched receiver (descrambling, de-rate
 *        matching, HARQ soft combining, turbo decoding with a CRC early stop per code
 *        block, concatenation, CRC-24A), on the CPU or, in one pass on the GPU, on CUDA.
 *
 * Bits are unpacked, one byte per bit (0 or 1). LLRs follow the turbo decoder's
 * convention (turbo/decoder.h): L = ln P(0)/P(1) unless decoder_config::invert_llr,
 * float, or int8 read as q / int8_scale.
 *
 * HARQ soft buffers hold each code block's codeword (3K+12 values, the turbo code's
 * interleaved layout) as int8 in the same units as int8 input (q = L * int8_scale):
 * each transmission's LLRs are added in with saturation at +-127, and the decoder reads
 * the buffer as it is. The saturation is the turbo decoder's own input range (int16
 * arithmetic reads at most +-255/16), so combining loses nothing the decoder would have
 * used. Filler bits are known zeros: a new buffer holds them at +127.
 */

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gputurbo::lte {

//! The largest transport block of LTE (36.213 Table 7.1.7.2.5-1, four layers).
constexpr int max_tbs = 391656;

//! No scrambling (transport_format::c_init).
constexpr long no_scrambling = -1;

/*!
 * \brief What the transmitter and the receiver of one transport block agree on.
 * validate() says what is wrong, if anything.
 */
struct transport_format
{
    int tbs = 0;    //!< A: transport block bits (without its CRC-24A), 1 ... max_tbs
    int G = 0;      //!< rate-matched bits sent for it (one per LLR received)
    int Qm = 2;     //!< bits per modulation symbol: 2, 4, 6 or 8
    int layers = 1; //!< transmission layers of the transport block: 1 ... 4
    int rv = 0;     //!< redundancy version: 0 ... 3
    //! N_IR, the transport block's soft buffer in bits (soft_buffer_bits()); 0: no
    //! limit (N_cb = K_w)
    long soft_buffer = 0;
    //! c_init of the 36.211 §7.2 scrambling sequence over the G bits (§6.3.1:
    //! n_RNTI 2^14 + q 2^13 + floor(n_s / 2) 2^9 + N_ID^cell), or no_scrambling
    long c_init = no_scrambling;

    //! Throws std::invalid_argument naming the field and its range; also when G is too
    //! small to give each code block a symbol.
    void validate() const;
};

/*!
 * \brief The G bits sent for the tbs bits of \p data: CRC-24A, segmentation, CRC-24B
 * (when several blocks), turbo encoding, rate matching of each block from k0(rv) in
 * its N_cb, concatenation and, when c_init is set, scrambling.
 */
void transport_encode(const transport_format& f,
                      const std::uint8_t* data,
                      std::uint8_t* e);

//! transport_block::harq_process of a transmission decoded alone.
constexpr int no_harq = -1;

//! One transport block to decode: its format, its G LLRs (exactly one pointer set) and
//! its HARQ process.
struct transport_block
{
    transport_format format;
    const float* f32 = nullptr;
    const std::int8_t* i8 = nullptr;
    //! The soft buffer to combine into: any number >= 0 (a process of a user of a
    //! cell, however the caller counts them), or no_harq: this transmission alone
    int harq_process = no_harq;
    //! Starts the process's buffer afresh (the new-data indicator toggled); the first
    //! transmission of a process starts it whatever this says
    bool new_data = true;
};

//! What became of one transport block.
struct transport_result
{
    //! It was received: its CRC-24A checked and every code block passed
    bool crc_ok = false;
    //! each code block's iterations and whether it passed: its own CRC checked
    //! (CRC-24B, or the CRC-24A of a single block) and its soft values agree with its
    //! decision encoded again, as far as their noise allows (a turbo decoder given
    //! mostly parity bits can settle on the all-zero codeword, which passes every CRC,
    //! whatever was sent: such a block fails)
    std::vector<core::codeword_status> code_blocks;
};

//! The receiver's parameters.
struct transport_config
{
    //! The turbo decoder's (turbo/decoder.h): iterations, algorithm, int8_scale (also
    //! the soft buffers' units), invert_llr (the sign of the LLRs given), backend
    //! choices. K, early_stop and input_layout are the transport decoder's to set.
    turbo::decoder_config turbo{};
    //! A code block stops iterating once its CRC checks (CRC-24B, or the transport
    //! block's CRC-24A when it is the only block).
    bool early_stop = true;
    //! The most HARQ processes with a soft buffer (lte/parameters.h): a call that
    //! starts one more drops the buffer of the process used least recently (one not
    //! in the call; transport_decoder::dropped_processes() says which). A call of more
    //! processes than this is refused.
    int max_harq_processes = 4096;
};

/*!
 * \brief Decodes batches of transport blocks of any sizes, keeping HARQ soft buffers
 * between calls. Not safe for concurrent calls on one object.
 */
class transport_decoder
{
public:
    virtual ~transport_decoder();

    /*!
     * \brief Decodes \p n transport blocks: their data into \p data (the tbs bits of
     * each, one after another) and their results into \p results (n of them, or
     * nullptr). A retransmission (new_data false) of a process adds into its buffer,
     * and needs the tbs the buffer was started with (std::invalid_argument otherwise);
     * a process appears at most once in a call. The buffers are updated whatever the
     * CRC says: a caller that wants a process forgotten after a pass calls release().
     * Any std::invalid_argument (check() of every block, and the call as a whole)
     * comes before a buffer changes.
     */
    virtual void decode(const transport_block* blocks,
                        std::size_t n,
                        std::uint8_t* data,
                        transport_result* results) = 0;

    /*!
     * \brief Checks one transport block as decode() would, against the soft buffers
     * as they are now: its format and the rate matching it gives, its LLR pointer, the
     * turbo decoder's taking each of its code-block sizes, its HARQ process and, for a
     * retransmission, the tbs of the process's buffer. Throws std::invalid_argument
     * naming the problem; changes no buffer. A caller that batches transport blocks
     * checks each before it joins a batch, so that a bad one fails alone.
     */
    virtual void check(const transport_block& block) = 0;

    //! Forgets a process's soft buffer (no error when there is none).
    virtual void release(int harq_process) = 0;
    //! The processes whose soft buffers the last decode() or set_soft_buffer() dropped
    //! to stay within max_harq_processes, the least recently used first.
    virtual std::vector<int> dropped_processes() const = 0;
    //! Soft buffers dropped since the decoder was made.
    virtual std::uint64_t dropped_count() const = 0;
    //! Processes with a soft buffer.
    virtual std::size_t harq_processes() const = 0;
    /*!
     * \brief A copy of a process's soft buffer: its code blocks' codewords, one after
     * another (int8, see the file's comment); std::invalid_argument when it has none.
     */
    virtual std::vector<std::int8_t> soft_buffer(int harq_process) const = 0;
    /*!
     * \brief Sets a process's soft buffer, for a transport block of \p tbs bits, from
     * what soft_buffer() returned (a buffer saved to a file, say);
     * std::invalid_argument when its length is not that of tbs's code blocks.
     */
    virtual void set_soft_buffer(int harq_process,
                                 int tbs,
                                 const std::vector<std::int8_t>& values) = 0;

    const transport_config& config() const { return d_config; }
    virtual core::backend kind() const = 0;
    std::string backend() const { return core::to_string(kind()); }
    virtual std::string device() const = 0;
    //! Device time of the last decode()'s kernels, summed over its chunks (which
    //! overlap); 0 on the CPU.
    virtual double device_seconds() const { return 0.0; }

protected:
    explicit transport_decoder(const transport_config& config);
    transport_config d_config;
};

/*!
 * \brief Makes a transport-block decoder; \p backend as turbo::make_decoder(): "auto",
 * "cpu", "cuda" or "reference". Throws as turbo::make_decoder() does.
 */
std::unique_ptr<transport_decoder>
make_transport_decoder(const transport_config& config, std::string_view backend = "auto");

//! Codeword values a transport block of \p tbs bits keeps in its soft buffer.
std::size_t soft_buffer_length(int tbs);

} // namespace gputurbo::lte

#endif
