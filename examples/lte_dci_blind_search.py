#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The PDCCH's blind search through QPSK/AWGN: DCIs of several UEs sent in LTE
subframes, found by control_engine.search() without being told where they are, and the
detection and false-alarm rates against Es/N0.

    a subframe of a 20 MHz FDD cell (CFI 3, 2 antenna ports, N_g 1: 84 CCEs):
      a DCI of SI-RNTI (format 1A or 1C) at a candidate of the common space, and one for
      each of 6 UEs (random C-RNTIs, formats 0/1A, 1 or 2A) at a candidate of its
      UE-specific space at a random aggregation level, on CCEs no other DCI holds
      (a UE whose space has no free candidate left gets none that subframe)
    -> control_engine.encode (payload of random bits, CRC-16 masked by the RNTI,
       rate matched to 72 L bits) -> the CCEs; those left empty send nothing
    -> scrambled (descramble_pdcch: the same call) -> QPSK (36.211 §7.1.2: bit 0 ->
       +1/sqrt(2)) -> AWGN at Es/N0
    -> LLRs -2 sqrt(2) y / N0 (GNU Radio's sign: positive means 1) -> descrambled
    -> control_engine.search: mode "ue" (the common space and the UE-specific spaces of
       the subframe's UEs) and mode "exhaustive" (every CCE-aligned candidate, the RNTI
       read from the CRC, accepted when it is one of those UEs' or a broadcast RNTI)

A DCI is found right when a detection has its candidate, size, RNTI and payload. The
detection rate is those found over those sent, by the level sent and overall; a false
alarm is a detection that is no DCI sent, counted a subframe and a decoded candidate
(a candidate once for each DCI size; engine.decoded_candidates). The same searches on
subframes of noise alone (nothing sent) give the false-alarm rate where no DCI is, with
the re-encoding check and the false-alarm floor at their defaults (min_correlation 0.6,
max_false_alarm 1e-4) and without either (the CRC alone): in mode ue a candidate passes the CRC with about 2^-16 for each RNTI it is
checked against (in a UE-specific candidate the RNTI of each listed UE whose space
holds it; in the common space SI-, P-, the 60 RA-RNTIs and the listed ones), which the
record counts as its hypotheses; in mode exhaustive every candidate is checked against
all of those. The subframes are the same at every Es/N0, the noise new. The channel
is memoryless, so the REG interleaving (36.211 §6.8.5), which the receiver undoes
before the search, is left out.

    /usr/bin/python3 examples/lte_dci_blind_search.py --json lte_dci.json \\
        --plot lte_dci_detection.png

What to expect (the defaults, about 2 minutes on two cores): mode ue finds 99 % of the
DCIs sent at level 8 from about -3 dB, at level 4 from -1.5 dB, at level 2 from 2 dB
and at level 1 (code rates 0.6 ... 0.9) from 8 dB; with the CRC alone level 8 gets
there 1.3 dB lower. Mode exhaustive finds the same DCIs at levels 4 and 8, those of
level 2 from 2 dB and those of level 1 from about 10 dB: it checks every candidate
against the 62 broadcast RNTIs too, and its false-alarm floor asks more of them. On
noise mode ue gives a false alarm every 240 subframes (the CRC alone one every 30:
about 2^-16 a hypothesis), mode exhaustive one every 340 (the CRC alone 2 in 3).
"""

import argparse
import math
import sys
import time

import numpy as np
from gnuradio import gputurbo
from gnuradio.gputurbo import records

# The cell: 20 MHz FDD, CFI 3, 2 antenna ports, N_g = 1.
CELL = {"n_prb": 100, "cfi": 3, "antenna_ports": 2, "ng": "1", "duplex": "fdd"}
CELL_ID = 101
LEVELS = (1, 2, 4, 8)
UE_FORMATS = ("1A", "1", "2A")      # the UEs' (0/1A, 1, 2A: three of the default sizes)
SI_FORMATS = ("1A", "1C")           # SI-RNTI's, in the common space
SI_RNTI = 0xFFFF
BROADCAST_RNTIS = 62                # SI-RNTI, P-RNTI and the RA-RNTIs 1 ... 60
MODES = ("ue", "exhaustive")
CHECK = 0.6                         # search()'s min_correlation by default
FLOOR = 1e-4                        # search()'s max_false_alarm by default
CRC_ALONE = -1.0                    # min_correlation: no re-encoding check (and no
                                    # false-alarm floor: max_false_alarm 1)
# The searches of the subframes with DCIs: each mode with the re-encoding check and
# the false-alarm floor, and mode ue with the CRC alone, which shows what they cost.
SEARCHES = (("ue", CHECK), ("exhaustive", CHECK), ("ue", CRC_ALONE))


def n_cce():
    return gputurbo.cce_count(n_prb=CELL["n_prb"], cfi=CELL["cfi"],
                              antenna_ports=CELL["antenna_ports"], ng=CELL["ng"])


def dci_size(fmt):
    return gputurbo.dci_size(fmt, n_prb=CELL["n_prb"], duplex=CELL["duplex"],
                             antenna_ports=CELL["antenna_ports"])


def dci_sizes():
    return gputurbo.default_dci_sizes(CELL["n_prb"], CELL["duplex"],
                                      CELL["antenna_ports"])


class subframe:
    """One subframe: its k (0 ... 9), the RNTIs of its UEs, the DCIs sent (dicts of
    first_cce, level, size, rnti, payload) and the real components sent, scrambled,
    one a bit (72 a CCE; 0 where a CCE is empty)."""

    def __init__(self, k, rntis, dcis, sent):
        self.k, self.rntis, self.dcis, self.sent = k, rntis, dcis, sent


def place(space, used, rng):
    """A candidate of space whose CCEs are free, at random, marked used; or None."""
    free = [c for c in space if not used[c[0]:c[0] + c[1]].any()]
    if not free:
        return None
    first, level = free[rng.integers(len(free))]
    used[first:first + level] = True
    return first, level


def make_subframes(engine, n, ues, rng):
    """n subframes, each with a DCI of SI-RNTI at a free candidate of the common space
    and one for each of ues UEs (random C-RNTIs, 61 ... 65523, distinct) at a free
    candidate of its UE-specific space: of a random level, or where that has none
    free, of another."""
    cces = n_cce()
    out = []
    for _ in range(n):
        k = int(rng.integers(10))
        rntis = [int(r) for r in rng.choice(np.arange(61, 65524), ues, replace=False)]
        used = np.zeros(cces, dtype=bool)
        x = np.zeros(72 * cces, dtype=np.float32)
        dcis = []

        def send(rnti, formats, candidate):
            if candidate is None:
                return
            first, level = candidate
            A = dci_size(formats[rng.integers(len(formats))])
            payload = rng.integers(0, 2, A, dtype=np.uint8)
            bits = engine.encode(payload, rnti, 72 * level)
            x[72 * first:72 * (first + level)] = (1.0 - 2.0 * bits) / math.sqrt(2.0)
            dcis.append({"first_cce": first, "level": level, "size": A, "rnti": rnti,
                         "payload": payload.tobytes()})
        send(SI_RNTI, SI_FORMATS, place(gputurbo.common_search_space(cces), used, rng))
        for r in rntis:
            space = gputurbo.ue_search_space(cces, r, k)
            candidate = None
            for L in rng.permutation(LEVELS):
                candidate = candidate or place([c for c in space if c[1] == L], used, rng)
            send(r, UE_FORMATS, candidate)
        # Scrambling flips the bits where c(i) = 1: the components' signs there.
        out.append(subframe(k, rntis, dcis, gputurbo.descramble_pdcch(x, k, CELL_ID)))
    return out


def received_llrs(sent, esn0_db, rng):
    """The LLRs (positive means 1) of components sent through AWGN at Es/N0, a QPSK
    symbol's energy 1: noise N0/2 a component, L = -2 sqrt(2) y / N0."""
    n0 = 10.0 ** (-esn0_db / 10.0)
    y = sent + rng.normal(0.0, math.sqrt(n0 / 2.0), sent.shape)
    return (-2.0 * math.sqrt(2.0) * y / n0).astype(np.float32)


def search(engine, subframes, llrs, mode, min_correlation, chunk=250):
    """The detections of every subframe (descrambled first), a list a subframe, and
    the candidates decoded."""
    found = [[] for _ in subframes]
    decoded = 0
    for start in range(0, len(subframes), chunk):
        part = [{"llrs": gputurbo.descramble_pdcch(llrs[i], s.k, CELL_ID),
                 "subframe": s.k, "rntis": s.rntis}
                for i, s in enumerate(subframes[start:start + chunk], start)]
        for d in engine.search(part, mode=mode, min_correlation=min_correlation,
                               max_false_alarm=floor_of(min_correlation), **CELL):
            found[start + d["subframe"]].append(d)
        decoded += engine.decoded_candidates
    return found, decoded


def floor_of(min_correlation):
    """The search's max_false_alarm: none (1) with the CRC alone."""
    return 1.0 if min_correlation == CRC_ALONE else FLOOR


def rntis_tried(s, mode):
    """Each candidate that a search of subframe s decodes (for each DCI size), and the
    RNTIs it checks it against: mode ue, a UE-specific candidate those listed whose
    space holds it, a common one the broadcasts' and every listed one; mode
    exhaustive, every candidate all of them."""
    cces = n_cce()
    if mode == "exhaustive":
        return dict.fromkeys(gputurbo.every_candidate(cces),
                             BROADCAST_RNTIS + len(s.rntis))
    tried = {}
    for r in s.rntis:
        for c in gputurbo.ue_search_space(cces, r, s.k):
            tried[c] = tried.get(c, 0) + 1
    for c in gputurbo.common_search_space(cces):
        tried[c] = BROADCAST_RNTIS + len(s.rntis)
    return tried


def hypotheses(subframes, mode, sizes):
    """The RNTIs that the decoded candidates of the subframes are checked against, for
    sizes DCI sizes: where each passes the CRC with about 2^-16 on noise."""
    return sizes * sum(sum(rntis_tried(s, mode).values()) for s in subframes)


def score(subframes, found):
    """DCIs sent, found right and found elsewhere (their RNTI, size and payload at
    another candidate) by level, and the false alarms (detections that are no DCI
    sent)."""
    sent, right, elsewhere = ({L: 0 for L in LEVELS} for _ in range(3))
    false_alarms = 0
    for s, detections in zip(subframes, found):
        dcis = {(d["size"], d["rnti"], d["payload"]): d for d in s.dcis}
        for d in s.dcis:
            sent[d["level"]] += 1
        for d in detections:
            dci = dcis.get((d["size"], d["rnti"], d["payload"].tobytes()))
            if dci is None:
                false_alarms += 1
            elif (dci["first_cce"], dci["level"]) == (d["first_cce"], d["level"]):
                right[dci["level"]] += 1
            else:
                elsewhere[dci["level"]] += 1
    return sent, right, elsewhere, false_alarms


def dci_rows(engine, subframes, esn0s, rng, log=print):
    """A row for each Es/N0 and search of SEARCHES: the detection rates by level and
    overall, the DCIs found elsewhere, the false alarms."""
    rows = []
    for esn0 in esn0s:
        llrs = [received_llrs(s.sent, esn0, rng) for s in subframes]
        for mode, min_correlation in SEARCHES:
            start = time.perf_counter()
            found, decoded = search(engine, subframes, llrs, mode, min_correlation)
            sent, right, elsewhere, false_alarms = score(subframes, found)
            total_sent, total_right = sum(sent.values()), sum(right.values())
            row = {"content": "dcis", "esn0_db": esn0, "mode": mode,
                   "min_correlation": min_correlation,
                   "max_false_alarm": floor_of(min_correlation),
                   "subframes": len(subframes),
                   "sent_by_level": [sent[L] for L in LEVELS],
                   "found_by_level": [right[L] for L in LEVELS],
                   "detection_rate_by_level": [right[L] / sent[L] if sent[L] else None
                                               for L in LEVELS],
                   "elsewhere_by_level": [elsewhere[L] for L in LEVELS],
                   "sent": total_sent, "found": total_right,
                   "detection_rate": total_right / total_sent,
                   "decoded_candidates": decoded, "false_alarms": false_alarms,
                   "false_alarms_per_subframe": false_alarms / len(subframes),
                   "false_alarms_per_candidate": false_alarms / decoded,
                   "seconds": time.perf_counter() - start}
            rows.append(log(row))
    return rows


def noise_rows(engine, subframes, rng, log=print):
    """Rows of the searches of the subframes' UEs on noise alone (nothing sent), with
    the re-encoding check at its default and without it."""
    sizes = len(dci_sizes())
    llrs = [received_llrs(np.zeros_like(s.sent), 0.0, rng) for s in subframes]
    rows = []
    for mode in MODES:
        tried = hypotheses(subframes, mode, sizes)
        for min_correlation in (CHECK, CRC_ALONE):
            start = time.perf_counter()
            found, decoded = search(engine, subframes, llrs, mode, min_correlation)
            false_alarms = sum(len(f) for f in found)
            rows.append(log({
                "content": "noise", "mode": mode, "min_correlation": min_correlation,
                "max_false_alarm": floor_of(min_correlation),
                "subframes": len(subframes), "decoded_candidates": decoded,
                "hypotheses": tried, "false_alarms": false_alarms,
                "false_alarms_per_subframe": false_alarms / len(subframes),
                "false_alarms_per_candidate": false_alarms / decoded,
                "false_alarms_per_hypothesis": false_alarms / tried,
                "seconds": time.perf_counter() - start}))
    return rows


def rate(value):
    return f"{value:6.3f}" if value is not None else f"{'-':>6}"


def check_name(min_correlation):
    return "CRC" if min_correlation < 0 else f"{min_correlation:.2f}"


def print_row(row):
    if row["content"] == "dcis":
        print(f"{row['esn0_db']:6.1f}  {row['mode']:<10} "
              f"{check_name(row['min_correlation']):>5} "
              + " ".join(rate(r) for r in row["detection_rate_by_level"])
              + f"  {rate(row['detection_rate'])} {sum(row['elsewhere_by_level']):6d} "
              f"{row['false_alarms']:6d} {row['false_alarms_per_subframe']:9.2e} "
              f"{row['false_alarms_per_candidate']:9.2e}", flush=True)
    else:
        print(f"noise   {row['mode']:<10} {check_name(row['min_correlation']):>5} "
              f"{row['false_alarms']:6d} false alarms in {row['subframes']} subframes: "
              f"{row['false_alarms_per_subframe']:.2e} a subframe, "
              f"{row['false_alarms_per_candidate']:.2e} a decoded candidate, "
              f"{row['false_alarms_per_hypothesis']:.2e} a hypothesis", flush=True)
    return row


def plot(record, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
    except ImportError as e:
        print(f"no plot: matplotlib is not installed ({e})")
        return
    p = record["parameters"]

    def curve(mode, min_correlation, key, i=None):
        rows = [r for r in record["rows"] if r["content"] == "dcis" and
                r["mode"] == mode and r["min_correlation"] == min_correlation]
        return ([r["esn0_db"] for r in rows],
                [r[key] if i is None else r[key][i] for r in rows])
    noise = {(r["mode"], r["min_correlation"]): r for r in record["rows"]
             if r["content"] == "noise"}
    fig, ax = plt.subplots(figsize=(10.5, 5.4))
    fig.subplots_adjust(left=0.07, right=0.64, top=0.9, bottom=0.1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, L in enumerate(LEVELS):
        ax.plot(*curve("ue", CRC_ALONE, "detection_rate_by_level", i), ":",
                color=colors[i])
        ax.plot(*curve("ue", CHECK, "detection_rate_by_level", i), "-o", markersize=3.5,
                color=colors[i], label=f"level {L} ({72 * L} bits)")
    ax.plot(*curve("ue", CHECK, "detection_rate"), "k-", linewidth=2,
            label="all levels, mode ue")
    ax.plot(*curve("exhaustive", CHECK, "detection_rate"), "--", color="0.5",
            linewidth=2, label="all levels, mode exhaustive")
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], color="k", linestyle=":"))
    labels.append("dotted: the CRC alone")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.03, 1.0), fontsize=9)

    ue, crc = noise[("ue", CHECK)], noise[("ue", CRC_ALONE)]
    ex, ex_crc = noise[("exhaustive", CHECK)], noise[("exhaustive", CRC_ALONE)]
    text = (f"False alarms on noise alone\n({ue['subframes']} subframes, "
            f"{p['ues']} RNTIs each):\n\n"
            f"mode ue: {ue['false_alarms_per_subframe']:.2g} a subframe,\n"
            f"  {ue['false_alarms_per_hypothesis']:.2g} a hypothesis;\n"
            f"  the CRC alone {crc['false_alarms_per_subframe']:.2g},\n"
            f"  {crc['false_alarms_per_hypothesis']:.2g} a hypothesis "
            f"(2^-16: {2.0 ** -16:.2g})\n\n"
            f"mode exhaustive, the same RNTIs:\n"
            f"  {ex['false_alarms_per_subframe']:.2g} a subframe "
            f"(the CRC alone {ex_crc['false_alarms_per_subframe']:.2g}):\n"
            f"  every candidate is tried for the\n"
            f"  {BROADCAST_RNTIS} broadcast RNTIs too")
    ax.text(1.03, 0.0, text, transform=ax.transAxes, ha="left", va="bottom",
            fontsize=9, bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.9})
    ax.set_xlabel("Es/N0 (dB)")
    ax.set_ylabel("DCIs found / DCIs sent")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"PDCCH blind search through QPSK/AWGN: 20 MHz FDD, CFI 3 (84 CCEs), "
                 f"a DCI of SI-RNTI and of {p['ues']} UEs a subframe\n{p['subframes']} "
                 f"subframes, re-encoding check {CHECK} and false-alarm floor 1e-4 "
                 f"(search()'s defaults)",
                 fontsize=10, loc="left")
    ax.grid(True, alpha=0.3)
    fig.savefig(path, dpi=100)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--esn0", type=float, nargs="+",
                        default=[-12.0 + i for i in range(23)],
                        help="Es/N0 points in dB (default -12 ... 10, steps of 1)")
    parser.add_argument("--subframes", type=int, default=2000,
                        help="subframes with DCIs, searched at every point "
                        "(default 2000)")
    parser.add_argument("--noise-subframes", type=int, default=20000,
                        help="subframes of noise alone (default 20000)")
    parser.add_argument("--ues", type=int, default=6, help="UEs a subframe (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of DCIs and noise")
    parser.add_argument("--backend", default="cpu", help="control_engine's backend: "
                        "cpu (default), cuda, auto or reference")
    parser.add_argument("--threads", type=int, default=0,
                        help="decoder threads (default 0: one a core)")
    parser.add_argument("--json", metavar="FILE", help="write the results as a record")
    parser.add_argument("--plot", metavar="FILE", help="draw the curves (matplotlib)")
    args = parser.parse_args()
    if args.subframes < 1 or args.noise_subframes < 1 or args.ues < 0:
        parser.error("--subframes and --noise-subframes must be at least 1, --ues 0")

    engine = gputurbo.control_engine(backend=args.backend, threads=args.threads)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    subframes = make_subframes(engine, args.subframes, args.ues, rng)
    print(f"{engine.device}; {n_cce()} CCEs a subframe, DCI sizes {dci_sizes()}, "
          f"{sum(len(s.dcis) for s in subframes)} DCIs in {args.subframes} subframes")
    print(f"{'Es/N0':>6}  {'mode':<10} {'check':>5} "
          + " ".join(f"{'L' + str(L):>6}" for L in LEVELS)
          + f"  {'all':>6} {'elsew.':>6} {'false':>6} {'/subframe':>9} {'/cand.':>9}")
    rows = dci_rows(engine, subframes, args.esn0, rng, print_row)
    noise = make_subframes(engine, args.noise_subframes, args.ues, rng)
    rows += noise_rows(engine, noise, rng, print_row)
    seconds = time.perf_counter() - start
    print(f"{seconds:.1f} s")
    parameters = {"kind": "lte-dci-detection", **CELL, "cell_id": CELL_ID,
                  "n_cce": n_cce(), "ues": args.ues, "ue_formats": list(UE_FORMATS),
                  "si_formats": list(SI_FORMATS),
                  "dci_sizes": dci_sizes(),
                  "levels": list(LEVELS), "channel": "QPSK (bit 0 -> +1/sqrt(2)) over "
                  "AWGN, Es = 1, LLR -2 sqrt(2) y / N0 (positive means 1), scrambled",
                  "backend": engine.backend, "subframes": args.subframes,
                  "noise_subframes": args.noise_subframes, "seed": args.seed,
                  "seconds": seconds}
    record = records.record("examples/lte_dci_blind_search.py", engine.device,
                            parameters, rows)
    if args.json:
        records.write(args.json, record)
        print(f"wrote {args.json}")
    if args.plot:
        plot(record, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
