#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""examples/trellis_pccc.py, the gr-trellis baseline: same code as ours, decodes it."""

import os
import sys
import unittest

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo

try:
    from gnuradio import trellis
except ImportError:  # gr-trellis is an optional GNU Radio component
    trellis = None

if trellis is not None:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "examples"))
    import trellis_pccc  # noqa: E402


def encode(K, bits):
    tb = gr.top_block()
    sink = blocks.vector_sink_b()
    tb.connect(blocks.vector_source_b(bits.tolist()), gputurbo.turbo_encoder(K), sink)
    tb.run()
    return np.array(sink.data(), dtype=np.uint8)


@unittest.skipIf(trellis is None, "gr-trellis is not installed")
class qa_trellis_pccc(gr_unittest.TestCase):

    def test_001_fsm_and_interleaver_match_our_encoder(self):
        rng = np.random.default_rng(1)
        for K in (40, 1024, 6144):
            n_cw = 3
            bits = rng.integers(0, 2, n_cw * K, dtype=np.uint8)
            ours = encode(K, bits).reshape(n_cw, 3 * K + 12)
            # Data steps: gr-trellis's own PCCC encoder, symbols o1 * 4 + o2 = 2x + z each.
            fsm = trellis_pccc.lte_fsm(tail=False)
            tb = gr.top_block()
            sink = blocks.vector_sink_b()
            tb.connect(blocks.vector_source_b(bits.tolist()),
                       trellis.pccc_encoder_bb(fsm, 0, fsm, 0,
                                               trellis_pccc.qpp_interleaver(K, tail=False), K),
                       sink)
            tb.run()
            symbols = np.array(sink.data()).reshape(n_cw, K)
            o1, o2 = symbols // 4, symbols % 4
            np.testing.assert_array_equal(o1 >> 1, ours[:, 0:3 * K:3], f"d0, K={K}")
            np.testing.assert_array_equal(o1 & 1, ours[:, 1:3 * K:3], f"d1, K={K}")
            np.testing.assert_array_equal(o2 & 1, ours[:, 2:3 * K:3], f"d2, K={K}")
            # Tail steps: the tail FSM's input 2 from each encoder's final state.
            fsm = trellis_pccc.lte_fsm(tail=True)
            ns, os_ = fsm.NS(), fsm.OS()
            pi = trellis_pccc.qpp_permutation(K)
            for c in range(n_cw):
                tail = []
                for order in (range(K), pi):
                    s = 0
                    for i in order:
                        s = ns[3 * s + bits[c * K + i]]
                    for _ in range(trellis_pccc.TAIL_STEPS):
                        tail += [(os_[3 * s + 2] >> 1) & 1, os_[3 * s + 2] & 1]
                        s = ns[3 * s + 2]
                    self.assertEqual(s, 0)
                np.testing.assert_array_equal(tail, ours[c, 3 * K:], f"tail, K={K}")

    def test_002_decodes_clean_codewords(self):
        # Several codewords in one run: the chain must keep codeword boundaries.
        rng = np.random.default_rng(2)
        for K, tail, siso in ((40, True, trellis.TRELLIS_MIN_SUM),
                              (1024, False, trellis.TRELLIS_MIN_SUM),
                              (6144, True, trellis.TRELLIS_MIN_SUM),
                              (512, True, trellis.TRELLIS_SUM_PRODUCT)):
            bits = rng.integers(0, 2, 5 * K, dtype=np.uint8)
            llrs = 4.0 * (1.0 - 2.0 * encode(K, bits).astype(np.float32))
            decoded, _ = trellis_pccc.decode(
                trellis_pccc.lte_pccc_decoder(K, 4, siso, tail), llrs, K)
            np.testing.assert_array_equal(decoded, bits, f"K={K}, tail={tail}")

    def test_003_tail_llrs_matter(self):
        # With tail=True the tail LLRs reach the trellis: wrong ones (all saying 0) at a
        # strong SNR cost bits, where the same codewords decode cleanly with the real tail.
        rng = np.random.default_rng(3)
        K = 40
        bits = rng.integers(0, 2, 50 * K, dtype=np.uint8)
        llrs = 4.0 * (1.0 - 2.0 * encode(K, bits).astype(np.float32))
        wrong = llrs.reshape(50, -1).copy()
        wrong[:, 3 * K:] = 40.0
        decode = trellis_pccc.decode
        good, _ = decode(trellis_pccc.lte_pccc_decoder(K, 4), llrs, K)
        bad, _ = decode(trellis_pccc.lte_pccc_decoder(K, 4), wrong.ravel(), K)
        np.testing.assert_array_equal(good, bits)
        self.assertGreater(np.count_nonzero(bad != bits), 0)

    def test_004_run_throughput(self):
        K = 40
        bits = np.random.default_rng(4).integers(0, 2, 4 * K, dtype=np.uint8)
        llrs = 4.0 * (1.0 - 2.0 * encode(K, bits).astype(np.float32))
        rate = trellis_pccc.run_throughput(
            lambda: trellis_pccc.lte_pccc_decoder(K, 2), llrs, K, seconds=0.3, warmup=0.2)
        self.assertGreater(rate, 0.0)
        with self.assertRaises(ValueError):
            trellis_pccc.run_throughput(
                lambda: trellis_pccc.lte_pccc_decoder(K, 2), llrs[:-1], K, 0.1, 0.1)


if __name__ == "__main__":
    gr_unittest.run(qa_trellis_pccc)
