#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE transport blocks on numpy arrays: gputurbo.transport_encode,
gputurbo.transport_engine (decode, decode_batch, HARQ soft buffers) and
gputurbo.transport_block.

The decoding cases run once per backend: cpu, reference, and cuda where this build and
machine can run it (skipped, with the reason, elsewhere)."""

import math
import os
import re
import unittest

import numpy as np
from gnuradio import gr_unittest
from gnuradio import gputurbo

from gputurbo_qa import (DLSCH_VECTORS_DIR, run_usage_example, seen_inside,
                         skip_class_unless)


def read_cases():
    """The cases of dlsch.txt (format: tests/data/lte-dlsch/README.md): (fields, data,
    e), the bits as uint8 arrays."""
    def bits(hex_digits, n):
        return np.unpackbits(np.frombuffer(bytes.fromhex(hex_digits.ljust(
            2 * ((len(hex_digits) + 1) // 2), "0")), np.uint8))[:n]

    with open(os.path.join(DLSCH_VECTORS_DIR, "dlsch.txt")) as f:
        lines = f.read().splitlines()
    cases = []
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0] == "case":
            fields = dict(zip(words[2::2], map(int, words[3::2])))
            cases.append((fields, bits(lines[i + 1].split()[1], fields["tbs"]),
                          bits(lines[i + 2].split()[1], fields["G"])))
    return cases


def noiseless(e, magnitude=4.0):
    """float32 LLRs in GNU Radio's sign: positive means 1."""
    return np.where(e == 1, magnitude, -magnitude).astype(np.float32)


def awgn(e, rate, ebn0_db, rng):
    """BPSK (0 -> -1, 1 -> +1) over AWGN at Eb/N0 of that code rate, as LLRs 2y/sigma^2
    (positive means 1)."""
    sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))
    y = (2.0 * e - 1.0) + rng.normal(0.0, sigma, e.shape)
    return (2.0 * y / sigma ** 2).astype(np.float32)


def code_blocks(tbs):
    """C of a transport block (36.212 §5.1.2): blocks of at most 6144 bits, each with
    a CRC-24B when there are several."""
    B = tbs + 24
    return 1 if B <= 6144 else math.ceil(B / (6144 - 24))


