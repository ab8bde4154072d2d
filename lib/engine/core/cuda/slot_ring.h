/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_CUDA_SLOT_RING_H
#define INCLUDED_GPUTURBO_CORE_CUDA_SLOT_RING_H

// The slots through which every GPU pipeline of the engine moves its batches: a slot
// holds one batch on its way (copies in, kernels, copies out, on its own stream), so
// that the batches of different slots overlap. The ring makes slots on first need and
// hands out free ones; a call cut into chunks takes them two at a time (in_turn()).

#include "memory.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gputurbo::core::cuda {

//! What every slot owns; a family's slot adds its buffers.
struct slot
{
    stream queue;
    event input_read;    //!< its input is on the GPU: the caller's buffer may be reused
    event kernels_start; //!< kernel time runs from here ...
    event kernels_end;   //!< ... to here (kernel_seconds())
    event done;          //!< recorded by the family where its results are out
    pinned_array<unsigned char> staged_in;  //!< page-locked input, for pageable callers
    pinned_array<unsigned char> staged_out; //!< page-locked output, likewise

    //! Seconds from kernels_start to kernels_end, once both have passed.
    double kernel_seconds() const
    {
        float ms = 0.0f;
        GPUTURBO_CUDA_TRY(cudaEventElapsedTime(&ms, kernels_start, kernels_end));
        return ms * 1e-3;
    }
    //! Waits for everything enqueued on the slot (a family with more streams hides it).
    void wait() const { GPUTURBO_CUDA_TRY(cudaStreamSynchronize(queue)); }
};

/*!
 * \brief Slots of type \p Slot (a slot) on one GPU: taken, and given back once their
 * results are out. Slots are made on first need, up to \p most at once, and reused.
 */
template <class Slot>
class slot_ring
{
public:
    explicit slot_ring(std::size_t most = std::numeric_limits<std::size_t>::max())
        : d_most(most)
    {
    }
    slot_ring(const slot_ring&) = delete;
    slot_ring& operator=(const slot_ring&) = delete;

    //! Work still in flight may write into the slots' buffers: it finishes first.
    ~slot_ring()
    {
        for (Slot* s : d_taken)
            cudaStreamSynchronize(s->queue);
    }

    //! A free slot; std::logic_error when \p most are taken.
    Slot& take()
    {
        for (const auto& s : d_slots)
            if (!is_taken(*s)) {
                d_taken.push_back(s.get());
                return *s;
            }
        if (d_slots.size() >= d_most)
            throw std::logic_error("slot_ring: every slot is taken");
        d_slots.push_back(std::make_unique<Slot>());
        d_taken.push_back(d_slots.back().get());
        return *d_slots.back();
    }

    void give_back(Slot& s)
    {
        for (auto it = d_taken.begin(); it != d_taken.end(); ++it)
            if (*it == &s) {
                d_taken.erase(it);
                return;
            }
    }

    //! The slots taken, the oldest first.
    const std::deque<Slot*>& taken() const { return d_taken; }

    /*!
     * \brief A call's \p chunks chunks through two slots in turn: enqueue(slot, i) puts
     * chunk i on a slot; then finish(slot, i - 1) waits for the chunk before and delivers
     * its results while chunk i runs. On an error, every slot of the call is waited for
     * and given back before the error goes on: no work of the call is left to write into
     * a later call's buffers.
     */
    template <class Enqueue, class Finish>
    void in_turn(std::size_t chunks, Enqueue enqueue, Finish finish)
    {
        Slot* previous = nullptr;
        Slot* current = nullptr;
        try {
            for (std::size_t i = 0; i <= chunks; ++i) {
                current = nullptr;
                if (i < chunks) {
                    current = &take();
                    enqueue(*current, i);
                }
                if (previous) {
                    Slot* done = previous;
                    previous = nullptr;
                    give_back(*done); // free again, whatever finish() meets
                    finish(*done, i - 1);
                }
                previous = current;
            }
        } catch (...) {
            for (Slot* s : { previous, current })
                if (s) {
                    try {
                        s->wait();
                    } catch (...) {
                    }
                    give_back(*s);
                }
            throw;
        }
    }

private:
    bool is_taken(const Slot& s) const
    {
        for (const Slot* t : d_taken)
            if (t == &s)
                return true;
        return false;
    }

    const std::size_t d_most;
    std::vector<std::unique_ptr<Slot>> d_slots;
    std::deque<Slot*> d_taken; // oldest first
};

} // namespace gputurbo::core::cuda

#endif
