/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_TURBO_CPU_DECODER_H
#define INCLUDED_GPUTURBO_TURBO_CPU_DECODER_H

#include "group_kernel.h"

#include <gnuradio/gputurbo/engine/turbo/decoder.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace gputurbo::turbo::cpu {

//! The widest kernel this CPU runs (core::cpu::choose(): GPUTURBO_CPU_KERNEL may pick
//! one by name).
const group_kernel& best_kernel();
//! The int16 kernel for this CPU (arithmetic=int16): avx512-int16, else avx2-int16, or
//! the one GPUTURBO_CPU_KERNEL=avx2|avx512 names; throws std::runtime_error without
//! AVX2.
const group_kernel& best_int16_kernel();
//! The single-lane kernel the others are tested against.
const group_kernel& reference_kernel();

/*!
 * \brief Decodes on the CPU: codewords are cut into groups of kernel.lanes, and the
 * threads of the shared pool take groups until none are left. Every group is decoded the
 * same way whatever the thread count, so results do not depend on it.
 */
class cpu_decoder final : public decoder
{
public:
    //! \p threads: worker threads (0: config.threads); \p kind: what backend() says.
    cpu_decoder(const decoder_config& config,
                const group_kernel& kernel,
                core::backend kind,
                int threads = 0);

    core::backend kind() const override;
    std::string device() const override;

private:
    int automatic_subblocks(int K) const override;
    void
    decode_batch(const batch& b, std::uint8_t* bits, codeword_status* status) override;

    struct free_delete
    {
        void operator()(void* p) const { std::free(p); }
    };
    using buffer = std::unique_ptr<void, free_delete>;

    const group_kernel& d_kernel;
    const core::backend d_kind;
    const int d_threads;
    std::size_t d_workspace_bytes = 0;
    std::vector<buffer> d_workspaces; // one per thread, grown to the largest K
};

} // namespace gputurbo::turbo::cpu

#endif
