#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Decoded rate of the turbo decoder inside a GNU Radio flowgraph.

    repeating file source of precomputed LLRs -> decoder -> null sink

The same flowgraph with the decoder replaced by a pass-through of equal item rates
(blocks.keep_m_in_n: K of every 3K+12 items) measures what GNU Radio itself can move;
the ratio of the two says whether the decoder or GNU Radio is the limit. With --trellis,
gr-trellis's PCCC decoder, configured for the LTE code (trellis_pccc.py), runs in the
same shape for comparison.

    ./benchmark_flowgraph.py --K 6144 --input int8 --seconds 5
    ./benchmark_flowgraph.py --input float int8 --trellis --records ../docs/perf --tag h100

Rates are information bits per second, sampled at the null sink after a warm-up.
"""

import argparse
import math
import os
import shutil
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, gr
from gnuradio import gputurbo
from gnuradio.gputurbo import records


def precomputed_llrs(K, codewords, ebn0_db, seed):
    """LLRs of random codewords over BPSK/AWGN at Eb/N0 (rate K/(3K+12)), positive
    meaning 1 as the decoder takes them by default."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, K * codewords, dtype=np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, gputurbo.turbo_encoder(K), snk)
    tb.run()
    code = np.array(snk.data(), dtype=np.float32)
    n = 3 * K + 12
    sigma = math.sqrt(1.0 / (2.0 * (K / n) * 10.0 ** (ebn0_db / 10.0)))
    y = (2.0 * code - 1.0) + rng.normal(0.0, sigma, len(code))
    return (2.0 * y / sigma ** 2).astype(np.float32)


def quantize(llrs, scale):
    """What blocks.float_to_char(1, scale) gives: round, saturate to -128 ... 127."""
    return np.clip(np.rint(llrs * scale), -128, 127).astype(np.int8)


def measure(source, block, sink_itemsize, seconds, warmup, buffer_items):
    """Runs source -> block -> null sink; returns sink items per second."""
    tb = gr.top_block()
    sink = blocks.null_sink(sink_itemsize)
    source.set_min_output_buffer(buffer_items)
    tb.connect(source, block, sink)
    tb.start()
    time.sleep(warmup)
    t0, c0 = time.perf_counter(), sink.nitems_read(0)
    time.sleep(seconds)
    t1, c1 = time.perf_counter(), sink.nitems_read(0)
    tb.stop()
    tb.wait()
    return (c1 - c0) / (t1 - t0)


def llr_file(data, directory):
    """The LLRs in a file: blocks.file_source repeats it with large reads, where
    blocks.vector_source copies item by item (about 1 G items/s, too slow here)."""
    fd, path = tempfile.mkstemp(suffix=".llr", dir=directory)
    with os.fdopen(fd, "wb") as f:
        data.tofile(f)
    return path


