/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Encodes and decodes a few codewords through the installed engine (and makes a block,
// when the blocks are installed): exit status 0 when every bit comes back.

#include <gnuradio/gputurbo/engine/core/version.h>
#include <gnuradio/gputurbo/engine/turbo/code.h>
#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#ifdef WITH_BLOCKS
#include <gnuradio/gputurbo/turbo_encoder.h>
#endif

#include <cstdio>
#include <vector>

int main()
{
    namespace turbo = gputurbo::turbo;
    const int K = 40, n = 3;
    std::vector<std::uint8_t> bits(n * K), code(n * turbo::codeword_length(K));
    for (std::size_t i = 0; i < bits.size(); ++i)
        bits[i] = std::uint8_t((i * 7 + i / 5) % 2);
    turbo::encode(K, bits.data(), n, code.data());
    std::vector<float> llrs(code.size());
    for (std::size_t i = 0; i < code.size(); ++i)
        llrs[i] = code[i] ? -4.0f : 4.0f; // the engine's sign: positive means 0
    turbo::decoder_config c;
    c.K = K;
    const auto dec = turbo::make_decoder(c, "cpu");
    std::vector<std::uint8_t> out(bits.size());
    dec->decode(llrs.data(), n, out.data(), nullptr);
#ifdef WITH_BLOCKS
    const bool block = gr::gputurbo::turbo_encoder::make(K)->block_size() == K;
#else
    const bool block = true;
#endif
    const bool ok = out == bits && block;
    std::printf("gr-gputurbo %s: %s\n", gputurbo::core::version(), ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
