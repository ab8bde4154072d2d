/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gputurbo authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "core/cuda/multi_device.h"
#include "core/cuda/pipeline.h"
#include "core/cuda/runtime.h"
#include "core/cuda/slot_ring.h"
#include "../quantize.h"
#include "bcjr_kernel.cuh"
#include "cuda_decoder.h"
#include "viterbi_kernel.cuh"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputurbo::conv::cuda {
namespace {

static_assert(device_llr_padding == core::cuda::llr_padding);

// A pipeline chunk is whole waves: the frames whose segment pairs give each decoding
// thread one (decoding_threads()). A thread decodes the chunk's pairs one after another
// and traces each while it runs the next, so more waves hide more of the tracebacks;
// but the chunks of a call should be three or more, so that the copies overlap the
// kernels (the last chunk's kernel and copy out are what nothing overlaps). At most:
constexpr std::size_t chunk_waves = 4;
// and the buffers of a chunk (float input, bits, workspace) within this share of the
// GPU's memory (two chunks are in flight).
constexpr std::size_t chunk_memory_share = 8;

device_segment to_device(const segment& s)
{
    return { s.first, s.begin, s.end, s.owned_end, s.start_zero, s.end_zero };
}

std::string describe(const cudaDeviceProp& prop, int device, const std::string& versions)
{
    return std::string(prop.name) + " (GPU " + std::to_string(device) + ", " +
           std::to_string(prop.multiProcessorCount) +
           " SMs, int16 metrics, 2 segments per thread; " + versions + ")";
}

// Where a batch's workspace puts what: the kernels' scratch, then the owned sums and the
// segments' scales (soft output).
struct workspace_layout
{
    std::size_t scratch;
    std::size_t owned_offset, scales_offset; // bytes
    std::size_t bytes;

    workspace_layout(const trellis& t, std::size_t segments, int run, std::size_t threads)
        : scratch(scratch_bytes(t, segments, run, threads)),
          owned_offset((scratch + 15) / 16 * 16),
          scales_offset(owned_offset + segments * sizeof(long long)),
          bytes(scales_offset + segments * sizeof(float))
    {
    }
};

// A Viterbi decoder of frames on one GPU: the core's pipeline with the Viterbi kernel.
// The segments of each frame size are cut once and kept on the device.
class frame_decoder final : public core::batch_decoder, private core::cuda::family_kernels
{
public:
    frame_decoder(const viterbi_config& config, int device)
        : d_config(config),
          d_geometry(derived_geometry(config)),
          d_trellis(make_trellis(config.generator)),
          d_pipeline(device, *this),
          d_threads(decoding_threads(d_trellis))
    {
        d_config.validate();
    }

    void check_block(int frame_bits) const override
    {
        check_frame_bits(d_config.generator, d_config.mode, frame_bits);
    }

    std::size_t input_length(int frame_bits) const override
    {
        return punctured_length(
            d_config.generator, d_config.punctured, d_config.mode, frame_bits);
    }

    core::backend kind() const override { return core::backend::cuda; }
    //! The fast BCJR's (bcjr_kernel.cuh).
    bool gives_soft(core::soft_output kind) const override
    {
        return gives_fast_soft(d_config, kind);
    }
    double device_seconds() const override { return d_pipeline.device_seconds(); }
    std::string device() const override
    {
        return describe(
            d_pipeline.properties(), d_pipeline.device(), d_pipeline.versions());
    }

private:
    friend class kernels_on_device;
    friend std::unique_ptr<device_kernels>
    gputurbo::conv::cuda::device_kernels_of(const core::batch_decoder& decoder);

    // What is worked out once per frame size.
    struct shape_plan
    {
        std::int64_t steps = 0;
        int run = 0;
        int per_frame = 0;           // segments
        bool firsts_aligned = false; // see viterbi_job
        std::int64_t decided_begin = 0, decided_end = 0;
        core::cuda::device_array<device_segment> segments;
        core::cuda::device_array<int> sent_index; // empty when unpunctured
        std::size_t wave = 0;                     // frames: see chunk_waves
        std::size_t most = 0;                     // frames per pipeline chunk, at most
    };

