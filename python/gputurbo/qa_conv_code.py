#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gputurbo.conv_code: its encoder and puncturing equal gr-fec's bit for bit, and the
numpy API's shapes and errors.

How gr-fec spells our codes (gr_fec_polys, GR_FEC_MODES, GR_FEC_PUNCPAT below):
- fec.cc_encoder_make(frame_size, k, rate, polys, start_state=0, mode, padded=False)
  takes each polynomial bit-reversed over K bits (its bit 0 taps the newest input, ours
  bit K-1): 133 -> 0o155 = 109, 171 -> 0o117 = 79; a negative polynomial inverts that
  output (CCSDS's 171,-133 is [79, -109]). Its output order is ours: per step, the
  outputs in the order of the polynomials.
- The modes are ours with start_state 0: CC_TERMINATED (K-1 tail bits of start_state,
  here zeros), CC_TRUNCATED (every frame from start_state), CC_TAILBITING (every frame
  from its own last K-1 bits), CC_STREAMING (each frame from where the last one ended,
  the first from start_state).
- fec.puncture_bb(puncsize, puncpat, delay=0) punctures the interleaved sequence c_0(0)
  c_1(0) c_0(1) c_1(1) ... with the bits of puncpat, most significant first, over
  puncsize = n * period bits: our per-output patterns interleaved step by step.
  fec.extended_encoder takes the same pattern as a string ("111001" for 802.11's 3/4).
  puncture_bb runs the pattern on over the whole stream, where ours starts again at
  each frame: the two agree on frames of whole periods, and gr-fec's puncturing of a
  single frame gives ours when its last, partial period is flushed (gr_fec_puncture).
"""

import re
import unittest

import numpy as np
from gnuradio import blocks, fec, gr, gr_unittest
from gnuradio import gputurbo

from gputurbo_qa import run_usage_example
from qa_numpy_api import beyond_memory, no_copy_message

TERMINATIONS = ("terminated", "truncated", "tail-biting", "streaming")
GR_FEC_MODES = {
    "terminated": fec.CC_TERMINATED,
    "truncated": fec.CC_TRUNCATED,
    "tail-biting": fec.CC_TAILBITING,
    "streaming": fec.CC_STREAMING,
}

# The puncturing patterns of 802.11 (§17.3.5.7: A is the 133 output, B the 171 one) and
# CCSDS 131.0-B (X: 171, Y: 133), written for gr-fec: the code bits of one period in the
# order they come out of the encoder, 1 for sent.
GR_FEC_PUNCPAT = {
    # 802.11, outputs (133, 171): 2/3 sends A0 B0 A1; 3/4 sends A0 B0 A1 B2.
    ("802.11", "2/3"): "1110",
    ("802.11", "3/4"): "111001",
    # CCSDS, outputs (171, -133): 2/3 sends X0 Y0 Y1; 3/4 sends X0 Y0 Y1 X2.
    ("ccsds", "2/3"): "1101",
    ("ccsds", "3/4"): "110110",
}


def random_bits(rng, frames, frame_bits):
    return rng.integers(0, 2, (frames, frame_bits), dtype=np.uint8)


def gr_fec_polys(code):
    """The code's polynomials as cc_encoder_make takes them."""
    def reversed_bits(g):
        return int(format(g, f"0{code.constraint}b")[::-1], 2)
    return [-reversed_bits(g) if inverted else reversed_bits(g)
            for g, inverted in zip(code.polynomials, code.inverted)]


def gr_fec_encoder(code, termination, frame_bits):
    return fec.cc_encoder_make(frame_bits, code.constraint, code.outputs,
                               gr_fec_polys(code), 0, GR_FEC_MODES[termination], False)


def run_bits(source_bits, *chain):
    """Unpacked bits through a chain of blocks; what comes out."""
    tb = gr.top_block()
    src = blocks.vector_source_b(np.ravel(source_bits).tolist(), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, *chain, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def gr_fec_encode(code, bits, termination):
    """The frames (rows) through fec.encoder(cc_encoder) in one flowgraph, frame after
    frame as a stream: (n, coded bits per frame)."""
    encoder = gr_fec_encoder(code, termination, bits.shape[1])
    out = run_bits(bits, fec.encoder(encoder, gr.sizeof_char, gr.sizeof_char))
    return out.reshape(len(bits), -1)


def gr_fec_puncture(coded, puncpat):
    """Each row (one frame's code bits) through fec.puncture_bb by itself: the pattern
    starts at each row. puncture_bb keeps back a partial period until the rest of it
    arrives, so each row is flushed with filler to whole periods, and only the bits the
    pattern sends from the row's own positions are kept."""
    size = len(puncpat)
    pattern = np.array([int(b) for b in puncpat], dtype=np.uint8)
    length = coded.shape[1]
    periods = -(-length // size)
    sent_per_row = periods * int(pattern.sum())
    sent_of_row = int(np.resize(pattern, length).sum())
    flushed = np.zeros((len(coded), periods * size), dtype=np.uint8)
    flushed[:, :length] = coded
    out = run_bits(flushed, fec.puncture_bb(size, fec.read_bitlist(puncpat), 0))
    return out.reshape(len(coded), sent_per_row)[:, :sent_of_row]


def interleaved_pattern(patterns):
    """Per-output patterns "110,101" as gr-fec's pattern over the interleaved code bits
    ("111001")."""
    rows = patterns.split(",")
    return "".join(row[j] for j in range(len(rows[0])) for row in rows)


class qa_conv_code_gr_fec(gr_unittest.TestCase):
    """Our encoder and puncturing against gr-fec's cc_encoder and puncture_bb."""

    FRAMES = 5

    def test_001_encoder_every_code_and_termination(self):
        rng = np.random.default_rng(1)
        for name in gputurbo.conv_presets():
            code = gputurbo.conv_code(name)
            for termination in TERMINATIONS:
                for frame_bits in (code.constraint - 1, 37, 200):
                    with self.subTest(code=name, termination=termination,
                                      frame_bits=frame_bits):
                        bits = random_bits(rng, self.FRAMES, frame_bits)
                        ours = code.encode(bits, termination)
                        self.assertEqual(
                            ours.shape, (self.FRAMES,
                                         code.coded_length(frame_bits, termination)))
                        np.testing.assert_array_equal(
                            ours, gr_fec_encode(code, bits, termination))

    def test_002_custom_codes(self):
        rng = np.random.default_rng(2)
        for constraint, polynomials in ((3, "7,-5"), (4, "-17,15,13,11"),
                                        (9, "-753,561")):
            code = gputurbo.conv_code(constraint=constraint, polynomials=polynomials)
            for termination in TERMINATIONS:
                with self.subTest(code=code.text, termination=termination):
                    bits = random_bits(rng, self.FRAMES, 64)
                    np.testing.assert_array_equal(
                        code.encode(bits, termination),
                        gr_fec_encode(code, bits, termination))

    def test_003_punctured_rates(self):
        rng = np.random.default_rng(3)
        for (name, rate), puncpat in GR_FEC_PUNCPAT.items():
            code = gputurbo.conv_code(name)
            for termination in TERMINATIONS:
                # 37 and 200 bits end in a partial period of the pattern; 48 does not.
                for frame_bits in (37, 48, 200):
                    with self.subTest(code=name, rate=rate, termination=termination,
                                      frame_bits=frame_bits):
                        bits = random_bits(rng, self.FRAMES, frame_bits)
                        ours = code.encode(bits, termination, rate)
                        self.assertEqual(ours.shape[1], code.punctured_length(
                            frame_bits, termination, rate))
                        theirs = gr_fec_puncture(
                            gr_fec_encode(code, bits, termination), puncpat)
                        np.testing.assert_array_equal(ours, theirs)
                        # The rate's patterns, written per output, are the same.
                        self.assertEqual(
                            interleaved_pattern(self.per_output(puncpat, code.outputs)),
                            puncpat)
                        np.testing.assert_array_equal(
                            code.encode(bits, termination,
                                        self.per_output(puncpat, code.outputs)), ours)

    def test_004_explicit_patterns(self):
        rng = np.random.default_rng(4)
        for name, patterns in (("gsm", "1101,0111"), ("lte", "11,10,01"),
                               ("802.11", "1,1")):
            code = gputurbo.conv_code(name)
            for termination in ("terminated", "tail-biting"):
                with self.subTest(code=name, patterns=patterns, termination=termination):
                    bits = random_bits(rng, self.FRAMES, 45)
                    np.testing.assert_array_equal(
                        code.encode(bits, termination, patterns),
                        gr_fec_puncture(gr_fec_encode(code, bits, termination),
                                        interleaved_pattern(patterns)))

    def test_005_extended_encoder_stream(self):
        # The flowgraph a GNU Radio user builds: fec.extended_encoder with cc_encoder
        # and the pattern string, over frames of whole pattern periods, where its
        # pattern that runs on over the stream meets ours that starts at each frame.
        rng = np.random.default_rng(5)
        for (name, rate), puncpat in GR_FEC_PUNCPAT.items():
            code = gputurbo.conv_code(name)
            for termination in TERMINATIONS:
                for frame_bits in (30, 96):  # whole periods of 2 and 3 steps
                    if termination == "terminated":
                        frame_bits -= code.constraint - 1
                    with self.subTest(code=name, rate=rate, termination=termination,
                                      frame_bits=frame_bits):
                        bits = random_bits(rng, 8, frame_bits)
                        encoder = gr_fec_encoder(code, termination, frame_bits)
                        theirs = run_bits(bits, fec.extended_encoder(
                            encoder, threading=None, puncpat=puncpat))
                        np.testing.assert_array_equal(
                            code.encode(bits, termination, rate).ravel(), theirs)

    @staticmethod
    def per_output(puncpat, outputs):
        """gr-fec's interleaved pattern split back into one pattern per output."""
        return ",".join(puncpat[o::outputs] for o in range(outputs))


class qa_conv_code_api(gr_unittest.TestCase):
    """Shapes, properties and the row conventions of the numpy API."""

    def test_001_presets_and_properties(self):
        self.assertEqual(gputurbo.conv_presets(),
                         ["ccsds", "802.11", "dvb", "lte", "gsm", "cdma-r2", "cdma-r3"])
        ccsds = gputurbo.conv_code("ccsds")
        self.assertEqual((ccsds.constraint, ccsds.polynomials, ccsds.inverted,
                          ccsds.outputs, ccsds.states, ccsds.text),
                         (7, [0o171, 0o133], [False, True], 2, 64, "K=7 171,-133"))
        self.assertEqual(repr(ccsds),
                         "gputurbo.conv_code(constraint=7, polynomials='171,-133')")
        lte = gputurbo.conv_code(preset="lte")
        self.assertEqual((lte.polynomials, lte.inverted, lte.outputs),
                         ([0o133, 0o171, 0o165], [False] * 3, 3))
        custom = gputurbo.conv_code(constraint=5, polynomials="-23,33")
        self.assertEqual((custom.text, custom.states), ("K=5 -23,33", 16))

    def test_002_lengths(self):
        code = gputurbo.conv_code("802.11")
        self.assertEqual(code.coded_length(100), 212)
        self.assertEqual(code.coded_length(100, "terminated"), 212)
        for termination in ("truncated", "tail-biting", "streaming"):
            self.assertEqual(code.coded_length(100, termination), 200)
        # 106 steps of 3/4: 35 periods of 4 bits, then a step that sends both.
        self.assertEqual(code.punctured_length(100, "terminated", "3/4"), 142)
        self.assertEqual(code.punctured_length(100, "truncated", "2/3"), 150)
        self.assertEqual(code.punctured_length(100), 212)
        rng = np.random.default_rng(6)
        for termination in TERMINATIONS:
            for puncturing in ("", "2/3", "3/4", "5/6", "7/8"):
                sent = code.encode(random_bits(rng, 2, 61), termination, puncturing)
                self.assertEqual(sent.shape, (2, code.punctured_length(
                    61, termination, puncturing)))

    def test_003_one_frame_empty_batch_and_copies(self):
        code = gputurbo.conv_code("ccsds")
        rng = np.random.default_rng(7)
        bits = random_bits(rng, 4, 50)
        sent = code.encode(bits, "terminated", "3/4")
        one = code.encode(bits[2], "terminated", "3/4")
        self.assertEqual(one.shape, sent.shape[1:])
        np.testing.assert_array_equal(one, sent[2])
        self.assertEqual(code.encode(bits[:0]).shape, (0, code.coded_length(50)))
        # A column slice and Fortran order are copied first.
        wide = random_bits(rng, 4, 100)
        np.testing.assert_array_equal(code.encode(wide[:, ::2]),
                                      code.encode(np.ascontiguousarray(wide[:, ::2])))
        np.testing.assert_array_equal(code.encode(np.asfortranarray(bits)),
                                      code.encode(bits))
        self.assertEqual(sent.dtype, np.uint8)

    def test_004_streaming_rows_are_one_stream(self):
        code = gputurbo.conv_code("gsm")
        bits = random_bits(np.random.default_rng(8), 1, 300)[0]
        whole = code.encode(bits, "streaming")
        np.testing.assert_array_equal(code.encode(bits.reshape(3, 100), "streaming"),
                                      whole.reshape(3, 200))
        # Each call starts again from state 0.
        np.testing.assert_array_equal(code.encode(bits[100:200], "streaming"),
                                      code.encode(bits[100:200], "truncated"))

    def test_005_depuncture(self):
        code = gputurbo.conv_code("802.11")
        bits = random_bits(np.random.default_rng(9), 3, 40)
        coded = code.encode(bits, "tail-biting")
        sent = code.encode(bits, "tail-biting", "3/4")
        llrs = (2.0 * sent - 1.0).astype(np.float32)  # positive for 1
        out = code.depuncture(llrs, 40, "tail-biting", "3/4")
        self.assertEqual((out.dtype, out.shape), (np.float32, coded.shape))
        keep = np.resize([1, 1, 1, 0, 0, 1], coded.shape[1]).astype(bool)
        np.testing.assert_array_equal(out[:, ~keep], 0.0)
        np.testing.assert_array_equal(out[:, keep], 2.0 * coded[:, keep] - 1.0)
        np.testing.assert_array_equal(
            code.depuncture(llrs[1], 40, "tail-biting", "3/4"), out[1])
        # No puncturing: the values as they are.
        plain = (2.0 * coded - 1.0).astype(np.float32)
        np.testing.assert_array_equal(code.depuncture(plain, 40, "tail-biting"), plain)

    def test_006_usage_example_runs(self):
        # The example of docs/usage.md's "Convolutional codes (numpy)" section.
        run_usage_example("### Convolutional codes (numpy)")


class qa_conv_code_errors(gr_unittest.TestCase):
    """Bad input raises ValueError saying what is expected."""

    def setUp(self):
        self.code = gputurbo.conv_code("802.11")

    def test_001_codes(self):
        either = re.escape("conv_code takes a preset (one of ccsds, 802.11, dvb, lte, "
                           "gsm, cdma-r2, cdma-r3) or both constraint and polynomials")
        cases = [
            (dict(), either),
            (dict(constraint=7), either),
            (dict(polynomials="171,133"), either),
            (dict(preset="ccsds", constraint=7), either),
            (dict(preset="nasa"), "unknown code preset 'nasa': use one of ccsds"),
            (dict(constraint=10, polynomials="1171,1133"), "K=10 is out of range: use "
             "3 ... 9"),
            (dict(constraint=7, polynomials="171"), "a rate-1/n code needs n = 2 ... 4"),
            (dict(constraint=5, polynomials="171,133"), "171 \\(octal\\) is wider than "
             "K=5"),
            (dict(constraint=7, polynomials="171,0"), "taps nothing"),
            (dict(constraint=7, polynomials="171,139"), "'139' is not an octal number"),
            # Wider than 32 or 64 bits: refused, not cut down or overflowed.
            (dict(constraint=7, polynomials="40000000171,133"), "polynomial 40000000171 "
             "\\(octal\\) is wider than K=7 bits"),
            (dict(constraint=7, polynomials="133," + "7" * 30), "is wider than K=7 bits"),
        ]
        for kwargs, pattern in cases:
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(ValueError, pattern):
                    gputurbo.conv_code(**kwargs)

    def test_002_bits(self):
        expected = re.escape("bits must be uint8 (0 or 1) of shape (n, frame_bits), or "
                             "(frame_bits,) for one frame; got ")
        cases = [
            (np.zeros((2, 40), np.int64), "int64 (2, 40)"),
            (np.zeros((2, 2, 40), np.uint8), "uint8 (2, 2, 40)"),
            (np.uint8(1), "uint8 ()"),
            ([[0.0] * 40], "float64 (1, 40)"),
        ]
        for bits, got in cases:
            with self.subTest(got=got):
                with self.assertRaisesRegex(ValueError, expected + re.escape(got) + "$"):
                    self.code.encode(bits)
        bits = np.zeros((2, 40), np.uint8)
        bits[1, 3] = 2
        with self.assertRaisesRegex(ValueError, "bits must be 0 or 1; got 2 at flat "
                                    "index 43"):
            self.code.encode(bits)
        with self.assertRaisesRegex(ValueError, "frame_bits=0 is out of range: a frame "
                                    "has at least 1 bit"):
            self.code.encode(np.zeros((2, 0), np.uint8))
        with self.assertRaisesRegex(ValueError, "frame_bits=5 is shorter than the "
                                    "tail-biting state of K-1=6 bits"):
            self.code.encode(np.zeros((2, 5), np.uint8), "tail-biting")

    def test_003_termination_and_puncturing(self):
        bits = np.zeros((2, 40), np.uint8)
        with self.assertRaisesRegex(ValueError, "unknown termination 'wrapped': use one "
                                    "of terminated, truncated, tail-biting, streaming"):
            self.code.encode(bits, "wrapped")
        cases = [
            ("4/5", "use a rate \\(2/3, 3/4, 5/6, 7/8\\) or a 0/1 pattern per output"),
            ("110", "has 1 pattern\\(s\\) for a code of 2 outputs"),
            ("11,1", "the patterns differ in length"),
            ("00,00", "sends no bit"),
        ]
        for puncturing, pattern in cases:
            with self.subTest(puncturing=puncturing):
                with self.assertRaisesRegex(ValueError, pattern):
                    self.code.encode(bits, "terminated", puncturing)
        with self.assertRaisesRegex(ValueError, "rate 3/4 is defined for the K=7 code "
                                    "of generators 171 and 133, not K=5 23,33"):
            gputurbo.conv_code("gsm").encode(bits, "terminated", "3/4")

    def test_004_lengths_and_depuncture(self):
        for frame_bits in (0, -1):
            with self.subTest(frame_bits=frame_bits):
                with self.assertRaisesRegex(ValueError, "at least 1 bit"):
                    self.code.coded_length(frame_bits)
                with self.assertRaisesRegex(ValueError, "at least 1 bit"):
                    self.code.punctured_length(frame_bits, "truncated", "3/4")
        with self.assertRaisesRegex(ValueError, "unknown termination"):
            self.code.coded_length(40, "open")
        expected = re.escape("llrs must be float32 of shape (n, 62) for 40-bit frames, "
                             "terminated, puncturing 3/4, or (62,) for one frame; got ")
        for llrs, got in ((np.zeros((2, 62)), "float64 (2, 62)"),
                          (np.zeros((2, 92), np.float32), "float32 (2, 92)")):
            with self.subTest(got=got):
                with self.assertRaisesRegex(ValueError, expected + re.escape(got) + "$"):
                    self.code.depuncture(llrs, 40, "terminated", "3/4")
        with self.assertRaisesRegex(ValueError, "tail-biting state of K-1=6 bits"):
            self.code.depuncture(np.zeros(8, np.float32), 4, "tail-biting")

    def test_005_no_memory_for_a_copy(self):
        # As qa_numpy_api's: MemoryError saying how big the copy is, caused by numpy's.
        bits = beyond_memory(np.uint8, (10**16, 40))
        llrs = beyond_memory(np.float32, (10**15, 62))
        cases = [
            (lambda: self.code.encode(bits), "bits", bits),
            (lambda: self.code.depuncture(llrs, 40, "terminated", "3/4"), "llrs", llrs),
        ]
        for call, name, a in cases:
            with self.subTest(name=name):
                with self.assertRaisesRegex(MemoryError, no_copy_message(name, a)) as e:
                    call()
                self.assertIsInstance(e.exception.__cause__, MemoryError)


if __name__ == '__main__':
    unittest.main(verbosity=2)
