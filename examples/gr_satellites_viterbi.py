#!/usr/bin/python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-satellites with viterbi_decoder_fec in place of gr-fec's cc_decoder.

gr-satellites makes its convolutional decoders with fec.cc_decoder.make(...): the CCSDS
concatenated deframers a streaming decoder of 80-bit frames in fec.extended_decoder
(satellites/hier/ccsds_viterbi.py), the AO-40 FEC deframer terminated frames of 5132 or
2572 bits through fec.async_decoder. Replacing that one function, before the satellite's
flowgraph is built, by one that returns gputurbo.viterbi_decoder_fec.make(...) with the
same arguments puts our decoder in all of them:

    with viterbi_decoders(backend="cpu"):
        flowgraph = satellites.core.gr_satellites_flowgraph(name="KS-1Q", ...)

This example decodes one recording (a 16-bit mono WAV file of real samples) both ways and
prints the packets each recovered (marked where only one did), how long each run took and
how fast the extended decoders decoded (GNU Radio's performance counters: the time in
their work calls; fec.async_decoder decodes in its message handler, which the counters do
not see). The recording is followed by --tail seconds of silence, as a receiver's stream
goes on after a pass: at the end of a stream GNU Radio stops the message-passing blocks,
and a packet that is still on its way through them is lost, either way.

    ./gr_satellites_viterbi.py KS-1Q ../tests/data/recordings/ks_1q.wav --backend cpu

Run it with GNU Radio's Python (/usr/bin/python3) and gr-satellites installed
(`apt-get install gr-satellites`). scripts/gr-satellites-recordings runs it over several
runs and recordings.
"""

import argparse
import contextlib
import os
import time
import wave

# The work time of each block (read as its thread starts; wall-clock time, so that a
# decoder's own threads count).
os.environ.setdefault("GR_CONF_PERFCOUNTERS_ON", "True")
os.environ.setdefault("GR_CONF_PERFCOUNTERS_CLOCK", "monotonic")
# No telemetry sent to SatNOGS or elsewhere.
os.environ.setdefault("GR_SATELLITES_SUBMIT_TLM", "0")

import numpy as np
import pmt
from gnuradio import blocks, fec, gr, network, pdu
from gnuradio import gputurbo

TAIL_SECONDS = 2.0


def gr_satellites_compat():
    """Names gr-satellites 4.4 still takes from gr-blocks, moved by GNU Radio 3.10."""
    blocks.byte_t = gr.types.byte_t
    blocks.float_t = gr.types.float_t
    blocks.pdu_to_tagged_stream = pdu.pdu_to_tagged_stream
    blocks.tagged_stream_to_pdu = pdu.tagged_stream_to_pdu
    blocks.udp_sink = network.udp_sink
    blocks.udp_source = network.udp_source


@contextlib.contextmanager
def viterbi_decoders(**options):
    """While active, fec.cc_decoder.make(...) makes gputurbo.viterbi_decoder_fec objects
    with the same arguments and `options` (backend, threads, ...). Yields the list of
    the objects made."""
    made = []
    stock = fec.cc_decoder.make

    def make(*args):
        made.append(gputurbo.viterbi_decoder_fec.make(*args, **options))
        return made[-1]

    fec.cc_decoder.make = make
    try:
        yield made
    finally:
        fec.cc_decoder.make = stock


class packet_collector(gr.basic_block):
    """Keeps each PDU it receives as (transmitter, hex of the bytes)."""

    def __init__(self):
        gr.basic_block.__init__(self, "packet_collector", None, None)
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)
        self.packets = []

    def handle(self, msg):
        transmitter = pmt.dict_ref(pmt.car(msg), pmt.intern("transmitter"), pmt.PMT_NIL)
        name = pmt.symbol_to_string(transmitter) if pmt.is_symbol(transmitter) else ""
        self.packets.append((name, bytes(pmt.u8vector_elements(pmt.cdr(msg))).hex()))


def find(obj, kind):
    """The objects of type `kind` among a hierarchical block's attributes, any depth."""
    found, stack, seen = [], [obj], set()
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, kind):
            found.append(o)
        elif isinstance(o, gr.hier_block2):
            stack.extend(vars(o).values())
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.values())
    return found


