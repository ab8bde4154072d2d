/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "thread_pool.h"

#include <algorithm>

namespace gputurbo::core {
namespace {
thread_local bool inside_run = false;
} // namespace

int thread_count(int threads)
{
    return threads > 0 ? threads : std::max(1, int(std::thread::hardware_concurrency()));
}

thread_pool& thread_pool::shared()
{
    // Never destroyed: a run still in flight at exit (a detached thread, a decoder that
    // outlives main) would otherwise wait forever for workers that have quit.
    static thread_pool* const pool = new thread_pool;
    return *pool;
}

thread_pool::~thread_pool()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_quit = true;
    }
    d_wake.notify_all();
    for (auto& t : d_threads)
        t.join();
}

void thread_pool::serve(int worker)
{
    inside_run = true;
    std::uint64_t seen = 0;
    while (true) {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_wake.wait(lock, [&] { return d_quit || d_generation != seen; });
        if (d_quit)
            return;
        seen = d_generation;
        if (worker >= d_workers)
            continue;
        const auto* body = d_body;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*body)(worker);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        if (error && !d_error)
            d_error = error;
        if (--d_running == 0)
            d_finished.notify_all();
    }
}

void thread_pool::run(int workers, const std::function<void(int)>& body)
{
    if (workers <= 1 || inside_run) {
        for (int w = 0; w < std::max(workers, 1); ++w)
            body(w);
        return;
    }
    std::unique_lock<std::mutex> turn(d_turn, std::try_to_lock);
    if (!turn.owns_lock()) {
        // Another decoder has the pool: threads of this run's own, rather than waiting.
        run_on_new_threads(workers, body);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        while (int(d_threads.size()) < workers - 1) {
            const int w = int(d_threads.size()) + 1;
            d_threads.emplace_back([this, w] { serve(w); });
        }
        d_body = &body;
        d_workers = workers;
        d_running = workers - 1;
        d_error = nullptr;
        ++d_generation;
    }
    d_wake.notify_all();
    std::exception_ptr error;
    inside_run = true;
    try {
        body(0);
    } catch (...) {
        error = std::current_exception();
    }
    inside_run = false;
    std::unique_lock<std::mutex> lock(d_mutex);
    d_finished.wait(lock, [&] { return d_running == 0; });
    if (!error)
        error = d_error;
    if (error)
        std::rethrow_exception(error);
}

void thread_pool::run_on_new_threads(int workers, const std::function<void(int)>& body)
{
    std::vector<std::exception_ptr> errors(workers);
    auto guarded = [&](int w) {
        inside_run = true;
        try {
            body(w);
        } catch (...) {
            errors[w] = std::current_exception();
        }
        inside_run = false;
    };
    std::vector<std::thread> threads;
    for (int w = 1; w < workers; ++w)
        threads.emplace_back(guarded, w);
    guarded(0);
    for (auto& t : threads)
        t.join();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

} // namespace gputurbo::core
