#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""pdcch_decoder_pdu: subframes built here, with DCIs for several UEs at candidates of
their UE-specific spaces and an SI-RNTI one in the common space, come out as exactly
the DCIs placed (place, level, size, RNTI, payload), searched many at a time; scrambled
LLRs with "descramble"; bad PDUs are answered, in their place, with the reason; a
flowgraph of a message strobe through the block.

The subframes are coded here (36.212 §5.3.3): the CRC-16 and the tail-biting code of the
package gputurbo, and rate matching for convolutional codes (§5.1.4.2) written below
from the specification and checked against the independent vectors of
tests/data/lte-dci; the candidates' places from 36.213 §9.1.1 and the CCEs of a control
region from 36.211 §6.8.1, written here too."""

import math
import os
import time
from fractions import Fraction

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo

from gputurbo_qa import BACKEND, DCI_VECTORS_DIR, gold_sequence, pdu, require_backend

SI_RNTI = 0xFFFF
# 36.212 Table 5.1.4-2: the sub-block interleaver's column permutation.
COLUMNS = [1, 17, 9, 25, 5, 21, 13, 29, 3, 19, 11, 27, 7, 23, 15, 31,
           0, 16, 8, 24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30]
CODE = gputurbo.conv_code("lte")
# The DCI sizes of formats 0/1A, 1C, 1 and 2A (36.212 v10 §5.3.3.1, the values
# tests/lte/test_dci.cc holds): what the block tries by default.
SIZES = {(100, "fdd", 2): {"0/1A": 28, "1C": 15, "1": 39, "2A": 48},
         (50, "fdd", 2): {"0/1A": 27, "1C": 13, "1": 31, "2A": 41},
         (6, "tdd", 4): {"0/1A": 23, "1C": 8, "1": 22, "2A": 33}}
# The formats of each of those sizes in its cell ("formats" of a DCI found).
FORMATS = {(100, "fdd", 2): {28: ["0", "1A"], 15: ["1C"], 39: ["1"], 48: ["2A", "2B"]},
           (50, "fdd", 2): {27: ["0", "1A"], 13: ["1C"], 31: ["1"], 41: ["2A", "2B"]},
           (6, "tdd", 4): {23: ["0", "1A"], 8: ["1C"], 22: ["1"], 33: ["2A"]}}


def bit_collection(D):
    """w of §5.1.4.2.1 for D bits a stream: for each of its 3 K_Π places the index of
    the coded bit there (coded[3k + s] = d^(s)_k), or -1 for a dummy bit."""
    rows = -(-D // 32)
    dummies = 32 * rows - D
    w = []
    for s in range(3):
        y = [-1] * dummies + [3 * k + s for k in range(D)]
        w += [y[32 * r + c] for c in COLUMNS for r in range(rows)]
    return w


def rate_match(coded, E):
    """The E bits sent of a block's coded bits (§5.1.4.2.2): w read round from its
    start, dummy bits skipped."""
    sent = [i for i in bit_collection(len(coded) // 3) if i >= 0]
    return np.array([coded[sent[e % len(sent)]] for e in range(E)], dtype=np.uint8)


def encode_control(payload, mask, E):
    """A DCI (or MIB) sent as E bits: CRC-16 masked by the RNTI (MSB first), tail-biting
    K = 7 r1/3 code, rate matching."""
    mask_bits = np.array([(mask >> (15 - i)) & 1 for i in range(16)], dtype=np.uint8)
    block = np.concatenate([payload, gputurbo.crc(payload, "crc16") ^ mask_bits])
    return rate_match(CODE.encode(block, "tail-biting"), E)


class Cell:
    """A control region (36.211 §6.8.1, normal cyclic prefix and PHICH duration)."""

    def __init__(self, n_prb=100, cfi=3, antenna_ports=2, ng="1", phich_mi=1,
                 duplex="fdd"):
        self.n_prb, self.cfi, self.antenna_ports = n_prb, cfi, antenna_ports
        self.ng, self.phich_mi, self.duplex = ng, phich_mi, duplex
        symbols = cfi + 1 if n_prb <= 10 else cfi
        # REGs a resource block: 2 in symbol 0, 3 in the others (2 in symbol 1 with
        # 4 ports); the PCFICH takes 4, each PHICH group 3.
        regs = sum(n_prb * (2 if l == 0 or (l == 1 and antenna_ports == 4) else 3)
                   for l in range(symbols))
        groups = math.ceil(Fraction(ng) * n_prb / 8) * phich_mi
        self.regs = regs - 4 - 3 * groups
        self.n_cce = self.regs // 9

    def sizes(self):
        return SIZES[(self.n_prb, self.duplex, self.antenna_ports)]

    def formats(self, size):
        return FORMATS[(self.n_prb, self.duplex, self.antenna_ports)][size]

    def meta(self):
        return dict(n_prb=self.n_prb, cfi=self.cfi, antenna_ports=self.antenna_ports,
                    ng=self.ng, phich_mi=self.phich_mi, duplex=self.duplex)


def common_space(n_cce):
    """36.213 §9.1.1: levels 4 and 8 on CCEs 0 ... 15, those that fit."""
    return [(L * m, L) for L, M in ((4, 4), (8, 2)) for m in range(M)
            if L * (m + 1) <= min(n_cce, 16)]


def ue_space(n_cce, rnti, subframe):
    """36.213 §9.1.1: Y_k of the RNTI, then levels 1, 2, 4, 8 with 6, 6, 2, 2
    candidates (one that repeats an earlier one of its level left out)."""
    y = rnti
    for _ in range(subframe + 1):
        y = 39827 * y % 65537
    out = []
    for L, M in ((1, 6), (2, 6), (4, 2), (8, 2)):
        places = n_cce // L
        for m in range(M if places else 0):
            c = (L * ((y + m) % places), L)
            if c not in out:
                out.append(c)
    return out


class Subframe:
    """One subframe's PDCCH LLRs (72 a CCE, 0 where no DCI is) and the DCIs placed."""

    def __init__(self, cell, subframe, rng):
        self.cell, self.subframe, self.rng = cell, subframe, rng
        self.llrs = np.zeros(72 * cell.n_cce, dtype=np.float32)
        self.used = np.zeros(cell.n_cce, dtype=bool)
        self.dcis = []

    def place(self, rnti, size, candidates, levels):
        """Puts a random DCI of `size` bits for `rnti` at the first free candidate
        among `candidates` of the first of `levels` that has one, as a scheduler
        would; returns it, (first_cce, level, size, rnti, payload)."""
        for first, L in sorted(candidates, key=lambda c: list(levels).index(c[1])
                               if c[1] in levels else len(levels)):
            if L in levels and not self.used[first:first + L].any():
                payload = self.rng.integers(0, 2, size, dtype=np.uint8)
                e = encode_control(payload, rnti, 72 * L)
                self.llrs[72 * first:72 * (first + L)] = 4.0 * (2.0 * e - 1.0)
                self.used[first:first + L] = True
                dci = (first, L, size, rnti, payload)
                self.dcis.append(dci)
                return dci
        raise AssertionError(f"no free candidate of levels {levels} for RNTI {rnti}")

    def space(self, dci, mode="ue"):
        """The space the block reports for a DCI placed (a listed RNTI's DCI on a
        candidate of both spaces is common)."""
        if mode == "exhaustive":
            return "exhaustive"
        common = (dci[0], dci[1]) in common_space(self.cell.n_cce)
        return "common" if common else "ue-specific"

    def expected(self, mode="ue"):
        return sorted((first, L, size, rnti, self.space((first, L), mode),
                       tuple(self.cell.formats(size)), tuple(payload))
                      for first, L, size, rnti, payload in self.dcis)