class decoding_cases:
    """The transport decoder on one backend (BACKEND)."""
    BACKEND = None

    @classmethod
    def setUpClass(cls):
        skip_class_unless(cls, gputurbo.transport_engine)

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def engine(self, **kwargs):
        kwargs.setdefault("backend", self.BACKEND)
        return gputurbo.transport_engine(**kwargs)

    def random_bits(self, n):
        return self.rng.integers(0, 2, n, dtype=np.uint8)

    def test_001_round_trip_float32_and_int8(self):
        # Noiseless, one and several code blocks, filler bits, Qm 2 and 6, scrambled.
        eng = self.engine()
        self.assertEqual(eng.backend, self.BACKEND)
        self.assertEqual((eng.llr_sign, eng.iterations, eng.early_stop),
                         ("positive-one", 6, True))
        self.assertTrue(eng.device)
        for tbs, G, Qm, c_init in ((40, 120, 2, None), (1000, 1800, 6, 777),
                                   (6500, 14000, 4, None)):
            data = self.random_bits(tbs)
            e = gputurbo.transport_encode(data, G, Qm=Qm, c_init=c_init)
            self.assertEqual((e.dtype, e.shape), (np.dtype(np.uint8), (G,)))
            llrs = noiseless(e)
            for name, x in (("float32", llrs), ("int8", gputurbo.quantize_llrs(llrs))):
                with self.subTest(tbs=tbs, dtype=name):
                    out, crc_ok, iterations = eng.decode(x, tbs, G, Qm=Qm, c_init=c_init)
                    self.assertEqual((out.dtype, out.shape), (np.dtype(np.uint8), (tbs,)))
                    np.testing.assert_array_equal(out, data)
                    self.assertIs(crc_ok, True)
                    self.assertEqual((iterations.dtype, iterations.shape),
                                     (np.dtype(np.int32), (code_blocks(tbs),)))
                    self.assertTrue(np.all((iterations >= 1) & (iterations < 6)),
                                    iterations)  # stopped early on the CRC

    def test_002_llr_sign_and_early_stop(self):
        tbs, G = 1000, 2100
        data = self.random_bits(tbs)
        e = gputurbo.transport_encode(data, G)
        zero = self.engine(llr_sign="positive-zero")
        out, crc_ok, _ = zero.decode(-noiseless(e), tbs, G)
        np.testing.assert_array_equal(out, data)
        self.assertTrue(crc_ok)
        self.assertFalse(zero.decode(noiseless(e), tbs, G)[1])
        eng = self.engine(early_stop=False, iterations=3)
        out, crc_ok, iterations = eng.decode(noiseless(e), tbs, G)
        self.assertTrue(crc_ok)
        np.testing.assert_array_equal(iterations, [3])

    def test_003_harq_combining_and_soft_buffers(self):
        # Code rate 0.67 for each of rv 0 and rv 2 over BPSK/AWGN at Eb/N0 0 dB of that
        # rate: each alone fails, the two combined in a process decode (0 and 200 of 200
        # random trials).
        tbs, G = 2000, 3000
        data = self.random_bits(tbs)
        llrs = {rv: awgn(gputurbo.transport_encode(data, G, rv=rv), tbs / G, 0.0,
                         self.rng) for rv in (0, 2)}
        eng = self.engine()
        for rv in (0, 2):
            self.assertFalse(eng.decode(llrs[rv], tbs, G, rv=rv)[1], f"rv {rv} alone")
        self.assertEqual(eng.harq_processes, 0)
        self.assertFalse(eng.decode(llrs[0], tbs, G, rv=0, harq_process=5)[1])
        self.assertEqual(eng.harq_processes, 1)
        first = eng.soft_buffer(5)
        self.assertEqual((first.dtype, first.shape),
                         (np.dtype(np.int8), (gputurbo.soft_buffer_length(tbs),)))
        self.assertEqual(gputurbo.soft_buffer_length(tbs), 3 * 2048 + 12)
        out, crc_ok, _ = eng.decode(llrs[2], tbs, G, rv=2, harq_process=5,
                                    new_data=False)
        self.assertTrue(crc_ok)
        np.testing.assert_array_equal(out, data)
        combined = eng.soft_buffer(5)
        # A buffer set from a copy combines the same way, in another engine.
        other = self.engine()
        other.set_soft_buffer(9, tbs, first)
        np.testing.assert_array_equal(other.soft_buffer(9), first)
        out, crc_ok, _ = other.decode(llrs[2], tbs, G, rv=2, harq_process=9,
                                      new_data=False)
        self.assertTrue(crc_ok)
        np.testing.assert_array_equal(out, data)
        np.testing.assert_array_equal(other.soft_buffer(9), combined)
        # new_data starts afresh: rv 2 alone again.
        self.assertFalse(other.decode(llrs[2], tbs, G, rv=2, harq_process=9)[1])
        eng.release(5)
        eng.release(5)  # no error
        self.assertEqual(eng.harq_processes, 0)

    def test_004_batch_of_mixed_sizes(self):
        # One call for transport blocks of several sizes, float and int8, scrambled or
        # not, given as transport_block or dict: each as decode() gives it alone.
        formats = [dict(tbs=16, G=276), dict(tbs=6500, G=20000, Qm=4, c_init=99),
                   dict(tbs=1000, G=2400, rv=2), dict(tbs=20000, G=26400, Qm=6),
                   dict(tbs=40, G=132)]
        eng = self.engine()
        blocks, datas = [], []
        for i, f in enumerate(formats):
            data = self.random_bits(f["tbs"])
            e = gputurbo.transport_encode(data, f["G"], **{k: v for k, v in f.items()
                                                            if k not in ("tbs", "G")})
            llrs = awgn(e, 0.5, 5.0, self.rng)  # a few errors, well within reach
            if i % 2:
                llrs = gputurbo.quantize_llrs(llrs)
            block = dict(f, llrs=llrs)
            blocks.append(gputurbo.transport_block(**block) if i % 3 else block)
            datas.append(data)
        results = eng.decode_batch(blocks)
        self.assertEqual(len(results), len(formats))
        for block, data, (out, crc_ok, iterations) in zip(blocks, datas, results):
            kwargs = block if isinstance(block, dict) else dict(
                llrs=block.llrs, tbs=block.tbs, G=block.G, Qm=block.Qm, rv=block.rv,
                c_init=block.c_init)
            with self.subTest(tbs=kwargs["tbs"]):
                self.assertTrue(crc_ok)
                np.testing.assert_array_equal(out, data)
                alone = eng.decode(**kwargs)
                np.testing.assert_array_equal(alone[0], out)
                np.testing.assert_array_equal(alone[2], iterations)
        self.assertEqual(eng.decode_batch([]), [])

    def test_006_low_weight_block_never_passes_as_zeros(self):
        # One 1 in 2000 bits sent in rv 2 alone, noiseless at full confidence: the
        # decoder settles on all zeros (a third of the values contradict them), which
        # pass every CRC; the block must not count as received. Decoded right, with rv 0
        # combined in, it does; all-zero data sent pass.
        tbs, G = 2000, 2400
        d = np.zeros(tbs, np.uint8)
        d[1234] = 1
        for kwargs in (dict(), dict(early_stop=False, iterations=16),
                       dict(algorithm="log-map")):
            eng = self.engine(**kwargs)
            with self.subTest(**kwargs):
                e = gputurbo.transport_encode(d, G, rv=2)
                out, ok, _ = eng.decode((8.0 * (2.0 * e - 1)).astype(np.float32), tbs,
                                        G, rv=2, harq_process=1)
                self.assertFalse(ok and not np.array_equal(out, d), "wrong, with crc_ok")
                e0 = gputurbo.transport_encode(d, G, rv=0)
                out, ok, _ = eng.decode((8.0 * (2.0 * e0 - 1)).astype(np.float32), tbs,
                                        G, rv=0, harq_process=1, new_data=False)
                self.assertTrue(ok)
                np.testing.assert_array_equal(out, d)
                zeros = np.zeros(tbs, np.uint8)
                e0 = gputurbo.transport_encode(zeros, G, rv=0)
                out, ok, _ = eng.decode(awgn(e0, tbs / G, 6.0, self.rng), tbs, G)
                self.assertTrue(ok)
                np.testing.assert_array_equal(out, zeros)

    def test_005_gil_released_while_decoding(self):
        # The main thread sees a worker inside decode_batch() only while it has released
        # the GIL (seen_inside).
        eng = self.engine()
        tbs, G = 6000, 12000
        e = gputurbo.transport_encode(self.random_bits(tbs), G)
        batch = [gputurbo.transport_block(awgn(e, 0.5, 1.0, self.rng), tbs, G)
                 for _ in range(8)]
        self.assertTrue(seen_inside(lambda: eng.decode_batch(batch)))

    def test_007_a_bad_block_changes_no_buffer(self):
        # P = 16 does not divide K = 40, the code block of tbs 16; a soft buffer of 3
        # bits leaves a code block of tbs 1 none to send. Behind a retransmission into
        # process 1, either fails the call before process 1's buffer changes (a retry
        # adds the transmission once).
        eng = self.engine(subblocks=16)
        tbs, G = 1000, 1200  # K = 1024
        data = self.random_bits(tbs)
        llrs = noiseless(gputurbo.transport_encode(data, G))
        self.assertTrue(eng.decode(llrs, tbs, G, harq_process=1)[1])
        before = eng.soft_buffer(1)
        retransmission = gputurbo.transport_block(llrs, tbs, G, harq_process=1,
                                                  new_data=False)
        few = np.ones(132, np.float32)
        for bad, message in (
                (dict(tbs=16), "transport block 1: code block size K=40 of tbs=16: "
                 "subblocks P=16 must divide K=40"),
                (dict(tbs=1, soft_buffer=3), "transport block 1: soft_buffer=3 leaves "
                 "code block 0 (K=40) a circular buffer of N_cb=3 bits with none to "
                 "send")):
            with self.subTest(**bad):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    eng.decode_batch([retransmission,
                                      dict(llrs=few, G=132, harq_process=2, **bad)])
                np.testing.assert_array_equal(eng.soft_buffer(1), before)
                self.assertEqual(eng.harq_processes, 1)
        out, ok, _ = eng.decode_batch([retransmission])[0]
        self.assertTrue(ok)
        np.testing.assert_array_equal(eng.soft_buffer(1),
                                      np.clip(2 * before.astype(int), -127, 127))

    def test_008_harq_processes_stay_within_their_limit(self):
        # By default 4096 processes keep a buffer; beyond, the least recently used go,
        # counted. 4200 processes of tbs 16, 100 a call.
        eng = self.engine()
        tbs, G = 16, 132
        llrs = noiseless(gputurbo.transport_encode(self.random_bits(tbs), G))
        for first in range(0, 4200, 100):
            results = eng.decode_batch([dict(llrs=llrs, tbs=tbs, G=G, harq_process=p)
                                        for p in range(first, first + 100)])
            self.assertTrue(all(ok for _, ok, _ in results))
        self.assertEqual(eng.harq_processes, 4096)
        self.assertEqual((eng.max_harq_processes, eng.dropped_harq_processes), (4096, 104))
        with self.assertRaisesRegex(ValueError, "HARQ process 103 has no soft buffer"):
            eng.soft_buffer(103)
        eng.soft_buffer(104)
        # A limit of 2: process 0, used again, stays; 1 goes. More than 2 in a call:
        # ValueError, nothing changes.
        eng = self.engine(max_harq_processes=2)
        for p, new_data in ((0, True), (1, True), (0, False), (2, True)):
            self.assertTrue(eng.decode(llrs, tbs, G, harq_process=p,
                                       new_data=new_data)[1])
        self.assertEqual((eng.harq_processes, eng.dropped_harq_processes), (2, 1))
        eng.soft_buffer(0)
        with self.assertRaisesRegex(ValueError, re.escape(
                "decode: 3 HARQ processes in one call, more than max_harq_processes=2")):
            eng.decode_batch([dict(llrs=llrs, tbs=tbs, G=G, harq_process=p)
                              for p in (5, 6, 7)])
        self.assertEqual((eng.harq_processes, eng.dropped_harq_processes), (2, 1))


