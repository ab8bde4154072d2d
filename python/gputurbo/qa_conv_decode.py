#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gputurbo.viterbi_engine: round trips through the encoder, errors against gr-fec's
cc_decoder on the same noisy symbols, and the numpy API's shapes and errors.

gr-fec's cc_decoder, as fec.extended_decoder runs it, takes a float per code bit,
positive for 1 (what gr-fec's chains make): the BPSK symbol y = 2c - 1 plus noise
itself. extended_decoder makes it the uint8 48 y + 128 before the decoder. Terminated,
it reads (frame_bits + K - 1) * n values per frame and writes frame_bits bits. Its
polynomials are ours bit-reversed over K bits (qa_conv_code: 802.11's 133,171 is
[109, 79]).
"""

import unittest

import numpy as np
from gnuradio import blocks, fec, gr, gr_unittest
from gnuradio import gputurbo

from qa_conv_code import gr_fec_polys
from qa_numpy_api import (beyond_memory, expect_int8_soft, half_saturating_scale,
                          no_copy_message)

BACKENDS = ("cpu", "reference")
TERMINATIONS = ("terminated", "truncated", "tail-biting")


def bpsk_llrs(sent, sigma, rng):
    """BPSK (0 -> -1, 1 -> +1) over AWGN: the symbols y and their LLRs 2y/sigma^2,
    positive for 1 (GNU Radio's sign)."""
    y = (2.0 * sent - 1.0) + rng.normal(0.0, sigma, sent.shape)
    return y.astype(np.float32), (2.0 * y / sigma**2).astype(np.float32)


def gr_fec_decode(code, frame_bits, frames, symbols):
    """Terminated frames of symbols through fec.extended_decoder(cc_decoder)."""
    decoder = fec.cc_decoder.make(frame_bits, code.constraint, code.outputs,
                                  gr_fec_polys(code), 0, 0, fec.CC_TERMINATED, False)
    tb = gr.top_block()
    src = blocks.vector_source_f(np.ravel(symbols).tolist(), False)
    dec = fec.extended_decoder(decoder_obj_list=decoder, threading=None, ann=None,
                               puncpat="11", integration_period=10000)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    bits = np.array(snk.data(), dtype=np.uint8)
    assert bits.size == frames * frame_bits, (bits.size, frames * frame_bits)
    return bits.reshape(frames, frame_bits)


class qa_conv_decode_round_trip(gr_unittest.TestCase):
    """Clean BPSK symbols (LLR +-4, GNU Radio's sign) decode to the bits sent."""

    def check(self, preset, termination, puncturing=""):
        rng = np.random.default_rng(11)
        code = gputurbo.conv_code(preset)
        bits = rng.integers(0, 2, (24, 96), dtype=np.uint8)
        sent = code.encode(bits, termination, puncturing)
        llrs = (8.0 * sent - 4.0).astype(np.float32)
        for backend in BACKENDS:
            with self.subTest(preset=preset, termination=termination,
                              puncturing=puncturing, backend=backend):
                engine = gputurbo.viterbi_engine(code, termination, puncturing, backend)
                decoded, passed = engine.decode(llrs, 96)
                self.assertEqual(decoded.dtype, np.uint8)
                np.testing.assert_array_equal(decoded, bits)
                np.testing.assert_array_equal(passed, np.ones(24, bool))

    def test_001_presets_and_terminations(self):
        for preset in ("802.11", "ccsds", "gsm"):
            for termination in TERMINATIONS:
                self.check(preset, termination)

    def test_002_punctured(self):
        for termination in TERMINATIONS:
            self.check("802.11", termination, "3/4")

    def test_004_int4(self):
        # int4 (two LLRs a byte) decodes as int8 of the same values; an odd LLR count a
        # frame (rate 1/3, 41 bits and a tail of 6: 141) puts frames mid-byte.
        rng = np.random.default_rng(13)
        code = gputurbo.conv_code("lte")
        bits = rng.integers(0, 2, (7, 41), dtype=np.uint8)
        sent = code.encode(bits).astype(np.float32)
        self.assertEqual(sent.shape[1] % 2, 1)
        llrs = 2.0 * (2.0 * sent - 1.0) + rng.normal(0.0, 2.0, sent.shape)
        q = np.clip(np.rint(llrs), -7, 7).astype(np.int8)
        engine = gputurbo.viterbi_engine(code, int8_scale=1.0)
        packed = gputurbo.pack_int4(q)
        self.assertEqual(packed.dtype, np.uint8)
        self.assertEqual(packed.shape, ((q.size + 1) // 2,))
        want, want_passed = engine.decode(q, 41)
        got, passed = engine.decode_int4(packed, 41)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(passed, want_passed)
        got, _ = engine.decode_int4(packed, 41, packed=True)
        np.testing.assert_array_equal(got, np.packbits(want, axis=1))
        # Saturated to +-7; the byte layout: LLR 0 in the low nibble.
        np.testing.assert_array_equal(
            gputurbo.pack_int4(np.array([1, -1, 9, -128, 3], np.int8)),
            np.array([0xF1, 0x97, 0x03], np.uint8))
        with self.assertRaisesRegex(ValueError, "not a whole number of frames"):
            engine.decode_int4(packed[:-3], 41)
        with self.assertRaisesRegex(ValueError, "1-D uint8"):
            engine.decode_int4(q, 41)
        with self.assertRaisesRegex(ValueError, "q must be int8"):
            gputurbo.pack_int4(llrs)

    def test_003_signs_and_int8(self):
        rng = np.random.default_rng(12)
        code = gputurbo.conv_code("802.11")
        bits = rng.integers(0, 2, (5, 64), dtype=np.uint8)
        llrs = 8.0 * code.encode(bits) - 4.0
        positive_zero = gputurbo.viterbi_engine(code, llr_sign="positive-zero")
        np.testing.assert_array_equal(
            positive_zero.decode((-llrs).astype(np.float32), 64)[0], bits)
        engine = gputurbo.viterbi_engine(code, int8_scale=4.0)
        np.testing.assert_array_equal(engine.decode(llrs.astype(np.int8), 64)[0], bits)
        # One frame: 1-D in, 1-D bits and a 0-d passed out.
        one, passed = engine.decode(llrs[2].astype(np.float32), 64)
        np.testing.assert_array_equal(one, bits[2])
        self.assertEqual(passed.shape, ())
        # An erased frame carries no information.
        _, passed = engine.decode(np.zeros((2, llrs.shape[1]), np.float32), 64)
        np.testing.assert_array_equal(passed, [False, False])


class qa_conv_decode_gr_fec(gr_unittest.TestCase):
    """Our decoder makes no more bit errors than gr-fec's cc_decoder on the same noisy
    symbols: K=7 rate 1/2 (802.11's 133,171), terminated frames of 1024 bits, 300 frames
    per point. Measured bit errors (ours / gr-fec, of 307200): 2.0 dB 1535 / 1680,
    2.5 dB 368 / 409, 3.0 dB 147 / 192."""

    FRAME_BITS = 1024
    FRAMES = 300

    def test_001_no_worse_than_cc_decoder(self):
        code = gputurbo.conv_code("802.11")
        engine = gputurbo.viterbi_engine(code, "terminated", backend="cpu")
        rng = np.random.default_rng(2026)
        # gr-fec's chain decodes clean symbols: the comparison below is of decoders.
        bits = rng.integers(0, 2, (4, self.FRAME_BITS), dtype=np.uint8)
        clean = 2.0 * code.encode(bits) - 1.0
        np.testing.assert_array_equal(gr_fec_decode(code, self.FRAME_BITS, 4, clean), bits)
        for ebn0_db in (2.0, 2.5, 3.0):
            # sigma^2 = N0/2 for unit-energy symbols at rate 1/2 (the tail ignored).
            sigma = np.sqrt(1.0 / (2 * 0.5 * 10**(ebn0_db / 10)))
            bits = rng.integers(0, 2, (self.FRAMES, self.FRAME_BITS), dtype=np.uint8)
            symbols, llrs = bpsk_llrs(code.encode(bits), sigma, rng)
            ours = int(np.count_nonzero(engine.decode(llrs, self.FRAME_BITS)[0] != bits))
            theirs = int(np.count_nonzero(
                gr_fec_decode(code, self.FRAME_BITS, self.FRAMES, symbols) != bits))
            print(f"Eb/N0 {ebn0_db} dB: bit errors ours {ours}, gr-fec {theirs}")
            with self.subTest(ebn0_db=ebn0_db, ours=ours, gr_fec=theirs):
                self.assertGreater(theirs, 0)
                self.assertLessEqual(ours, theirs + 3 * np.sqrt(theirs) + 5)


class qa_conv_decode_api(gr_unittest.TestCase):

    def setUp(self):
        self.code = gputurbo.conv_code("802.11")

    def test_001_properties(self):
        engine = gputurbo.viterbi_engine(self.code, "tail-biting", "3/4", "reference")
        self.assertEqual(engine.backend, "reference")
        self.assertEqual(gputurbo.viterbi_engine(self.code, backend="cpu").backend, "cpu")
        self.assertTrue(engine.device)
        self.assertEqual(engine.code.text, "K=7 133,171")
        self.assertEqual((engine.termination, engine.puncturing, engine.llr_sign),
                         ("tail-biting", "3/4", "positive-one"))
        self.assertIn("viterbi_engine(code='K=7 133,171'", repr(engine))

    def test_002_shapes_and_dtypes(self):
        engine = gputurbo.viterbi_engine(self.code)
        width = self.code.punctured_length(100)
        self.assertEqual(width, 212)
        bits, passed = engine.decode(np.zeros((0, width), np.float32), 100)
        self.assertEqual((bits.shape, passed.shape), ((0, 100), (0,)))
        for bad in (np.zeros((2, width), np.float64), np.zeros((2, width + 1), np.float32),
                    np.zeros((2, 1, width), np.float32), np.zeros((2, width), np.int16),
                    "llrs"):
            with self.subTest(bad=getattr(bad, "shape", bad)):
                with self.assertRaisesRegex(
                        ValueError, r"llrs must be float32 or int8 of shape \(n, 212\) "
                        r"for 100-bit frames, terminated, or \(212,\) for one frame; got"):
                    engine.decode(bad, 100)
        with self.assertRaisesRegex(ValueError, "at least 1 bit"):
            engine.decode(np.zeros((2, width), np.float32), 0)

    def test_003_parameters(self):
        with self.assertRaisesRegex(ValueError, "unknown termination"):
            gputurbo.viterbi_engine(self.code, "wrapped")
        with self.assertRaisesRegex(ValueError, "streaming"):
            gputurbo.viterbi_engine(self.code, "streaming")
        with self.assertRaisesRegex(ValueError, "rate 3/4"):
            gputurbo.viterbi_engine(gputurbo.conv_code("gsm"), puncturing="3/4")
        with self.assertRaisesRegex(ValueError, "positive-one"):
            gputurbo.viterbi_engine(self.code, llr_sign="positive")
        with self.assertRaisesRegex(ValueError, "cuda|backend"):
            gputurbo.viterbi_engine(self.code, backend="gpu")
        with self.assertRaisesRegex(ValueError, "int8_scale"):
            gputurbo.viterbi_engine(self.code, int8_scale=0.0)
        with self.assertRaisesRegex(ValueError, "threads"):
            gputurbo.viterbi_engine(self.code, threads=-1)

    def test_004_packed(self):
        # packed=True: numpy.packbits of the unpacked bits, each frame on its own bytes,
        # also for frames of a length that is no multiple of 8 (zero padding).
        rng = np.random.default_rng(13)
        sigma = np.sqrt(1.0 / (2 * 0.5 * 10**(3.0 / 10)))
        for backend in BACKENDS:
            engine = gputurbo.viterbi_engine(self.code, backend=backend)
            for frame_bits in (1001, 13, 64):
                bits = rng.integers(0, 2, (30, frame_bits), dtype=np.uint8)
                _, llrs = bpsk_llrs(self.code.encode(bits), sigma, rng)
                for x in (llrs, np.clip(np.round(llrs * 8.0), -127, 127).astype(np.int8)):
                    with self.subTest(backend=backend, frame_bits=frame_bits,
                                      dtype=str(x.dtype)):
                        unpacked, passed = engine.decode(x, frame_bits)
                        packed, packed_passed = engine.decode(x, frame_bits, packed=True)
                        self.assertEqual((packed.dtype, packed.shape),
                                         (np.dtype(np.uint8), (30, -(-frame_bits // 8))))
                        np.testing.assert_array_equal(packed,
                                                      np.packbits(unpacked, axis=1))
                        unused = -frame_bits % 8
                        self.assertFalse(np.any(packed[:, -1] & ((1 << unused) - 1)))
                        np.testing.assert_array_equal(
                            np.unpackbits(packed, axis=1, count=frame_bits), unpacked)
                        np.testing.assert_array_equal(packed_passed, passed)
                one = engine.decode(llrs[4], frame_bits, packed=True)[0]
                self.assertEqual(one.shape, (-(-frame_bits // 8),))
                np.testing.assert_array_equal(
                    one, np.packbits(engine.decode(llrs[4], frame_bits)[0]))
        empty = engine.decode(np.zeros((0, self.code.punctured_length(13)), np.float32),
                              13, packed=True)
        self.assertEqual(empty[0].shape, (0, 2))

    def test_005_no_memory_for_a_copy(self):
        # As qa_numpy_api's: MemoryError saying how big the copy is, caused by numpy's.
        engine = gputurbo.viterbi_engine(self.code, backend="cpu")
        llrs = beyond_memory(np.float32, (10**15, 212))
        int8_llrs = beyond_memory(np.int8, (10**16, 212))
        int4_llrs = beyond_memory(np.uint8, (106 * 10**16,))
        q = beyond_memory(np.int8, (10**18,))
        cases = [
            (lambda: engine.decode(llrs, 100), "llrs", llrs),
            (lambda: engine.decode(int8_llrs, 100, packed=True), "llrs", int8_llrs),
            (lambda: engine.decode_int4(int4_llrs, 100), "llrs", int4_llrs),
            (lambda: gputurbo.pack_int4(q), "q", q),
        ]
        for i, (call, name, a) in enumerate(cases):
            with self.subTest(case=i, name=name):
                with self.assertRaisesRegex(MemoryError, no_copy_message(name, a)) as e:
                    call()
                self.assertIsInstance(e.exception.__cause__, MemoryError)


class qa_conv_decode_soft(gr_unittest.TestCase):
    """decode(output="llr"): a-posteriori LLRs in the sign of llr_sign."""

    def test_001_shapes_signs_and_bits(self):
        # Noisy frames: float32 (n, frame_bits) whose signs (positive-one: positive
        # means 1) are the max-log decisions: decode()'s bits but where a value is 0 (a
        # tie); the passed flags are decode()'s; one frame gives 1-D values.
        rng = np.random.default_rng(41)
        code = gputurbo.conv_code("ccsds")
        sigma = np.sqrt(1.0 / (2 * 0.5 * 10**(2.0 / 10)))
        for backend in BACKENDS:
            for termination in ("terminated", "truncated"):
                for llr_sign in ("positive-one", "positive-zero"):
                    with self.subTest(backend=backend, termination=termination,
                                      llr_sign=llr_sign):
                        engine = gputurbo.viterbi_engine(code, termination,
                                                         backend=backend,
                                                         llr_sign=llr_sign)
                        bits = rng.integers(0, 2, (6, 150), dtype=np.uint8)
                        _, llrs = bpsk_llrs(code.encode(bits, termination), sigma, rng)
                        if llr_sign == "positive-zero":
                            llrs = -llrs
                        decoded, passed = engine.decode(llrs, 150)
                        values, soft_passed = engine.decode(llrs, 150, output="llr")
                        self.assertEqual((values.dtype, values.shape),
                                         (np.dtype(np.float32), (6, 150)))
                        ones = values > 0 if llr_sign == "positive-one" else values < 0
                        decided = values != 0
                        self.assertGreater(np.mean(decided), 0.95)  # a few ties
                        np.testing.assert_array_equal(ones[decided].astype(np.uint8),
                                                      decoded[decided])
                        np.testing.assert_array_equal(soft_passed, passed)
                        one, one_passed = engine.decode(llrs[2], 150, output="llr")
                        self.assertEqual((one.shape, one_passed.shape), ((150,), ()))
                        np.testing.assert_array_equal(one, values[2])

    def test_002_log_map_and_every_termination(self):
        # log-map's values differ from max-log's, with the same signs on clean frames;
        # int8 input works as float of q / int8_scale.
        rng = np.random.default_rng(42)
        code = gputurbo.conv_code("802.11")
        for termination in TERMINATIONS:
            bits = rng.integers(0, 2, (3, 40), dtype=np.uint8)
            llrs = (4.0 * code.encode(bits, termination) - 2.0).astype(np.float32)
            max_log = gputurbo.viterbi_engine(code, termination, backend="reference")
            log_map = gputurbo.viterbi_engine(code, termination, backend="cpu",
                                              soft_algorithm="log-map")
            a = max_log.decode(llrs, 40, output="llr")[0]
            b = log_map.decode(llrs, 40, output="llr")[0]
            np.testing.assert_array_equal((a > 0).astype(np.uint8), bits)
            np.testing.assert_array_equal((b > 0).astype(np.uint8), bits)
            self.assertFalse(np.array_equal(a, b))
            q = llrs.astype(np.int8)  # +-2
            np.testing.assert_array_equal(
                gputurbo.viterbi_engine(code, termination, int8_scale=1.0,
                                        backend="cpu").decode(q, 40, output="llr")[0], a)

    def test_004_code_extrinsic(self):
        # output="code-extrinsic": one value per sent code bit (the llrs' shape): its
        # a-posteriori LLR less its input. Adding the input back gives a-posteriori code
        # LLRs whose hard decisions, re-encoded from the information bits' decisions,
        # agree on clean frames; with punctured frames too.
        rng = np.random.default_rng(43)
        for preset, puncturing in (("ccsds", ""), ("802.11", "3/4")):
            code = gputurbo.conv_code(preset)
            engine = gputurbo.viterbi_engine(code, "terminated", puncturing, "cpu")
            bits = rng.integers(0, 2, (4, 60), dtype=np.uint8)
            sent = code.encode(bits, "terminated", puncturing)
            llrs = (3.0 * (2.0 * sent - 1.0)).astype(np.float32)  # positive-one
            extrinsic, _ = engine.decode(llrs, 60, output="code-extrinsic")
            self.assertEqual((extrinsic.dtype, extrinsic.shape),
                             (np.dtype(np.float32), llrs.shape))
            app = extrinsic + llrs
            np.testing.assert_array_equal((app > 0).astype(np.uint8), sent)
            # Each code bit's extrinsic value agrees with what was sent: the code
            # alone tells it.
            np.testing.assert_array_equal((extrinsic > 0).astype(np.uint8), sent)

    def test_005_int8_soft_output(self):
        # output_type="int8": the float32 values in the units of int8 input at the
        # engine's int8_scale, with the same passed flags, for either kind; bits stay
        # bits.
        rng = np.random.default_rng(44)
        code = gputurbo.conv_code("ccsds")
        sigma = np.sqrt(1.0 / (2 * 0.5 * 10**(1.0 / 10)))
        bits = rng.integers(0, 2, (5, 80), dtype=np.uint8)
        _, llrs = bpsk_llrs(code.encode(bits, "truncated"), sigma, rng)
        for backend in BACKENDS:
            values = {output: gputurbo.viterbi_engine(code, "truncated", backend=backend)
                      .decode(llrs, 80, output=output)[0]
                      for output in ("llr", "code-extrinsic")}
            for output in values:
                half = half_saturating_scale(values[output])
                for scale in (8.0, half):
                    engine = gputurbo.viterbi_engine(code, "truncated", backend=backend,
                                                     int8_scale=scale)
                    with self.subTest(backend=backend, int8_scale=scale, output=output):
                        q, q_passed = engine.decode(llrs, 80, output=output,
                                                    output_type="int8")
                        expect_int8_soft(self, q, values[output], scale,
                                         both_ranges=scale == half)
                        np.testing.assert_array_equal(
                            q_passed, engine.decode(llrs, 80, output=output)[1])
            np.testing.assert_array_equal(engine.decode(llrs, 80, output_type="int8")[0],
                                          engine.decode(llrs, 80)[0])

    def test_003_bad_requests(self):
        code = gputurbo.conv_code("802.11")
        engine = gputurbo.viterbi_engine(code, backend="cpu")
        llrs = np.zeros((2, code.punctured_length(20)), np.float32)
        with self.assertRaisesRegex(ValueError, "unknown output 'soft': use one of bits, "
                                    "llr, extrinsic, code-extrinsic"):
            engine.decode(llrs, 20, output="soft")
        with self.assertRaisesRegex(ValueError, r"^output=extrinsic is not given by this "
                                    r"decoder \(cpu backend\): use bits, llr, "
                                    r"code-extrinsic$"):
            engine.decode(llrs, 20, output="extrinsic")
        with self.assertRaisesRegex(ValueError, "packed=True goes with output=\"bits\""):
            engine.decode(llrs, 20, packed=True, output="llr")
        with self.assertRaisesRegex(ValueError, "^unknown output_type 'float32': use one "
                                    "of float, int8$"):
            engine.decode(llrs, 20, output="llr", output_type="float32")
        with self.assertRaisesRegex(ValueError, "unknown soft_algorithm 'exact'"):
            gputurbo.viterbi_engine(code, soft_algorithm="exact")


if __name__ == '__main__':
    unittest.main(verbosity=2)
