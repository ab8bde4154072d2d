#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""GNU Radio's own turbo decoder (gr-trellis PCCC) set up for the LTE turbo code.

A baseline for gputurbo.turbo_decoder in the same flowgraph shape: float LLRs in
(3K+12 per codeword, L = ln P(0)/P(1), triples d0_k d1_k d2_k for k = 0 ... K+3 as in
3GPP TS 36.212 5.1.3.2), K unpacked hard bits (bytes 0/1) per codeword out. Only stock
GNU Radio blocks turn the LLRs into the metrics that gr-trellis wants:

    LLRs -> keep_m_in_n, deinterleave, stream_mux: K+3 steps of
            (L0, L1, L2s, L2p, data-step flag, tail-step flag)
         -> multiply_matrix_ff (64 metrics a step) -> interleave
         -> trellis.pccc_decoder_b -> keep_m_in_n (drops the 3 tail steps)

Metrics: gr-trellis works on -ln P(symbol), up to a constant per trellis step; a bit b of
LLR L costs b * L. Its PCCC decoder reads, per step k, the O*O metrics of the pairs
(symbol o1 of constituent 1, symbol o2 of constituent 2) at index o1 * O + o2, where
constituent 2's step k carries information bit pi(k).

Constituent 2's systematic bit: not sent in LTE (it is c_pi(k), which constituent 1
sees), so its metric is 0 at data steps. gr-trellis passes each SISO's extrinsic output
minus only its a priori input, which for decoder 1 still holds the systematic LLR: so
decoder 2 gets L_sys + L_e1 as its a priori values, as a textbook turbo decoder does.

Tail (tail=True, the default): both trellises get K+3 steps and end in state 0, and all
12 tail LLRs are used. gr-trellis has one interleaver for both constituents, so their
tail steps are paired although the two encoders' tail bits differ: the FSM has a third
input, "tail" (the bit that drives the register to 0), whose branches output their own
symbols (4 + 2x + z, so O = 8), and a tail-step flag in the metrics forbids tail branches
at data steps and data branches at tail steps. The values exchanged at tail steps then say
nothing about any bit. Cost: 3 branches a state instead of 2 (1.5 times the SISO work)
and 64 metrics a step instead of 16. tail=False keeps K steps (O = 4), drops the tail
LLRs and leaves both end states unknown: the last bits of each trellis are weaker.

gr-trellis bugs met (3.10.5):
- The hard decision takes, per bit, the smaller of the a priori and the extrinsic metric
  instead of their sum (the a posteriori value). With TRELLIS_SUM_PRODUCT and binary
  inputs this still picks the right bit. With TRELLIS_MIN_SUM a bit on which the two
  disagree ties, and the tie goes to input 0: such bits come out 0 even where the sum
  says 1. The errors this adds are all on sent 1s, and they remain at SNRs where every
  frame converges, 3 dB included (the script prints errors by sent bit).
- The O*O metric index is o1 * O1 + o2 where it should be o1 * O2 + o2: right only when
  both constituents have the same number of output symbols, so constituent 2 keeps its
  unsent systematic bit in its symbols rather than having parity-only symbols.
- Its Python bindings label pccc_decoder_b's arguments in the wrong order: pass them by
  position.

    ./trellis_pccc.py --K 6144 --iterations 6 --ebn0 1.5 --frames 20 --compare
    ./trellis_pccc.py --K 6144 --throughput --seconds 10 --compare
