#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE DL-SCH transport blocks over QPSK and AWGN with HARQ: the BLER after each of up to
four transmissions against the SNR, with soft combining and without.

    harq_transmitter -> dlsch_encoder_pdu -> QPSK + AWGN -> dlsch_decoder_pdu
           ^                                                          |
           +------------------------ crc_ok --------------------------+

A transport block of random bits is sent with rv 0 and, while its CRC fails, again with
rv 2, 3 and 1: at most four transmissions, each of G bits (G from --rate, the code rate
of one transmission). Two such loops run side by side in one flowgraph on the same
transport blocks: "combining" sends each transmission in a HARQ process (the decoder
adds a retransmission's LLRs to the process's soft buffer), "no combining" decodes each
transmission alone. The BLER after n transmissions is the share of transport blocks not
delivered after n: their CRC has not passed in the first n, or it passed with wrong bits
(an undetected error, which ends the block's transmissions as a receiver would; counted
apart too). Messages only: the transmitter keeps
--processes transport blocks in flight per loop, and the decoder decodes what arrives
together in one engine call.

The channel, a PDU Lambda block: the G bits as Gray-mapped QPSK symbols (bit pairs on I
and Q, bit 1 -> +1/sqrt(2)) plus complex Gaussian noise at the SNR Es/N0; the LLRs
2 sqrt(2) y / sigma^2, positive for 1 (GNU Radio's sign, the decoder's default).

Writes OUT.json (the numbers, the command, the machine) and OUT.png (the plot, when
matplotlib is there). Exits with 1 when a PDU came back with an error.

    ./dlsch_harq_loopback.py --snr -3 6 1 --tbs 2000 --blocks 500 --out dlsch_harq_bler