    struct shape
    {
        std::int64_t steps;
        int run;
        std::vector<segment> segments;
    };

    shape shape_of(int frame_bits) const
    {
        shape s;
        s.steps = std::int64_t(steps(d_config.generator, d_config.mode, frame_bits));
        s.run = int(frame_run(d_geometry, d_config.mode, frame_bits, s.steps));
        cut_frame(d_geometry, d_config.mode, frame_bits, s.steps, 0, s.segments);
        return s;
    }

    shape_plan& plan(int frame_bits)
    {
        auto& p = d_plans[frame_bits];
        if (p)
            return *p;
        const shape s = shape_of(frame_bits);
        p = std::make_unique<shape_plan>();
        p->steps = s.steps;
        p->run = s.run;
        p->per_frame = int(s.segments.size());
        p->decided_begin = s.segments.front().begin;
        p->decided_end = s.segments.back().end;
        std::vector<device_segment> segments;
        p->firsts_aligned = true;
        for (const segment& seg : s.segments) {
            segments.push_back(to_device(seg));
            p->firsts_aligned &= seg.first * d_trellis.outputs % 4 == 0;
        }
        core::cuda::upload(
            p->segments.reserve(segments.size()), segments.data(), segments.size());
        const std::vector<std::int32_t> index = sent_index(d_config, frame_bits);
        if (!index.empty())
            core::cuda::upload(
                p->sent_index.reserve(index.size()), index.data(), index.size());
        p->wave = std::max<std::size_t>(1, 2 * d_threads / p->per_frame);
        const std::size_t budget =
            d_pipeline.properties().totalGlobalMem / chunk_memory_share;
        auto chunk_bytes = [&](std::size_t n) {
            return workspace_bytes(frame_bits, n) +
                   n * (input_length(frame_bits) * sizeof(float) + frame_bits);
        };
        std::size_t waves = chunk_waves;
        while (waves > 1 && chunk_bytes(waves * p->wave) > budget)
            --waves;
        p->most = waves * p->wave;
        if (chunk_bytes(p->most) > budget) // not even a wave: what fits
            p->most = std::max<std::size_t>(
                1, std::size_t(double(p->most) * budget / chunk_bytes(p->most)));
        return *p;
    }

    std::size_t workspace_bytes(int frame_bits, std::size_t n) const override
    {
        const shape s = shape_of(frame_bits);
        return workspace_layout(d_trellis, s.segments.size() * n, s.run, d_threads).bytes;
    }

    // Whole waves, a third of the call (rounded), within the plan's most.
    std::size_t chunk_codewords(int frame_bits, std::size_t count) override
    {
        const shape_plan& p = plan(frame_bits);
        const std::size_t waves =
            std::max<std::size_t>(1, (2 * count + 3 * p.wave) / (6 * p.wave));
        return std::min(waves * p.wave, p.most);
    }

    void launch(int frame_bits,
                std::size_t n,
                const core::cuda::batch_buffers& b,
                cudaStream_t s) override
    {
        const shape_plan& p = plan(frame_bits);
        const std::size_t segments = std::size_t(p.per_frame) * n;
        const workspace_layout layout(d_trellis, segments, p.run, d_threads);
        long long* owned =
            reinterpret_cast<long long*>(b.workspace + layout.owned_offset);
        viterbi_job job{};
        job.llrs = b.llrs;
        job.int8 = b.int8;
        job.int8_unit = 1.0f / d_config.int8_scale;
        job.invert = d_config.invert_llr;
        job.window_stride = input_length(frame_bits);
        job.sent_index = d_config.punctured.none() ? nullptr : p.sent_index.get();
        job.steps = p.steps;
        job.circular = d_config.mode == termination::tail_biting;
        job.bits = b.bits;
        job.out_stride = std::size_t(frame_bits);
        job.out_origin = 0;
        job.segments = p.segments.get();
        job.decided_begin = p.decided_begin;
        job.decided_end = p.decided_end;
        job.per_window = p.per_frame;
        job.windows = int(n);
        job.run = p.run;
        job.firsts_aligned = p.firsts_aligned;
        job.threads = d_threads;
        job.scratch = b.workspace;
        job.owned = owned;
        if (b.soft)
            job.scales = reinterpret_cast<float*>(b.workspace + layout.scales_offset);
        launch_viterbi(d_trellis, job, s);
        if (b.soft) // the pipeline runs one batch's kernels at a time: one buffer of
                    // checkpoints serves every batch
            launch_bcjr(
                d_trellis,
                job,
                soft_job{ b.soft,
                          d_config.invert_llr,
                          d_checkpoints.reserve(bcjr_checkpoint_bytes(d_trellis, job)) },
                s);
        launch_frame_status(
            owned, p.per_frame, int(n), job.window_stride, b.iterations, b.passed, s);
    }

