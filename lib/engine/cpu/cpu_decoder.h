/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CPU_DECODER_H
#define INCLUDED_GPUTURBO_CPU_DECODER_H

#include "group_kernel.h"

#include <gnuradio/gputurbo/engine/decoder.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace gputurbo::cpu {

//! The widest kernel this CPU runs (GPUTURBO_CPU_KERNEL=scalar|generic|avx2|avx512
//! in the environment picks one by name; an unsupported or unknown name throws).
const group_kernel& best_kernel();

/*!
 * \brief Decodes on the CPU: codewords are cut into groups of kernel.lanes, and a pool of
 * threads takes groups until none are left. Every group is decoded the same way whatever
 * the thread count, so results do not depend on it.
 */
class cpu_decoder final : public decoder
{
public:
    cpu_decoder(const decoder_config& config, const group_kernel& kernel, int threads);

    std::string backend() const override;
    std::string device() const override;

private:
    void decode_batch(const llr_input& llrs,
                      std::size_t n_codewords,
                      std::uint8_t* bits,
                      codeword_status* status) override;

    struct free_delete
    {
        void operator()(void* p) const { std::free(p); }
    };
    using buffer = std::unique_ptr<void, free_delete>;

    const group_kernel& d_kernel;
    const std::vector<std::uint32_t>& d_pi;
    const int d_threads;
    const std::size_t d_workspace_bytes;
    std::vector<buffer> d_workspaces; // one per thread, made on first use
};

} // namespace gputurbo::cpu

#endif
