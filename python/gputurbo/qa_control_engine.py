#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The LTE control channels on numpy arrays: gputurbo.control_engine (encode, decode,
search, pbch_encode, pbch_decode), the DCI formats (dci_size, parse_dci, pack_dci) and
the search spaces (cce_count, common_search_space, ue_search_space, every_candidate,
default_dci_sizes, descramble_pdcch).

The decoding cases run once per backend: cpu, reference, and cuda where this build and
machine can run it (skipped, with the reason, elsewhere)."""

import os
import re
import unittest

import numpy as np
from gnuradio import gr_unittest
from gnuradio import gputurbo

from gputurbo_qa import (DCI_VECTORS_DIR, run_usage_example, seen_inside,
                         skip_class_unless)

SI_RNTI = 0xFFFF
CCE_LLRS = 72


def read_cases():
    """The cases of vectors.txt (format: tests/data/lte-dci/README.md), each a dict of
    kind ("dci" or "bch"), A, mask (the field "rnti": an RNTI or a port mask), E, data
    (A bits) and e (E bits), the bits as uint8 arrays."""
    def bits(hex_digits, n):
        return np.unpackbits(np.frombuffer(bytes.fromhex(hex_digits), np.uint8))[:n]

    with open(os.path.join(DCI_VECTORS_DIR, "vectors.txt")) as f:
        lines = f.read().splitlines()
    cases = []
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0] == "case":
            A, mask, E = int(words[5]), int(words[7]), int(words[9])
            cases.append(dict(number=int(words[1]), kind=words[3], A=A, mask=mask, E=E,
                              data=bits(lines[i + 1].split()[1], A),
                              e=bits(lines[i + 2].split()[1], E)))
    return cases


def noiseless(bits, magnitude=4.0):
    """float32 LLRs in GNU Radio's sign: positive means 1."""
    return np.where(bits == 1, magnitude, -magnitude).astype(np.float32)


def key(d, subframe=None):
    """What identifies a DCI sent or found."""
    return (d["subframe"] if subframe is None else subframe, d["first_cce"], d["level"],
            d["size"], d["rnti"], bytes(d["payload"]), d["space"])


class subframe_maker:
    """Subframes of a cell (n_prb, cfi: N_CCE) with DCIs of several UEs, each at a free
    candidate of its UE-specific space, and one of SI-RNTI in the common space; the other
    CCEs noise (unit Gaussian LLRs) or 0. Each subframe is a dict of search(); each DCI
    sent is added to the list sent, as search() reports it."""

    def __init__(self, engine, rng, sent, n_prb=100, cfi=3):
        self.engine, self.rng, self.sent = engine, rng, sent
        self.region = dict(n_prb=n_prb, cfi=cfi)
        self.n_cce = gputurbo.cce_count(**self.region)
        self.sizes = gputurbo.default_dci_sizes(n_prb=n_prb)

    def subframe(self, index, k, ues, noise):
        """Subframe k (0 ... 9), the index-th of the search."""
        llrs = (self.rng.normal(size=CCE_LLRS * self.n_cce).astype(np.float32) if noise
                else np.zeros(CCE_LLRS * self.n_cce, np.float32))
        used = np.zeros(self.n_cce, bool)
        common = gputurbo.common_search_space(self.n_cce)

        def place(space, rnti):
            free = [c for c in space if not used[c[0]:c[0] + c[1]].any()]
            if not free:
                return
            first, level = free[self.rng.integers(len(free))]
            used[first:first + level] = True
            A = self.sizes[self.rng.integers(len(self.sizes))]
            payload = self.rng.integers(0, 2, A, dtype=np.uint8)
            e = self.engine.encode(payload, rnti, CCE_LLRS * level)
            llrs[CCE_LLRS * first:CCE_LLRS * (first + level)] = noiseless(e)
            # A UE's DCI on a candidate of the common space too is found there.
            space_name = "common" if (first, level) in common else "ue-specific"
            self.sent.append(dict(subframe=index, first_cce=first, level=level, size=A,
                                  rnti=rnti, payload=payload, space=space_name))

        place(common, SI_RNTI)
        rntis = []
        while len(rntis) < ues:
            rnti = 61 + int(self.rng.integers(65000))  # C-RNTIs above the RA-RNTIs
            if rnti not in rntis:
                rntis.append(rnti)
                place(gputurbo.ue_search_space(self.n_cce, rnti, k), rnti)
        return dict(llrs=llrs, subframe=k, rntis=rntis, **self.region)