def source_for(path, itemsize):
    return blocks.file_source(itemsize, path, True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--K", type=int, default=6144, help="block size (default 6144)")
    parser.add_argument("--iterations", type=int, default=6,
                        help="turbo iterations (default 6)")
    parser.add_argument("--algorithm", default="scaled-max-log",
                        choices=["scaled-max-log", "max-log", "log-map"])
    parser.add_argument("--input", nargs="+", default=["int8"], choices=["float", "int8"],
                        help="input item types to measure (default int8)")
    parser.add_argument("--int8-scale", type=float, default=8.0,
                        help="int8 input: q means q / scale (default 8)")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--max-batch", type=int, default=0,
                        help="codewords per engine call, 0 = automatic (default)")
    parser.add_argument("--batches-in-flight", type=int, default=2,
                        help="batches decoding at once, 1 ... 4 (default 2)")
    parser.add_argument("--buffer-batches", type=int, default=2,
                        help="source output buffer, in batches of input, for both "
                             "flowgraphs (default 2: what the decoder asks for)")
    parser.add_argument("--codewords", type=int, default=32,
                        help="distinct precomputed codewords, repeated (default 32)")
    parser.add_argument("--ebn0", type=float, default=1.5,
                        help="Eb/N0 of the precomputed LLRs in dB (default 1.5)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="measuring time per flowgraph (default 5)")
    parser.add_argument("--warmup", type=float, default=2.0,
                        help="time before measuring (default 2)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="measure each flowgraph this many times, alternating, and "
                             "keep the medians (default 1)")
    parser.add_argument("--trellis", action="store_true",
                        help="also measure gr-trellis's PCCC decoder (float input)")
    parser.add_argument("--records", metavar="DIR",
                        help="write flowgraph-*.json records into DIR")
    parser.add_argument("--tag", default="local",
                        help="machine name in record file names (default local)")
    args = parser.parse_args()

    K, n = args.K, 3 * args.K + 12
    decoder_args = dict(algorithm=args.algorithm, iterations=args.iterations,
                        backend=args.backend, max_batch=args.max_batch,
                        batches_in_flight=args.batches_in_flight,
                        int8_scale=args.int8_scale)
    probe = gputurbo.turbo_decoder(K, **decoder_args)
    batch = probe.max_batch()
    # Both flowgraphs get the same source buffer: by default the two batches of input the
    # decoder asks for.
    buffer_items = args.buffer_batches * batch * n
    print(f"K={K}, {args.iterations} iterations, {args.algorithm}, backend "
          f"{probe.backend()} ({probe.device()}), batch {batch}, P={probe.subblocks()}, "
          f"{args.batches_in_flight} batch(es) in flight", flush=True)

    llrs = precomputed_llrs(K, args.codewords, args.ebn0, seed=1)
    # Repeated to a file of some megabytes: the file source then reads in large pieces
    # at small K too.
    llrs = np.tile(llrs, max(1, (1 << 22) // len(llrs)))
    scratch = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    made = []  # the records, one a flowgraph

    def record(backend, input_type, rate, passthrough, **extra):
        row = {"kind": "flowgraph", "backend": backend, "input": input_type, "K": K,
               "iterations": args.iterations, "algorithm": args.algorithm,
               "info_bits_per_second": rate, "vs_passthrough": rate / passthrough,
               "passthrough_info_bits_per_second": passthrough, "seconds": args.seconds,
               **extra}
        made.append(records.record(
            "examples/benchmark_flowgraph.py",
            probe.device() if backend == probe.backend() else records.host_cpu(), {}, [row]))
        print(f"  {backend:>9} {input_type:>5}: {rate / 1e9:8.4f} Gbit/s, "
              f"pass-through {passthrough / 1e9:8.4f} Gbit/s, ratio "
              f"{rate / passthrough:.3f}", flush=True)

    def passthrough_rate(path, itemsize):
        return measure(source_for(path, itemsize), blocks.keep_m_in_n(itemsize, K, n, 0),
                       itemsize, args.seconds, args.warmup, buffer_items)

    passthrough = {}
    for input_type in args.input:
        data = llrs if input_type == "float" else quantize(llrs, args.int8_scale)
        itemsize = data.itemsize
        path = llr_file(data, scratch)
        # The machine's speed drifts between runs: alternate the two flowgraphs.
        through, rates = [], []
        for _ in range(args.repeats):
            through.append(passthrough_rate(path, itemsize))
            decoder = gputurbo.turbo_decoder(K, input_type=input_type, **decoder_args)
            rates.append(measure(source_for(path, itemsize), decoder, 1, args.seconds,
                                 args.warmup, buffer_items))
        passthrough[input_type] = float(np.median(through))
        record(decoder.backend(), input_type, float(np.median(rates)),
               passthrough[input_type], max_batch=batch, subblocks=decoder.subblocks(),
               batches_in_flight=args.batches_in_flight, repeats=args.repeats,
               buffer_batches=args.buffer_batches,
               passthrough_runs=through, decoder_runs=rates)

    if args.trellis:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import trellis_pccc
        path = llr_file(llrs, scratch)
        if "float" not in passthrough:
            passthrough["float"] = passthrough_rate(path, 4)
        rate = measure(source_for(path, 4),
                       trellis_pccc.lte_pccc_decoder(K, args.iterations), 1,
                       args.seconds, args.warmup, buffer_items)
        record("gr-trellis", "float", rate, passthrough["float"],
               note="gr-trellis pccc decoder for the LTE code (examples/trellis_pccc.py)")

    shutil.rmtree(scratch, ignore_errors=True)
    if args.records:
        os.makedirs(args.records, exist_ok=True)
        for r in made:
            row = r["rows"][0]
            path = os.path.join(args.records,
                                f"flowgraph-{row['backend']}-{args.tag}-{row['input']}.json")
            records.write(path, r)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
