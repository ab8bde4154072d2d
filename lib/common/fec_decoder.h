/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_COMMON_FEC_DECODER_H
#define INCLUDED_GPUTURBO_COMMON_FEC_DECODER_H

#include "failure_log.h"
#include "soft_in_bits_out.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace gr {
namespace gputurbo {
namespace common {

/*!
 * \brief What every family's gr-fec decoder object (turbo_decoder_fec,
 * viterbi_decoder_fec) keeps alike: the counts of fec_decoder_status, and a frame that
 * set_frame_size() refused counted and logged once, however often gr-fec passes it to
 * generic_work(). Interface is the object's public class.
 */
template <class Interface>
class fec_decoder : public Interface, public soft_in_bits_out
{
protected:
    // gr-fec calls set_frame_size() and generic_work() from the block's thread, the
    // accessors come from others: they take d_mutex.
    mutable std::mutex d_mutex;
    std::uint64_t d_decoded_frames = 0;

    ~fec_decoder() override
    {
        if (auto line = d_refusals.flush())
            this->d_logger->error(*line);
    }

    //! set_frame_size() refused the announced frame of \p size (in its own unit).
    void refuse(unsigned int size)
    {
        d_refused_size = size;
        d_refusal_counted = false;
    }

    //! generic_work() got the refused frame: the first time, counts and logs it with
    //! the reason that \p why gives of its size.
    template <class Why>
    void count_refusal(Why why)
    {
        if (d_refusal_counted)
            return;
        d_refusal_counted = true;
        if (const auto line = d_refusals.count(why(d_refused_size)))
            this->d_logger->error(*line);
    }

public:
    std::uint64_t frames() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_decoded_frames;
    }

    std::uint64_t refused_frames() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_refusals.total();
    }

private:
    unsigned int d_refused_size = 0;
    bool d_refusal_counted = true;
    failure_log d_refusals{ "frame refused" };
};

} // namespace common
} // namespace gputurbo
} // namespace gr

#endif