class decoding_cases:
    """The control channels on one backend (BACKEND)."""
    BACKEND = None

    @classmethod
    def setUpClass(cls):
        skip_class_unless(cls, gputurbo.control_engine)

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def engine(self, **kwargs):
        kwargs.setdefault("backend", self.BACKEND)
        return gputurbo.control_engine(**kwargs)

    def test_001_every_vector_decodes_from_noiseless_llrs(self):
        # The mask comes back: the RNTI of each DCI, the port mask of each MIB; but for
        # the two DCIs sent as fewer bits than they have (E < A + 16), which no decoder
        # can tell from other blocks sent as the same bits. The blocks of one A and E
        # in one call.
        eng = self.engine()
        self.assertEqual(eng.backend, self.BACKEND)
        self.assertTrue(eng.device)
        cases = [c for c in read_cases() if c["E"] >= c["A"] + 16]
        self.assertEqual(len(cases), 52)
        groups = {}
        for c in cases:
            groups.setdefault((c["A"], c["E"]), []).append(c)
        for (A, E), group in groups.items():
            with self.subTest(A=A, E=E):
                payload, masks, passed = eng.decode(
                    np.stack([noiseless(c["e"]) for c in group]), A)
                self.assertEqual(
                    (payload.dtype, payload.shape, masks.dtype, passed.dtype),
                    (np.dtype(np.uint8), (len(group), A), np.dtype(np.uint16),
                     np.dtype(bool)))
                np.testing.assert_array_equal(payload, [c["data"] for c in group])
                np.testing.assert_array_equal(masks, [c["mask"] for c in group])
                self.assertTrue(passed.all())
        # One block, 1-D: no row axis.
        c = cases[0]
        payload, mask, passed = eng.decode(noiseless(c["e"]), c["A"])
        self.assertEqual((payload.shape, mask.shape, passed.shape), ((c["A"],), (), ()))
        self.assertEqual((int(mask), bool(passed)), (c["mask"], True))
        # Erased: no information.
        self.assertFalse(eng.decode(np.zeros(72, np.float32), 27)[2])

    def test_002_search_finds_the_dcis_at_their_ue_specific_candidates(self):
        # Four subframes of a 20 MHz cell (CFI 3, 84 CCEs), five UEs each and SI-RNTI,
        # the other CCEs noise or 0, and one of a 5 MHz cell (CFI 2): every DCI is found
        # where it was sent, with its RNTI, size, payload and space, and nothing else.
        eng = self.engine()
        sent = []
        cell = subframe_maker(eng, self.rng, sent)
        subframes = [cell.subframe(i, k, 5, noise=k % 2 == 1)
                     for i, k in enumerate((0, 3, 7, 9))]
        small = subframe_maker(eng, self.rng, sent, n_prb=25, cfi=2)
        subframes.append(small.subframe(4, 4, 3, noise=False))
        self.assertGreaterEqual(len(sent), 20)
        found = eng.search(subframes)
        self.assertEqual(sorted(map(key, found)), sorted(map(key, sent)))
        for d in found:
            self.assertAlmostEqual(d["correlation"], 1.0, places=5)
            self.assertEqual(d["payload"].dtype, np.uint8)
        self.assertEqual([key(d)[:4] for d in found], sorted(key(d)[:4] for d in found))
        self.assertGreater(eng.decoded_candidates, 0)
        # One subframe from an array, its description from the keywords.
        first = subframes[1]
        alone = eng.search(first["llrs"], subframe=first["subframe"],
                           rntis=np.array(first["rntis"]))
        self.assertEqual(sorted(key(d) for d in alone),
                         sorted(key(d, 0) for d in sent if d["subframe"] == 1))
        # Two of the 20 MHz cell as rows of one array, each at subframe 0.
        rows = np.stack([subframes[0]["llrs"], subframes[0]["llrs"]])
        twice = eng.search(rows, rntis=subframes[0]["rntis"])
        self.assertEqual(sorted(key(d) for d in twice),
                         sorted(key(d, s) for s in (0, 1) for d in sent
                                if d["subframe"] == 0))
        # Exhaustive, the RNTIs listed: the same DCIs, in space "exhaustive"; other
        # detections only where a CRC passes for a listed or broadcast RNTI by chance.
        exhaustive = eng.search(subframes, mode="exhaustive", min_correlation=0.99)
        keys = {key(d) for d in exhaustive}
        for d in sent:
            self.assertIn(key(dict(d, space="exhaustive")), keys)
        self.assertLessEqual(len(exhaustive) - len(sent), 2)

    def test_003_pbch_round_trip(self):
        # A MIB over the four frames of a period, from each cyclic prefix and port
        # count: decoded from the whole period, from one frame at each place, and from
        # two frames that start at the second.
        eng = self.engine()
        for cp, E in (("normal", 1920), ("extended", 1728)):
            for ports in (1, 2, 4):
                mib = dict(n_prb=int(self.rng.choice([6, 15, 25, 50, 75, 100])),
                           duration=("normal", "extended")[self.rng.integers(2)],
                           ng=("1/6", "1/2", "1", "2")[self.rng.integers(4)],
                           sfn_msbs=int(self.rng.integers(256)),
                           spare=int(self.rng.integers(1024)))
                cell_id = int(self.rng.integers(504))
                e = eng.pbch_encode(mib, ports, cell_id, cp=cp)
                self.assertEqual((e.dtype, e.shape), (np.dtype(np.uint8), (E,)))
                llrs = noiseless(e)
                part = E // 4
                windows, parts, offsets = [llrs], [0b1111], [0]
                for o in range(4):
                    w = np.zeros(E, np.float32)
                    w[:part] = llrs[o * part:(o + 1) * part]
                    windows, parts, offsets = windows + [w], parts + [1], offsets + [o]
                w = np.zeros(E, np.float32)
                w[:2 * part] = llrs[part:3 * part]
                windows, parts, offsets = windows + [w], parts + [0b11], offsets + [1]
                with self.subTest(cp=cp, ports=ports):
                    found = eng.pbch_decode(np.stack(windows), cell_id, parts=parts,
                                            cp=cp)
                    self.assertEqual(len(found), len(windows))
                    for r, offset in zip(found, offsets):
                        self.assertEqual(r["mib"], mib)
                        self.assertEqual((r["ports"], r["offset"], r["sfn"]),
                                         (ports, offset, 4 * mib["sfn_msbs"] + offset))
                    # The bits decoded encode the same period.
                    np.testing.assert_array_equal(
                        eng.pbch_encode(found[0]["bits"], ports, cell_id, cp=cp), e)
                    # One window, 1-D: a dict; another cell's sequence: none.
                    one = eng.pbch_decode(llrs, cell_id, cp=cp)
                    self.assertEqual(one["ports"], ports)
                    self.assertIsNone(eng.pbch_decode(llrs, (cell_id + 1) % 504, cp=cp))

    def test_004_gil_released_while_searching(self):
        eng = self.engine()
        cell = subframe_maker(eng, self.rng, [])
        subframes = [cell.subframe(k, k, 16, noise=True) for k in range(10)]
        self.assertTrue(seen_inside(lambda: eng.search(subframes)))


