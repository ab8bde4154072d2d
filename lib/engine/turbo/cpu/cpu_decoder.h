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
#include <optional>
#include <string>
#include <vector>

namespace gputurbo::turbo::cpu {

//! A kernel and, when it was chosen among several by their speed here, how they ran.
struct chosen_kernel
{
    const group_kernel* kernel;
    std::string why;
};

//! The float kernel for this CPU: the faster of avx512 and avx2 measured here (once per
//! process), else generic; GPUTURBO_CPU_KERNEL=scalar|generic|avx2|avx512 names one.
chosen_kernel best_kernel();
//! The int16 kernel for this CPU: the faster of avx512-int16 and avx2-int16 measured
//! here (once per process), the one GPUTURBO_CPU_KERNEL=avx2|avx512 names, or none
//! (no AVX2, or GPUTURBO_CPU_KERNEL names scalar or generic).
std::optional<chosen_kernel> best_int16_kernel();
//! The kernel of a CPU decoder of \p config: its arithmetic's (decoder_config::
//! cuda_arithmetic; automatic: int16 where a kernel of it runs here and takes the
//! configured P, else float32). Throws std::runtime_error for int16 without its kernel.
chosen_kernel kernel_for(const decoder_config& config);
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
    //! \p threads: worker threads (0: config.threads); \p kind: what backend() says;
    //! \p choice: why this kernel, for device().
    cpu_decoder(const decoder_config& config,
                const group_kernel& kernel,
                core::backend kind,
                int threads = 0,
                std::string choice = "");

    core::backend kind() const override;
    std::string device() const override;
    arithmetic metric_arithmetic() const override;
    bool gives_soft(core::soft_output kind) const override
    {
        return kind != core::soft_output::code_extrinsic;
    }

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
    const std::string d_choice;
    const core::backend d_kind;
    const int d_threads;
    std::size_t d_workspace_bytes = 0;
    std::vector<buffer> d_workspaces; // one per thread, grown to the largest K
};

} // namespace gputurbo::turbo::cpu

#endif
