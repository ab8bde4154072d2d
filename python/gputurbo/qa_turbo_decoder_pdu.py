#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#

import math
import os
import re
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import (BACKEND, PDU_PORT, fresh_rng, require_backend,
                         run_pdus as run_block)


def encode(bits, K):
    """Codewords of turbo_encoder for K-bit blocks, as a (count, 3K+12) array."""
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, gputurbo.turbo_encoder(K), snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8).reshape(-1, 3 * K + 12)


def noisy_llrs(code, ebn0_db, rng):
    """BPSK (0 -> +1) over AWGN at Eb/N0 for rate K/(3K+12), as LLRs 2y/sigma^2."""
    K = (code.shape[-1] - 12) // 3
    rate = K / code.shape[-1]
    sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))
    y = (2.0 * code - 1.0) + rng.normal(0.0, sigma, code.shape)
    return (2.0 * y / sigma ** 2).astype(np.float32)


def pdu(llrs, **meta):
    d = pmt.make_dict()
    for key, value in meta.items():
        value = value if isinstance(value, type(pmt.PMT_NIL)) else pmt.to_pmt(value)
        d = pmt.dict_add(d, pmt.intern(key), value)
    return pmt.cons(d, pmt.init_f32vector(len(llrs), llrs))


def run_pdus(messages, timeout=60.0, **kwargs):
    """Posts the messages to a turbo_decoder_pdu, runs until as many come out; returns
    (outputs as (meta dict, bits), decoder, seconds from start to the last output)."""
    kwargs.setdefault("backend", BACKEND)
    dec = gputurbo.turbo_decoder_pdu(**kwargs)
    outputs, seconds = run_block(dec, messages, timeout)
    return outputs, dec, seconds


class gnuradio_log:
    """What GNU Radio's logger writes (from C++, to file descriptor 1) inside the block."""

    def __enter__(self):
        sys.stdout.flush()
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(1)
        os.dup2(self.file.fileno(), 1)
        return self

    def text(self):
        return os.pread(self.file.fileno(), 1 << 24, 0).decode(errors="replace")

    def __exit__(self, *exc):
        os.dup2(self.saved, 1)
        os.close(self.saved)
        self.final = self.text()
        self.file.close()
        sys.stdout.write(self.final)


