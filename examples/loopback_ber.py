#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Bit and frame error rate of the LTE turbo code over BPSK/AWGN, as a GNU Radio flowgraph.

random bits -> turbo_encoder -> BPSK (0 -> -1, 1 -> +1) -> + noise -> LLR = 2y/sigma^2
            -> turbo_decoder -> XOR with the sent bits -> errors per frame

BPSK maps bits as GNU Radio's constellation_bpsk() does, and the LLRs have GNU Radio's sign
(positive means 1), the decoder's default. The exact LLR 2y/sigma^2 is computed here; in a
receiver, digital.constellation_soft_decoder_cf gives the same sign (loopback_ber_gui.grc).

The noise is set from Eb/N0 with the code rate R = K/(3K+12):
sigma = sqrt(1 / (2 R 10^(Eb/N0 / 10))). Bits are unpacked (one per byte), so errors are
counted per item, not per byte-of-8-bits as gr-fec's BER blocks do.

    ./loopback_ber.py --K 6144 --ebn0 1.0 --frames 300
"""

import argparse
import math
import os
import time

# Performance counters give the time the decoder spends in work(): the Gaussian noise
# source, not the decoder, often bounds this flowgraph's rate.
os.environ.setdefault("GR_CONF_PERFCOUNTERS_ON", "True")

from gnuradio import analog, blocks, gr  # noqa: E402 (after the environment is set)
from gnuradio import gputurbo  # noqa: E402
from gnuradio.gputurbo import records  # noqa: E402


class loopback_ber(gr.top_block):

    def __init__(self, args):
        gr.top_block.__init__(self, "LTE turbo loopback BER", catch_exceptions=True)
        K = args.K
        n = 3 * K + 12
        self.rate = K / n
        self.sigma = math.sqrt(1.0 / (2.0 * self.rate * 10.0 ** (args.ebn0 / 10.0)))

        bits = analog.random_uniform_source_b(0, 2, args.seed)  # 0 or 1
        head = blocks.head(gr.sizeof_char, args.frames * K)
        self.encoder = gputurbo.turbo_encoder(K)
        to_float = blocks.char_to_float(1, 1.0)
        bpsk = blocks.multiply_const_ff(2.0)
        offset = blocks.add_const_ff(-1.0)
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, self.sigma, args.seed + 1)
        add = blocks.add_ff()
        to_llr = blocks.multiply_const_ff(2.0 / self.sigma ** 2)
        self.decoder = gputurbo.turbo_decoder(
            K,
            algorithm=args.algorithm,
            iterations=args.iterations,
            early_stop=args.early_stop,
            batches_in_flight=args.batches_in_flight,
            subblocks=args.subblocks,
            backend=args.backend,
            max_batch=args.max_batch,
            threads=args.threads,
            input_type=args.input,
            arithmetic=args.arithmetic)
        errors = blocks.xor_bb()
        errors_f = blocks.char_to_float(1, 1.0)
        per_frame = blocks.integrate_ff(K)  # bit errors of each frame
        self.sink = blocks.vector_sink_f()

        # The sent bits wait in the head's buffer for their decoded copy: it holds what
        # is in flight (the decoder sizes the buffer in front of itself).
        batch_bits = self.decoder.max_batch() * K
        head.set_min_output_buffer((args.batches_in_flight + 3) * batch_bits)

        self.connect(bits, head, self.encoder, to_float, bpsk, offset, (add, 0))
        self.connect(noise, (add, 1))
        if args.input == "int8":  # quantised in the flowgraph: q = round(8 L)
            quantise = blocks.float_to_char(1, 8.0)
            self.connect(add, to_llr, quantise, self.decoder, (errors, 1))
        else:
            self.connect(add, to_llr, self.decoder, (errors, 1))
        self.connect(head, (errors, 0))
        self.connect(errors, errors_f, per_frame, self.sink)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--K", type=int, default=6144, help="block size (default 6144)")
    parser.add_argument("--ebn0", type=float, default=1.0, help="Eb/N0 in dB (default 1.0)")
    parser.add_argument("--frames", type=int, default=300, help="codewords sent (default 300)")
    parser.add_argument("--iterations", type=int, default=6, help="turbo iterations (default 6)")
    parser.add_argument("--algorithm", default="scaled-max-log",
                        choices=["scaled-max-log", "max-log", "log-map"])
    parser.add_argument("--early-stop", default="off",
                        choices=["off", "crc24a", "crc24b", "mean-llr", "min-llr", "hard"],
                        help="crc24a/crc24b need CRC-carrying blocks; these are random")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--input", default="float", choices=["float", "int8"],
                        help="decoder input type (int8: quantised by float_to_char)")
    parser.add_argument("--subblocks", type=int, default=0,
                        help="sub-blocks P, 0 = automatic for the backend (default)")
    parser.add_argument("--arithmetic", default="auto", choices=["auto", "int16", "float32"],
                        help="CUDA metric arithmetic (default auto)")
    parser.add_argument("--max-batch", type=int, default=0,
                        help="codewords per engine call, 0 = automatic (default)")
    parser.add_argument("--batches-in-flight", type=int, default=2,
                        help="batches decoding at once, 1 ... 4 (default 2)")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads, 0 = all cores")
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    parser.add_argument("--json", metavar="PATH", help="also write the results as a record")
    args = parser.parse_args()
    if args.frames < 1:
        parser.error("--frames must be at least 1")

    try:
        tb = loopback_ber(args)
    except (ValueError, RuntimeError) as e:  # bad parameters, missing backend
        parser.error(str(e))

    print(f"K={args.K}, R={tb.rate:.4f}, Eb/N0={args.ebn0:.2f} dB (sigma={tb.sigma:.4f}), "
          f"{args.algorithm}, {args.iterations} iterations, early stop {args.early_stop}")
    print(f"backend: {tb.decoder.backend()} ({tb.decoder.device()})")

    start = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - start

    per_frame = tb.sink.data()
    frames = len(per_frame)
    bits = frames * args.K
    bit_errors = int(round(sum(per_frame)))
    frame_errors = sum(1 for e in per_frame if e > 0)
    if frames != args.frames or tb.decoder.partial_items():
        raise SystemExit(f"error: {frames} of {args.frames} frames came through")

    print(f"frames: {frames}, bits: {bits}")
    print(f"bit errors: {bit_errors}, BER: {bit_errors / bits:.3e}")
    print(f"frame errors: {frame_errors}, FER: {frame_errors / frames:.3e}")
    print(f"throughput: {bits / elapsed / 1e6:.3f} Mbit/s of decoded information bits "
          f"({bits} bits in {elapsed:.2f} s of flowgraph run, backend "
          f"{tb.decoder.backend()})")
    busy = tb.decoder.pc_work_time_total() / gr.high_res_timer_tps()
    if busy > 0:
        print(f"decoder: {busy:.2f} s in work(), {bits / busy / 1e6:.3f} Mbit/s while "
              f"decoding")
    if args.json:
        records.write(args.json, records.record(
            "examples/loopback_ber.py", tb.decoder.device(),
            {"kind": "loopback-ber", "backend": tb.decoder.backend(), "input": args.input,
             "K": args.K, "algorithm": args.algorithm, "iterations": args.iterations,
             "subblocks": tb.decoder.subblocks(), "seed": args.seed},
            [{"ebn0_db": args.ebn0, "frames": frames, "bit_errors": bit_errors,
              "frame_errors": frame_errors, "ber": bit_errors / bits,
              "fer": frame_errors / frames, "seconds": elapsed}]))

if __name__ == "__main__":
    main()
