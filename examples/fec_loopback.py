#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE turbo code through gr-fec's FECAPI: fec.extended_encoder and fec.extended_decoder.

random bits -> fec.extended_encoder(turbo_encoder_fec) -> digital.map_bb([-1, 1])
            -> char_to_float -> + noise -> fec.extended_decoder(turbo_decoder_fec)

The soft values are those of gr-fec's own BER tools: code bit 1 -> +1, 0 -> -1, plus
Gaussian noise, no LLR scaling (turbo_decoder_fec's default sign takes positive as 1).
The noise is set from Eb/N0 with R = K/(3K+12): sigma = sqrt(1 / (2 R 10^(Eb/N0 / 10))).

Two flowgraphs run: the first encodes and adds noise into memory, the second decodes
those values and is timed alone, so the rate printed is that of the decoding path.
--native decodes the same values with the batched turbo_decoder block as well.

    ./fec_loopback.py --K 6144 --ebn0 1.5 --frames 200 --backend cpu
    ./fec_loopback.py --K 6144 --frames 200 --threading capillary --objects 2 --native
"""

import argparse
import math
import time

import numpy as np
from gnuradio import blocks, digital, fec, gr
from gnuradio import gputurbo


def soft_values(bits, K, sigma, seed):
    """bits -> extended_encoder -> +-1 -> + noise, as a float array."""
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    enc = fec.extended_encoder(gputurbo.turbo_encoder_fec.make(K), threading=None,
                               puncpat='11')
    to_symbols = digital.map_bb([-1, 1])
    to_float = blocks.char_to_float(1, 1.0)
    n = len(bits) // K * (3 * K + 12)
    noise = np.random.default_rng(seed).normal(0.0, sigma, n).astype(np.float32)
    add = blocks.add_ff()
    snk = blocks.vector_sink_f(1, n)
    tb.connect(src, enc, to_symbols, to_float, (add, 0))
    tb.connect(blocks.vector_source_f(noise.tolist(), False), (add, 1))
    tb.connect(add, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.float32)


def timed_run(tb):
    start = time.perf_counter()
    tb.run()
    return time.perf_counter() - start


def decode_fec(soft, K, args):
    objects = [gputurbo.turbo_decoder_fec.make(K, iterations=args.iterations,
                                               backend=args.backend)
               for _ in range(args.objects)]
    threading = None if args.threading == "none" else args.threading
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False)
    dec = fec.extended_decoder(objects if len(objects) > 1 else objects[0],
                               threading=threading, ann=None, puncpat='11',
                               integration_period=10000)
    snk = blocks.vector_sink_b(1, len(soft) // (3 * K + 12) * K)
    tb.connect(src, dec, snk)
    elapsed = timed_run(tb)
    return np.array(snk.data(), dtype=np.uint8), elapsed, objects[0]


def decode_native(soft, K, args):
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False)
    dec = gputurbo.turbo_decoder(K, iterations=args.iterations,
                                 backend=args.backend, max_batch=args.max_batch)
    src.set_min_output_buffer(2 * args.max_batch * (3 * K + 12))
    snk = blocks.vector_sink_b(1, len(soft) // (3 * K + 12) * K)
    tb.connect(src, dec, snk)
    elapsed = timed_run(tb)
    return np.array(snk.data(), dtype=np.uint8), elapsed, dec


def report(name, bits, out, K, elapsed):
    if len(out) != len(bits):
        raise SystemExit(f"error: {name}: {len(out)} of {len(bits)} bits came through")
    errors = out != bits
    frames = len(bits) // K
    frame_errors = int(np.sum(errors.reshape(frames, K).any(axis=1)))
    print(f"{name}: BER {np.mean(errors):.3e} ({int(np.sum(errors))} bits), FER "
          f"{frame_errors / frames:.3e}; {len(bits) / elapsed / 1e6:.3f} Mbit/s "
          f"({1e3 * elapsed / frames:.3f} ms per frame, {frames} frames in "
          f"{elapsed:.2f} s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--K", type=int, default=6144, help="block size (default 6144)")
    parser.add_argument("--ebn0", type=float, default=1.5, help="Eb/N0 in dB (default 1.5)")
    parser.add_argument("--frames", type=int, default=200, help="codewords (default 200)")
    parser.add_argument("--iterations", type=int, default=6, help="turbo iterations (default 6)")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--threading", default="none",
                        choices=["none", "capillary", "ordinary"],
                        help="gr-fec's parallel decoding (default none)")
    parser.add_argument("--objects", type=int, default=1,
                        help="decoder objects for --threading (capillary: a power of 2)")
    parser.add_argument("--native", action="store_true",
                        help="decode the same values with the turbo_decoder block too")
    parser.add_argument("--max-batch", type=int, default=64,
                        help="codewords per engine call of the native block")
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    args = parser.parse_args()
    if args.frames < 1 or args.objects < 1:
        parser.error("--frames and --objects must be at least 1")
    if args.objects > 1 and args.threading == "none":
        parser.error("--objects > 1 needs --threading capillary or ordinary")

    K = args.K
    rate = K / (3 * K + 12)
    sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (args.ebn0 / 10.0)))
    bits = np.random.default_rng(args.seed).integers(0, 2, K * args.frames, dtype=np.uint8)
    try:
        soft = soft_values(bits, K, sigma, args.seed + 1)
        out, elapsed, dec = decode_fec(soft, K, args)
    except (ValueError, RuntimeError) as e:  # bad parameters, missing backend
        parser.error(str(e))

    print(f"K={K}, R={rate:.4f}, Eb/N0={args.ebn0:.2f} dB (sigma={sigma:.4f}), "
          f"{args.iterations} iterations; backend {dec.backend()} ({dec.device()})")
    report(f"fec.extended_decoder, threading {args.threading}, {args.objects} object(s)",
           bits, out, K, elapsed)
    if args.native:
        out, elapsed, _ = decode_native(soft, K, args)
        report(f"turbo_decoder block, max_batch {args.max_batch}", bits, out, K, elapsed)


if __name__ == "__main__":
    main()
