/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUTURBO_CORE_THREAD_POOL_H
#define INCLUDED_GPUTURBO_CORE_THREAD_POOL_H

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gputurbo::core {

//! Worker threads for `threads` (0: one per core).
int thread_count(int threads);

/*!
 * \brief Threads that stay alive between runs, so that a run costs a wake-up rather
 * than thread creation (which matters for small batches). One run at a time: a run that
 * finds the pool busy (another decoder's) starts threads of its own for itself; a run
 * from inside a run executes inline.
 */
class thread_pool
{
public:
    //! The process's pool, shared by every CPU decoder, the channel model and copies;
    //! it lives until the process ends.
    static thread_pool& shared();

    thread_pool() = default;
    thread_pool(const thread_pool&) = delete;
    thread_pool& operator=(const thread_pool&) = delete;
    ~thread_pool();

    /*!
     * \brief Calls body(w) for w = 0 … workers-1 concurrently (body(0) on the calling
     * thread) and returns when all have returned; rethrows the first exception.
     */
    void run(int workers, const std::function<void(int worker)>& body);

private:
    void serve(int worker);
    static void run_on_new_threads(int workers, const std::function<void(int)>& body);

    std::mutex d_turn; // held for a whole run
    std::mutex d_mutex;
    std::condition_variable d_wake, d_finished;
    std::vector<std::thread> d_threads; // worker w is d_threads[w - 1]
    const std::function<void(int)>* d_body = nullptr;
    std::uint64_t d_generation = 0;
    int d_workers = 0;
    int d_running = 0;
    bool d_quit = false;
    std::exception_ptr d_error;
};

} // namespace gputurbo::core

#endif
