#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Decoded rate of the Viterbi decoder inside a GNU Radio flowgraph.

    repeating file source of precomputed LLRs -> viterbi_decoder -> null sink

for a continuous stream and for terminated frames (one frame after another), against
the same flowgraph with the decoder replaced by a pass-through of equal item rates
(blocks.keep_m_in_n: a bit's worth of the items of each frame, or of each 4096 steps of
a stream), which measures what GNU Radio itself can move, and against gr-fec's
cc_decoder (through fec.extended_decoder) in the same shape.

    ./viterbi_benchmark_flowgraph.py --seconds 5
    ./viterbi_benchmark_flowgraph.py --input float int8 --records ../docs/perf --tag h100

Frames carry one tag each (--frame-tags): "codeword", the decoder's own on every frame
(codeword_tags "all"; the pass-through makes none); "length", a length tag on every
frame from the source (blocks.stream_to_tagged_stream) through both flowgraphs, which
the decoder rescales and the pass-through moves; or "none".

Rates are information bits per second, sampled at the null sink after a warm-up.
"""

import argparse
import math
import os
import shutil
import tempfile

import numpy as np
from gnuradio import blocks, fec, gr
from gnuradio import gputurbo
from gnuradio.gputurbo import records

from benchmark_flowgraph import llr_file, measure, quantize, source_for
from ccsds_loopback import gr_fec_polys


def precomputed_llrs(code, termination, frame_bits, frames, ebn0_db, seed):
    """LLRs of random frames (or one stream of frames * frame_bits bits) over BPSK/AWGN
    at Eb/N0, positive meaning 1."""
    rng = np.random.default_rng(seed)
    if termination == "streaming":
        sent = code.encode(rng.integers(0, 2, frames * frame_bits, dtype=np.uint8),
                           "streaming")
    else:
        sent = code.encode(rng.integers(0, 2, (frames, frame_bits), dtype=np.uint8),
                           termination).ravel()
    rate = frames * frame_bits / sent.size
    sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))
    y = (2.0 * sent - 1.0) + rng.normal(0.0, sigma, sent.size)
    return (2.0 * y / sigma ** 2).astype(np.float32)


class length_tagged(gr.hier_block2):
    """A length tag ("packet_len") on every frame of the input, then \p block."""

    def __init__(self, itemsize, frame_length, block, out_itemsize, buffer_items):
        gr.hier_block2.__init__(self, "length_tagged",
                                gr.io_signature(1, 1, itemsize),
                                gr.io_signature(1, 1, out_itemsize))
        self.tagger = blocks.stream_to_tagged_stream(itemsize, 1, frame_length,
                                                     "packet_len")
        self.tagger.set_min_output_buffer(buffer_items)
        self.connect(self, self.tagger, block, self)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="ccsds", help="code (default ccsds: K=7 r1/2)")
    parser.add_argument("--frame-bits", type=int, default=2048,
                        help="bits a terminated frame (default 2048)")
    parser.add_argument("--modes", nargs="+", default=["streaming", "terminated"],
                        choices=["streaming", "terminated"])
    parser.add_argument("--input", nargs="+", default=["int8"], choices=["float", "int8"],
                        help="input item types to measure (default int8)")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--ebn0", type=float, default=3.0,
                        help="Eb/N0 of the precomputed LLRs in dB (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="measuring time per flowgraph (default 5)")
    parser.add_argument("--warmup", type=float, default=2.0,
                        help="time before measuring (default 2)")
    parser.add_argument("--batches-in-flight", type=int, default=0,
                        help="the decoder's batches_in_flight (default 0, the block's: "
                             "automatic)")
    parser.add_argument("--frame-tags", nargs="+", default=["codeword", "length"],
                        choices=["codeword", "length", "none"],
                        help="frames: the tag each carries (default: codeword, then "
                             "length; see above)")
    parser.add_argument("--buffer-items", type=int, default=1 << 22,
                        help="source output buffer in items, for every flowgraph "
                             "(default 2^22)")
    parser.add_argument("--no-gr-fec", action="store_true",
                        help="skip gr-fec's cc_decoder")
    parser.add_argument("--records", metavar="DIR",
                        help="write flowgraph-viterbi-*.json records into DIR")
    parser.add_argument("--tag", default="local",
                        help="machine name in record file names (default local)")
    args = parser.parse_args()

    code = gputurbo.conv_code(args.preset)
    n = code.outputs
    scratch = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    made = []  # the records, one a run
    for mode in args.modes:
        frame_bits = args.frame_bits
        # The pass-through keeps a unit's bits' worth of each unit's items: for a stream,
        # units of 4096 steps, so that it copies in blocks as it does for frames.
        unit_bits = 4096 if mode == "streaming" else frame_bits
        length = n * unit_bits if mode == "streaming" else code.punctured_length(
            frame_bits, mode)
        llrs = precomputed_llrs(code, mode, frame_bits, 64, args.ebn0, seed=1)
        # Repeated to a file of some megabytes: the file source reads in large pieces.
        llrs = np.tile(llrs, max(1, (1 << 23) // len(llrs)))
        for input_type in args.input:
            data = llrs if input_type == "float" else quantize(llrs, 8.0)
            path = llr_file(data, scratch)
            itemsize = data.itemsize

            def rate(block, sink_itemsize=1, tags="none"):
                if tags == "length":
                    block = length_tagged(itemsize, length, block, sink_itemsize,
                                          args.buffer_items)
                return measure(source_for(path, itemsize), block, sink_itemsize,
                               args.seconds, args.warmup, args.buffer_items)

            runs = []
            for tags in ["none"] if mode == "streaming" else args.frame_tags:
                decoder = gputurbo.viterbi_decoder(
                    frame_bits, preset=args.preset, termination=mode,
                    backend=args.backend, input_type=input_type,
                    batches_in_flight=args.batches_in_flight,
                    codeword_tags="all" if tags == "codeword" else "failed")
                passthrough = rate(blocks.keep_m_in_n(itemsize, unit_bits, length, 0),
                                   itemsize, tags)
                runs.append((decoder.backend(), decoder.device(), tags,
                             rate(decoder, 1, tags), passthrough))
            if not args.no_gr_fec and input_type == "float":
                cc = fec.cc_decoder.make(frame_bits, code.constraint, n, gr_fec_polys(code),
                                         0, -1 if mode == "streaming" else 0,
                                         fec.CC_STREAMING if mode == "streaming"
                                         else fec.CC_TERMINATED, False)
                ext = fec.extended_decoder(decoder_obj_list=cc, threading=None, ann=None,
                                           puncpat="1" * n, integration_period=10000)
                # Against the untagged pass-through (the first run's, when untagged).
                passthrough = runs[0][4] if runs[0][2] != "length" else rate(
                    blocks.keep_m_in_n(itemsize, unit_bits, length, 0), itemsize)
                runs.append(("gr-fec cc_decoder", records.host_cpu(), "none", rate(ext),
                             passthrough))
            for backend, device, tags, value, passthrough in runs:
                ours = backend != "gr-fec cc_decoder"
                r = {"kind": "flowgraph-viterbi", "backend": backend, "input": input_type,
                     "code": code.text, "termination": mode,
                     "frame_bits": None if mode == "streaming" else frame_bits,
                     "info_bits_per_second": value, "vs_passthrough": value / passthrough,
                     "passthrough_info_bits_per_second": passthrough,
                     "batches_in_flight": args.batches_in_flight if ours else None,
                     "frame_tags": None if mode == "streaming" else tags,
                     "seconds": args.seconds}
                made.append(records.record("examples/viterbi_benchmark_flowgraph.py",
                                           device, {}, [r]))
                shape = mode if mode == "streaming" else f"{mode}, {tags} tags"
                print(f"{shape:>24} {input_type:>5} {backend:>18}: "
                      f"{value / 1e9:8.4f} Gbit/s, pass-through {passthrough / 1e9:8.4f}, "
                      f"ratio {value / passthrough:.3f}", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)
    if args.records:
        os.makedirs(args.records, exist_ok=True)
        for record in made:
            r = record["rows"][0]
            name = r["backend"].replace(" ", "-")
            tags = f"-{r['frame_tags']}-tags" if r["frame_tags"] else ""
            path = os.path.join(args.records, f"flowgraph-viterbi-{name}-{args.tag}-"
                                              f"{r['termination']}-{r['input']}{tags}.json")
            records.write(path, record)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