class qa_turbo_decoder_pdu(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(7)

    def make_pdus(self, sizes, counts, ebn0_db):
        """Random PDUs of the given block sizes, shuffled; returns (messages, bits)."""
        per_size = {}
        for K, count in zip(sizes, counts):
            bits = self.rng.integers(0, 2, (count, K), dtype=np.uint8)
            per_size[K] = (bits, noisy_llrs(encode(bits.ravel(), K), ebn0_db, self.rng))
        order = [(K, i) for K, count in zip(sizes, counts) for i in range(count)]
        self.rng.shuffle(order)
        messages, sent = [], []
        for seq, (K, i) in enumerate(order):
            bits, llrs = per_size[K]
            messages.append(pdu(llrs[i], seq=seq))
            sent.append(bits[i])
        return messages, sent

    def check_decoded(self, outputs, sent, iterations=6):
        self.assertEqual(len(outputs), len(sent))
        for seq, ((meta, bits), expected) in enumerate(zip(outputs, sent)):
            self.assertEqual(meta["seq"], seq)  # arrival order, metadata kept
            self.assertEqual(meta["K"], len(expected))
            self.assertEqual(meta["iterations"], iterations)
            self.assertTrue(meta["passed"])
            self.assertNotIn("error", meta)
            np.testing.assert_array_equal(bits, expected, err_msg=f"PDU {seq}")

    def test_001_mixed_sizes_decode_in_few_batches(self):
        sizes = (40, 512, 1056, 4032, 6144)
        messages, sent = self.make_pdus(sizes, (30, 20, 20, 10, 10), ebn0_db=4.0)
        before = gputurbo.engine_objects()
        outputs, dec, _ = run_pdus(messages, max_batch=64)
        # One engine decodes every block size (on one GPU, or the CPU).
        self.assertEqual(gputurbo.engine_objects() - before, 1)
        self.check_decoded(outputs, sent)
        self.assertEqual(dec.decoded_pdus(), len(sent))
        self.assertEqual(dec.failed_pdus(), 0)
        self.assertEqual(dec.batches(), 2)  # 64 + 26 PDUs, queued together
        self.assertEqual(dec.backend(), BACKEND)

    def test_002_K_from_metadata(self):
        K = 256
        bits = self.rng.integers(0, 2, (3, K), dtype=np.uint8)
        llrs = (2.0 * encode(bits.ravel(), K) - 1.0).astype(np.float32) * 4.0
        # K as a long, a uint64 or a whole double (Python's float): the integer it
        # holds; a fraction is refused, the message naming its type.
        outputs, _, _ = run_pdus([pdu(llrs[0], K=K), pdu(llrs[1], K=pmt.from_uint64(K)),
                                  pdu(llrs[2], K=float(K)), pdu(llrs[2], K=264),
                                  pdu(llrs[2], K=255.5)])
        self.assertEqual(len(outputs), 5)
        for i in range(3):
            np.testing.assert_array_equal(outputs[i][1], bits[i])
            self.assertEqual(outputs[i][0]["K"], K)
        meta, data = outputs[3]  # K=264 in the metadata, but 3*256+12 LLRs
        self.assertFalse(meta["passed"])
        self.assertIn("3K+12=804", meta["error"])
        self.assertEqual(len(data), 0)
        self.assertIn("metadata K=255.5 is not an integer but a double: use a long, or a "
                      "uint64 or a double of a whole value", outputs[4][0]["error"])

    def test_003_bad_pdus_are_answered_never_dropped(self):
        K = 40
        bits = self.rng.integers(0, 2, (2, K), dtype=np.uint8)
        llrs = (2.0 * encode(bits.ravel(), K) - 1.0).astype(np.float32) * 4.0
        d = pmt.make_dict()
        bad = [
            (pmt.intern("hello"), "not a PDU"),
            (pmt.cons(pmt.from_long(3), pmt.init_f32vector(132, llrs[0])), "not a dict"),
            (pmt.cons(d, pmt.init_u8vector(132, [0] * 132)), "not an f32vector"),
            (pmt.cons(d, pmt.init_f32vector(131, llrs[0][:131])), "131 LLRs"),
            (pdu(np.zeros(3 * 41 + 12, np.float32)), "135 LLRs"),
            (pdu(llrs[0], K=41), "K=41"),
            (pdu(llrs[0], K="forty"), "K="),
            (pdu(np.zeros(3 * 6208 + 12, np.float32)), "LLRs are not 3K+12"),
        ]
        messages = [pdu(llrs[0], seq=0)] + [m for m, _ in bad] + [pdu(llrs[1], seq=1)]
        outputs, dec, _ = run_pdus(messages)
        self.assertEqual(len(outputs), len(messages))
        np.testing.assert_array_equal(outputs[0][1], bits[0])
        np.testing.assert_array_equal(outputs[-1][1], bits[1])
        for (meta, data), (_, reason) in zip(outputs[1:-1], bad):
            self.assertFalse(meta["passed"])
            self.assertIn(reason, meta["error"])
            self.assertEqual(len(data), 0)
        self.assertEqual((dec.decoded_pdus(), dec.failed_pdus()), (2, len(bad)))

    def test_004_parameters(self):
        for kwargs, pattern in ((dict(max_batch=-1), "max_batch"),
                                (dict(max_batch=131073), "max_batch"),
                                (dict(iterations=0), "iterations"),
                                (dict(algorithm="bcjr"), "algorithm"),
                                (dict(subblocks=-1), "subblocks"),
                                (dict(subblocks=6145), "subblocks"),
                                (dict(guard_window=0), "guard_window"),
                                # settings no LTE block size fits
                                (dict(subblocks=6143), "divides none"),
                                (dict(subblocks=8, guard_window=769), "guard_window"),
                                (dict(subblocks=3072, guard="dstw", guard_window=3),
                                 "guard_window"),
                                (dict(arithmetic="int4"), "arithmetic"),
                                (dict(backend="fpga"), "backend")):
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(ValueError, pattern):
                    gputurbo.turbo_decoder_pdu(**kwargs)
        # ... and the largest that fit (K = 6144), or a window the guard does not use.
        for kwargs in (dict(subblocks=8, guard_window=768),
                       dict(subblocks=3072, guard_window=2),
                       dict(subblocks=8, guard="pivi", guard_window=769)):
            gputurbo.turbo_decoder_pdu(backend=BACKEND, **kwargs)
        dec = gputurbo.turbo_decoder_pdu(backend=BACKEND, iterations=4)
        self.assertEqual(dec.max_batch(), 1024 if BACKEND == "cuda" else 64)
        dec.set_iterations(9)
        self.assertEqual(dec.iterations(), 9)
        with self.assertRaisesRegex(ValueError, "iterations"):
            dec.set_iterations(33)
        self.assertEqual(dec.iterations(), 9)

        # An explicit P that does not divide a PDU's K fails that PDU only.
        K = 40
        bits = self.rng.integers(0, 2, (1, K), dtype=np.uint8)
        llrs = (2.0 * encode(bits.ravel(), K) - 1.0).astype(np.float32) * 4.0
        outputs, _, _ = run_pdus([pdu(llrs[0])], subblocks=3)
        self.assertIn("subblocks", outputs[0][0]["error"])
        outputs, _, _ = run_pdus([pdu(llrs[0])], subblocks=4, iterations=3)
        np.testing.assert_array_equal(outputs[0][1], bits[0])
        self.assertEqual(outputs[0][0]["iterations"], 3)

    def test_007_failures_are_counted_and_logged_sparingly(self):
        # 25 bad PDUs in a row: the first ten are logged one by one, the others summed
        # up (at stop at the latest); the count stays exact.
        K = 40
        bits = self.rng.integers(0, 2, (1, K), dtype=np.uint8)
        llrs = (1.0 - 2.0 * encode(bits.ravel(), K)).astype(np.float32) * 4.0
        bad = pdu(llrs[0][:131])
        tb = gr.top_block()
        dec = gputurbo.turbo_decoder_pdu(backend=BACKEND)
        sink = blocks.message_debug(True)
        tb.msg_connect((dec, "pdus"), (sink, "store"))

        def post(messages, total):
            for m in messages:
                dec.to_basic_block()._post(PDU_PORT, m)
            deadline = time.time() + 60
            while sink.num_messages() < total and time.time() < deadline:
                time.sleep(0.001)
            self.assertEqual(sink.num_messages(), total)

        def lines(text):
            return [line for line in text.splitlines() if "PDU not decoded" in line]

        with gnuradio_log() as log:
            tb.start()
            post([bad] * 12, 12)
            # 12 failures: ten lines, the 11th and 12th held back for a summary.
            self.assertEqual(len(lines(log.text())), 10)
            time.sleep(1.1)
            # A second later the next failure brings the summary at once.
            post([bad], 13)
            self.assertIn("3 more since the last report, 13 in all",
                          lines(log.text())[-1])
            post([bad] * 12 + [pdu(llrs[0])], 26)
            tb.stop()
            tb.wait()
        self.assertEqual((dec.decoded_pdus(), dec.failed_pdus()), (1, 25))
        logged = lines(log.final)
        summaries = [int(re.search(r"(\d+) more since", line).group(1))
                     for line in logged if "more since" in line]
        self.assertEqual(len(logged) - len(summaries), 10)
        self.assertEqual(sum(summaries), 15)
        self.assertIn("25 in all", logged[-1])
        self.assertIn("131 LLRs", logged[-1])

    def test_006_failed_stop_rule_is_reported(self):
        # CRC24B stop on blocks that carry no CRC: each PDU runs every iteration and
        # comes back with its bits and "passed" False (unless its last 24 bits happen to
        # check, probability 2^-24 per PDU).
        messages, sent = self.make_pdus((40, 1024), (6, 6), ebn0_db=4.0)
        outputs, dec, _ = run_pdus(messages, early_stop="crc24b", iterations=3)
        self.assertEqual(len(outputs), len(sent))
        for (meta, bits), expected in zip(outputs, sent):
            self.assertNotIn("error", meta)
            self.assertIs(meta["passed"], False)
            self.assertEqual(meta["iterations"], 3)
            self.assertEqual(len(bits), len(expected))
        self.assertEqual(dec.decoded_pdus(), len(sent))

    def test_005_ten_thousand_pdus_of_five_sizes(self):
        sizes = (40, 256, 1024, 3200, 6144)
        counts = (2000,) * 5
        messages, sent = self.make_pdus(sizes, counts, ebn0_db=4.0)
        outputs, dec, seconds = run_pdus(messages)
        self.check_decoded(outputs, sent)
        info_bits = sum(K * c for K, c in zip(sizes, counts))
        print(f"\n{len(messages)} PDUs of K in {sizes} on {dec.backend()} "
              f"({dec.device()}): {seconds:.3f} s, {len(messages) / seconds:.0f} PDUs/s, "
              f"{info_bits / seconds / 1e6:.1f} Mbit/s of information bits, "
              f"{dec.batches()} batches")

    def test_008_soft_output(self):
        # output="llr": each PDU's data is an f32vector of K floats whose signs are the
        # bits of output="bits" (positive-one: > 0 is 1), with the same metadata;
        # "extrinsic" is llr less the systematic input (int16 reads it in steps of
        # 1/16); positive-zero negates them; a PDU that fails gets an empty f32vector.
        self.rng = fresh_rng()
        messages, sent = self.make_pdus((40, 256, 1024), (6, 6, 6), ebn0_db=0.0)
        llrs = [np.array(pmt.f32vector_elements(pmt.cdr(m)), np.float32)
                for m in messages]
        bad = pdu(llrs[0][:131], seq=len(messages))
        negated = [pdu(-x, seq=i) for i, x in enumerate(llrs)]
        channel_errors = sum(np.sum((x[0:3 * len(b):3] > 0) != b)
                             for x, b in zip(llrs, sent))
        self.assertGreater(channel_errors, 0.05 * sum(map(len, sent)))
        for arithmetic in ("float32", "int16"):
            with self.subTest(arithmetic=arithmetic):
                kwargs = dict(arithmetic=arithmetic, early_stop="hard")
                hard, _, _ = run_pdus(messages + [bad], **kwargs)
                app, _, _ = run_pdus(messages + [bad], output="llr", **kwargs)
                extrinsic, _, _ = run_pdus(messages, output="extrinsic", **kwargs)
                zero, _, _ = run_pdus(negated, output="llr", llr_sign="positive-zero",
                                      **kwargs)
                self.assertEqual([m for m, _ in app], [m for m, _ in hard])
                self.assertEqual([m for m, _ in extrinsic], [m for m, _ in hard[:-1]])
                step = 1 / 32 if arithmetic == "int16" else 1e-4
                for i, x in enumerate(llrs):
                    K = len(sent[i])
                    values = app[i][1]
                    self.assertEqual((values.dtype, len(values)), (np.float32, K))
                    np.testing.assert_array_equal((values > 0).astype(np.uint8),
                                                  hard[i][1], err_msg=f"PDU {i}")
                    np.testing.assert_allclose(extrinsic[i][1], values - x[0:3 * K:3],
                                               rtol=0,
                                               atol=step + 1e-4 * np.abs(values).max())
                    np.testing.assert_array_equal(zero[i][1], -values)
                meta, data = app[-1]
                self.assertIn("131 LLRs", meta["error"])
                self.assertEqual((data.dtype, len(data)), (np.float32, 0))
        with self.assertRaisesRegex(ValueError, "unknown output 'soft': use one of bits, "
                                    "llr, extrinsic"):
            gputurbo.turbo_decoder_pdu(output="soft")

    def test_009_int8_soft_output(self):
        # output_type="int8": each PDU's data is an s8vector, the float values quantised
        # at int8_scale (quantize_llrs()), with the same metadata; a PDU that fails gets
        # an empty s8vector.
        self.rng = fresh_rng()
        messages, sent = self.make_pdus((40, 256, 1024), (4, 4, 4), ebn0_db=0.5)
        llrs = np.array(pmt.f32vector_elements(pmt.cdr(messages[0])), np.float32)
        messages.append(pdu(llrs[:131], seq=len(messages)))
        for output in ("llr", "extrinsic"):
            with self.subTest(output=output):
                kwargs = dict(early_stop="hard", output=output, int8_scale=2.0)
                values, _, _ = run_pdus(messages, **kwargs)
                q, _, _ = run_pdus(messages, output_type="int8", **kwargs)
                self.assertEqual([m for m, _ in q], [m for m, _ in values])
                for i in range(len(sent)):
                    self.assertEqual((q[i][1].dtype, q[i][1].size),
                                     (np.int8, len(sent[i])))
                    np.testing.assert_array_equal(
                        q[i][1], gputurbo.quantize_llrs(values[i][1], 2.0),
                        err_msg=f"PDU {i}")
                meta, data = q[-1]
                self.assertIn("131 LLRs", meta["error"])
                self.assertEqual((data.dtype, data.size), (np.int8, 0))


if __name__ == '__main__':
    require_backend(gputurbo.turbo_decoder_pdu)
    gr_unittest.run(qa_turbo_decoder_pdu)
