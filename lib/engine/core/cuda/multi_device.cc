/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "multi_device.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace gputurbo::core::cuda {

void decode_across(const std::vector<batch_decoder*>& parts,
                   const llr_batch& b,
                   std::size_t input_length,
                   std::uint8_t* bits,
                   codeword_status* status)
{
    // A host thread per GPU, not the thread pool: each part's staging copies use the
    // pool (or threads of their own) while the GPUs decode side by side.
    const std::size_t n = b.count, share = (n + parts.size() - 1) / parts.size();
    std::vector<std::exception_ptr> errors(parts.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < parts.size(); ++i)
        threads.emplace_back([&, i] {
            try {
                const std::size_t first = std::min(n, i * share);
                const std::size_t count = std::min(share, n - first);
                std::uint8_t* out = bits + first * output_bytes(b.format, b.block);
                codeword_status* st = status ? status + first : nullptr;
                if (b.soft.kind != soft_output::none) {
                    const soft_values soft{ b.soft.values +
                                                first * parts[i]->soft_length(
                                                            b.block, b.soft.kind),
                                            b.soft.kind };
                    if (b.f32)
                        parts[i]->decode_soft(
                            b.block, b.f32 + first * input_length, count, soft, out, st);
                    else
                        parts[i]->decode_soft(
                            b.block, b.i8 + first * input_length, count, soft, out, st);
                } else if (b.f32)
                    parts[i]->decode(
                        b.block, b.f32 + first * input_length, count, out, st, b.format);
                else
                    parts[i]->decode(
                        b.block, b.i8 + first * input_length, count, out, st, b.format);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
    for (auto& t : threads)
        t.join();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

} // namespace gputurbo::core::cuda
