#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Turbo equalisation: BPSK over a static ISI channel with a convolutional code, the
equaliser and the decoder exchanging extrinsic LLRs, and the BER after each outer
iteration.

    bits -> conv_code.encode (K=5 23,35, rate 1/2, terminated) -> interleaver -> BPSK
         -> ISI channel h = [0.407, 0.815, 0.407] (Proakis B) + AWGN
         -> BCJR equaliser -> deinterleaver -> viterbi_engine (BCJR, log-map) -> bits
                  ^                                     | output="code-extrinsic"
                  +------------- interleaver -----------+

The equaliser is a log-MAP BCJR over the channel's trellis (2^memory states: 4 for
three taps), in numpy over a batch of frames: a-priori LLRs of the channel symbols in,
their extrinsic LLRs out. The decoder is gputurbo.viterbi_engine with
soft_algorithm="log-map": output="code-extrinsic" gives each code bit's a-posteriori
LLR less its input, which, interleaved, is the equaliser's next a-priori input;
output="llr" gives the information bits' a-posteriori LLRs, whose signs are the bits
counted. Iteration 0 equalises once, without a-priori, and decodes: a receiver whose
decoder gives hard bits only stops there. Each further iteration equalises again with
the decoder's extrinsic LLRs and decodes again.

Eb/N0 counts the energy sent (1 a symbol; the channel's taps have energy 0.9955) per
information bit: sigma^2 = 1 / (2 R 10^(Eb/N0 / 10)), R the code rate with its tail.
Each frame is sent alone, silence before and after (the received frame is its length
plus the channel's memory). Also printed: the same code over AWGN without ISI, decoded
once, the bound that iterating approaches.

    /usr/bin/python3 examples/turbo_equalization.py --json turbo_equalization.json \\
        --plot turbo_equalization.png

What to expect (the defaults, about a minute on two cores): at iteration 0 the ISI
costs several dB against AWGN alone; each iteration moves the waterfall to the left,
most of the gain in the first, and after 3 iterations the curve lies within a few
tenths of a dB of the AWGN curve's.
"""

import argparse
import math
import sys
import time

import numpy as np
from gnuradio import gputurbo
from gnuradio.gputurbo import records

PROAKIS_B = (0.407, 0.815, 0.407)


def logsumexp(a, axis):
    """log(sum(exp(a))) along axis, without overflow."""
    top = a.max(axis=axis, keepdims=True)
    return np.squeeze(top, axis) + np.log(np.exp(a - top).sum(axis=axis))


class bcjr_equalizer:
    """Log-MAP BCJR equaliser of BPSK (bit 1 -> +1) through the FIR channel taps, with
    white Gaussian noise of variance sigma2, for frames of n_symbols sent alone (zero
    before and after: the received frame has n_symbols + memory samples).

    A state is the last `memory` symbols, the newest in the most significant bit; the
    symbols before the frame do not exist, so their taps are left out there (the
    start states are equally likely and the first steps do not tell them apart), and
    the last `memory` samples, the channel's tail, weigh the end states.
    LLRs are in GNU Radio's sign: positive means 1."""

    def __init__(self, taps, n_symbols):
        self.taps = np.asarray(taps, dtype=np.float64)
        self.memory = self.taps.size - 1
        self.n_symbols = n_symbols
        if self.memory < 1 or n_symbols < self.memory:
            raise ValueError(f"taps: a channel with ISI has at least 2 taps, and frames of "
                             f"at least its memory; got {list(taps)}, {n_symbols} symbols")
        states = 1 << self.memory
        # past[s, j]: the symbol of state s j+1 steps back (bit memory-1-j of s).
        shifts = np.arange(self.memory - 1, -1, -1)
        past = 2.0 * ((np.arange(states)[:, None] >> shifts) & 1) - 1.0
        # mean[k, s, b]: the noiseless sample at step k from state s with symbol b; the
        # first `memory` steps without the taps of symbols before the frame.
        reach = np.arange(n_symbols)[:, None] > np.arange(self.memory)[None, :]  # (k, j)
        isi = np.einsum("sj,kj,j->ks", past, reach, self.taps[1:])
        self.mean = isi[:, :, None] + self.taps[0] * np.array([-1.0, 1.0])
        # tail[s, t]: the noiseless sample n_symbols + t from the end state s.
        self.tail = np.stack([past[:, : self.memory - t] @ self.taps[t + 1:]
                              for t in range(self.memory)], axis=1)
        self.next_state = (np.arange(2)[None, :] << (self.memory - 1)) | \
            (np.arange(states)[:, None] >> 1)                                 # (s, b)

    def extrinsic(self, received, sigma2, apriori):
        """The symbols' extrinsic LLRs (n, n_symbols) from the received frames (n,
        n_symbols + memory) and the a-priori LLRs of the symbols (n, n_symbols)."""
        n, N, M = received.shape[0], self.n_symbols, self.memory
        S = 1 << M
        # gamma[i, k, s, b]: the branch's log-likelihood and its symbol's log prior.
        gamma = -(received[:, :N, None, None] - self.mean) ** 2 / (2.0 * sigma2) \
            + 0.5 * apriori[:, :, None, None] * np.array([-1.0, 1.0])
        alpha = np.empty((n, N + 1, S))
        beta = np.empty((n, N + 1, S))
        alpha[:, 0] = 0.0  # every start state alike: its symbols do not exist
        beta[:, N] = -((received[:, N:, None] - self.tail.T[None]) ** 2).sum(axis=1) \
            / (2.0 * sigma2)
        # Forward: the state (b, s >> 1) comes from the two states s that differ in
        # their oldest symbol; with s viewed as (s >> 1, oldest), a log-sum over that.
        for k in range(N):
            a = alpha[:, k].reshape(n, S // 2, 2, 1) + gamma[:, k].reshape(n, S // 2, 2, 2)
            a = np.logaddexp(a[:, :, 0], a[:, :, 1])                # (n, s >> 1, b)
            a = a.transpose(0, 2, 1).reshape(n, S)
            alpha[:, k + 1] = a - a.max(axis=1, keepdims=True)
        for k in range(N - 1, -1, -1):
            b = gamma[:, k] + beta[:, k + 1][:, self.next_state]
            b = np.logaddexp(b[:, :, 0], b[:, :, 1])
            beta[:, k] = b - b.max(axis=1, keepdims=True)
        total = alpha[:, :N, :, None] + gamma + beta[:, 1:][:, :, self.next_state]
        app = logsumexp(total[..., 1], axis=2) - logsumexp(total[..., 0], axis=2)
        return app - apriori


def ber_curves(code, taps, ebn0s, frames, frame_bits, iterations, seed, batch=100,
               threads=0, log=print):
    """The BER after each outer iteration 0 ... iterations and over AWGN without ISI, at
    each Eb/N0: a row each."""
    rng = np.random.default_rng(seed)
    n_code = code.coded_length(frame_bits, "terminated")
    rate = frame_bits / n_code
    permutation = rng.permutation(n_code)  # channel symbol j carries code bit perm[j]
    equalizer = bcjr_equalizer(taps, n_code)
    decoder = gputurbo.viterbi_engine(code, "terminated", backend="cpu", threads=threads,
                                      soft_algorithm="log-map")
    rows = []
    for ebn0 in ebn0s:
        start = time.perf_counter()
        sigma2 = 1.0 / (2.0 * rate * 10.0 ** (ebn0 / 10.0))
        errors = np.zeros(iterations + 1, dtype=np.int64)
        awgn_errors = 0
        for first in range(0, frames, batch):
            n = min(batch, frames - first)
            bits = rng.integers(0, 2, (n, frame_bits), dtype=np.uint8)
            symbols = 2.0 * code.encode(bits, "terminated")[:, permutation] - 1.0
            noise = rng.normal(0.0, math.sqrt(sigma2), (n, n_code + len(taps) - 1))
            received = np.stack([np.convolve(s, taps) for s in symbols]) + noise
            apriori = np.zeros((n, n_code))
            for iteration in range(iterations + 1):
                llrs = np.empty((n, n_code), dtype=np.float32)
                llrs[:, permutation] = equalizer.extrinsic(received, sigma2, apriori)
                app, _ = decoder.decode(llrs, frame_bits, output="llr")
                errors[iteration] += np.count_nonzero((app > 0) != bits)
                if iteration < iterations:
                    extrinsic, _ = decoder.decode(llrs, frame_bits, output="code-extrinsic")
                    apriori = extrinsic[:, permutation].astype(np.float64)
            # The same code bits over AWGN alone, at the same Eb/N0.
            awgn = (2.0 * symbols + 2.0 * noise[:, :n_code]) / sigma2
            llrs = np.empty((n, n_code), dtype=np.float32)
            llrs[:, permutation] = awgn
            app, _ = decoder.decode(llrs, frame_bits, output="llr")
            awgn_errors += np.count_nonzero((app > 0) != bits)
        total = frames * frame_bits
        row = {"ebn0_db": ebn0, "bits": total, "bit_errors": errors.tolist(),
               "ber": (errors / total).tolist(), "awgn_bit_errors": awgn_errors,
               "awgn_ber": awgn_errors / total, "seconds": time.perf_counter() - start}
        rows.append(row)
        log(f"{ebn0:6.2f}  " + "  ".join(f"{b:9.2e}" for b in row["ber"])
            + f"  {row['awgn_ber']:9.2e}  ({row['seconds']:.1f} s)")
    return rows


def plot(record, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"no plot: matplotlib is not installed ({e})")
        return
    rows = record["rows"]
    p = record["parameters"]
    ebn0 = [r["ebn0_db"] for r in rows]

    def curve(bers):  # points without errors left out
        return [b if b > 0 else float("nan") for b in bers]
    fig, ax = plt.subplots(figsize=(7, 4.8))
    for i in range(p["iterations"] + 1):
        ax.semilogy(ebn0, curve([r["ber"][i] for r in rows]), "-o", label=f"iteration {i}")
    ax.semilogy(ebn0, curve([r["awgn_ber"] for r in rows]), "k--", label="AWGN, no ISI")
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("BER")
    ax.set_title(f"Turbo equalisation: {p['code']}, {p['frame_bits']}-bit frames, "
                 f"h = {p['taps']}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ebn0", type=float, nargs="+",
                        default=[2.0 + 0.5 * i for i in range(13)],
                        help="Eb/N0 points in dB (default 2 ... 8, steps of 0.5)")
    parser.add_argument("--frames", type=int, default=300,
                        help="frames a point (default 300)")
    parser.add_argument("--frame-bits", type=int, default=512,
                        help="information bits a frame (default 512)")
    parser.add_argument("--iterations", type=int, default=3,
                        help="outer iterations after the first equalisation (default 3)")
    parser.add_argument("--code", default="23,35",
                        help="octal generators of the rate-1/n code (default 23,35: K=5)")
    parser.add_argument("--taps", default=",".join(map(str, PROAKIS_B)),
                        help="channel taps (default Proakis B: 0.407,0.815,0.407)")
    parser.add_argument("--seed", type=int, default=1, help="seed of interleaver, bits "
                        "and noise")
    parser.add_argument("--threads", type=int, default=0,
                        help="decoder threads (default 0: one a core)")
    parser.add_argument("--json", metavar="FILE", help="write the results as a record")
    parser.add_argument("--plot", metavar="FILE", help="draw the curves (matplotlib)")
    args = parser.parse_args()
    try:
        taps = [float(t) for t in args.taps.split(",")]
    except ValueError:
        parser.error(f"--taps: comma-separated numbers, got {args.taps!r}")
    if args.frames < 1 or args.frame_bits < 1 or args.iterations < 0:
        parser.error("--frames and --frame-bits must be at least 1, --iterations 0")
    polynomials = [int(g, 8) for g in args.code.split(",")]
    code = gputurbo.conv_code(constraint=max(polynomials).bit_length(),
                              polynomials=args.code)

    parameters = {"kind": "turbo-equalization", "code": code.text,
                  "termination": "terminated", "frame_bits": args.frame_bits,
                  "rate": args.frame_bits / code.coded_length(args.frame_bits),
                  "taps": taps, "modulation": "BPSK, bit 1 -> +1",
                  "interleaver": "one random permutation of the code bits (seed)",
                  "equalizer": "log-MAP BCJR in numpy (float64)",
                  "decoder": "viterbi_engine cpu, soft_algorithm log-map, output "
                             "code-extrinsic (feedback) and llr (bits)",
                  "iterations": args.iterations, "frames": args.frames,
                  "seed": args.seed}
    print(f"{code.text}, {args.frame_bits}-bit terminated frames (rate "
          f"{parameters['rate']:.3f}), channel {taps}, {args.frames} frames a point")
    print(f"{'Eb/N0':>6}  " + "  ".join(f"{'iter ' + str(i):>9}"
                                       for i in range(args.iterations + 1))
          + f"  {'AWGN':>9}")
    start = time.perf_counter()
    rows = ber_curves(code, taps, args.ebn0, args.frames, args.frame_bits, args.iterations,
                      args.seed, threads=args.threads)
    parameters["seconds"] = time.perf_counter() - start
    print(f"{parameters['seconds']:.1f} s")
    record = records.record("examples/turbo_equalization.py",
                            gputurbo.viterbi_engine(code, backend="cpu").device,
                            parameters, rows)
    if args.json:
        records.write(args.json, record)
        print(f"wrote {args.json}")
    if args.plot:
        plot(record, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