    bool reads_int4() const override { return true; } // the pipeline unpacks it

    void decode_batch(const batch& b,
                      std::uint8_t* bits,
                      core::codeword_status* status) override
    {
        d_pipeline.decode(b, bits, status);
    }

    ticket submit_batch(const batch& b) override
    {
        const ticket t = next_ticket(d_pipeline.outstanding());
        d_pipeline.submit(t, b);
        return t;
    }

    void collect_batch(ticket t,
                       std::uint8_t* bits,
                       core::codeword_status* status,
                       float* soft) override
    {
        d_pipeline.collect(t, bits, status, soft);
    }

    const viterbi_config d_config;
    const segment_geometry d_geometry;
    const trellis d_trellis;
    core::cuda::pipeline d_pipeline;
    const std::size_t d_threads;                           // decoding_threads()
    std::map<int, std::unique_ptr<shape_plan>> d_plans;    // by frame size
    core::cuda::device_array<unsigned char> d_checkpoints; // the BCJR's
};

// The frame decoder's kernels on buffers the caller keeps on the GPU.
class kernels_on_device final : public device_kernels
{
public:
    kernels_on_device(const viterbi_config& config, int device) : d_frames(config, device)
    {
    }

    std::size_t input_length(int frame_bits) const override
    {
        d_frames.check_block(frame_bits);
        return d_frames.input_length(frame_bits);
    }

    std::size_t workspace_bytes(int frame_bits, std::size_t n) const override
    {
        return d_frames.workspace_bytes(frame_bits, n);
    }

    int gpu() const override { return d_frames.d_pipeline.device(); }

    void
    launch(int frame_bits, std::size_t n, const device_batch& b, cudaStream_t s) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_frames.d_pipeline.device()));
        d_frames.launch(frame_bits, n, core::cuda::buffers_of(b), s);
    }

private:
    frame_decoder d_frames;
};

// Several GPUs of one host, each with a decoder of its own.
class multi_device_decoder final
    : public core::cuda::multi_device<core::batch_decoder, frame_decoder>
{
public:
    multi_device_decoder(const viterbi_config& config, const std::vector<int>& devices)
        : multi_device(core::cuda::parts_on<frame_decoder>(
              devices, [&](int d) { return std::make_unique<frame_decoder>(config, d); }))
    {
    }

    std::size_t input_length(int frame_bits) const override
    {
        return d_parts.front()->input_length(frame_bits);
    }
    bool gives_soft(core::soft_output kind) const override
    {
        return d_parts.front()->gives_soft(kind);
    }
};

// The segments of a stream on one GPU, a batch a launch: each batch in a slot of its
// own (a CUDA stream, device buffers, page-locked bits), so that several decode at once
// while the host goes on. A launch's time hardly depends on how many segments it has
// (it is a thread's time to run its pair of segments, step by step, about a
// millisecond), so batches in flight, not larger launches, are what keep the GPU busy.
class gpu_segment_engine final : public segment_engine
{
public:
    gpu_segment_engine(const viterbi_config& config, int device)
        : d_config(config), d_trellis(make_trellis(config.generator)), d_device(device)
    {
        const std::string why = core::cuda::cannot_run_reason(device);
        if (!why.empty())
            throw std::runtime_error("backend 'cuda' is not available: " + why);
        GPUTURBO_CUDA_TRY(cudaSetDevice(device));
        GPUTURBO_CUDA_TRY(cudaGetDeviceProperties(&d_prop, device));
        d_threads = decoding_threads(d_trellis);
    }

