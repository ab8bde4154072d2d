#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Are the decoders' a-posteriori LLRs calibrated? BPSK over AWGN, the LLRs of the
information bits against the bits sent.

    bits -> turbo_engine.encode (LTE, K = 1024)   -> BPSK + AWGN -> 2y/sigma^2
         -> turbo_engine.decode(output="llr"): log-map float32 and int16, max-log
            float32, the default (scaled-max-log, int16 on the CPU)
    bits -> conv_code("802.11").encode (K=7 133,171, terminated) -> the same channel
         -> viterbi_engine.decode(output="llr"): BCJR log-map and max-log
    the channel's own LLRs 2y/sigma^2 of uncoded bits: calibrated by construction

An LLR L is calibrated when the bit is wrong with the probability it states,
1 / (1 + exp(|L|)). Two checks of that, over every information bit:

- predicted BER mean(1 / (1 + exp(|L|))) = (1 - E[tanh(|L|/2)]) / 2 against the
  measured BER (sign errors; an LLR of 0 counts half an error);
- the consistency condition E[s tanh(L/2)] = E[tanh^2(L/2)], s = +-1 the bit sent in
  the LLR's sign (for a given |L| = a, s tanh(L/2) is tanh(a/2) with probability
  1 - p and -tanh(a/2) with p = 1 / (1 + exp(a)): its mean tanh^2(a/2)); printed as
  the complements 1 - E[s tanh(L/2)] and 1 - E[tanh^2(L/2)], which are of the order
  of the BER.

The scale is the factor c for which c L predicts the measured BER: 1 for calibrated
LLRs, below 1 for overconfident ones.

    /usr/bin/python3 examples/soft_output_calibration.py --json soft_calibration.json