def found(meta):
    """The DCIs of an output's metadata as expected() lists them."""
    return sorted((d["first_cce"], d["level"], d["size"], d["rnti"], d["space"],
                   tuple(d["formats"]), tuple(int(b) for b in d["payload"]))
                  for d in meta["dcis"])


def run_block(block, messages, dcis=0, timeout=120.0):
    """Posts the messages to the block in one burst and runs until as many come out of
    "pdus" and `dcis` of "dcis"; returns both as lists of (meta dict, uint8 data)."""
    tb = gr.top_block()
    sinks = {port: blocks.message_debug() for port in ("pdus", "dcis")}
    for port, sink in sinks.items():
        tb.msg_connect((block, port), (sink, "store"))
    for m in messages:
        block.to_basic_block()._post(pmt.intern("pdus"), m)
    tb.start()
    deadline = time.time() + timeout
    while ((sinks["pdus"].num_messages() < len(messages) or
            sinks["dcis"].num_messages() < dcis) and time.time() < deadline):
        time.sleep(0.001)
    tb.stop()
    tb.wait()
    return [[(pmt.to_python(pmt.car(m)),
              np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8))
             for m in (sink.get_message(i) for i in range(sink.num_messages()))]
            for sink in sinks.values()]


def decoder(**kwargs):
    kwargs.setdefault("backend", BACKEND)
    return gputurbo.pdcch_decoder_pdu(**kwargs)