    // Frames go through frame_decoder's pipeline; this engine serves streams.
    void decode(const std::vector<window>&,
                std::int64_t,
                const std::vector<segment>&,
                double*) override
    {
        throw std::logic_error("gpu_segment_engine decodes streams: use submit()");
    }

    void submit(const stream_window& w,
                std::int64_t run,
                const std::vector<segment>& segments) override
    {
        GPUTURBO_CUDA_TRY(cudaSetDevice(d_device));
        if (w.sent_index && d_index_count < w.index_count) {
            // Kernels in flight may read the old copy.
            for (const segment_slot* busy : d_slots.taken())
                GPUTURBO_CUDA_TRY(cudaEventSynchronize(busy->done));
            core::cuda::upload(
                d_index.reserve(w.index_count), w.sent_index, w.index_count);
            d_index_count = w.index_count;
        }
        segment_slot& sl = d_slots.take();
        cudaStream_t s = sl.queue;
        const std::size_t size = w.int8 ? 1 : sizeof(float);
        unsigned char* llrs = sl.llrs.reserve((w.held_count + w.fresh_count) * size +
                                              core::cuda::llr_padding);
        if (w.held_count > 0)
            GPUTURBO_CUDA_TRY(cudaMemcpyAsync(
                llrs, w.held, w.held_count * size, cudaMemcpyHostToDevice, s));
        if (w.fresh_count > 0)
            GPUTURBO_CUDA_TRY(cudaMemcpyAsync(llrs + w.held_count * size,
                                              w.fresh,
                                              w.fresh_count * size,
                                              cudaMemcpyHostToDevice,
                                              s));
        GPUTURBO_CUDA_TRY(cudaEventRecord(sl.input_read, s));
        device_segment* staged = sl.staged.reserve(segments.size());
        bool firsts_aligned = true;
        for (std::size_t i = 0; i < segments.size(); ++i) {
            staged[i] = to_device(segments[i]);
            firsts_aligned &= segments[i].first * d_trellis.outputs % 4 == 0;
        }
        device_segment* segs = sl.segments.reserve(segments.size());
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(segs,
                                          staged,
                                          segments.size() * sizeof(device_segment),
                                          cudaMemcpyHostToDevice,
                                          s));
        const workspace_layout layout(d_trellis, segments.size(), int(run), d_threads);
        const std::int64_t lo = segments.front().begin, hi = segments.back().end;
        sl.count = std::size_t(hi - lo);
        viterbi_job job{};
        job.llrs = llrs;
        job.int8 = w.int8;
        job.int8_unit = w.unit;
        job.invert = w.invert;
        job.window_stride = 0;
        job.sent_index = w.sent_index ? d_index.get() : nullptr;
        job.steps = w.steps;
        job.circular = false;
        job.bits = sl.bits.reserve(sl.count);
        job.out_stride = 0;
        job.out_origin = lo;
        job.segments = segs;
        job.decided_begin = lo;
        job.decided_end = hi;
        job.per_window = int(segments.size());
        job.windows = 1;
        job.run = int(run);
        job.firsts_aligned = firsts_aligned;
        job.threads = d_threads;
        job.scratch = sl.workspace.reserve(layout.bytes);
        job.owned = nullptr;
        sl.soft = w.soft;
        if (w.soft)
            job.scales = reinterpret_cast<float*>(job.scratch + layout.scales_offset);
        launch_viterbi(d_trellis, job, s);
        if (w.soft) // each slot's own checkpoints: the slots' kernels run side by side
            launch_bcjr(
                d_trellis,
                job,
                soft_job{ sl.soft_values.reserve(sl.count),
                          w.invert,
                          sl.checkpoints.reserve(bcjr_checkpoint_bytes(d_trellis, job)) },
                s);
        GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.staged_out.reserve(sl.count),
                                          job.bits,
                                          sl.count,
                                          cudaMemcpyDeviceToHost,
                                          s));
        if (w.soft)
            GPUTURBO_CUDA_TRY(cudaMemcpyAsync(sl.staged_soft.reserve(sl.count),
                                              sl.soft_values.get(),
                                              sl.count * sizeof(float),
                                              cudaMemcpyDeviceToHost,
                                              s));
        GPUTURBO_CUDA_TRY(cudaEventRecord(sl.done, s));
        // The caller may reuse its LLRs once the copies have read them.
        GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.input_read));
    }

    std::size_t collect(std::uint8_t* bits, float* soft, bool wait) override
    {
        if (d_slots.taken().empty() || (!wait && !ready()))
            return 0;
        segment_slot& sl = *d_slots.taken().front();
        GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.done));
        std::memcpy(bits, sl.staged_out.get(), sl.count);
        if (soft && sl.soft)
            std::memcpy(soft, sl.staged_soft.get(), sl.count * sizeof(float));
        d_slots.give_back(sl);
        return sl.count;
    }

    std::size_t submitted() const override { return d_slots.taken().size(); }

    // An error counts as ready: collect() then reports it.
    bool ready() const override
    {
        if (d_slots.taken().empty())
            return false;
        const cudaError_t e = cudaEventQuery(d_slots.taken().front()->done);
        if (e != cudaErrorNotReady)
            return true;
        if (cudaPeekAtLastError() == cudaErrorNotReady)
            (void)cudaGetLastError(); // not an error: the batch runs
        return false;
    }

    void discard() override
    {
        while (!d_slots.taken().empty()) {
            segment_slot& sl = *d_slots.taken().front();
            GPUTURBO_CUDA_TRY(cudaEventSynchronize(sl.done));
            d_slots.give_back(sl);
        }
    }

    //! The fast BCJR's (bcjr_kernel.cuh).
    bool gives_soft() const override
    {
        return gives_fast_soft(d_config, core::soft_output::app);
    }

    core::backend kind() const override { return core::backend::cuda; }
    std::string device() const override
    {
        return describe(d_prop, d_device, "streaming, batches in flight");
    }