def read_wav(path, tail=TAIL_SECONDS, cut=0.0):
    """A 16-bit mono WAV file's samples as wavfile_source gives them (scaled by 1/32768),
    less its last `cut` seconds, followed by `tail` seconds of silence; and its rate."""
    with wave.open(path) as w:
        if w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise ValueError(f"{path}: {w.getnchannels()} channel(s) of "
                             f"{8 * w.getsampwidth()} bits: a 16-bit mono file is needed")
        rate = w.getframerate()
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    samples = samples[: max(0, samples.size - round(cut * rate))] / np.float32(32768)
    return np.concatenate([samples, np.zeros(round(tail * rate), np.float32)]), rate


def decode(satellite, wavfile, ours=False, tail=TAIL_SECONDS, cut=0.0,
           satellite_options="", **options):
    """Runs gr-satellites' flowgraph for `satellite` on `wavfile` (see read_wav;
    `satellite_options`: gr_satellites' command-line options) with gr-fec's cc_decoder,
    or with viterbi_decoder_fec made with `options` (ours=True). Returns a dict: packets
    [(transmitter, hex)], seconds (tb.run()), and of the extended decoders (the stream
    decoders) their number, the bits they decoded and the seconds in their work calls;
    with ours, the objects' backends and the frames they decoded and refused (those of
    fec.async_decoder too)."""
    gr_satellites_compat()
    import satellites.core

    samples, rate = read_wav(wavfile, tail, cut)
    tb = gr.top_block()
    src = blocks.vector_source_f(samples.tolist(), False)
    with viterbi_decoders(**options) if ours else contextlib.nullcontext([]) as made:
        flowgraph = satellites.core.gr_satellites_flowgraph(
            name=satellite, samp_rate=rate, grc_block=True, options=satellite_options)
    collector = packet_collector()
    tb.connect(src, flowgraph)
    tb.msg_connect((flowgraph, "out"), (collector, "in"))
    start = time.perf_counter()
    tb.run()
    seconds = time.perf_counter() - start

    extended = find(flowgraph, fec.extended_decoder)
    ticks = sum(b.pc_work_time_total() for e in extended for b in e.blocks)
    result = {
        "packets": collector.packets,
        "seconds": seconds,
        "stream_decoders": len(extended),
        "stream_bits": sum(e.blocks[-1].nitems_written(0) for e in extended),
        "stream_seconds": ticks / gr.high_res_timer_tps(),
    }
    if ours:
        result["backend"] = sorted({d.backend() for d in made})
        result["frames"] = sum(d.frames() for d in made)
        result["refused_frames"] = sum(d.refused_frames() for d in made)
    return result


def mbps(result):
    """Mbit/s that the extended decoders decoded in their work calls, or None."""
    if not result["stream_seconds"]:
        return None
    return result["stream_bits"] / result["stream_seconds"] / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("satellite", help="gr-satellites' name for it, e.g. KS-1Q")
    parser.add_argument("wavfile")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--tail", type=float, default=TAIL_SECONDS,
                        help="seconds of silence after the recording [%(default)s]")
    args = parser.parse_args()
    gr.logging().set_default_level(gr.log_levels.warn)  # not the deframers' debug lines

    runs = {"cc_decoder": decode(args.satellite, args.wavfile, tail=args.tail),
            "viterbi_decoder_fec": decode(args.satellite, args.wavfile, ours=True,
                                          tail=args.tail, backend=args.backend)}
    got = {name: {p for _, p in r["packets"]} for name, r in runs.items()}
    for name, r in runs.items():
        others = set.intersection(*got.values())
        print(f"{name}: {len(got[name])} packets")
        for transmitter, packet in sorted(set(r["packets"])):
            print(f"  {'  ' if packet in others else '* '}{transmitter}: {packet}")
    print("(* recovered one way only)")
    for name, r in runs.items():
        rate = mbps(r)
        print(f"{name}: run {r['seconds']:.3f} s; {r['stream_decoders']} stream "
              f"decoders, {r['stream_bits']} bits in {r['stream_seconds']:.4f} s"
              + (f" ({rate:.1f} Mbit/s)" if rate else ""))
    ours = runs["viterbi_decoder_fec"]
    print(f"viterbi_decoder_fec: backend {', '.join(ours['backend']) or '-'}, "
          f"{ours['frames']} frames decoded, {ours['refused_frames']} refused")


if __name__ == "__main__":
    main()
