/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// What a block size needs, from the turbo family's free functions (the transport layer
// asks them, not a decoder): the CUDA backend's P and the checks every backend makes.

#include <gnuradio/gputurbo/engine/turbo/decoder.h>
#include <gnuradio/gputurbo/engine/turbo/device_kernels.h>

#include <gtest/gtest.h>

#include <stdexcept>

using namespace gputurbo;

TEST(TurboBlockSizes, CudaSubblocksAreTheConfiguredOrTheAutomaticP)
{
    turbo::decoder_config c;
    c.subblocks = 0;
    EXPECT_EQ(turbo::cuda_subblocks(c, 6144), 192);
    for (const int K : { 40, 1008, 6144 })
        EXPECT_EQ(turbo::cuda_subblocks(c, K),
                  turbo::subblocks_for_length(
                      K, turbo::cuda_subblock_length, turbo::cuda_segment_length))
            << "K=" << K;
    c.subblocks = 4;
    EXPECT_EQ(turbo::cuda_subblocks(c, 6144), 4);
}

TEST(TurboBlockSizes, CheckBlockAsTheDecodersDo)
{
    turbo::decoder_config c;
    c.guard_window = 8;
    EXPECT_NO_THROW(turbo::check_block(c, 6144, 192));
    EXPECT_THROW(turbo::check_block(c, 6145, 1), std::invalid_argument); // not an LTE K
    EXPECT_THROW(turbo::check_block(c, 6144, 7), std::invalid_argument); // 7 ∤ 6144
    // g = 8 does not fit sub-blocks of 6144 / 1536 = 4 bits.
    EXPECT_THROW(turbo::check_block(c, 6144, 1536), std::invalid_argument);
    c.subblocks = 192;
    const auto d = turbo::make_decoder(c, "cpu");
    for (const int K : { 40, 6144 }) {
        bool free_throws = false, decoder_throws = false;
        try {
            turbo::check_block(c, K, d->subblocks(K));
        } catch (const std::invalid_argument&) {
            free_throws = true;
        }
        try {
            d->check_block(K);
        } catch (const std::invalid_argument&) {
            decoder_throws = true;
        }
        EXPECT_EQ(free_throws, decoder_throws) << "K=" << K;
    }
}

#ifndef GPUTURBO_HAVE_CUDA
TEST(TurboBlockSizes, DeviceKernelsNeedACudaBuild)
{
    EXPECT_THROW(turbo::make_device_kernels(turbo::decoder_config{}, 0),
                 std::runtime_error);
}
#endif
