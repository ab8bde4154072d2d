#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""CCSDS convolutional code (K=7, 171 and inverted 133) over BPSK/AWGN: our
viterbi_decoder and gr-fec's cc_decoder on the same soft symbols, a continuous stream.

    random bits -> conv_encoder (streaming) -> BPSK + noise
        -> LLRs 2y/sigma^2 -> gputurbo.viterbi_decoder  -> bits
        -> y               -> fec.extended_decoder(cc_decoder, CC_STREAMING) -> bits

Prints both bit error rates and both decoding rates at each Eb/N0. The noise comes from
numpy with a fixed seed, so that both decoders see the same symbols; gr-fec's
streaming output is compared at the delay that matches it best.

    ./ccsds_loopback.py --ebn0 2 3 4 --bits 1000000 --backend auto
"""

import argparse
import math
import time

import numpy as np
from gnuradio import blocks, fec, gr
from gnuradio import gputurbo
from gnuradio.gputurbo import records


def gr_fec_polys(code):
    """gr-fec's polynomials of a conv_code: ours bit-reversed over K bits, negative where
    an output is inverted."""
    def reversed_bits(g):
        return int(format(g, f"0{code.constraint}b")[::-1], 2)
    return [-reversed_bits(g) if inverted else reversed_bits(g)
            for g, inverted in zip(code.polynomials, code.inverted)]


def gr_fec_stream_decoder(code, frame_bits=2048):
    """fec.extended_decoder running gr-fec's cc_decoder on a stream (frame_bits a call)."""
    cc = fec.cc_decoder.make(frame_bits, code.constraint, code.outputs, gr_fec_polys(code),
                             0, -1, fec.CC_STREAMING, False)
    return fec.extended_decoder(decoder_obj_list=cc, threading=None, ann=None,
                                puncpat="1" * code.outputs, integration_period=10000)


def encode(bits):
    """The stream through our conv_encoder block."""
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, gputurbo.conv_encoder(preset="ccsds", termination="streaming"), snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def decode(values, decoder):
    """Float values through a decoder block; (bits, seconds of the run)."""
    tb = gr.top_block()
    src = blocks.vector_source_f(values.tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, decoder, snk)
    start = time.perf_counter()
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), time.perf_counter() - start


def errors_at_best_delay(decided, sent, most=32):
    """Bit errors of decided against sent, at the output delay (0 ... most) that fits
    best; (errors, bits compared, delay)."""
    best = None
    for delay in range(most + 1):
        n = min(decided.size - delay, sent.size)
        e = int(np.count_nonzero(decided[delay:delay + n] != sent[:n]))
        if best is None or e < best[0]:
            best = (e, n, delay)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ebn0", type=float, nargs="+", default=[2.0, 3.0, 4.0],
                        help="Eb/N0 points in dB (default 2 3 4)")
    parser.add_argument("--bits", type=int, default=1000000,
                        help="information bits a point (default 10^6)")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write the results as a record")
    args = parser.parse_args()

    code = gputurbo.conv_code("ccsds")
    rng = np.random.default_rng(args.seed)
    results = []
    for ebn0 in args.ebn0:
        sent = rng.integers(0, 2, args.bits, dtype=np.uint8)
        coded = encode(sent)
        sigma = math.sqrt(1.0 / (2.0 * 0.5 * 10.0 ** (ebn0 / 10.0)))
        y = ((2.0 * coded - 1.0) + rng.normal(0.0, sigma, coded.size)).astype(np.float32)
        ours = gputurbo.viterbi_decoder(preset="ccsds", termination="streaming",
                                        backend=args.backend)
        bits, ours_seconds = decode((2.0 * y / sigma ** 2).astype(np.float32), ours)
        ours_errors, ours_n, _ = errors_at_best_delay(bits, sent, most=0)
        theirs, theirs_seconds = decode(y, gr_fec_stream_decoder(code))
        theirs_errors, theirs_n, delay = errors_at_best_delay(theirs, sent)
        r = {"ebn0_db": ebn0, "backend": ours.backend(), "bits": int(ours_n), "bit_errors": ours_errors, "ber": ours_errors / ours_n,
             "info_bits_per_second": ours_n / ours_seconds,
             "gr_fec_bits": int(theirs_n), "gr_fec_bit_errors": theirs_errors,
             "gr_fec_ber": theirs_errors / theirs_n, "gr_fec_delay": delay,
             "gr_fec_info_bits_per_second": theirs_n / theirs_seconds}
        results.append(r)
        print(f"Eb/N0 {ebn0:4.1f} dB: viterbi_decoder ({r['backend']}) BER "
              f"{r['ber']:.3e} ({ours_errors} of {ours_n}), "
              f"{r['info_bits_per_second'] / 1e6:7.1f} Mbit/s; gr-fec cc_decoder BER "
              f"{r['gr_fec_ber']:.3e} ({theirs_errors} of {theirs_n}, delay {delay}), "
              f"{r['gr_fec_info_bits_per_second'] / 1e6:7.1f} Mbit/s", flush=True)
    if args.json:
        records.write(args.json, records.record(
            "examples/ccsds_loopback.py", ours.device(),
            {"code": "ccsds", "termination": "streaming", "seed": args.seed}, results))


if __name__ == "__main__":
    main()