class qa_pdcch_decoder_pdu(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def subframe(self, cell, k, rntis, levels=(1, 2, 4, 8)):
        """A subframe k of the cell with an SI-RNTI DCI (format 1A) in the common space
        (level 8 where it fits, else 4) and a DCI for each RNTI in its UE-specific
        space (sizes and levels in turn, another level where that one has no free
        candidate)."""
        sf = Subframe(cell, k, self.rng)
        sf.place(SI_RNTI, cell.sizes()["0/1A"], common_space(cell.n_cce), (8, 4))
        sizes = list(cell.sizes().values())
        for i, rnti in enumerate(rntis):
            level = levels[i % len(levels)]
            sf.place(rnti, sizes[i % len(sizes)], ue_space(cell.n_cce, rnti, k),
                     [level] + [L for L in (1, 2, 4, 8) if L != level])
        return sf

    def test_001_rate_matching_is_the_vectors(self):
        # The coding written here against the independent vectors: every DCI and MIB
        # sent bit for bit.
        with open(os.path.join(DCI_VECTORS_DIR, "vectors.txt")) as f:
            lines = [line.split() for line in f if line.strip()]
        cases = list(zip(lines[0::3], lines[1::3], lines[2::3]))
        self.assertEqual(len(cases), 54)
        for head, data, e in cases:
            fields = dict(zip(head[2::2], head[3::2]))
            A, mask, E = int(fields["bits"]), int(fields["rnti"]), int(fields["E"])
            bits = np.unpackbits(np.frombuffer(bytes.fromhex(data[1]), np.uint8))[:A]
            sent = np.unpackbits(np.frombuffer(bytes.fromhex(e[1]), np.uint8))[:E]
            with self.subTest(case=head[1]):
                np.testing.assert_array_equal(encode_control(bits, mask, E), sent)
        # And the region's CCEs here against what the block reads: 20 MHz CFI 3 with
        # N_g = 1 has 84 (757 REGs).
        self.assertEqual((Cell().n_cce, Cell().regs), (84, 757))

    def test_002_noiseless_subframes_give_the_dcis_placed(self):
        # A burst of subframes of three cells (20 MHz FDD, 10 MHz FDD CFI 2, 1.4 MHz TDD
        # with 4 ports): each PDU's DCIs exactly, on both ports, in fewer calls than
        # PDUs.
        cells = [Cell(), Cell(n_prb=50, cfi=2, ng="1/6"),
                 Cell(n_prb=6, cfi=3, antenna_ports=4, ng="1/2", phich_mi=2,
                      duplex="tdd")]
        rntis = [0x1001, 0x2002, 0x3003, 0x4004, 0x5005]
        subframes, messages = [], []
        for i in range(12):
            cell = cells[i % 3]
            k = i % 10
            listed = rntis[:4] if cell.n_prb > 6 else rntis[:1]
            sf = self.subframe(cell, k, listed)
            subframes.append(sf)
            # A listed RNTI without a DCI, and the number of ng as a number once.
            meta = dict(cell.meta(), subframe=k, rntis=listed + [0x5005], seq=i)
            if i == 1:
                meta["ng"] = 1 / 6
            messages.append(pdu(sf.llrs, **meta))
        block = decoder()
        total = sum(len(sf.dcis) for sf in subframes)
        outputs, dcis = run_block(block, messages, dcis=total)
        self.assertEqual(len(outputs), len(messages))
        for i, (sf, (meta, data)) in enumerate(zip(subframes, outputs)):
            with self.subTest(subframe=i):
                self.assertEqual(meta["seq"], i)
                self.assertNotIn("error", meta)
                self.assertEqual(len(data), 0)
                self.assertEqual(found(meta), sf.expected())
                for d in meta["dcis"]:
                    self.assertGreater(d["correlation"], 0.99)
        # The "dcis" port: each DCI a PDU of its payload, in the same order.
        self.assertEqual(len(dcis), total)
        listed = [(meta["seq"], d) for meta, _ in outputs for d in meta["dcis"]]
        for (meta, bits), (seq, d) in zip(dcis, listed):
            self.assertEqual(meta["seq"], seq)
            self.assertNotIn("payload", meta)
            for key in ("first_cce", "level", "size", "rnti", "space", "formats"):
                self.assertEqual(meta[key], d[key], key)
            np.testing.assert_array_equal(bits, d["payload"])
        self.assertEqual(block.decoded_pdus(), len(messages))
        self.assertEqual(block.found_dcis(), total)
        self.assertEqual(block.failed_pdus(), 0)
        self.assertLess(block.batches(), len(messages))
        self.assertGreater(block.decoded_candidates(), 0)

    def test_003_block_defaults_rntis_and_dci_sizes(self):
        # A PDU that gives only its subframe and RNTIs takes the block's cell; metadata
        # overrides it; an RNTI not listed is not searched for, nor a size that
        # dci_sizes leaves out; RNTIs as a tuple or a NumPy array too.
        cell = Cell(n_prb=50, cfi=2, ng="1/6")
        sf = self.subframe(cell, 7, [0x0101, 0x0202])
        size_1a = cell.sizes()["0/1A"]
        messages = [pdu(sf.llrs, subframe=7, rntis=[0x0101, 0x0202]),
                    pdu(sf.llrs, subframe=7, rntis=(0x0101,)),
                    pdu(sf.llrs, subframe=7, rntis=np.array([0x0101, 0x0202], np.int32),
                        dci_sizes=[size_1a])]
        outputs, _ = run_block(decoder(n_prb=50, cfi=2, ng="1/6"), messages)
        self.assertEqual(found(outputs[0][0]), sf.expected())
        self.assertEqual(found(outputs[1][0]),
                         [d for d in sf.expected() if d[3] != 0x0202])
        self.assertEqual(found(outputs[2][0]),
                         [d for d in sf.expected() if d[2] == size_1a])
        # A 20 MHz block: the PDU's length does not fit its cell, unless the metadata
        # gives the PDU's.
        wrong = decoder()
        outputs, _ = run_block(wrong, [messages[0],
                                       pdu(sf.llrs, subframe=7, rntis=[0x0101, 0x0202],
                                           **cell.meta())])
        self.assertIn("the control region of n_prb=100", outputs[0][0]["error"])
        self.assertEqual(found(outputs[1][0]), sf.expected())

    def test_004_scrambled_llrs(self):
        # LLRs sent scrambled by the sequence of cell 301 and subframe 4: found with
        # descramble (the metadata's or the block's), not without.
        cell = Cell()
        sf = self.subframe(cell, 4, [0x1234, 0x4321])
        c = gold_sequence(4 * 512 + 301, len(sf.llrs))
        scrambled = np.where(c == 1, -sf.llrs, sf.llrs)
        meta = dict(subframe=4, rntis=[0x1234, 0x4321], cell_id=301)
        outputs, _ = run_block(decoder(), [pdu(scrambled, descramble=True, **meta),
                                           pdu(scrambled, **meta),
                                           pdu(sf.llrs, descramble=False, **meta)])
        self.assertEqual(found(outputs[0][0]), sf.expected())
        self.assertEqual(found(outputs[1][0]), [])
        self.assertEqual(found(outputs[2][0]), sf.expected())
        outputs, _ = run_block(decoder(descramble=True, cell_id=301),
                               [pdu(scrambled, subframe=4, rntis=[0x1234, 0x4321])])
        self.assertEqual(found(outputs[0][0]), sf.expected())

    def test_005_exhaustive_search(self):
        # Every CCE-aligned candidate, the RNTI read from the CRC: with RNTIs listed,
        # exactly their DCIs and the broadcast one; with none, any RNTI, and the
        # re-encoding check (0.99) keeps the DCIs placed among what it lets through.
        cell = Cell()
        sf = self.subframe(cell, 9, [0x0A0A, 0x0B0B, 0x0C0C])
        block = decoder(mode="exhaustive", min_correlation=0.99)
        self.assertEqual(block.mode(), "exhaustive")
        outputs, _ = run_block(block, [
            pdu(sf.llrs, subframe=9, rntis=[0x0A0A, 0x0B0B, 0x0C0C]),
            pdu(sf.llrs, subframe=9)])
        self.assertEqual(found(outputs[0][0]), sf.expected("exhaustive"))
        any_rnti = found(outputs[1][0])
        for dci in sf.expected("exhaustive"):
            self.assertIn(dci, any_rnti)

    def test_006_bad_pdus_are_answered_in_place(self):
        cell = Cell()
        sf = self.subframe(cell, 2, [0x0777])
        good = dict(subframe=2, rntis=[0x0777])
        d = pmt.make_dict()
        cases = [
            (pdu(sf.llrs[:-80], **good), "the PDU has 5968 LLRs; the control region of "
             "n_prb=100, cfi=3, antenna_ports=2, ng=1, phich_mi=1 has 84 CCEs: give "
             "6048 (72 N_CCE) ... 6056 (8 N_REG) LLRs"),
            (pdu(np.zeros(6057, np.float32), **good), "the PDU has 6057 LLRs"),
            (pdu(sf.llrs, rntis=[0x0777]), "the metadata has no subframe"),
            (pdu(sf.llrs, subframe=10), "metadata subframe=10 is out of range: use "
             "0 ... 9"),
            (pdu(sf.llrs, subframe=2, cfi=4), "metadata cfi=4 is out of range: use "
             "1 ... 3"),
            (pdu(sf.llrs, subframe=2, cfi="3"), "metadata cfi=\"3\" is not an integer "
             "but a string"),
            (pdu(sf.llrs, subframe=2, antenna_ports=3), "metadata antenna_ports=3 is "
             "out of range: use 1, 2 or 4"),
            (pdu(sf.llrs, subframe=2, ng="1/3"), "metadata ng=\"1/3\" is not a choice: "
             "use one of 1/6, 1/2, 1, 2"),
            (pdu(sf.llrs, subframe=2, ng=0.25), "metadata ng=0.25 is no PHICH resource"),
            (pdu(sf.llrs, subframe=2, duplex=1), "metadata duplex=1 is not a string but "
             "a long: use one of fdd, tdd"),
            (pdu(sf.llrs, subframe=2, cell_id=504), "metadata cell_id=504 is out of "
             "range: use 0 ... 503"),
            (pdu(sf.llrs, subframe=2, descramble="yes"), "metadata descramble=\"yes\" "
             "is not a flag"),
            (pdu(sf.llrs, subframe=2, rntis=[5, 0]), "metadata rntis[1]=0 is out of "
             "range: use 1 ... 65535"),
            (pdu(sf.llrs, subframe=2, rntis="5"), "metadata rntis=\"5\" is not a list "
             "of integers"),
            (pdu(sf.llrs, subframe=2, rntis=[5, 2.5]), "metadata rntis holds 2.5, which "
             "is not an integer but a double"),
            (pdu(sf.llrs, subframe=2, dci_sizes=[28, 0]), "metadata dci_sizes[1]=0 is "
             "out of range: use 1 ... 560"),
            (pdu(sf.llrs, subframe=2, dci_sizes=[65536]), "metadata dci_sizes[0]=65536 "
             "is out of range: use 1 ... 560"),
            (pmt.cons(d, pmt.init_u8vector(4, [0, 1, 0, 1])), "the PDU's data is not "
             "an f32vector of LLRs"),
            (pmt.cons(pmt.from_long(3), pmt.init_f32vector(1, [0.0])), "the PDU's "
             "metadata is not a dict"),
            (pmt.intern("hello"), "not a PDU: expected a pair of a metadata dict and an "
             "f32vector of LLRs"),
        ]
        messages = [pdu(sf.llrs, seq=-1, **good)]
        for i, (message, _) in enumerate(cases):
            messages.append(message)
            messages.append(pdu(sf.llrs, seq=i, **good))
        block = decoder()
        good = len(cases) + 1
        outputs, dcis = run_block(block, messages, dcis=good * len(sf.dcis))
        self.assertEqual(len(outputs), len(messages))
        for i, (_, reason) in enumerate(cases):
            with self.subTest(case=reason):
                bad, after = outputs[2 * i + 1], outputs[2 * i + 2]
                self.assertIn(reason, bad[0].get("error", "(no error)"))
                self.assertNotIn("dcis", bad[0])
                self.assertEqual(len(bad[1]), 0)
                self.assertEqual(after[0]["seq"], i)
                self.assertEqual(found(after[0]), sf.expected())
        self.assertEqual(block.failed_pdus(), len(cases))
        self.assertEqual(block.decoded_pdus(), good)
        self.assertEqual(len(dcis), good * len(sf.dcis))

    def test_007_parameters(self):
        # Bad arguments name the parameter and its range; the threshold can change
        # while the block runs; max_batch bounds the subframes a call searches.
        for kwargs, message in ((dict(cfi=4), "cfi=4 is out of range: use 1 ... 3"),
                                (dict(antenna_ports=3), "antenna_ports=3 is out of "
                                 "range: use 1, 2 or 4"),
                                (dict(min_correlation=1.5), "min_correlation=1.5 is out "
                                 "of range"),
                                (dict(max_false_alarm=0.0), "max_false_alarm=0 is out of "
                                 "range: use 0 < max_false_alarm <= 1"),
                                (dict(mode="fast"), "unknown mode 'fast': use one of ue, "
                                 "exhaustive"),
                                (dict(ng="3"), "unknown ng '3'"),
                                (dict(cell_id=-1), "cell_id=-1 is out of range"),
                                (dict(max_batch=-1), "max_batch")):
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(ValueError, message):
                    decoder(**kwargs)
        block = decoder(max_batch=3)
        self.assertEqual(block.max_batch(), 3)
        self.assertAlmostEqual(block.min_correlation(), 0.6)
        block.set_min_correlation(0.95)
        self.assertEqual(block.min_correlation(), 0.95)
        with self.assertRaisesRegex(ValueError, "min_correlation=-2 is out of range"):
            block.set_min_correlation(-2)
        self.assertEqual(block.max_false_alarm(), 1e-4)
        block.set_max_false_alarm(1.0)
        self.assertEqual(block.max_false_alarm(), 1.0)
        with self.assertRaisesRegex(ValueError, "max_false_alarm=2 is out of range"):
            block.set_max_false_alarm(2)
        sf = self.subframe(Cell(), 0, [0x0123])
        messages = [pdu(sf.llrs, subframe=0, rntis=[0x0123], seq=i) for i in range(8)]
        outputs, _ = run_block(block, messages)
        self.assertEqual([m["seq"] for m, _ in outputs], list(range(8)))
        for meta, _ in outputs:
            self.assertEqual(found(meta), sf.expected())
        self.assertGreaterEqual(block.batches(), 3)

    def test_008_flowgraph_from_a_message_strobe(self):
        # A message strobe sends one subframe again and again through the block: every
        # answer holds its DCIs; the DCIs' own PDUs go to a second sink.
        sf = self.subframe(Cell(), 5, [0x0F0F, 0x0E0E])
        message = pdu(sf.llrs, subframe=5, rntis=[0x0F0F, 0x0E0E])
        tb = gr.top_block()
        strobe = blocks.message_strobe(message, 20)
        block = decoder()
        subframes, dcis = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect((strobe, "strobe"), (block, "pdus"))
        tb.msg_connect((block, "pdus"), (subframes, "store"))
        tb.msg_connect((block, "dcis"), (dcis, "store"))
        tb.start()
        deadline = time.time() + 60
        while subframes.num_messages() < 5 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        n = subframes.num_messages()
        self.assertGreaterEqual(n, 5)
        for i in range(n):
            self.assertEqual(found(pmt.to_python(pmt.car(subframes.get_message(i)))),
                             sf.expected())
        self.assertGreaterEqual(dcis.num_messages(), len(sf.dcis) * (n - 1))


if __name__ == '__main__':
    require_backend(gputurbo.pdcch_decoder_pdu)
    gr_unittest.run(qa_pdcch_decoder_pdu)
