/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_ENGINE_SIM_CHANNEL_H
#define INCLUDED_GPUTURBO_ENGINE_SIM_CHANNEL_H

/*!
 * \file channel.h
 * \brief A BPSK/AWGN link for error-rate measurements: random blocks, the LTE encoder,
 *        BPSK (0 -> +1, 1 -> -1), white Gaussian noise at a given Eb/N0 with the code
 *        rate R = K / (3K+12), and channel LLRs L = 2y / sigma^2.
 *
 * The convolutional codes (conv/code.h) have the same link: random frames, the conv
 * encoder and its puncturing, BPSK of the sent bits, R = frame_bits / punctured_length.
 *
 * Frame i of a run is a pure function of (seed, i), whatever the thread count or batch
 * size, so runs are repeatable and two decoders can be compared on the same frames.
 */

#include <gnuradio/gputurbo/engine/conv/code.h>
#include <gnuradio/gputurbo/engine/conv/decoder.h>
#include <gnuradio/gputurbo/engine/sim/soft_statistics.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstdint>
#include <functional>
#include <optional>

namespace gputurbo::sim {

//! R = K / (3K+12).
double code_rate(int K);

//! Noise standard deviation per real dimension for unit-energy BPSK at Eb/N0 (dB).
double noise_sigma(int K, double ebn0_db);

struct channel_setup
{
    int K = 6144;
    double ebn0_db = 1.0;
    std::uint64_t seed = 1;
    turbo::layout out_layout = turbo::layout::interleaved;
    std::optional<core::crc> crc; //!< when set, each block ends with this CRC
};

/*!
 * \brief Makes frames first_frame … first_frame+n-1.
 * \param bits n * K transmitted bits
 * \param llrs n * (3K+12) channel LLRs
 * \param threads 0 = all cores
 * \param code_bits n * (3K+12) code bits sent, in the LLRs' order, or nullptr
 */
void make_noisy_frames(const channel_setup& setup,
                       std::uint64_t first_frame,
                       std::size_t n,
                       std::uint8_t* bits,
                       float* llrs,
                       int threads = 0,
                       std::uint8_t* code_bits = nullptr);

//! Counts at one Eb/N0.
struct ber_point
{
    double ebn0_db = 0.0;
    std::uint64_t bit_errors = 0;
    std::uint64_t bits = 0;
    std::uint64_t frame_errors = 0;
    std::uint64_t frames = 0;
    std::uint64_t iterations = 0; //!< summed over frames
    double decode_seconds = 0.0;  //!< time spent in turbo::decoder::decode
    //! of the soft values and the channel's LLRs, where ber_run::output asks for them
    soft_statistics soft;

    double ber() const { return bits ? double(bit_errors) / bits : 0.0; }
    double fer() const { return frames ? double(frame_errors) / frames : 0.0; }
    double avg_iterations() const { return frames ? double(iterations) / frames : 0.0; }
};

struct ber_run
{
    double ebn0_db = 1.0;
    std::uint64_t min_frame_errors = 100; //!< stop once this many frames failed …
    std::uint64_t max_frames = 100000;    //!< … or this many were sent
    std::uint64_t seed = 1;
    std::size_t batch = 0; //!< codewords per decode call; 0: default_batch(K)
    bool int8 = false;     //!< quantise the LLRs (decoder_config::int8_scale) first
    int llr_bits = 8;      //!< int8: saturated to the range of this many bits (2 … 8)
    //! soft output (decode_soft(); frames only): the bits are its signs, and
    //! ber_point::soft its statistics against the bits sent (code_extrinsic: the code
    //! bits sent)
    core::soft_output output = core::soft_output::none;
};

//! Codewords per decode call when ber_run::batch is 0: about 400k LLRs, 64 … 1024.
std::size_t default_batch(int K);

/*!
 * \brief Sends frames through the channel and the decoder until a stop condition holds.
 * Frames carry the CRC of the decoder's stop rule when it is crc24a/crc24b. progress is
 * called after every batch with the counts so far.
 */
ber_point measure_ber(turbo::decoder& dec,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress = {});

//! A convolutional code's link.
struct conv_setup
{
    conv::code generator = conv::preset("802.11");
    conv::termination mode = conv::termination::terminated;
    conv::puncturing punctured; //!< none by default
    int frame_bits = 1024;
    double ebn0_db = 1.0;
    std::uint64_t seed = 1;

    //! Channel LLRs per frame: conv::punctured_length().
    std::size_t sent_length() const;
    //! R = frame_bits / sent_length(): the tail and puncturing counted.
    double code_rate() const;

    //! The link of \p config's code, termination and puncturing, in frames of
    //! \p frame_bits bits.
    static conv_setup of(const conv::viterbi_config& config, int frame_bits);
};

/*!
 * \brief Makes frames first_frame … first_frame+n-1 of a convolutional code.
 * \param bits n * frame_bits transmitted bits
 * \param llrs n * sent_length() channel LLRs of the sent (punctured) coded bits
 * \param threads 0 = all cores
 * \param code_bits n * sent_length() sent coded bits, in the LLRs' order, or nullptr
 */
void make_noisy_frames(const conv_setup& setup,
                       std::uint64_t first_frame,
                       std::size_t n,
                       std::uint8_t* bits,
                       float* llrs,
                       int threads = 0,
                       std::uint8_t* code_bits = nullptr);

//! measure_ber() for a Viterbi decoder (conv/decoder.h) of the setup's code; its
//! int8_scale quantises when run.int8; threads make the frames. setup.ebn0_db and
//! setup.seed are run's.
ber_point measure_ber(core::batch_decoder& dec,
                      conv_setup setup,
                      float int8_scale,
                      int threads,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress = {});

/*!
 * \brief measure_ber() for a stream decoder (conv/decoder.h): the run's frames are
 * consecutive pieces of one stream from encoder state 0 (setup.mode becomes streaming;
 * punctured, frame_bits must be a whole number of periods), decoded in batches as they
 * come, the stream flushed at the end. A frame counts once all its bits are out; frame
 * errors are frames with a wrong bit. decode_seconds covers the decode and flush calls.
 * A stream has no soft output: run.output other than none throws std::invalid_argument.
 */
ber_point measure_ber(conv::stream_decoder& dec,
                      conv_setup setup,
                      float int8_scale,
                      int threads,
                      const ber_run& run,
                      const std::function<void(const ber_point&)>& progress = {});

} // namespace gputurbo::sim

#endif