class qa_control_engine_cpu(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cpu"


class qa_control_engine_reference(decoding_cases, gr_unittest.TestCase):
    BACKEND = "reference"


class qa_control_engine_cuda(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cuda"


class qa_control_engine_helpers(gr_unittest.TestCase):

    def setUp(self):
        self.eng = gputurbo.control_engine(backend="cpu")

    def test_001_encode_reproduces_every_vector(self):
        cases = read_cases()
        self.assertEqual(len(cases), 54)
        for c in cases:
            with self.subTest(case=c["number"]):
                e = self.eng.encode(c["data"], c["mask"], c["E"])
                self.assertEqual((e.dtype, e.shape), (np.dtype(np.uint8), (c["E"],)))
                np.testing.assert_array_equal(e, c["e"])
        # A batch, a mask a row or one for every row.
        group = [c for c in cases if (c["kind"], c["A"]) == ("dci", 12)]
        e = self.eng.encode(np.stack([c["data"] for c in group]),
                            np.array([c["mask"] for c in group]), 144)
        self.assertEqual(e.shape, (len(group), 144))
        for row, c in zip(e, group):
            np.testing.assert_array_equal(row, self.eng.encode(c["data"], c["mask"], 144))
        same = self.eng.encode(np.stack([c["data"] for c in group]), 0x4601, 72)
        for row, c in zip(same, group):
            np.testing.assert_array_equal(row, self.eng.encode(c["data"], 17921, 72))

    def test_002_dci_formats(self):
        # 20 MHz FDD, 2 ports: 0/1A 28, 1C 15, 1 39, 2A 48 bits (36.212 v10, srsRAN 4G's).
        self.assertEqual([gputurbo.dci_size(f) for f in ("0", "1A", "1C", "1", "2A")],
                         [28, 28, 15, 39, 48])
        self.assertEqual(gputurbo.default_dci_sizes(), [28, 15, 39, 48])
        self.assertEqual(gputurbo.default_dci_sizes(n_prb=6, antenna_ports=1),
                         [gputurbo.dci_size(f, n_prb=6, antenna_ports=1)
                          for f in ("1A", "1C", "1")])
        self.assertGreater(gputurbo.dci_size("1A", duplex="tdd"), 28)  # HARQ, DAI
        bits = gputurbo.pack_dci({"mcs": 9, "ndi": 1, "harq_process": 5, "tpc": 2},
                                 "1A")
        self.assertEqual((bits.dtype, bits.shape), (np.dtype(np.uint8), (28,)))
        m = gputurbo.parse_dci(bits, "1A")
        self.assertEqual(m["format"], "1A")
        self.assertEqual(list(m["fields"]), ["format_flag", "distributed_vrb",
                                             "rb_assignment", "mcs", "harq_process",
                                             "ndi", "rv", "tpc"])
        self.assertEqual([m["fields"][f] for f in ("format_flag", "mcs", "harq_process",
                                                   "ndi", "tpc")], [1, 9, 5, 1, 2])
        self.assertEqual(m["allocation"], {"start": 0, "length": 1})  # RIV 0
        np.testing.assert_array_equal(gputurbo.pack_dci(m["fields"], "1A"), bits)
        # Format 0 shares 1A's size; its flag tells them apart.
        zero = gputurbo.pack_dci({}, "0")
        flag = gputurbo.parse_dci(zero, "0")["fields"]["format_flag"]
        self.assertEqual((zero[0], flag), (0, 0))
        with self.assertRaisesRegex(ValueError, "format"):
            gputurbo.parse_dci(zero, "1A")

    def test_003_search_spaces(self):
        n_cce = gputurbo.cce_count()
        self.assertEqual(n_cce, 84)
        # 6 PRB, CFI 1: two symbols, 12 + 18 REGs less the PCFICH's 4 and one PHICH
        # group's 3: 23, two CCEs. N_g as a number reads as its name.
        self.assertEqual(gputurbo.cce_count(6, 1, 1, "1/6"), 2)
        self.assertEqual(gputurbo.cce_count(ng=1), 84)
        self.assertEqual(gputurbo.common_search_space(n_cce),
                         [(0, 4), (4, 4), (8, 4), (12, 4), (0, 8), (8, 8)])
        ue = gputurbo.ue_search_space(n_cce, 0x4601, 3)
        self.assertEqual(sorted({level for _, level in ue}), [1, 2, 4, 8])
        self.assertLessEqual(len(ue), 16)
        for first, level in ue:
            self.assertEqual(first % level, 0)
            self.assertLessEqual(first + level, n_cce)
        self.assertEqual(len(gputurbo.every_candidate(n_cce)), 84 + 42 + 21 + 10)
        # Descrambling twice gives the LLRs back; once changes about half of them.
        llrs = np.arange(1, CCE_LLRS * n_cce + 1, dtype=np.float32)
        once = gputurbo.descramble_pdcch(llrs, 7, 331)
        self.assertEqual(once.dtype, np.float32)
        np.testing.assert_array_equal(np.abs(once), llrs)
        self.assertTrue(0.4 < np.mean(once < 0) < 0.6)
        np.testing.assert_array_equal(gputurbo.descramble_pdcch(once, 7, 331), llrs)

    def test_004_a_scrambled_subframe_is_found_once_descrambled(self):
        sent = []
        cell = subframe_maker(self.eng, np.random.default_rng(5), sent)
        sf = cell.subframe(0, 6, 4, noise=True)
        scrambled = gputurbo.descramble_pdcch(sf["llrs"], 6, 101)  # the same sequence
        self.assertEqual(self.eng.search([dict(sf, llrs=scrambled)]), [])
        found = self.eng.search([dict(sf, llrs=gputurbo.descramble_pdcch(scrambled, 6,
                                                                         101))])
        self.assertEqual(sorted(map(key, found)), sorted(map(key, sent)))

    def test_005_usage_example_runs(self):
        # The example of docs/usage.md's "LTE control channel (numpy)" section, as
        # written.
        run_usage_example("### LTE control channel (numpy)")


class qa_control_engine_errors(gr_unittest.TestCase):
    """Bad input raises ValueError naming the argument, its value and the range; the
    engine's checks keep their wording."""

    def setUp(self):
        self.eng = gputurbo.control_engine(backend="cpu")
        self.payload = np.ones(27, np.uint8)

    def check(self, cases):
        for call, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    call()

    def test_001_encode_and_decode(self):
        e, p = self.eng, self.payload
        self.check([
            (lambda: e.encode(p.astype(np.int64), 1, 72), "payload must be uint8 (0 or "
             "1) of shape (n, A), or (A,) for one block; got int64 (27,)"),
            (lambda: e.encode(np.full(27, 2, np.uint8), 1, 72),
             "payload must be 0 or 1; got 2 at flat index 0"),
            (lambda: e.encode(p, 65536, 72),
             "mask=65536 is out of range: use 0 ... 65535 (16 bits)"),
            (lambda: e.encode(np.stack([p, p]), [1, -1], 72),
             "mask[1]=-1 is out of range: use 0 ... 65535 (16 bits)"),
            (lambda: e.encode(np.stack([p, p]), [1, 2, 3], 72), "mask must be an int, or "
             "a 1-D integer array of one a row (2,); got int64 (3,)"),
            (lambda: e.encode(p, 1.5, 72), "mask must be an int"),
            (lambda: e.encode(p, 1, 0), "E=0 is out of range: use 1 or more"),
            (lambda: e.encode(np.zeros((2, 0), np.uint8), 1, 72),
             "A=0 is out of range: use 1 ... 65536"),
            (lambda: e.decode(np.zeros(72), 27), "llrs must be float32 of shape (n, E), "
             "or (E,) for one block; got float64 (72,)"),
            (lambda: e.decode(np.zeros(72, np.float32), 0),
             "A=0 is out of range: use 1 ... 65536"),
            # checked before an (n, A) array is made, and without overflow
            (lambda: e.decode(np.zeros(72, np.float32), 2**31 - 1),
             "A=2147483647 is out of range: use 1 ... 65536"),
        ])

    def test_002_search(self):
        llrs = np.zeros(CCE_LLRS * 84, np.float32)
        e = self.eng
        self.check([
            (lambda: e.search(llrs, mode="all"),
             "unknown mode 'all': use ue, exhaustive"),
            (lambda: e.search(llrs, min_correlation=2), "min_correlation=2"),
            (lambda: e.search(llrs, max_false_alarm=0), "max_false_alarm=0 is out of "
             "range: use 0 < max_false_alarm <= 1"),
            (lambda: gputurbo.false_alarm_floor(27, 3, 1, 1e-4), "level=3"),
            (lambda: e.search(llrs[:-1]), "subframe 0: llr_count=6047 does not fit the "
             "control region: use 6048 (72 N_CCE) ..."),
            (lambda: e.search([llrs, dict(llrs=llrs, cfi=4)]),
             "subframe 1: cfi=4 is out of range"),
            (lambda: e.search(llrs, rntis=[0x4601, 0]),
             "subframe 0: rntis[1]=0 is out of range: use 1 ... 65535"),
            (lambda: e.search(llrs, subframe=10), "subframe 0: subframe=10 is out of "
             "range: use 0 ... 9"),
            (lambda: e.search(llrs, dci_sizes=[27, 0]),
             "subframe 0: dci_sizes[1]=0 is out of range: use 1 ... 560"),
            (lambda: e.search(llrs, dci_sizes=[561]),
             "subframe 0: dci_sizes[0]=561 is out of range: use 1 ... 560"),
            (lambda: e.search(llrs, ng="1/3"), "unknown PHICH"),
            (lambda: e.search(llrs, duplex="hdd"), "unknown duplex"),
            (lambda: e.search(llrs, rntis="x"), "rntis must be a list of ints"),
            (lambda: e.search([dict(llrs=llrs, rnti=5)]), "subframes[0]: unknown key "
             "'rnti': use llrs, n_prb, cfi, antenna_ports, ng, phich_mi, duplex, "
             "subframe, rntis, dci_sizes"),
            (lambda: e.search([dict(subframe=1)]),
             "subframes[0]: a subframe's dict needs \"llrs\""),
            (lambda: e.search([llrs.astype(np.float64)]), "subframes[0]: llrs must be a "
             "1-D float32 array of the subframe's 72 N_CCE LLRs; got float64 (6048,)"),
            (lambda: e.search(np.zeros((2, 2, 2), np.float32)), "subframes must be "
             "float32 of shape (n, L)"),
        ])

    def test_002_false_alarm_floor(self):
        # The search's false-alarm floor (a Chernoff bound; the C++ tests compare it
        # with scipy's): -1 where the CRC alone bounds the false alarms, inf where no
        # correlation does.
        self.assertAlmostEqual(gputurbo.false_alarm_floor(27, 2, 65536, 1e-4),
                               0.8113591831, places=7)
        self.assertEqual(gputurbo.false_alarm_floor(4, 1, 4, 1e-4), -1.0)
        self.assertEqual(gputurbo.false_alarm_floor(43, 1, 65536, 1e-4), float("inf"))

    def test_003_pbch(self):
        e = self.eng
        llrs = np.zeros(1920, np.float32)
        self.check([
            (lambda: e.pbch_decode(llrs[:1728], 1), "llrs must be float32 of shape (n, "
             "1920), or (1920,) for one window, with cp=\"normal\"; got float32 (1728,)"),
            (lambda: e.pbch_decode(llrs, 504),
             "cell_id=504 is out of range: use 0 ... 503"),
            (lambda: e.pbch_decode(np.stack([llrs, llrs]), [1, 2], parts=[1, 6]),
             "parts[1]=6 is out of range: use 1 ... 15 with bit 0 set"),
            (lambda: e.pbch_decode(llrs, 1, cp="short"),
             "unknown cp 'short': use normal, extended"),
            (lambda: e.pbch_encode(dict(n_prb=7), 2, 1), "n_prb=7"),
            (lambda: e.pbch_encode(dict(sfn=3), 2, 1), "mib: unknown key 'sfn': use "
             "n_prb, duration, ng, sfn_msbs, spare"),
            (lambda: e.pbch_encode(dict(duration="long"), 2, 1),
             "unknown duration 'long': use normal, extended"),
            (lambda: e.pbch_encode({}, 3, 1), "ports=3 is not an antenna port count of "
             "the BCH: use 1, 2 or 4"),
            (lambda: e.pbch_encode({}, 2, 504), "cell_id=504 is out of range"),
            (lambda: e.pbch_encode(np.ones(23, np.uint8), 2, 1),
             "mib holds 23 bits: a MIB has 24"),
            (lambda: e.pbch_encode(np.ones(24, np.uint8), 2, 1), "mib: its dl-Bandwidth "
             "bits name no bandwidth"),
        ])

    def test_004_dci_and_parameters(self):
        self.check([
            (lambda: gputurbo.dci_size("3"), "unknown DCI format '3'"),
            (lambda: gputurbo.dci_size("1A", n_prb=111), "n_prb=111 is out of range"),
            (lambda: gputurbo.parse_dci(np.zeros(27, np.uint8), "1A"),
             "a payload of DCI format 1A has 28 bits here: got 27"),
            (lambda: gputurbo.parse_dci(np.zeros(28), "1A"), "bits must be a 1-D uint8 "
             "array of 0/1 values, the payload of a DCI; got float64 (28,)"),
            (lambda: gputurbo.pack_dci({"cqi": 1}, "1A"), "cqi"),
            (lambda: gputurbo.pack_dci({"mcs": -1}, "1A"),
             "fields['mcs']=-1 is out of range: use 0 or more"),
            (lambda: gputurbo.ue_search_space(84, 0, 0), "rnti=0 is out of range"),
            (lambda: gputurbo.descramble_pdcch(np.zeros(10, np.float32), 0, 504),
             "cell_id=504 is out of range: use 0 ... 503"),
            (lambda: gputurbo.control_engine(backend="fpga"), "backend"),
            (lambda: gputurbo.control_engine(backend="cpu", threads=-1), "threads=-1"),
        ])


if __name__ == '__main__':
    unittest.main(verbosity=2)
