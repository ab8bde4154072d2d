#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The numpy API: gputurbo.turbo_engine, gputurbo.decode and the LTE helpers.

The decoding cases run once per backend: on the CPU, and on CUDA where this build and
machine can run it (skipped, with the reason, elsewhere)."""

import math
import os
import re
import threading
import unittest

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import (TURBO_VECTORS_DIR, run_usage_example, seen_inside,
                         skip_class_unless)


def codeword_length(K):
    return 3 * K + 12


def noise_sigma(K, ebn0_db):
    """Noise std per real dimension for unit-energy BPSK at Eb/N0, rate K/(3K+12)."""
    rate = K / codeword_length(K)
    return math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))


def gnuradio_llrs(code, ebn0_db=None, K=None, rng=None):
    """BPSK with GNU Radio's sign (bit 0 -> -1, bit 1 -> +1): float32 LLRs that are
    positive for 1. Without noise, +-4; with AWGN at Eb/N0, 2y/sigma^2."""
    x = 2.0 * code.astype(np.float32) - 1.0
    if ebn0_db is None:
        return (4.0 * x).astype(np.float32)
    sigma = noise_sigma(K, ebn0_db)
    y = x + rng.normal(0.0, sigma, x.shape)
    return (2.0 * y / sigma ** 2).astype(np.float32)


def to_int8(llrs, scale):
    return np.clip(np.round(llrs * scale), -127, 127).astype(np.int8)


def half_saturating_scale(values):
    """An int8_scale at which about half of the values saturate."""
    return float(127.0 / np.median(np.abs(values)))


def expect_int8_soft(test, q, values, scale, both_ranges=False):
    """q is the int8 soft output of the float32 values at int8_scale scale:
    round(L * scale), halves away from zero, saturated to +-127 (quantize_llrs()), so
    that q / scale is within half a step of L, with its sign, where it is not
    saturated; with both_ranges, some values are saturated and some not."""
    test.assertEqual((q.dtype, q.shape), (np.dtype(np.int8), values.shape))
    np.testing.assert_array_equal(q, gputurbo.quantize_llrs(values, scale))
    inside = np.abs(q) < 127
    if both_ranges:
        test.assertTrue(inside.any() and not inside.all())
    np.testing.assert_array_less(np.abs(q[inside] / scale - values[inside]),
                                 0.5 / scale + 1e-6)
    np.testing.assert_array_less(126.5 - 1e-3, np.abs(values[~inside]) * scale)
    test.assertTrue((np.sign(q) * np.sign(values) >= 0).all())


def beyond_memory(dtype, shape):
    """A broadcast array of one value whose C-contiguous copy would take more bytes than
    any address space holds (2^57): numpy refuses it at once, on any machine."""
    a = np.broadcast_to(np.array(1, dtype), shape)
    assert 2**57 < a.nbytes < 2**63, a.nbytes
    return a


def no_copy_message(name, a):
    """The start of the MemoryError of a call that cannot copy the array a."""
    return re.escape(f"{name}: no memory for a C-contiguous copy of the {a.dtype} "
                     f"{a.shape} array ({a.size} values, {a.nbytes} bytes)")


def run_stream_block(llrs, K, backend, **kwargs):
    """The same LLRs (positive means 1) through the stream block turbo_decoder, as one
    batch; returns (bits, iterations, passed) as turbo_engine.decode() does."""
    tb = gr.top_block()
    flat = llrs.ravel()
    if flat.dtype == np.int8:
        src = blocks.vector_source_b(flat.view(np.uint8).tolist(), False)
        kwargs["input_type"] = "int8"
    else:
        src = blocks.vector_source_f(flat.tolist(), False)
    dec = gputurbo.turbo_decoder(K, backend=backend, llr_sign="positive-one",
                                 max_batch=len(llrs), codeword_tags="all", **kwargs)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    tags = sorted((t for t in snk.tags() if pmt.symbol_to_string(t.key) == "codeword"),
                  key=lambda t: t.offset)
    values = [pmt.to_python(t.value) for t in tags]
    return (np.array(snk.data(), dtype=np.uint8).reshape(-1, K),
            np.array([v["iterations"] for v in values], dtype=np.int32),
            np.array([v["passed"] for v in values], dtype=bool))


class decoding_cases:
    """Decoding on one backend (BACKEND) at one block size (K)."""
    BACKEND = None
    K = None
    COUNT = 1000

    @classmethod
    def setUpClass(cls):
        skip_class_unless(cls, gputurbo.turbo_engine, K=40)

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def engine(self, **kwargs):
        kwargs.setdefault("K", self.K)
        kwargs.setdefault("backend", self.BACKEND)
        return gputurbo.turbo_engine(**kwargs)

    def random_bits(self, count, K=None):
        return self.rng.integers(0, 2, (count, K or self.K), dtype=np.uint8)

    def test_001_loopback_float32_and_int8(self):
        eng = self.engine(iterations=4)
        self.assertEqual(eng.backend, self.BACKEND)
        self.assertEqual(eng.K, self.K)
        self.assertEqual(eng.codeword_length, codeword_length(self.K))
        self.assertEqual(eng.llr_sign, "positive-one")
        self.assertTrue(eng.device)
        bits = self.random_bits(self.COUNT)
        code = eng.encode(bits)
        self.assertEqual((code.dtype, code.shape),
                         (np.dtype(np.uint8), (self.COUNT, codeword_length(self.K))))
        llrs = gnuradio_llrs(code)
        for name, x in (("float32", llrs), ("int8", to_int8(llrs, 8.0))):
            with self.subTest(dtype=name):
                out, iterations, passed = eng.decode(x)
                self.assertEqual((out.dtype, out.shape),
                                 (np.dtype(np.uint8), (self.COUNT, self.K)))
                self.assertEqual((iterations.dtype, iterations.shape),
                                 (np.dtype(np.int32), (self.COUNT,)))
                self.assertEqual((passed.dtype, passed.shape),
                                 (np.dtype(bool), (self.COUNT,)))
                np.testing.assert_array_equal(out, bits)
                self.assertTrue(np.all(iterations == 4))
                self.assertTrue(np.all(passed))

    def test_002_int8_scale(self):
        # int8 values are read as q / int8_scale: as float q / 2 at scale 2. Read at
        # another scale, they decode differently under log-map (max-log would not see a
        # common factor).
        bits = self.random_bits(200)
        eng = self.engine(algorithm="log-map")
        llrs = gnuradio_llrs(eng.encode(bits), 0.5, self.K, self.rng)
        q = to_int8(llrs, 2.0)
        want = eng.decode(q.astype(np.float32) / 2.0)
        got = self.engine(algorithm="log-map", int8_scale=2.0).decode(q)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g, w)
        other = self.engine(algorithm="log-map", int8_scale=0.5).decode(q)
        self.assertFalse(np.array_equal(other[0], want[0]))

    def test_003_llr_sign(self):
        # positive-zero reads the engine's sign: the negated LLRs give the same results,
        # noiseless and noisy; the wrong sign does not decode.
        bits = self.random_bits(300)
        one = self.engine(iterations=8, early_stop="hard")
        zero = self.engine(iterations=8, early_stop="hard", llr_sign="positive-zero")
        self.assertEqual(zero.llr_sign, "positive-zero")
        code = one.encode(bits)
        for llrs in (gnuradio_llrs(code), gnuradio_llrs(code, 1.0, self.K, self.rng)):
            want = one.decode(llrs)
            got = zero.decode(-llrs)
            for w, g in zip(want, got):
                np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(zero.decode(-gnuradio_llrs(code))[0], bits)
        self.assertFalse(np.array_equal(zero.decode(gnuradio_llrs(code))[0], bits))

    def test_004_noisy_matches_stream_block(self):
        # Noisy LLRs give the stream block's bits, iterations and passed flags, float and
        # int8, with early stopping so that the iterations differ between codewords.
        count = 150
        settings = dict(iterations=8, early_stop="mean-llr", stop_threshold=20.0)
        eng = self.engine(**settings)
        llrs = gnuradio_llrs(eng.encode(self.random_bits(count)), 0.8, self.K, self.rng)
        for x in (llrs, to_int8(llrs, 8.0)):
            with self.subTest(dtype=str(x.dtype)):
                got = eng.decode(x)
                want = run_stream_block(x, self.K, self.BACKEND, **settings)
                self.assertGreater(len(set(got[1].tolist())), 1, got[1])
                for w, g in zip(want, got):
                    np.testing.assert_array_equal(g, w)

    def test_005_one_codeword_and_empty_batch(self):
        # A 1-D array is one codeword: its results have no codeword axis.
        eng = self.engine()
        bits = self.random_bits(3)
        code = eng.encode(bits[1])
        np.testing.assert_array_equal(code, eng.encode(bits)[1])
        out, iterations, passed = eng.decode(gnuradio_llrs(code))
        self.assertEqual((out.shape, iterations.shape, passed.shape), ((self.K,), (), ()))
        np.testing.assert_array_equal(out, bits[1])
        self.assertEqual(int(iterations), 6)
        self.assertTrue(bool(passed))
        out, iterations, passed = eng.decode(
            np.zeros((0, codeword_length(self.K)), np.float32))
        self.assertEqual((out.shape, iterations.shape, passed.shape),
                         ((0, self.K), (0,), (0,)))

    def test_006_non_contiguous_input_is_copied(self):
        eng = self.engine()
        bits = self.random_bits(20)
        llrs = gnuradio_llrs(eng.encode(bits), 1.0, self.K, self.rng)
        want = eng.decode(llrs)
        wide = np.zeros((20, 2 * codeword_length(self.K)), np.float32)
        wide[:, ::2] = llrs
        for view in (wide[:, ::2], np.asfortranarray(llrs)):
            self.assertFalse(view.flags.c_contiguous)
            got = eng.decode(view)
            for w, g in zip(want, got):
                np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(eng.encode(np.asfortranarray(bits)), eng.encode(bits))

    def test_007_stream_layout(self):
        # encode() writes, and decode() reads, the engine's layout.
        eng = self.engine(layout="streams")
        bits = self.random_bits(10)
        code = eng.encode(bits)
        interleaved = self.engine().encode(bits)
        n = self.K + 4
        np.testing.assert_array_equal(
            code, np.concatenate([interleaved[:, s::3] for s in range(3)], axis=1))
        self.assertEqual(code.shape[1], 3 * n)
        np.testing.assert_array_equal(eng.decode(gnuradio_llrs(code))[0], bits)

    def test_008_properties(self):
        self.assertEqual(self.engine(subblocks=2).subblocks, 2)
        expected = 1 if self.BACKEND == "cpu" else self.K // 32
        self.assertEqual(self.engine().subblocks, expected)
        self.assertIn(f"K={self.K}", repr(self.engine()))
        # What runs: float32 by name; int16 by name where a kernel of it runs, and auto
        # takes it there too.
        self.assertEqual(self.engine(arithmetic="float32").arithmetic, "float32")
        try:
            int16 = self.engine(arithmetic="int16")
        except RuntimeError:  # a CPU without AVX2
            self.assertEqual(self.engine().arithmetic, "float32")
        else:
            self.assertEqual(int16.arithmetic, "int16")
            self.assertEqual(self.engine().arithmetic, "int16")

    def test_009_gil_released_while_decoding(self):
        # The main thread sees a worker inside decode() only while it has released the
        # GIL (seen_inside).
        eng = self.engine()
        llrs = gnuradio_llrs(eng.encode(self.random_bits(200)), 1.0, self.K, self.rng)
        self.assertTrue(seen_inside(lambda: eng.decode(llrs)))

    def test_010_concurrent_calls_on_one_engine(self):
        # Calls from several threads on one engine wait for each other.
        eng = self.engine()
        batches = [gnuradio_llrs(eng.encode(self.random_bits(100)), 1.0, self.K, self.rng)
                   for _ in range(4)]
        want = [eng.decode(b)[0] for b in batches]
        got = [[] for _ in batches]

        def run(i):
            for _ in range(5):
                got[i].append(eng.decode(batches[i])[0])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(batches))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for w, g in zip(want, got):
            self.assertEqual(len(g), 5)
            for out in g:
                np.testing.assert_array_equal(out, w)

    def test_011_module_decode(self):
        eng = self.engine()
        bits = self.random_bits(20)
        llrs = gnuradio_llrs(eng.encode(bits), 1.0, self.K, self.rng)
        want = eng.decode(llrs)
        for got in (gputurbo.decode(llrs, backend=self.BACKEND),
                    gputurbo.decode(llrs, K=self.K, backend=self.BACKEND)):
            for w, g in zip(want, got):
                np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(
            gputurbo.decode(llrs[3], backend=self.BACKEND)[0], want[0][3])

    def test_012_packed(self):
        # packed=True: the same bits as numpy.packbits, and the same statuses.
        count = 50
        eng = self.engine(iterations=8, early_stop="hard")
        llrs = gnuradio_llrs(eng.encode(self.random_bits(count)), 0.5, self.K, self.rng)
        for x in (llrs, to_int8(llrs, 8.0)):
            with self.subTest(dtype=str(x.dtype)):
                bits, iterations, passed = eng.decode(x)
                packed, packed_iterations, packed_passed = eng.decode(x, packed=True)
                self.assertEqual((packed.dtype, packed.shape),
                                 (np.dtype(np.uint8), (count, self.K // 8)))
                np.testing.assert_array_equal(packed, np.packbits(bits, axis=1))
                np.testing.assert_array_equal(
                    np.unpackbits(packed, axis=1, count=self.K), bits)
                np.testing.assert_array_equal(packed_iterations, iterations)
                np.testing.assert_array_equal(packed_passed, passed)
        one = eng.decode(llrs[7], packed=True)[0]
        self.assertEqual(one.shape, (self.K // 8,))
        np.testing.assert_array_equal(one, np.packbits(eng.decode(llrs[7])[0]))
        empty = eng.decode(np.zeros((0, codeword_length(self.K)), np.float32), packed=True)
        self.assertEqual(empty[0].shape, (0, self.K // 8))

    def test_013_soft_output(self):
        # output="llr": float32 (n, K) whose signs are the bits (positive-one: > 0 is 1),
        # with the same statuses; "extrinsic": llr less the systematic input as read
        # (int16 reads it in steps of 1/16); positive-zero negates both.
        count = 40
        for arithmetic in ("float32", "int16"):
            with self.subTest(arithmetic=arithmetic):
                eng = self.engine(iterations=6, early_stop="hard", arithmetic=arithmetic)
                llrs = gnuradio_llrs(eng.encode(self.random_bits(count)), 0.3, self.K,
                                     self.rng)
                for x in (llrs, to_int8(llrs, 8.0)):
                    bits, iterations, passed = eng.decode(x)
                    app, app_iterations, app_passed = eng.decode(x, output="llr")
                    extrinsic = eng.decode(x, output="extrinsic")[0]
                    self.assertEqual((app.dtype, app.shape),
                                     (np.dtype(np.float32), (count, self.K)))
                    np.testing.assert_array_equal(bits, (app > 0).astype(np.uint8))
                    np.testing.assert_array_equal(app_iterations, iterations)
                    np.testing.assert_array_equal(app_passed, passed)
                    systematic = (x[:, 0:3 * self.K:3].astype(np.float32) /
                                  (8.0 if x.dtype == np.int8 else 1.0))
                    step = 1 / 32 if arithmetic == "int16" else 1e-4
                    np.testing.assert_allclose(extrinsic, app - systematic, rtol=0,
                                               atol=step + 1e-4 * np.abs(app).max())
                zero = self.engine(iterations=6, early_stop="hard", arithmetic=arithmetic,
                                   llr_sign="positive-zero")
                np.testing.assert_array_equal(zero.decode(-llrs, output="llr")[0],
                                              -eng.decode(llrs, output="llr")[0])

    def test_014_int8_soft_output(self):
        # output_type="int8": the float32 values in the units of int8 input at the
        # engine's int8_scale, with the same statuses; bits stay bits.
        count = 20
        settings = dict(iterations=6, early_stop="hard")
        llrs = gnuradio_llrs(self.engine().encode(self.random_bits(count)), 0.5, self.K,
                             self.rng)
        app = self.engine(**settings).decode(llrs, output="llr")[0]
        half = half_saturating_scale(app)
        for scale in (8.0, half):
            with self.subTest(int8_scale=scale):
                eng = self.engine(int8_scale=scale, **settings)
                for x in (llrs, to_int8(llrs, scale)):
                    for output in ("llr", "extrinsic"):
                        values, iterations, passed = eng.decode(x, output=output)
                        q, q_iterations, q_passed = eng.decode(x, output=output,
                                                               output_type="int8")
                        expect_int8_soft(self, q, values, scale,
                                         both_ranges=scale == half and output == "llr")
                        np.testing.assert_array_equal(q_iterations, iterations)
                        np.testing.assert_array_equal(q_passed, passed)
                one = eng.decode(llrs[3], output="llr", output_type="int8")[0]
                np.testing.assert_array_equal(
                    one, eng.decode(llrs, output="llr", output_type="int8")[0][3])
                np.testing.assert_array_equal(eng.decode(llrs, output_type="int8")[0],
                                              eng.decode(llrs)[0])


class qa_numpy_api_cpu(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cpu"
    K = 104


class qa_numpy_api_cuda(decoding_cases, gr_unittest.TestCase):
    BACKEND = "cuda"
    K = 1024


class qa_numpy_api_errors(gr_unittest.TestCase):
    """Bad input: ValueError that says what is expected; bad parameters: the engine's
    ValueError; a backend that cannot run: RuntimeError."""

    def setUp(self):
        self.eng = gputurbo.turbo_engine(K=1024, backend="cpu")

    def test_001_llrs(self):
        expected = re.escape("llrs must be float32 or int8 of shape (n, 3K+12) = "
                             "(n, 3084) for K=1024, or (3084,) for one codeword; got ")
        cases = [
            (np.zeros((10, 3084)), "float64 (10, 3084)"),
            (np.zeros((10, 3084), np.int16), "int16 (10, 3084)"),
            (np.zeros((10, 3084), ">f4"), ">f4 (10, 3084)"),
            (np.zeros((10, 3083), np.float32), "float32 (10, 3083)"),
            (np.zeros(3085, np.float32), "float32 (3085,)"),
            (np.zeros((2, 5, 3084), np.float32), "float32 (2, 5, 3084)"),
            (np.float32(1.0), "float32 ()"),
            ([[0.0] * 3084], "float64 (1, 3084)"),
        ]
        for llrs, got in cases:
            with self.subTest(got=got):
                with self.assertRaisesRegex(ValueError, expected + re.escape(got) + "$"):
                    self.eng.decode(llrs)

    def test_002_bits(self):
        expected = re.escape("bits must be uint8 (0 or 1) of shape (n, K) = (n, 1024) "
                             "for K=1024, or (1024,) for one block; got ")
        with self.assertRaisesRegex(ValueError, expected + re.escape("int64 (2, 1024)")):
            self.eng.encode(np.zeros((2, 1024), np.int64))
        with self.assertRaisesRegex(ValueError, expected + re.escape("uint8 (2, 1000)")):
            self.eng.encode(np.zeros((2, 1000), np.uint8))
        bits = np.zeros((2, 1024), np.uint8)
        bits[1, 17] = 2
        with self.assertRaisesRegex(ValueError, "bits must be 0 or 1; got 2 at flat index "
                                    "1041"):
            self.eng.encode(bits)

    def test_003_parameters(self):
        cases = [
            (dict(K=41), ValueError, "block size"),
            (dict(K=0), ValueError, "block size"),
            (dict(llr_sign="positive"), ValueError,
             "unknown llr_sign 'positive': use one of positive-one, positive-zero"),
            (dict(int8_scale=0.0), ValueError, "int8_scale"),
            (dict(algorithm="bcjr"), ValueError, "algorithm"),
            (dict(iterations=0), ValueError, "iterations=0 is out of range"),
            (dict(scaling=1.5), ValueError, "scaling"),
            (dict(subblocks=5), ValueError, "subblocks"),
            (dict(guard="wide"), ValueError, "guard"),
            (dict(subblocks=2, guard="dstw", guard_window=513), ValueError,
             "guard_window"),
            (dict(early_stop="crc16"), ValueError, "early_stop"),
            (dict(stop_threshold=-1.0), ValueError, "stop_threshold"),
            (dict(layout="rows"), ValueError, "layout"),
            (dict(threads=-1), ValueError, "threads"),
            (dict(devices="first"), ValueError, "devices"),
            (dict(arithmetic="int4"), ValueError, "arithmetic"),
            (dict(backend="fpga"), ValueError, "backend"),
        ]
        for kwargs, error, pattern in cases:
            with self.subTest(**kwargs):
                kwargs.setdefault("K", 1024)
                kwargs.setdefault("backend", "cpu")
                with self.assertRaisesRegex(error, pattern):
                    gputurbo.turbo_engine(**kwargs)

    def test_004_unavailable_backend(self):
        try:
            eng = gputurbo.turbo_engine(K=40, backend="cuda")
        except RuntimeError as e:
            self.assertIn("cuda", str(e).lower())
        else:
            self.assertEqual(eng.backend, "cuda")

    def test_008_soft_output_choices(self):
        llrs = np.zeros((2, codeword_length(1024)), np.float32)
        with self.assertRaisesRegex(ValueError,
                                    "unknown output 'soft': use one of bits, llr, extrinsic"):
            self.eng.decode(llrs, output="soft")
        with self.assertRaisesRegex(ValueError, "packed=True goes with output=.bits. only"):
            self.eng.decode(llrs, output="llr", packed=True)
        with self.assertRaisesRegex(ValueError, "packed=True goes with output=.bits."):
            self.eng.decode(llrs, output="llr", output_type="int8", packed=True)
        with self.assertRaisesRegex(ValueError,
                                    "^unknown output_type 'int16': use one of float, int8$"):
            self.eng.decode(llrs, output="llr", output_type="int16")

    def test_005_module_decode_refuses_other_lengths(self):
        for length in (3 * 41 + 12, 3 * 40 + 13, 12, 3 * 6208 + 12):
            with self.subTest(length=length):
                with self.assertRaisesRegex(ValueError, f"rows of {length} values are "
                                            "no LTE codeword"):
                    gputurbo.decode(np.zeros((2, length), np.float32), backend="cpu")

    def test_006_helpers(self):
        with self.assertRaisesRegex(ValueError, re.escape(
                "bits must be a 1-D uint8 array of 0/1 values; got uint8 (2, 30)")):
            gputurbo.crc24a(np.zeros((2, 30), np.uint8))
        with self.assertRaisesRegex(ValueError, "bits must be a 1-D uint8 array"):
            gputurbo.crc_ok(np.zeros(30, np.int32))
        with self.assertRaisesRegex(ValueError, "bits must be 0 or 1; got 7"):
            gputurbo.crc24b(np.full(30, 7, np.uint8))
        with self.assertRaisesRegex(ValueError, "unknown crc 'crc12': use one of crc24a"):
            gputurbo.crc_ok(np.zeros(30, np.uint8), crc="crc12")
        # The four CRCs of 36.212 §5.1.1: the check values of ASCII "123456789", MSB
        # first (CRC-16 0x31C3, CRC-8 0xEA), and attach-then-check.
        ascii_bits = np.unpackbits(np.frombuffer(b"123456789", np.uint8))
        for crc, value, length in (("crc24a", 0xCDE703, 24), ("crc24b", 0x23EF52, 24),
                                   ("crc16", 0x31C3, 16), ("crc8", 0xEA, 8)):
            parity = gputurbo.crc(ascii_bits, crc=crc)
            self.assertEqual(len(parity), length, crc)
            self.assertEqual(int("".join(map(str, parity)), 2), value, crc)
            block = np.concatenate([ascii_bits, parity])
            self.assertTrue(gputurbo.crc_ok(block, crc=crc), crc)
            block[3] ^= 1
            self.assertFalse(gputurbo.crc_ok(block, crc=crc), crc)
        self.assertTrue(np.array_equal(gputurbo.crc(ascii_bits), gputurbo.crc24a(ascii_bits)))
        with self.assertRaisesRegex(ValueError, "block size"):
            gputurbo.qpp_interleaver(41)
        with self.assertRaisesRegex(ValueError, "llrs must be a float32 array; got float64"):
            gputurbo.quantize_llrs(np.zeros(4))
        with self.assertRaisesRegex(ValueError, "int8_scale"):
            gputurbo.quantize_llrs(np.zeros(4, np.float32), 0.0)

    def test_007_no_memory_for_a_copy(self):
        # A non-contiguous array is copied for the engine: where numpy cannot allocate
        # the copy, MemoryError saying how big it is, caused by numpy's.
        llrs = beyond_memory(np.float32, (10**14, 3084))
        int8_llrs = beyond_memory(np.int8, (10**15, 3084))
        bits = beyond_memory(np.uint8, (10**15, 1024))
        flat_llrs = beyond_memory(np.float32, (10**17,))
        flat_bits = beyond_memory(np.uint8, (10**18,))
        cases = [
            (lambda: self.eng.decode(llrs), "llrs", llrs),
            (lambda: self.eng.decode(int8_llrs, packed=True), "llrs", int8_llrs),
            (lambda: gputurbo.decode(llrs, backend="cpu"), "llrs", llrs),
            (lambda: self.eng.encode(bits), "bits", bits),
            (lambda: gputurbo.quantize_llrs(flat_llrs), "llrs", flat_llrs),
            (lambda: gputurbo.crc24a(flat_bits), "bits", flat_bits),
            (lambda: gputurbo.crc(flat_bits, crc="crc16"), "bits", flat_bits),
            (lambda: gputurbo.crc_ok(flat_bits), "bits", flat_bits),
        ]
        for i, (call, name, a) in enumerate(cases):
            with self.subTest(case=i, name=name, shape=a.shape):
                with self.assertRaisesRegex(MemoryError, no_copy_message(name, a)) as e:
                    call()
                self.assertIsInstance(e.exception.__cause__, MemoryError)


class qa_numpy_api_helpers(gr_unittest.TestCase):

    def test_001_lte_block_sizes(self):
        # 36.212 Table 5.1.3-3: steps of 8 up to 512, 16 up to 1024, 32 up to 2048, 64.
        table = (list(range(40, 513, 8)) + list(range(528, 1025, 16)) +
                 list(range(1056, 2049, 32)) + list(range(2112, 6145, 64)))
        self.assertEqual(list(gputurbo.lte_block_sizes()), table)
        self.assertEqual(len(table), 188)

    def test_002_qpp_interleaver(self):
        i = np.arange(40)
        np.testing.assert_array_equal(gputurbo.qpp_interleaver(40), (3 * i + 10 * i * i) % 40)
        # The f1, f2 of the test vectors' index (tests/data/lte-turbo).
        with open(os.path.join(TURBO_VECTORS_DIR, "index.txt")) as f:
            rows = [line.split() for line in f if not line.startswith("#")]
        for K, _, f1, f2, _, _ in ([int(v) for v in row] for row in rows):
            i = np.arange(K, dtype=np.int64)
            np.testing.assert_array_equal(gputurbo.qpp_interleaver(K),
                                          (f1 * i + f2 * i * i) % K, err_msg=f"K={K}")

    def test_003_encode_matches_vectors(self):
        # srsRAN_4G's encoder output (tests/data/lte-turbo).
        for K in (40, 1008, 6144):
            records = {}
            with open(os.path.join(TURBO_VECTORS_DIR, f"K{K:04d}.txt")) as f:
                for line in f:
                    if not line.startswith("#"):
                        tag, block, value = line.split()
                        records[tag, int(block)] = np.frombuffer(
                            value.encode(), np.uint8) - ord("0")
            eng = gputurbo.turbo_engine(K=K, backend="cpu")
            info = np.stack([records["info", b] for b in range(3)])
            want = np.stack([records["enc", b] for b in range(3)])
            np.testing.assert_array_equal(eng.encode(info), want, err_msg=f"K={K}")

    def test_004_crc(self):
        # The catalogue check values of CRC-24/LTE-A and CRC-24/LTE-B: the CRC of the
        # ASCII "123456789", most significant bit first.
        message = np.unpackbits(np.frombuffer(b"123456789", np.uint8))
        for function, check in ((gputurbo.crc24a, 0xCDE703), (gputurbo.crc24b, 0x23EF52)):
            parity = function(message)
            self.assertEqual((parity.dtype, parity.shape), (np.dtype(np.uint8), (24,)))
            self.assertEqual(int("".join(map(str, parity)), 2), check)
        # A one-bit message: the register is the polynomial.
        self.assertEqual(int("".join(map(str, gputurbo.crc24a(np.ones(1, np.uint8)))), 2),
                         0x864CFB)
        # A message with its CRC attached checks, with its own CRC only, and an error is
        # seen.
        rng = np.random.default_rng(3)
        data = rng.integers(0, 2, 1000, dtype=np.uint8)
        for crc, function, other in (("crc24a", gputurbo.crc24a, "crc24b"),
                                     ("crc24b", gputurbo.crc24b, "crc24a")):
            block = np.concatenate([data, function(data)])
            self.assertTrue(gputurbo.crc_ok(block, crc=crc))
            self.assertFalse(gputurbo.crc_ok(block, crc=other))
            block[500] ^= 1
            self.assertFalse(gputurbo.crc_ok(block, crc=crc))
        self.assertTrue(gputurbo.crc_ok(np.concatenate([data, gputurbo.crc24a(data)])))
        self.assertFalse(gputurbo.crc_ok(np.zeros(23, np.uint8)))

    def test_005_crc_stop_rule_sees_attached_crc(self):
        # Blocks whose last 24 bits are crc24b(first K-24) pass the decoder's crc24b rule.
        K = 104
        rng = np.random.default_rng(4)
        data = rng.integers(0, 2, (50, K - 24), dtype=np.uint8)
        bits = np.stack([np.concatenate([d, gputurbo.crc24b(d)]) for d in data])
        eng = gputurbo.turbo_engine(K=K, backend="cpu", early_stop="crc24b",
                                    iterations=8)
        out, iterations, passed = eng.decode(gnuradio_llrs(eng.encode(bits)))
        np.testing.assert_array_equal(out, bits)
        self.assertTrue(np.all(passed))
        self.assertTrue(np.all(iterations == 1))

    def test_006_quantize_llrs(self):
        llrs = np.array([[0.0, 0.06, 0.0625, -0.0625, 1.0], [-20.0, 20.0, np.nan, np.inf,
                                                              -np.inf]], np.float32)
        q = gputurbo.quantize_llrs(llrs, 8.0)
        self.assertEqual((q.dtype, q.shape), (np.dtype(np.int8), (2, 5)))
        np.testing.assert_array_equal(q, [[0, 0, 1, -1, 8], [-127, 127, 0, 127, -127]])

    def test_007_usage_example_runs(self):
        # The example of docs/usage.md's "Python (numpy) API" section, as written.
        run_usage_example("## Python (numpy) API")


if __name__ == '__main__':
    unittest.main(verbosity=2)
