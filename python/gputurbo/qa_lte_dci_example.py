#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""examples/lte_dci_blind_search.py, run small: at a high Es/N0 every DCI is found where
it was sent and mode ue reports nothing else; at a very low one none is; on noise alone
a candidate passes the CRC with about 2^-16 for each RNTI it is checked against, and
the re-encoding check cuts that. The example's bookkeeping against hand-made cases.
Seeds fixed: the figures below are what they gave."""

import os
import sys

import numpy as np
from gnuradio import gr_unittest
from gnuradio import gputurbo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples"))
import lte_dci_blind_search as example  # noqa: E402


def quiet(row):
    return row


def row_of(rows, mode, min_correlation):
    row, = [r for r in rows
            if r["mode"] == mode and r["min_correlation"] == min_correlation]
    return row


class qa_lte_dci_example(gr_unittest.TestCase):

    def setUp(self):
        self.engine = gputurbo.control_engine(backend="cpu")

    def test_001_high_snr_every_dci_found_and_no_false_alarm(self):
        # 40 subframes at 20 dB, 280 DCIs (41, 79, 92 and 68 of levels 1, 2, 4, 8): all
        # found. The CCEs left empty carry noise: mode ue gives no false alarm (0.3
        # expected with the check, 1.3 without); exhaustive with the same RNTIs, which
        # tries every candidate for 68 of them, 14 (0.5 a subframe).
        rng = np.random.default_rng(1)
        subframes = example.make_subframes(self.engine, 40, 6, rng)
        rows = example.dci_rows(self.engine, subframes, [20.0], rng, log=quiet)
        for row in rows:
            self.assertEqual(row["found"], row["sent"], row)
            self.assertEqual(row["elsewhere_by_level"], [0, 0, 0, 0], row)
            self.assertTrue(all(n > 10 for n in row["sent_by_level"]), row)
        self.assertEqual(row_of(rows, "ue", example.CHECK)["false_alarms"], 0)
        self.assertLessEqual(row_of(rows, "ue", example.CRC_ALONE)["false_alarms"], 3)
        self.assertLess(row_of(rows, "exhaustive", example.CHECK)["false_alarms"], 40)

    def test_002_very_low_snr_few_found(self):
        # At -15 dB not even level 8 (rate 0.08) decodes a DCI: none of 280 found.
        rng = np.random.default_rng(2)
        subframes = example.make_subframes(self.engine, 40, 6, rng)
        for row in example.dci_rows(self.engine, subframes, [-15.0], rng, log=quiet):
            self.assertLessEqual(row["detection_rate"], 0.02, row)
            if row["min_correlation"] == example.CHECK:
                self.assertEqual(row["found"], 0, row)

    def test_003_false_alarms_on_noise(self):
        # 1000 subframes of noise, 6 RNTIs each: mode ue tries 2000 RNTI hypotheses a
        # subframe, and the CRC alone passes 33 (1.65e-5 a hypothesis; 2^-16 = 1.53e-5),
        # the check 7; exhaustive with the same RNTIs tries 42 704 a subframe, 697 pass
        # (1.63e-5), 506 with the check.
        rng = np.random.default_rng(3)
        subframes = example.make_subframes(self.engine, 1000, 6, rng)
        rows = example.noise_rows(self.engine, subframes, rng, log=quiet)
        for mode in example.MODES:
            crc = row_of(rows, mode, example.CRC_ALONE)
            checked = row_of(rows, mode, example.CHECK)
            self.assertGreater(crc["false_alarms_per_hypothesis"], 0.5 * 2 ** -16, crc)
            self.assertLess(crc["false_alarms_per_hypothesis"], 2.0 * 2 ** -16, crc)
            self.assertLess(checked["false_alarms"], crc["false_alarms"], checked)
        ue = row_of(rows, "ue", example.CHECK)
        self.assertLessEqual(ue["false_alarms"], row_of(rows, "ue", example.CRC_ALONE)
                             ["false_alarms"] / 2, ue)
        self.assertLess(ue["false_alarms_per_subframe"], 0.02, ue)

    def test_004_the_hypotheses_walk_the_candidates_decoded(self):
        # rntis_tried() holds each candidate the engine decodes, once a DCI size.
        rng = np.random.default_rng(4)
        subframes = example.make_subframes(self.engine, 20, 6, rng)
        sizes = len(example.dci_sizes())
        llrs = [example.received_llrs(np.zeros_like(s.sent), 0.0, rng) for s in subframes]
        for mode in example.MODES:
            _, decoded = example.search(self.engine, subframes, llrs, mode, example.CHECK)
            self.assertEqual(decoded, sizes * sum(len(example.rntis_tried(s, mode))
                                                  for s in subframes), mode)
        s = subframes[0]
        common = set(gputurbo.common_search_space(example.n_cce()))
        for c, rntis in example.rntis_tried(s, "ue").items():
            ue = sum(c in gputurbo.ue_search_space(example.n_cce(), r, s.k)
                     for r in s.rntis)
            self.assertEqual(rntis, 68 if c in common else ue, c)
        self.assertEqual(set(example.rntis_tried(s, "exhaustive").values()), {68})

    def test_005_score_tells_found_elsewhere_and_false_alarms(self):
        payload = bytes([1, 0, 1])
        s = example.subframe(0, [100], [
            {"first_cce": 8, "level": 4, "size": 3, "rnti": 100, "payload": payload},
            {"first_cce": 0, "level": 8, "size": 3, "rnti": 0xFFFF, "payload": payload}],
            np.zeros(72 * example.n_cce(), dtype=np.float32))

        def found(first_cce, level, rnti, bits=(1, 0, 1)):
            return {"first_cce": first_cce, "level": level, "size": 3, "rnti": rnti,
                    "payload": np.array(bits, dtype=np.uint8)}
        sent, right, elsewhere, false_alarms = example.score([s], [[
            found(8, 4, 100), found(0, 4, 0xFFFF), found(16, 1, 100, (0, 0, 1)),
            found(20, 2, 101)]])
        self.assertEqual(sent, {1: 0, 2: 0, 4: 1, 8: 1})
        self.assertEqual(right, {1: 0, 2: 0, 4: 1, 8: 0})
        self.assertEqual(elsewhere, {1: 0, 2: 0, 4: 0, 8: 1})
        self.assertEqual(false_alarms, 2)


if __name__ == "__main__":
    gr_unittest.run(qa_lte_dci_example)