private:
    // A batch of segments: done when its bits are in staged_out.
    struct segment_slot : core::cuda::slot
    {
        core::cuda::device_array<unsigned char> llrs;
        core::cuda::pinned_array<device_segment> staged;
        core::cuda::device_array<device_segment> segments;
        core::cuda::device_array<unsigned char> workspace;
        core::cuda::device_array<std::uint8_t> bits;
        std::size_t count = 0; // bits of its batch
        bool soft = false;     // and their LLRs, in staged_soft
        core::cuda::device_array<float> soft_values;
        core::cuda::device_array<unsigned char> checkpoints; // the BCJR's
        core::cuda::pinned_array<float> staged_soft;
    };

    const viterbi_config d_config;
    const trellis d_trellis;
    const int d_device;
    cudaDeviceProp d_prop{};
    std::size_t d_threads = 0;             // decoding_threads()
    core::cuda::device_array<int> d_index; // the stream's sent_index
    std::size_t d_index_count = 0;
    // Taken: submitted, oldest first. Last, so that it waits for their work before the
    // buffers above go.
    core::cuda::slot_ring<segment_slot> d_slots;
};

std::vector<int> devices_of(const viterbi_config& config)
{
    const std::string why = core::cuda::unavailable_reason(config.devices);
    if (!why.empty())
        throw std::runtime_error("backend 'cuda' is not available: " + why);
    return core::cuda::parse_devices(config.devices);
}

} // namespace

std::unique_ptr<core::batch_decoder>
make_cuda_viterbi_decoder(const viterbi_config& config)
{
    const std::vector<int> devices = devices_of(config);
    if (devices.size() == 1)
        return std::make_unique<frame_decoder>(config, devices.front());
    return std::make_unique<multi_device_decoder>(config, devices);
}

std::unique_ptr<device_kernels> device_kernels_of(const core::batch_decoder& decoder)
{
    const auto* frames = dynamic_cast<const frame_decoder*>(&decoder);
    if (!frames)
        return nullptr;
    return std::make_unique<kernels_on_device>(frames->d_config,
                                               frames->d_pipeline.device());
}

std::unique_ptr<segment_engine> make_cuda_segment_engine(const viterbi_config& config)
{
    return std::make_unique<gpu_segment_engine>(config, devices_of(config).front());
}

} // namespace gputurbo::conv::cuda