class qa_transport_engine_cpu(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cpu"


class qa_transport_engine_reference(decoding_cases, gr_unittest.TestCase):
    BACKEND = "reference"


class qa_transport_engine_cuda(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cuda"


class qa_transport_engine_helpers(gr_unittest.TestCase):

    def test_001_encode_reproduces_every_vector(self):
        cases = read_cases()
        self.assertEqual(len(cases), 140)
        for fields, data, e in cases:
            got = gputurbo.transport_encode(data, fields["G"], Qm=fields["Qm"],
                                            rv=fields["rv"], tbs=fields["tbs"])
            np.testing.assert_array_equal(got, e, err_msg=str(fields))

    def test_002_transport_block(self):
        llrs = np.zeros(276, np.float32)
        b = gputurbo.transport_block(llrs, 16, 276, rv=3, c_init=5, harq_process=2,
                                     new_data=False)
        self.assertEqual((b.tbs, b.G, b.Qm, b.rv, b.layers, b.soft_buffer, b.c_init,
                          b.harq_process, b.new_data),
                         (16, 276, 2, 3, 1, 0, 5, 2, False))
        self.assertIsNone(gputurbo.transport_block(llrs, 16, 276).c_init)
        self.assertIn("tbs=16, G=276", repr(b))
        # A non-contiguous array is copied.
        wide = np.zeros(552, np.float32)
        self.assertTrue(gputurbo.transport_block(wide[::2], 16, 276).llrs.flags.c_contiguous)

    def test_003_usage_example_runs(self):
        # The example of docs/usage.md's "LTE transport blocks (numpy)" section, as
        # written.
        run_usage_example("### LTE transport blocks (numpy)")


class qa_transport_engine_errors(gr_unittest.TestCase):
    """Bad input raises ValueError saying what is expected; the engine's checks keep
    their wording."""

    def setUp(self):
        self.eng = gputurbo.transport_engine(backend="cpu")
        self.data = np.random.default_rng(1).integers(0, 2, 1000, dtype=np.uint8)
        self.e = gputurbo.transport_encode(self.data, 1200)

    def test_001_llrs(self):
        cases = [
            (np.zeros(1199, np.float32), "llrs holds 1199 values, but G=1200: one LLR "
             "per bit sent"),
            (np.zeros(1200), "llrs must be a 1-D float32 or int8 array of G=1200 "
             "values; got float64 (1200,)"),
            (np.zeros((2, 600), np.float32), "llrs must be a 1-D float32 or int8 array "
             "of G=1200 values; got float32 (2, 600)"),
            ([0.0] * 1200, "got float64 (1200,)"),
        ]
        for llrs, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    self.eng.decode(llrs, 1000, 1200)

    def test_002_formats(self):
        llrs = noiseless(self.e)
        cases = [
            (dict(tbs=0), "tbs=0 is out of range: use 1 ... 391656"),
            (dict(Qm=3), "Qm=3 is not a modulation order of LTE"),
            (dict(rv=4), "rv=4 is out of range: use 0 ... 3"),
            (dict(layers=5), "layers=5 is out of range"),
            (dict(c_init=-1), "c_init=-1 is out of range"),
            # What Python takes for no scrambling is None, not the engine's -1.
            (dict(c_init=2**31), "c_init=2147483648 is out of range: use 0 ... "
             "2147483647, or None (no scrambling)"),
            (dict(soft_buffer=-1), "soft_buffer=-1 is out of range"),
            (dict(Qm=4, G=1198), "G=1198 does not fit tbs=1000: use a multiple of "
             "Qm * layers = 4"),
            (dict(harq_process=-1), "harq_process=-1 is out of range"),
        ]
        for change, message in cases:
            kwargs = dict(llrs=llrs, tbs=1000, G=1200)
            kwargs.update(change)
            if "G" in change:
                kwargs["llrs"] = llrs[:change["G"]]
            with self.subTest(**change):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    self.eng.decode(**kwargs)

    def test_003_harq(self):
        llrs = noiseless(self.e)
        self.assertTrue(self.eng.decode(llrs, 1000, 1200, harq_process=3)[1])
        before = self.eng.soft_buffer(3)
        with self.assertRaisesRegex(ValueError, "a retransmission of tbs=1001 into HARQ "
                                    "process 3, whose buffer holds tbs=1000"):
            self.eng.decode(np.zeros(1200, np.float32), 1001, 1200, harq_process=3,
                            new_data=False)
        with self.assertRaisesRegex(ValueError, "transport block 1: HARQ process 3 "
                                    "appears twice in one call"):
            block = gputurbo.transport_block(llrs, 1000, 1200, harq_process=3,
                                             new_data=False)
            self.eng.decode_batch([block, block])
        np.testing.assert_array_equal(self.eng.soft_buffer(3), before)  # as it was
        with self.assertRaisesRegex(ValueError, "HARQ process 4 has no soft buffer"):
            self.eng.soft_buffer(4)
        with self.assertRaisesRegex(ValueError, f"{before.size - 1} values for tbs=1000, "
                                    f"whose code blocks take {before.size}"):
            self.eng.set_soft_buffer(4, 1000, before[1:])
        with self.assertRaisesRegex(ValueError, re.escape(
                "values must be a 1-D int8 array, as soft_buffer() returns; got float32")):
            self.eng.set_soft_buffer(4, 1000, before.astype(np.float32))
        self.assertEqual(self.eng.harq_processes, 1)

    def test_004_batch_items(self):
        with self.assertRaisesRegex(ValueError, "blocks must be a list of "
                                    "gputurbo.transport_block or of dicts of its "
                                    "arguments; got a tuple"):
            self.eng.decode_batch([(self.e, 1000, 1200)])
        with self.assertRaises(TypeError):  # a dict without G
            self.eng.decode_batch([dict(llrs=noiseless(self.e), tbs=1000)])
        good = dict(llrs=noiseless(self.e), tbs=1000, G=1200)
        with self.assertRaisesRegex(ValueError, re.escape(
                "blocks[1]: llrs holds 1200 values, but G=1202")):
            self.eng.decode_batch([good, dict(good, G=1202)])

    def test_005_encode(self):
        with self.assertRaisesRegex(ValueError, re.escape(
                "data must be a 1-D uint8 array of 0/1 values, the tbs bits of the "
                "transport block; got int64 (1000,)")):
            gputurbo.transport_encode(self.data.astype(np.int64), 1200)
        with self.assertRaisesRegex(ValueError, "data holds 1000 bits, but tbs=999"):
            gputurbo.transport_encode(self.data, 1200, tbs=999)
        bad = self.data.copy()
        bad[7] = 2
        with self.assertRaisesRegex(ValueError, "data must be 0 or 1; got 2 at flat "
                                    "index 7"):
            gputurbo.transport_encode(bad, 1200)
        with self.assertRaisesRegex(ValueError, "G=1201 does not fit tbs=1000"):
            gputurbo.transport_encode(self.data, 1201)
        with self.assertRaisesRegex(ValueError, re.escape(
                "c_init=2147483648 is out of range: use 0 ... 2147483647, or None (no "
                "scrambling)")):
            gputurbo.transport_encode(self.data, 1200, c_init=2**31)
        with self.assertRaisesRegex(ValueError, "tbs=0 is out of range"):
            gputurbo.soft_buffer_length(0)

    def test_006_parameters(self):
        cases = [
            (dict(llr_sign="positive"), "unknown llr_sign 'positive'"),
            (dict(iterations=0), "iterations=0 is out of range"),
            (dict(algorithm="bcjr"), "algorithm"),
            (dict(int8_scale=0.0), "int8_scale"),
            (dict(backend="fpga"), "backend"),
            (dict(max_harq_processes=0), re.escape(
                "max_harq_processes=0 is out of range: use 1 ... 2147483647")),
        ]
        for kwargs, pattern in cases:
            with self.subTest(**kwargs):
                kwargs.setdefault("backend", "cpu")
                with self.assertRaisesRegex(ValueError, pattern):
                    gputurbo.transport_engine(**kwargs)


if __name__ == '__main__':
    unittest.main(verbosity=2)
