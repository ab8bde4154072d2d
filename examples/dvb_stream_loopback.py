#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Bit error rate of a DVB-style punctured stream (K=7, rate 3/4) over BPSK/AWGN, as a
GNU Radio flowgraph.

random bits -> conv_encoder (streaming, 3/4) -> BPSK (0 -> -1, 1 -> +1) -> + noise
            -> LLR = 2y/sigma^2 -> viterbi_decoder (streaming, 3/4) -> XOR with the sent bits

One continuous stream: the encoder's state and the puncturing pattern run on from work
call to work call, and the decoder writes every bit once, the last ones when the stream
ends. sigma = sqrt(1 / (2 R 10^(Eb/N0 / 10))) with R = 3/4. dvb_stream_loopback.grc is
the same flowgraph for GNU Radio Companion.

    ./dvb_stream_loopback.py --ebn0 4.5 --bits 3000000
"""

import argparse
import math
import time

from gnuradio import analog, blocks, gr
from gnuradio import gputurbo


class dvb_stream_loopback(gr.top_block):

    def __init__(self, args):
        gr.top_block.__init__(self, "DVB-style stream loopback BER", catch_exceptions=True)
        self.sigma = math.sqrt(1.0 / (2.0 * 0.75 * 10.0 ** (args.ebn0 / 10.0)))
        code = dict(preset="dvb", puncture="3/4", termination="streaming")
        bits = analog.random_uniform_source_b(0, 2, args.seed)  # 0 or 1
        head = blocks.head(gr.sizeof_char, args.bits)
        self.encoder = gputurbo.conv_encoder(**code)
        to_float = blocks.char_to_float(1, 0.5)  # 0, 2
        offset = blocks.add_const_ff(-1.0)       # -1, +1
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, self.sigma, args.seed + 1)
        add = blocks.add_ff()
        to_llr = blocks.multiply_const_ff(2.0 / self.sigma ** 2)
        self.decoder = gputurbo.viterbi_decoder(backend=args.backend, input_type=args.input,
                                                **code)
        errors = blocks.xor_bb()
        self.errors = blocks.vector_sink_b()
        self.connect(bits, head, self.encoder, to_float, offset, (add, 0))
        self.connect(noise, (add, 1))
        if args.input == "int8":  # quantised in the flowgraph: q = round(8 L)
            self.connect(add, to_llr, blocks.float_to_char(1, 8.0), self.decoder)
        else:
            self.connect(add, to_llr, self.decoder)
        self.connect(head, (errors, 0))
        self.connect(self.decoder, (errors, 1))
        self.connect(errors, self.errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ebn0", type=float, default=4.5, help="Eb/N0 in dB (default 4.5)")
    parser.add_argument("--bits", type=int, default=3000000,
                        help="information bits sent, a multiple of 3 (default 3000000)")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--input", default="float", choices=["float", "int8"])
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    args = parser.parse_args()
    if args.bits < 3 or args.bits % 3:
        parser.error("--bits must be a positive multiple of 3 (whole puncturing periods)")
    tb = dvb_stream_loopback(args)
    print(f"K=7 rate 3/4 (DVB), Eb/N0={args.ebn0:.2f} dB (sigma={tb.sigma:.4f}), backend "
          f"{tb.decoder.backend()} ({tb.decoder.device()})")
    start = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - start
    errors = tb.errors.data()
    if len(errors) != args.bits:
        raise SystemExit(f"error: {len(errors)} of {args.bits} bits came through")
    bit_errors = sum(errors)
    print(f"bits: {len(errors)}, bit errors: {bit_errors}, "
          f"BER: {bit_errors / len(errors):.3e}")
    print(f"throughput: {len(errors) / elapsed / 1e6:.3f} Mbit/s of decoded information "
          f"bits ({elapsed:.2f} s of flowgraph run, noise source included)")


if __name__ == "__main__":
    main()
