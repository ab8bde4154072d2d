/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_MULTI_DEVICE_H
#define INCLUDED_GPUTURBO_CORE_CUDA_MULTI_DEVICE_H

// Several GPUs of one host for any code family: a decoder per GPU (a part), and a batch
// spread over them. No CUDA header: the parts are the family's one-GPU decoders.

#include <gnuradio/gputurbo/engine/core/batch_decoder.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gputurbo::core::cuda {

/*!
 * \brief Cuts a batch into one contiguous share per part, decodes the shares
 * concurrently (a host thread per part) and writes them back in place. Float or int8
 * LLRs, \p input_length of them per codeword.
 */
void decode_across(const std::vector<batch_decoder*>& parts,
                   const llr_batch& b,
                   std::size_t input_length,
                   std::uint8_t* bits,
                   codeword_status* status);

/*!
 * \brief A family's decoder over several GPUs: \p Base is the family's decoder interface
 * (a batch_decoder), \p Part its decoder of one GPU. Every part has the same config, so
 * the first answers for all what a block size needs; a batch goes through
 * decode_across().
 */
template <class Base, class Part>
class multi_device : public Base
{
public:
    void check_block(int block) const override { d_parts.front()->check_block(block); }
    core::backend kind() const override { return core::backend::cuda; }

    //! The GPUs run side by side: the slowest one's kernel time.
    double device_seconds() const override
    {
        double longest = 0.0;
        for (const auto& part : d_parts)
            longest = std::max(longest, part->device_seconds());
        return longest;
    }

    //! "2 GPUs: [first] [second]".
    std::string device() const override
    {
        std::string text = std::to_string(d_parts.size()) + " GPUs:";
        for (const auto& part : d_parts)
            text += " [" + part->device() + "]";
        return text;
    }

protected:
    //! \p base_arguments go to Base's constructor.
    template <class... Arguments>
    explicit multi_device(std::vector<std::unique_ptr<Part>> parts,
                          Arguments&&... base_arguments)
        : Base(std::forward<Arguments>(base_arguments)...), d_parts(std::move(parts))
    {
    }

    void
    decode_batch(const llr_batch& b, std::uint8_t* bits, codeword_status* status) override
    {
        std::vector<batch_decoder*> parts;
        for (auto& part : d_parts)
            parts.push_back(part.get());
        decode_across(parts, b, this->input_length(b.block), bits, status);
    }

    const std::vector<std::unique_ptr<Part>> d_parts;
};

//! A part per device, each made by \p make(device).
template <class Part, class Make>
std::vector<std::unique_ptr<Part>> parts_on(const std::vector<int>& devices, Make make)
{
    std::vector<std::unique_ptr<Part>> parts;
    for (int d : devices)
        parts.push_back(make(d));
    return parts;
}

} // namespace gputurbo::core::cuda

#endif