"""

import argparse
import math
import time

import numpy as np
from gnuradio import blocks, gr, trellis

TAIL_STEPS = 3  # termination steps of each constituent encoder (36.212 5.1.3.2.2)

# Metric of a branch that the step's kind (data or tail) rules out: far above any LLR sum,
# far below gr-trellis's infinity (1e9). Allowed branches get none of it, so their metrics
# keep full float precision.
FORBIDDEN = 1.0e4

# 3GPP TS 36.212 Table 5.1.3-3, K: (f1, f2).
QPP = {
    40: (3, 10), 48: (7, 12), 56: (19, 42), 64: (7, 16), 72: (7, 18), 80: (11, 20), 88: (5, 22),
    96: (11, 24), 104: (7, 26), 112: (41, 84), 120: (103, 90), 128: (15, 32), 136: (9, 34),
    144: (17, 108), 152: (9, 38), 160: (21, 120), 168: (101, 84), 176: (21, 44), 184: (57, 46),
    192: (23, 48), 200: (13, 50), 208: (27, 52), 216: (11, 36), 224: (27, 56), 232: (85, 58),
    240: (29, 60), 248: (33, 62), 256: (15, 32), 264: (17, 198), 272: (33, 68), 280: (103, 210),
    288: (19, 36), 296: (19, 74), 304: (37, 76), 312: (19, 78), 320: (21, 120), 328: (21, 82),
    336: (115, 84), 344: (193, 86), 352: (21, 44), 360: (133, 90), 368: (81, 46), 376: (45, 94),
    384: (23, 48), 392: (243, 98), 400: (151, 40), 408: (155, 102), 416: (25, 52), 424: (51, 106),
    432: (47, 72), 440: (91, 110), 448: (29, 168), 456: (29, 114), 464: (247, 58), 472: (29, 118),
    480: (89, 180), 488: (91, 122), 496: (157, 62), 504: (55, 84), 512: (31, 64), 528: (17, 66),
    544: (35, 68), 560: (227, 420), 576: (65, 96), 592: (19, 74), 608: (37, 76), 624: (41, 234),
    640: (39, 80), 656: (185, 82), 672: (43, 252), 688: (21, 86), 704: (155, 44), 720: (79, 120),
    736: (139, 92), 752: (23, 94), 768: (217, 48), 784: (25, 98), 800: (17, 80), 816: (127, 102),
    832: (25, 52), 848: (239, 106), 864: (17, 48), 880: (137, 110), 896: (215, 112),
    912: (29, 114), 928: (15, 58), 944: (147, 118), 960: (29, 60), 976: (59, 122), 992: (65, 124),
    1008: (55, 84), 1024: (31, 64), 1056: (17, 66), 1088: (171, 204), 1120: (67, 140),
    1152: (35, 72), 1184: (19, 74), 1216: (39, 76), 1248: (19, 78), 1280: (199, 240),
    1312: (21, 82), 1344: (211, 252), 1376: (21, 86), 1408: (43, 88), 1440: (149, 60),
    1472: (45, 92), 1504: (49, 846), 1536: (71, 48), 1568: (13, 28), 1600: (17, 80),
    1632: (25, 102), 1664: (183, 104), 1696: (55, 954), 1728: (127, 96), 1760: (27, 110),
    1792: (29, 112), 1824: (29, 114), 1856: (57, 116), 1888: (45, 354), 1920: (31, 120),
    1952: (59, 610), 1984: (185, 124), 2016: (113, 420), 2048: (31, 64), 2112: (17, 66),
    2176: (171, 136), 2240: (209, 420), 2304: (253, 216), 2368: (367, 444), 2432: (265, 456),
    2496: (181, 468), 2560: (39, 80), 2624: (27, 164), 2688: (127, 504), 2752: (143, 172),
    2816: (43, 88), 2880: (29, 300), 2944: (45, 92), 3008: (157, 188), 3072: (47, 96),
    3136: (13, 28), 3200: (111, 240), 3264: (443, 204), 3328: (51, 104), 3392: (51, 212),
    3456: (451, 192), 3520: (257, 220), 3584: (57, 336), 3648: (313, 228), 3712: (271, 232),
    3776: (179, 236), 3840: (331, 120), 3904: (363, 244), 3968: (375, 248), 4032: (127, 168),
    4096: (31, 64), 4160: (33, 130), 4224: (43, 264), 4288: (33, 134), 4352: (477, 408),
    4416: (35, 138), 4480: (233, 280), 4544: (357, 142), 4608: (337, 480), 4672: (37, 146),
    4736: (71, 444), 4800: (71, 120), 4864: (37, 152), 4928: (39, 462), 4992: (127, 234),
    5056: (39, 158), 5120: (39, 80), 5184: (31, 96), 5248: (113, 902), 5312: (41, 166),
    5376: (251, 336), 5440: (43, 170), 5504: (21, 86), 5568: (43, 174), 5632: (45, 176),
    5696: (45, 178), 5760: (161, 120), 5824: (89, 182), 5888: (323, 184), 5952: (47, 186),
    6016: (23, 94), 6080: (47, 190), 6144: (263, 480),
}


def qpp_permutation(K):
    """pi(i) = (f1 i + f2 i^2) mod K, i = 0 ... K-1: encoder 2 reads c_pi(i) at step i."""
    if K not in QPP:
        raise ValueError(f"K={K} is not an LTE turbo block size (36.212 Table 5.1.3-3)")
    f1, f2 = QPP[K]
    return [(f1 * i + f2 * i * i) % K for i in range(K)]


def qpp_interleaver(K, tail=True):
    """The QPP interleaver as gr-trellis wants it: INTER[k] = pi(k).

    gr-trellis feeds decoder 2's step k with decoder 1's extrinsic value of bit INTER[k],
    the LTE order. With tail=True the three tail steps map onto themselves; the values
    exchanged there are uninformative (see lte_fsm).
    """
    perm = qpp_permutation(K)
    if tail:
        perm += list(range(K, K + TAIL_STEPS))
    return trellis.interleaver(len(perm), perm)


def _rsc_step(s, u):
    """LTE constituent code (g0 = 13, g1 = 15 octal), state s = 4 s1 + 2 s2 + s3.

    Returns (next state, parity) for input bit u, as lib/engine/lte.h's rsc.
    """
    a = u ^ ((s >> 1) & 1) ^ (s & 1)  # feedback 1 + D^2 + D^3
    z = a ^ ((s >> 2) & 1) ^ (s & 1)  # parity 1 + D + D^3
    return (a << 2) | (s >> 1), z


def lte_fsm(tail=True):
    """The 8-state LTE constituent encoder as a trellis.fsm.

    Output symbol 2 x + z for systematic bit x and parity z. With tail=True a third input
    (2) is the termination step: it feeds the bit that drives the register towards 0
    (x = s2 ^ s3) and outputs 4 + 2 x + z, so that metrics can tell tail steps apart.
    """
    inputs = 3 if tail else 2
    next_state, output = [], []
    for s in range(8):
        for i in range(inputs):
            x = i if i < 2 else ((s >> 1) & 1) ^ (s & 1)
            ns, z = _rsc_step(s, x)
            next_state.append(ns)
            output.append((4 if i == 2 else 0) + 2 * x + z)
    return trellis.fsm(inputs, 8, 8 if tail else 4, next_state, output)


def _metric_matrix(tail):
    """Rows: the O*O pair symbols in gr-trellis's order; columns: per-step inputs.

    tail=False: inputs (L0, L1, L2); tail=True: (L0, L1, L2s, L2p, data step, tail step),
    where the last two are 1/0 flags. A symbol costs x L_x + z L_z of the bits it carries
    (bit b of LLR L costs b L); constituent 2's systematic bit costs nothing at data steps
    (its L2s is 0 there). A symbol of the wrong kind for the step costs FORBIDDEN.
    """
    rows = []
    if not tail:
        for o1 in range(4):
            for o2 in range(4):
                rows.append([o1 >> 1, o1 & 1, o2 & 1])
        return rows
    for o1 in range(8):
        for o2 in range(8):
            tails = (o1 >> 2) + (o2 >> 2)  # symbols of tail branches in the pair
            rows.append([(o1 >> 1) & 1, o1 & 1, (o2 >> 1) & 1, o2 & 1,
                         FORBIDDEN * tails, FORBIDDEN * (2 - tails)])
    return rows


class lte_pccc_decoder(gr.hier_block2):
    """gr-trellis's PCCC decoder for the LTE turbo code: 3K+12 float LLRs per codeword in
    (L = ln P(0)/P(1), d0 d1 d2 triples), K unpacked bits out.

    iterations: turbo iterations (gr-trellis "repetitions"), each runs both SISOs.
    siso_type: trellis.TRELLIS_MIN_SUM (max-log) or trellis.TRELLIS_SUM_PRODUCT (log-MAP).
    tail: use the 12 tail LLRs and end both trellises in state 0 (see the module notes).
    LLRs must be finite.
    """

    def __init__(self, K, iterations=6, siso_type=trellis.TRELLIS_MIN_SUM, tail=True):
        gr.hier_block2.__init__(self, "lte_pccc_decoder",
                                gr.io_signature(1, 1, gr.sizeof_float),
                                gr.io_signature(1, 1, gr.sizeof_char))
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        n = 3 * K + 12
        steps = K + TAIL_STEPS if tail else K
        fsm = lte_fsm(tail)
        end_state = 0 if tail else -1  # -1: gr-trellis assumes nothing about the end
        # gr-trellis's Python keyword names are shuffled in 3.10: pass them by position.
        self.decoder = trellis.pccc_decoder_b(
            fsm, 0, end_state, fsm, 0, end_state, qpp_interleaver(K, tail), steps,
            iterations, siso_type)
        matrix = _metric_matrix(tail)
        metrics = blocks.multiply_matrix_ff(matrix)
        pairs = blocks.interleave(gr.sizeof_float, 1)
        # The decoder needs a whole codeword of metrics at once; leave room for two.
        pairs.set_min_output_buffer(2 * len(matrix) * steps)
        for i in range(len(matrix)):
            self.connect((metrics, i), (pairs, i))
        self.connect(pairs, self.decoder)

        if tail:
            self._connect_with_tail(K, metrics)
            drop_tail = blocks.keep_m_in_n(gr.sizeof_char, K, steps, 0)
            self.connect(self.decoder, drop_tail, self)
        else:
            payload = blocks.keep_m_in_n(gr.sizeof_float, 3 * K, n, 0)
            streams = blocks.deinterleave(gr.sizeof_float, 1)
            self.connect(self, payload, streams)
            for i in range(3):
                self.connect((streams, i), (metrics, i))
            self.connect(self.decoder, self)

    def _connect_with_tail(self, K, metrics):
        """Feeds metrics with K+3 steps of (L0, L1, L2s, L2p, data flag, tail flag)."""
        n = 3 * K + 12
        f = gr.sizeof_float
        payload = blocks.keep_m_in_n(f, 3 * K, n, 0)
        data = blocks.deinterleave(f, 1)  # d0, d1, d2: K values each
        self.connect(self, payload, data)
        # Tail LLRs x z x z x z of encoder 1, then of encoder 2: x and z apart, then each
        # split in encoder 1's three and encoder 2's three.
        tails = blocks.keep_m_in_n(f, 12, n, 3 * K)
        xz = blocks.deinterleave(f, 1)
        x_tail, z_tail = blocks.deinterleave(f, 3), blocks.deinterleave(f, 3)
        self.connect(self, tails, xz)
        self.connect((xz, 0), x_tail)
        self.connect((xz, 1), z_tail)
        # 0s and 1s at the data's own rate, so that the chain stops with its input.
        zeros_k, ones_k = blocks.multiply_const_ff(0.0), blocks.add_const_ff(1.0)
        zeros_3, ones_3 = blocks.multiply_const_ff(0.0), blocks.add_const_ff(1.0)
        self.connect((data, 0), zeros_k, ones_k)
        self.connect((x_tail, 0), zeros_3, ones_3)
        step_inputs = [
            ((data, 0), (x_tail, 0)),  # L0: systematic
            ((data, 1), (z_tail, 0)),  # L1: parity 1
            (zeros_k, (x_tail, 1)),    # L2s: encoder 2's systematic, sent in the tail only
            ((data, 2), (z_tail, 1)),  # L2p: parity 2
            (ones_k, zeros_3),         # data-step flag
            (zeros_k, ones_3),         # tail-step flag
        ]
        for i, (data_part, tail_part) in enumerate(step_inputs):
            mux = blocks.stream_mux(f, [K, TAIL_STEPS])
            self.connect(data_part, (mux, 0))
            self.connect(tail_part, (mux, 1))
            self.connect(mux, (metrics, i))


def run_throughput(make_decoder, llrs, K, seconds=10.0, warmup=2.0, buffer_codewords=None):
    """Decoded information bits per second of a float-in, byte-out decoder block.

    A repeating source of the LLRs (whole codewords of 3K+12) feeds make_decoder()'s
    block, whose bits go to a null sink; the sink's count is sampled after warmup seconds
    and again seconds later. buffer_codewords: codewords the source's buffer holds at
    least (default: all of llrs, at least 2).
    """
    n = 3 * K + 12
    llrs = np.asarray(llrs, dtype=np.float32)
    if llrs.size == 0 or llrs.size % n:
        raise ValueError(f"llrs must hold whole codewords of {n} values")
    codewords = llrs.size // n
    tb = gr.top_block("throughput")
    source = blocks.vector_source_f(llrs.tolist(), True)
    source.set_min_output_buffer(n * (buffer_codewords or max(codewords, 2)))
    decoder = make_decoder()
    sink = blocks.null_sink(gr.sizeof_char)
    tb.connect(source, decoder, sink)
    tb.start()
    try:
        time.sleep(warmup)
        bits0, t0 = sink.nitems_read(0), time.perf_counter()
        time.sleep(seconds)
        bits1, t1 = sink.nitems_read(0), time.perf_counter()
    finally:
        tb.stop()
        tb.wait()
    return (bits1 - bits0) / (t1 - t0)


# ----------------------------------------------------------------------------------------
# Script: BER over BPSK/AWGN and throughput, against gputurbo.turbo_decoder.


def encode(K, bits):
    """Codewords (3K+12 bits each) of the unpacked bits, by gputurbo.turbo_encoder."""
    from gnuradio import gputurbo
    tb = gr.top_block("encode")
    source = blocks.vector_source_b(bits.tolist(), False)
    sink = blocks.vector_sink_b()
    tb.connect(source, gputurbo.turbo_encoder(K), sink)
    tb.run()
    return np.array(sink.data(), dtype=np.uint8)


def noisy_llrs(K, codewords, ebn0_db, rng):
    """BPSK (0 -> +1) over AWGN at Eb/N0 with R = K/(3K+12); LLR = 2y/sigma^2."""
    rate = K / (3 * K + 12)
    sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))
    y = 1.0 - 2.0 * codewords.astype(np.float32)
    y += rng.normal(0.0, sigma, y.size).astype(np.float32)
    return (2.0 / sigma ** 2) * y, sigma


def decode(decoder, llrs, K):
    """Runs the LLRs through the decoder block; returns (bits, seconds of tb.run())."""
    tb = gr.top_block("decode")
    source = blocks.vector_source_f(llrs.tolist(), False)
    # Batches of up to 64 codewords for gputurbo.turbo_decoder (its default max_batch).
    source.set_min_output_buffer(min(llrs.size, 64 * (3 * K + 12)))
    sink = blocks.vector_sink_b()
    tb.connect(source, decoder, sink)
    start = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - start
    return np.array(sink.data(), dtype=np.uint8), elapsed


def report_ber(name, K, bits, decoded, elapsed):
    frames = bits.size // K
    if decoded.size != bits.size:
        raise SystemExit(f"{name}: {decoded.size} of {bits.size} bits came out")
    wrong = decoded != bits
    errors = wrong.reshape(frames, K).sum(axis=1)
    # Split by the bit sent: gr-trellis's min-sum ties come out as 0, so they hit 1s only.
    on_ones = int(np.count_nonzero(wrong & (bits == 1)))
    print(f"{name}: bit errors {int(errors.sum())} (sent 0: {int(errors.sum()) - on_ones}, "
          f"sent 1: {on_ones}), BER {errors.sum() / bits.size:.3e}, "
          f"frame errors {int((errors > 0).sum())}/{frames}, "
          f"{bits.size / elapsed / 1e6:.3f} Mbit/s ({elapsed:.2f} s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--K", type=int, default=6144, help="block size (default 6144)")
    parser.add_argument("--iterations", type=int, default=6, help="turbo iterations")
    parser.add_argument("--ebn0", type=float, default=1.5, help="Eb/N0 in dB (default 1.5)")
    parser.add_argument("--frames", type=int,
                        help="codewords (default 20; 8 repeated ones with --throughput)")
    parser.add_argument("--siso", default="min-sum", choices=["min-sum", "sum-product"],
                        help="gr-trellis SISO: min-sum (max-log) or sum-product (log-MAP)")
    parser.add_argument("--no-tail", action="store_true",
                        help="drop the 12 tail LLRs, end states unknown")
    parser.add_argument("--compare", action="store_true",
                        help="also run gputurbo.turbo_decoder (CPU backend)")
    parser.add_argument("--algorithm", default="max-log",
                        choices=["max-log", "scaled-max-log", "log-map"],
                        help="gputurbo.turbo_decoder's algorithm for --compare")
    parser.add_argument("--threads", type=int, default=0,
                        help="gputurbo CPU threads for --compare, 0 = all cores")
    parser.add_argument("--throughput", action="store_true",
                        help="decode repeated LLRs for --seconds instead of a BER run")
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput window")
    parser.add_argument("--warmup", type=float, default=2.0, help="throughput warm-up")
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    args = parser.parse_args()
    if args.K not in QPP:
        parser.error(f"--K {args.K} is not an LTE block size")
    if args.frames is None:
        args.frames = 8 if args.throughput else 20
    if args.frames < 1:
        parser.error("--frames must be at least 1")

    siso = {"min-sum": trellis.TRELLIS_MIN_SUM,
            "sum-product": trellis.TRELLIS_SUM_PRODUCT}[args.siso]
    tail = not args.no_tail

    def trellis_chain():
        return lte_pccc_decoder(args.K, args.iterations, siso, tail)

    def ours():
        from gnuradio import gputurbo
        return gputurbo.turbo_decoder(args.K, algorithm=args.algorithm,
                                      iterations=args.iterations, backend="cpu",
                                      threads=args.threads, llr_sign="positive-zero")

    rng = np.random.default_rng(args.seed)
    bits = rng.integers(0, 2, args.frames * args.K, dtype=np.uint8)
    llrs, sigma = noisy_llrs(args.K, encode(args.K, bits), args.ebn0, rng)
    names = [f"gr-trellis {args.siso}{'' if tail else ' no tail'}"]
    chains = [trellis_chain]
    if args.compare:
        names.append(f"gputurbo cpu {args.algorithm}")
        chains.append(ours)
    print(f"K={args.K}, Eb/N0={args.ebn0:.2f} dB (sigma={sigma:.4f}), "
          f"{args.iterations} iterations")

    for name, chain in zip(names, chains):
        if args.throughput:
            # Room for whole batches of gputurbo.turbo_decoder (max_batch 64).
            rate = run_throughput(chain, llrs, args.K, args.seconds, args.warmup,
                                  buffer_codewords=64)
            print(f"{name}: {rate / 1e6:.3f} Mbit/s of decoded information bits "
                  f"({args.frames} codewords repeated, {args.seconds:g} s)")
        else:
            decoded, elapsed = decode(chain(), llrs, args.K)
            report_ber(name, args.K, bits, decoded, elapsed)


if __name__ == "__main__":
    main()
