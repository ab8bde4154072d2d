/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H
#define INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/turbo_decoder_fec.h>

#include <memory>
#include <mutex>

namespace gr {
namespace gputurbo {

class turbo_decoder_fec_impl : public turbo_decoder_fec
{
private:
    // set_frame_size() replaces the engine decoder: it, generic_work() and the
    // accessors take d_mutex.
    mutable std::mutex d_mutex;
    ::gputurbo::turbo::decoder_config
        d_config;          // as asked for: subblocks 0 stays automatic
    std::string d_backend; // "cpu" or "cuda" ("reference" if asked) once resolved
    std::unique_ptr<::gputurbo::turbo::decoder> d_decoder;
    ::gputurbo::core::codeword_status d_status; // of the last frame
    std::uint64_t d_frames = 0;

public:
    turbo_decoder_fec_impl(const ::gputurbo::turbo::decoder_config& config,
                           const std::string& backend);

    void generic_work(void* inbuffer, void* outbuffer) override;

    double rate() override;
    int get_input_size() override;
    int get_output_size() override;
    int get_history() override { return 0; }
    float get_shift() override { return 0.0f; }
    int get_input_item_size() override { return sizeof(float); }
    int get_output_item_size() override { return sizeof(std::uint8_t); }
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }
    bool set_frame_size(unsigned int frame_size) override;
    float get_iterations() override;

    int block_size() const override;
    int subblocks() const override;
    std::string backend() const override;
    std::string device() const override;
    std::uint64_t frames() const override;
    int last_iterations() const override;
    bool last_passed() const override;
};

} // namespace gputurbo
} // namespace gr

#endif /* INCLUDED_GPUTURBO_TURBO_DECODER_FEC_IMPL_H */