"""

import argparse
import math
import sys
import time

import numpy as np
from gnuradio import gr, pdu
from gnuradio import gputurbo
from gnuradio.gputurbo import records
import pmt

REDUNDANCY_VERSIONS = (0, 2, 3, 1)  # the order of the transmissions
QM = 2  # QPSK


class harq_transmitter(gr.basic_block):
    """Sends `blocks` transport blocks of random bits on message port "pdus" and reads
    the decoder's answers on "feedback": a block whose CRC failed goes out again with the
    next redundancy version, up to four transmissions. Keeps `processes` blocks in
    flight; with `combining`, each block's transmissions carry its HARQ process. When
    every block is through, it ends its part of the flowgraph."""

    def __init__(self, blocks, tbs, G, processes, combining, seed):
        gr.basic_block.__init__(self, name="harq_transmitter", in_sig=None, out_sig=None)
        self.blocks, self.tbs, self.G = blocks, tbs, G
        self.processes, self.combining = processes, combining
        self.rng = np.random.default_rng(seed)  # the same seed: the same blocks
        self.data = {}  # in flight: block index -> its bits
        self.started = 0
        # per finished block: the transmission whose CRC passed (None: none did), and
        # whether its bits were right
        self.passed_at = []
        self.right = []
        self.errors = []  # PDUs answered with an error
        self.transmissions = 0
        self.message_port_register_out(pmt.intern("pdus"))
        self.message_port_register_in(pmt.intern("feedback"))
        self.set_msg_handler(pmt.intern("feedback"), self.feedback)

    def start(self):
        for process in range(min(self.processes, self.blocks)):
            self.new_block(process)
        return True

    def new_block(self, process):
        index = self.started
        self.started += 1
        self.data[index] = self.rng.integers(0, 2, self.tbs, dtype=np.uint8)
        self.send(index, process, 1)

    def send(self, index, process, transmission):
        meta = {"tbs": self.tbs, "G": self.G, "Qm": QM,
                "rv": REDUNDANCY_VERSIONS[transmission - 1],
                "block": index, "process": process, "transmission": transmission}
        if self.combining:
            meta["harq_process"] = process
            meta["new_data"] = transmission == 1
        self.transmissions += 1
        self.message_port_pub(pmt.intern("pdus"),
                              pmt.cons(pmt.to_pmt(meta), pmt.to_pmt(self.data[index])))

    def feedback(self, msg):
        meta = pmt.to_python(pmt.car(msg))
        index, process, n = meta["block"], meta["process"], meta["transmission"]
        if "error" in meta:
            self.errors.append(meta["error"])
        passed = bool(meta["crc_ok"])
        if not passed and n < len(REDUNDANCY_VERSIONS) and "error" not in meta:
            self.send(index, process, n + 1)
            return
        sent = self.data.pop(index)
        self.passed_at.append(n if passed else None)
        self.right.append(passed and np.array_equal(pmt.to_python(pmt.cdr(msg)), sent))
        if self.started < self.blocks:
            self.new_block(process)
        elif len(self.passed_at) == self.blocks:
            # Done: the flowgraph's blocks downstream finish in turn.
            done = pmt.cons(pmt.intern("done"), pmt.from_long(1))
            self._post(pmt.intern("system"), done)

    def bler_after(self):
        """BLER after 1, 2, 3 and 4 transmissions."""
        return [sum(1 for p, right in zip(self.passed_at, self.right)
                    if p is None or p > n or not right) / len(self.passed_at)
                for n in range(1, len(REDUNDANCY_VERSIONS) + 1)]

    def undetected(self):
        """Blocks whose CRC passed with wrong bits."""
        return sum(1 for p, right in zip(self.passed_at, self.right)
                   if p is not None and not right)


def qpsk_awgn_llrs(snr_db, seed):
    """A PDU Lambda block: the PDU's bits as Gray QPSK symbols (Es = 1) plus complex AWGN
    at Es/N0 = snr_db, out as float32 LLRs, positive for 1; the metadata passes on."""
    sigma = math.sqrt(0.5 / 10.0 ** (snr_db / 10.0))  # N0 = 1 / SNR, half on I, half on Q
    a = 1.0 / math.sqrt(2.0)  # each bit's amplitude on its axis
    rng = np.random.default_rng(seed)

    def llrs(bits):
        y = a * (2.0 * bits - 1.0) + rng.normal(0.0, sigma, bits.size)
        return (2.0 * a / sigma ** 2 * y).astype(np.float32)
    return pdu.pdu_lambda(llrs, "UVEC")


# Every flowgraph and block of the run: a Python block must outlive every flowgraph
# that held it.
keep_alive = []


def run_point(args, G, snr_db):
    """Both loops at one SNR: {"combining": (transmitter, decoder), "no combining":
    (transmitter, decoder)}."""
    tb = gr.top_block()
    loops = {}
    for arm, combining in (("combining", True), ("no combining", False)):
        tx = harq_transmitter(args.blocks, args.tbs, G, args.processes, combining,
                              args.seed)
        enc = gputurbo.dlsch_encoder_pdu()
        noise_seed = [args.seed, int(combining), round(snr_db * 1000) + 10 ** 6]
        channel = qpsk_awgn_llrs(snr_db, noise_seed)
        dec = gputurbo.dlsch_decoder_pdu(iterations=args.iterations, backend=args.backend,
                                         max_batch=args.max_batch)
        tb.msg_connect((tx, "pdus"), (enc, "pdus"))
        tb.msg_connect((enc, "pdus"), (channel, "pdu"))
        tb.msg_connect((channel, "pdu"), (dec, "pdus"))
        tb.msg_connect((dec, "pdus"), (tx, "feedback"))
        loops[arm] = (tx, dec)
        keep_alive.extend((tx, enc, channel, dec))
    keep_alive.append(tb)
    tb.run()  # until both transmitters are done
    return loops


def plot(record, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"no plot ({e})")
        return
    c = record["parameters"]
    snr = [p["snr_db"] for p in record["rows"]]
    fig, ax = plt.subplots(figsize=(7, 4.8))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for arm, style in (("combining", "-o"), ("no combining", "--s")):
        for n in range(len(REDUNDANCY_VERSIONS)):
            bler = [p[arm]["bler_after"][n] for p in record["rows"]]
            x = [s for s, b in zip(snr, bler) if b > 0]  # 0 has no place on a log axis
            rvs = ",".join(map(str, REDUNDANCY_VERSIONS[:n + 1]))
            ax.semilogy(x, [b for b in bler if b > 0], style, color=colors[n],
                        markersize=4, label=f"{arm}, {n + 1} tx (rv {rvs})",
                        fillstyle="none" if arm == "no combining" else "full")
    ax.set_xlabel("SNR Es/N0 (dB), QPSK")
    ax.set_ylabel("BLER after n transmissions")
    ax.set_ylim(0.5 / c["blocks"], 1.1)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(f"LTE DL-SCH HARQ, tbs {c['tbs']}, G {c['G']} "
                 f"(rate {c['code_rate']:.2f} a transmission), {c['blocks']} blocks a "
                 f"point\n{c['algorithm']}, {c['iterations']} iterations, CRC stop, "
                 f"{c['backend']}", fontsize=9)
    ax.legend(fontsize=7, ncol=2, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def snr_points(values):
    if len(values) not in (2, 3):
        raise argparse.ArgumentTypeError("--snr takes START STOP [STEP]")
    start, stop = values[0], values[1]
    step = values[2] if len(values) == 3 else 1.0
    if step <= 0 or stop < start:
        raise argparse.ArgumentTypeError("--snr: STOP >= START and STEP > 0")
    count = int(math.floor((stop - start) / step + 1e-9)) + 1
    return [round(start + i * step, 6) for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"],
                        help="the decoder's backend (default auto)")
    parser.add_argument("--tbs", type=int, default=2000,
                        help="transport block size in bits (default 2000)")
    parser.add_argument("--rate", type=float, default=0.8,
                        help="code rate (tbs + 24) / G of one transmission (default 0.8)")
    parser.add_argument("--snr", type=float, nargs="+", default=[-3.0, 6.0, 1.0],
                        metavar="DB", help="Es/N0 sweep: START STOP [STEP] in dB "
                        "(default -3 6 1)")
    parser.add_argument("--blocks", type=int, default=500,
                        help="transport blocks per SNR point and loop (default 500)")
    parser.add_argument("--processes", type=int, default=32,
                        help="HARQ processes (blocks in flight) per loop (default 32)")
    parser.add_argument("--iterations", type=int, default=6,
                        help="most turbo iterations of a code block (default 6)")
    parser.add_argument("--max-batch", type=int, default=0,
                        help="the decoder's max_batch (default 0: automatic)")
    parser.add_argument("--seed", type=int, default=1, help="seed of bits and noise")
    parser.add_argument("--out", default="dlsch_harq_bler", metavar="PREFIX",
                        help="writes PREFIX.json and PREFIX.png "
                        "(default dlsch_harq_bler)")
    args = parser.parse_args()
    try:
        snrs = snr_points(args.snr)
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    G = QM * max(1, round((args.tbs + 24) / args.rate / QM))

    probe = gputurbo.dlsch_decoder_pdu(iterations=args.iterations, backend=args.backend)
    parameters = {
        "kind": "dlsch-harq-bler", "tbs": args.tbs, "G": G, "Qm": QM,
        "code_rate": (args.tbs + 24) / G, "redundancy_versions": REDUNDANCY_VERSIONS,
        "blocks": args.blocks, "processes": args.processes, "seed": args.seed,
        "algorithm": "scaled-max-log", "iterations": args.iterations, "early_stop": True,
        "backend": probe.backend(), "backend_requested": args.backend,
        "max_batch": probe.max_batch(),
        "channel": "Gray QPSK, complex AWGN at Es/N0, LLR 2 sqrt(2) y / sigma^2",
        "gnuradio": gr.version(),
    }
    record = records.record("examples/dlsch_harq_loopback.py", probe.device(), parameters,
                            [])
    del probe
    print(f"tbs {args.tbs}, G {G} (code rate {(args.tbs + 24) / G:.3f} a transmission), "
          f"{args.blocks} blocks a point, {parameters['backend']} ({record['device']})")
    print(f"{'SNR':>6}  {'BLER after 1, 2, 3, 4 tx: combining':<40}{'no combining':<34}"
          "tx/block; undetected errors")
    failed = False
    total_start = time.perf_counter()
    for snr_db in snrs:
        start = time.perf_counter()
        loops = run_point(args, G, snr_db)
        seconds = time.perf_counter() - start
        point = {"snr_db": snr_db, "seconds": seconds}
        for arm, (tx, dec) in loops.items():
            point[arm] = {
                "bler_after": tx.bler_after(),
                "blocks": len(tx.passed_at),
                "transmissions": tx.transmissions,
                "error_pdus": len(tx.errors),
                "undetected_errors": tx.undetected(),
                "decoder_batches": dec.batches(),
            }
            if tx.errors:
                failed = True
                print(f"  {arm}: {len(tx.errors)} PDUs answered with an error, the "
                      f"first: {tx.errors[0]}")
        record["rows"].append(point)
        cells = {arm: " ".join(f"{b:7.4f}" for b in point[arm]["bler_after"])
                 for arm in loops}
        per_block = {arm: point[arm]["transmissions"] / args.blocks for arm in loops}
        undetected = {arm: point[arm]["undetected_errors"] for arm in loops}
        print(f"{snr_db:6.2f}  {cells['combining']:<40}{cells['no combining']:<34}"
              f"{per_block['combining']:.2f} / {per_block['no combining']:.2f}; "
              f"{undetected['combining']} / {undetected['no combining']}"
              f"  ({seconds:.1f} s)", flush=True)
    record["parameters"]["seconds"] = time.perf_counter() - total_start
    records.write(args.out + ".json", record)
    print(f"wrote {args.out}.json")
    plot(record, args.out + ".png")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