What to expect (about a minute on two cores): log-map (turbo float32, BCJR) and the
channel's LLRs predict the measured BER within a few percent and meet the consistency
condition; max-log's LLRs are overconfident (a predicted BER well below the measured
one, scale below 1: max-log keeps the best path's metric only); int16 log-map follows
float32 within its quantisation.
"""

import argparse
import math
import sys
import time

import numpy as np
from gnuradio import gputurbo
from gnuradio.gputurbo import records

TURBO = (("log-map", "float32"), ("log-map", "int16"), ("max-log", "float32"),
         ("scaled-max-log", "auto"))
BCJR = ("log-map", "max-log")


def error_probability(magnitude):
    """1 / (1 + exp(|L|)), the error probability an LLR states, without overflow."""
    e = np.exp(-magnitude)
    return e / (1.0 + e)


def calibration(llrs, bits):
    """The calibration statistics of LLRs (positive means 1) of the bits sent."""
    L = np.asarray(llrs, dtype=np.float64).ravel()
    s = 2.0 * np.asarray(bits, dtype=np.float64).ravel() - 1.0
    magnitude = np.abs(L)
    errors = np.count_nonzero(s * L < 0) + 0.5 * np.count_nonzero(L == 0)
    ber = errors / L.size
    predicted = error_probability(magnitude).mean()
    t = np.tanh(L / 2.0)
    row = {"bits": int(L.size), "bit_errors": float(errors), "ber": ber,
           "predicted_ber": float(predicted),
           "predicted_over_measured": float(predicted / ber) if errors else None,
           "mean_tanh_abs": float(np.abs(t).mean()),
           "mean_s_tanh": float((s * t).mean()), "mean_tanh_squared": float((t * t).mean()),
           "mean_abs_llr": float(magnitude.mean()), "scale": None}
    if errors:
        row["scale"] = calibrating_scale(magnitude, ber)
    return row


def calibrating_scale(magnitude, ber):
    """c with mean(1 / (1 + exp(c |L|))) = ber (bisection in log c; the mean falls as c
    grows), or None where no c in 10^-3 ... 10^3 reaches it."""
    def predicted(c):
        return error_probability(c * magnitude).mean()
    low, high = -3.0, 3.0
    if not predicted(10.0 ** high) <= ber <= predicted(10.0 ** low):
        return None
    for _ in range(50):
        middle = (low + high) / 2.0
        if predicted(10.0 ** middle) > ber:
            low = middle
        else:
            high = middle
    return 10.0 ** ((low + high) / 2.0)


def bpsk_awgn_llrs(code_bits, rate, ebn0, rng):
    """The LLRs 2y/sigma^2 (float32, positive means 1) of code bits sent as BPSK over
    AWGN at Eb/N0 for information bits of that code rate."""
    sigma2 = 1.0 / (2.0 * rate * 10.0 ** (ebn0 / 10.0))
    y = (2.0 * code_bits - 1.0) + rng.normal(0.0, math.sqrt(sigma2), code_bits.shape)
    return (2.0 * y / sigma2).astype(np.float32)


def turbo_rows(K, ebn0s, frames, iterations, rng, log):
    decoders = {(a, r, i): gputurbo.turbo_engine(K=K, backend="cpu", algorithm=a,
                                                  arithmetic=r, iterations=i)
                for i in iterations for a, r in TURBO}
    encoder = next(iter(decoders.values()))
    rows = []
    for ebn0 in ebn0s:
        bits = rng.integers(0, 2, (frames, K), dtype=np.uint8)
        llrs = bpsk_awgn_llrs(encoder.encode(bits), K / encoder.codeword_length, ebn0, rng)
        for (algorithm, arithmetic, i), decoder in decoders.items():
            app, _, _ = decoder.decode(llrs, output="llr")
            rows.append(log({"decoder": "turbo", "algorithm": algorithm,
                             "arithmetic": arithmetic, "iterations": i, "ebn0_db": ebn0,
                             **calibration(app, bits)}))
        # The systematic bits' channel LLRs: uncoded BPSK at that Es/N0.
        rows.append(log({"decoder": "channel", "algorithm": "2y/sigma^2",
                         "arithmetic": "float32", "ebn0_db": ebn0,
                         **calibration(llrs[:, 0:3 * K:3], bits)}))
    return rows


def bcjr_rows(code, frame_bits, ebn0s, frames, rng, log):
    decoders = {a: gputurbo.viterbi_engine(code, "terminated", backend="cpu",
                                           soft_algorithm=a) for a in BCJR}
    rate = frame_bits / code.coded_length(frame_bits, "terminated")
    rows = []
    for ebn0 in ebn0s:
        bits = rng.integers(0, 2, (frames, frame_bits), dtype=np.uint8)
        llrs = bpsk_awgn_llrs(code.encode(bits, "terminated"), rate, ebn0, rng)
        for algorithm, decoder in decoders.items():
            app, _ = decoder.decode(llrs, frame_bits, output="llr")
            rows.append(log({"decoder": "bcjr", "algorithm": algorithm,
                             "arithmetic": "float64", "ebn0_db": ebn0,
                             **calibration(app, bits)}))
    return rows


def ratio(value):
    return f"{value:6.3f}" if value is not None else f"{'-':>6}"


def print_row(row):
    complement_st = 1.0 - row["mean_s_tanh"]
    complement_t2 = 1.0 - row["mean_tanh_squared"]
    name = " ".join(str(row[k]) for k in ("decoder", "algorithm", "arithmetic")) + \
        (f" {row['iterations']} it" if "iterations" in row else "")
    print(f"{name:<36} {row['ebn0_db']:5.2f} {row['bits']:>8} {row['bit_errors']:>8.0f} "
          f"{row['ber']:9.3e} {row['predicted_ber']:9.3e} "
          f"{ratio(row['predicted_over_measured'])}  {complement_st:9.3e} "
          f"{complement_t2:9.3e}  {ratio(row['scale'])}", flush=True)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--K", type=int, default=1024, help="turbo block size (1024)")
    parser.add_argument("--turbo-ebn0", type=float, nargs="*",
                        default=[0.0, 0.25, 0.5, 0.75],
                        help="turbo Eb/N0 points in dB (default 0 0.25 0.5 0.75)")
    parser.add_argument("--turbo-frames", type=int, default=1000,
                        help="turbo codewords a point (default 1000)")
    parser.add_argument("--iterations", type=int, nargs="+", default=[1, 6],
                        help="turbo iterations, each a decoder (default 1 6)")
    parser.add_argument("--conv-ebn0", type=float, nargs="*", default=[1.0, 1.5, 2.0, 2.5],
                        help="convolutional code Eb/N0 points in dB (default 1 1.5 2 2.5)")
    parser.add_argument("--conv-frames", type=int, default=400,
                        help="convolutional frames a point (default 400)")
    parser.add_argument("--frame-bits", type=int, default=1024,
                        help="information bits a convolutional frame (default 1024)")
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    parser.add_argument("--json", metavar="FILE", help="write the results as a record")
    args = parser.parse_args()

    code = gputurbo.conv_code("802.11")
    rng = np.random.default_rng(args.seed)
    print(f"{'decoder':<36} {'Eb/N0':>5} {'bits':>8} {'errors':>8} {'BER':>9} "
          f"{'predicted':>9} {'ratio':>6}  {'1-E[stL]':>9} {'1-E[t^2]':>9}  {'scale':>6}")
    start = time.perf_counter()
    rows = turbo_rows(args.K, args.turbo_ebn0, args.turbo_frames, args.iterations, rng,
                      print_row)
    rows += bcjr_rows(code, args.frame_bits, args.conv_ebn0, args.conv_frames, rng,
                      print_row)
    seconds = time.perf_counter() - start
    print(f"{seconds:.1f} s")
    if args.json:
        parameters = {"kind": "soft-output-calibration", "channel": "BPSK over AWGN, "
                      "LLR 2y/sigma^2, positive means 1", "K": args.K,
                      "iterations": args.iterations, "turbo_frames": args.turbo_frames,
                      "conv_code": code.text, "termination": "terminated",
                      "frame_bits": args.frame_bits, "conv_frames": args.conv_frames,
                      "backend": "cpu", "seed": args.seed, "seconds": seconds}
        device = gputurbo.turbo_engine(K=args.K, backend="cpu").device
        records.write(args.json, records.record("examples/soft_output_calibration.py",
                                                device, parameters, rows))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
