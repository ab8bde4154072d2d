#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#

import os

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import TURBO_VECTORS_DIR


def read_vectors(K):
    """{tag: {block: bits}} of one KNNNN.txt file."""
    records = {}
    with open(os.path.join(TURBO_VECTORS_DIR, f"K{K:04d}.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            tag, block, bits = line.split()
            records.setdefault(tag, {})[int(block)] = np.array(
                [int(b) for b in bits], dtype=np.uint8)
    return records


def encode(K, bits, layout="interleaved", tags=()):
    """Runs bits through a turbo_encoder; returns (output, encoder, output tags)."""
    tb = gr.top_block()
    src = blocks.vector_source_b(list(bits), False, 1, list(tags))
    enc = gputurbo.turbo_encoder(K, layout)
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), enc, snk.tags()


class qa_turbo_encoder(gr_unittest.TestCase):

    def test_000_version(self):
        # The release, as the apps and the JSON records give it.
        self.assertRegex(gputurbo.__version__, r"^\d+\.\d+\.\d+$")

    def test_001_srsran_vectors(self):
        for K in (40, 256, 1008, 1920, 3200, 6144):
            v = read_vectors(K)
            blocks_ = sorted(v["info"])
            self.assertGreaterEqual(len(blocks_), 3)
            info = np.concatenate([v["info"][b] for b in blocks_])
            out, enc, _ = encode(K, info)
            expected = np.concatenate([v["enc"][b] for b in blocks_])
            self.assertEqual(len(out), len(blocks_) * (3 * K + 12))
            np.testing.assert_array_equal(out, expected, err_msg=f"K={K}")
            self.assertEqual(enc.partial_items(), 0)

            # "streams" layout: d0 | d1 | d2 per codeword.
            out, _, _ = encode(K, info, "streams")
            expected = np.concatenate(
                [np.concatenate([v["d0"][b], v["d1"][b], v["d2"][b]]) for b in blocks_])
            np.testing.assert_array_equal(out, expected, err_msg=f"K={K} streams")

    def test_002_random_codewords(self):
        # Many codewords in one stream: each is the systematic bits, two parities and
        # the tail, and equals the same block encoded alone.
        K, count = 512, 40
        rng = np.random.default_rng(7)
        bits = rng.integers(0, 2, K * count, dtype=np.uint8)
        out, enc, _ = encode(K, bits)
        self.assertEqual(enc.block_size(), K)
        self.assertEqual(enc.codeword_length(), 3 * K + 12)
        self.assertEqual(len(out), count * (3 * K + 12))
        codewords = out.reshape(count, 3 * K + 12)
        np.testing.assert_array_equal(codewords[:, 0:3 * K:3].ravel(), bits)
        for i in (0, 17, count - 1):
            alone, _, _ = encode(K, bits[i * K:(i + 1) * K])
            np.testing.assert_array_equal(codewords[i], alone)
        self.assertTrue(np.any(codewords[:, 1:3 * K:3]))  # parity is not all zero

    def test_003_tags_follow_the_rate(self):
        # A tag on the first bit of block i lands on the first bit of codeword i.
        K = 40
        bits = np.zeros(5 * K, dtype=np.uint8)
        tags = [gr.python_to_tag((i * K, pmt.intern("block"), pmt.from_long(i),
                                  pmt.intern("src"))) for i in range(5)]
        _, _, out_tags = encode(K, bits, tags=tags)
        self.assertEqual([t.offset for t in out_tags],
                         [i * (3 * K + 12) for i in range(5)])

    def test_004_partial_codeword(self):
        K = 40
        rng = np.random.default_rng(1)
        bits = rng.integers(0, 2, 3 * K + 13, dtype=np.uint8)
        out, enc, _ = encode(K, bits)
        self.assertEqual(enc.partial_items(), 13)
        self.assertEqual(len(out), 3 * (3 * K + 12))
        whole, _, _ = encode(K, bits[:3 * K])
        np.testing.assert_array_equal(out, whole)

    def test_005_bad_parameters(self):
        for K in (0, 39, 41, 6145, 6208):
            with self.assertRaisesRegex(ValueError, "block size"):
                gputurbo.turbo_encoder(K)
        with self.assertRaisesRegex(ValueError, "layout"):
            gputurbo.turbo_encoder(40, "triples")


if __name__ == '__main__':
    gr_unittest.run(qa_turbo_encoder)
