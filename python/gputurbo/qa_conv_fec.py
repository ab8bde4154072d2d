#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""viterbi_decoder_fec and conv_encoder_fec: gr-fec's cc_decoder and cc_encoder
arguments, cc_encoder's bits, decoding in fec.extended_decoder, async_decoder and
tagged_decoder, and gr-fec's BER tools (fec_test, ber_bf) against cc_decoder, on the
backend GPUTURBO_QA_BACKEND names."""

import collections
import os
import unittest

# Each block's work time on its thread's clock (test_frame_rate_beside_cc_decoder).
os.environ.setdefault("GR_CONF_PERFCOUNTERS_ON", "True")
os.environ.setdefault("GR_CONF_PERFCOUNTERS_CLOCK", "thread")

import numpy as np  # noqa: E402 (after the environment GNU Radio reads)
from gnuradio import blocks, fec, gr  # noqa: E402
from gnuradio import gputurbo  # noqa: E402
import pmt  # noqa: E402

from gputurbo_qa import BACKEND, require_backend, run_fec_pdus  # noqa: E402

MODES = (fec.CC_STREAMING, fec.CC_TERMINATED, fec.CC_TRUNCATED, fec.CC_TAILBITING)
CODES = {"ccsds": [79, -109], "802.11": [109, 79]}  # gr-fec's form of ours


def run(source, *chain):
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    tb.connect(source, *chain, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


def extended_encode(obj, bits):
    return run(blocks.vector_source_b(bits.tolist(), False),
               fec.extended_encoder(encoder_obj_list=obj, threading=None,
                                    puncpat="11"))[0]


def extended_decode(obj, values):
    return run(blocks.vector_source_f(values.tolist(), False),
               fec.extended_decoder(decoder_obj_list=obj, threading=None, ann=None,
                                    puncpat="11", integration_period=10000))[0]


def decoder(frame_size, polys, mode, **kwargs):
    return gputurbo.viterbi_decoder_fec.make(frame_size, 7, 2, polys, 0, -1, mode,
                                             backend=BACKEND, **kwargs)


# fec_test_ber(): bit errors and bits compared, the errors gr-fec's ber_bf counted and
# the BER it gave last, and the noisy symbols the decoder had.
BerResult = collections.namedtuple("BerResult",
                                   "errors compared ber_bf_errors ber_bf symbols")


def fec_test_ber(encoder, decoder_obj, esno, data, seed):
    """data (bytes) through gr-fec's fec_test (the chain of bercurve_generator and GNU
    Radio's ber_curve_gen.grc: encode, BPSK 0 -> -1, noise of the seed, decode) and its
    outputs through gr-fec's ber_bf."""
    tb = gr.top_block()
    test = fec.fec_test(generic_encoder=encoder, generic_decoder=decoder_obj, esno=esno,
                        seed=seed)
    ber = fec.ber_bf(False)
    decoded, sent = blocks.vector_sink_b(), blocks.vector_sink_b()
    log_ber, symbols = blocks.vector_sink_f(), blocks.vector_sink_f()
    tb.connect(blocks.vector_source_b(data.tolist(), False), test)
    tb.connect((test, 0), (ber, 0))
    tb.connect((test, 1), (ber, 1))
    tb.connect(ber, log_ber)
    tb.connect((test, 0), decoded)
    tb.connect((test, 1), sent)
    tb.connect(test.addnoise, symbols)
    tb.run()
    rx = np.unpackbits(np.array(decoded.data(), dtype=np.uint8))
    tx = np.unpackbits(np.array(sent.data(), dtype=np.uint8))
    compared = min(rx.size, tx.size)
    errors = int(np.count_nonzero(rx[:compared] != tx[:compared]))
    return BerResult(errors, compared, ber.total_errors(), 10.0 ** log_ber.data()[-1],
                     np.array(symbols.data(), dtype=np.float32))


class qa_conv_fec(unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(12)

    def test_encoder_makes_cc_encoders_bits(self):
        for name, polys in CODES.items():
            for mode in MODES:
                for padded in (False, True):
                    bits = self.rng.integers(0, 2, 128 * 9, dtype=np.uint8)
                    theirs = extended_encode(
                        fec.cc_encoder_make(128, 7, 2, polys, 0, mode, padded), bits)
                    ours = extended_encode(
                        gputurbo.conv_encoder_fec.make(128, 7, 2, polys, 0, mode, padded),
                        bits)
                    np.testing.assert_array_equal(ours, theirs,
                                                  err_msg=f"{name} {mode} {padded}")

    def test_decodes_cc_encoders_bits_in_every_mode(self):
        # BPSK of gr-fec's code bits (0 -> -1, 1 -> +1), as gr-fec's chains send them.
        for name, polys in CODES.items():
            for mode in MODES:
                for padded in (False, True):
                    bits = self.rng.integers(0, 2, 128 * 30, dtype=np.uint8)
                    code = extended_encode(
                        fec.cc_encoder_make(128, 7, 2, polys, 0, mode, padded), bits)
                    obj = decoder(128, polys, mode, padded=padded)
                    out = extended_decode(obj, 2.0 * code.astype(np.float32) - 1.0)
                    what = f"{name} {mode} {padded}"
                    # A stream's frame is decoded with the symbols after it: its last
                    # frame waits for them, as cc_decoder's does.
                    frames = 29 if mode == fec.CC_STREAMING else 30
                    self.assertEqual(obj.delay(), 0, what)
                    np.testing.assert_array_equal(out, bits[:128 * frames], err_msg=what)
                    self.assertEqual(obj.frames(), frames)
                    self.assertEqual(fec.get_history(obj),
                                     2 * 70 if mode == fec.CC_STREAMING else 0)

    def test_frame_rate_beside_cc_decoder(self):
        # One 80-bit frame a call (gr-satellites' streaming frames) and 1024-bit
        # terminated frames: the CPU work of extended_decoder's blocks with ours and with
        # cc_decoder (its conversions to bytes included) on the same symbols, the better
        # of two runs each. Ours is faster (scripts/fecapi-frame-rate measures it); here
        # it must reach half cc_decoder's rate, which an object that runs the batch
        # decoder for each frame does not.
        if BACKEND != "cpu":
            self.skipTest("the CPU's single decoders")
        for frame, mode, count in ((80, fec.CC_STREAMING, 3000),
                                   (1024, fec.CC_TERMINATED, 300)):
            bits = self.rng.integers(0, 2, frame * count, dtype=np.uint8)
            code = extended_encode(
                fec.cc_encoder_make(frame, 7, 2, CODES["ccsds"], 0, mode), bits)
            values = 2.0 * code.astype(np.float32) - 1.0
            seconds = {}
            for _ in range(2):
                for name, obj in (
                        ("ours", decoder(frame, CODES["ccsds"], mode)),
                        ("cc_decoder", fec.cc_decoder.make(frame, 7, 2, CODES["ccsds"],
                                                           0, -1, mode))):
                    ext = fec.extended_decoder(decoder_obj_list=obj, threading=None,
                                               ann=None, puncpat="11")
                    out = run(blocks.vector_source_f(values.tolist(), False), ext)[0]
                    np.testing.assert_array_equal(out, bits[:out.size], err_msg=name)
                    work = sum(b.pc_work_time_total() for b in ext.blocks)
                    seconds[name] = min(seconds.get(name, work), work)
            if not seconds["ours"]:
                self.skipTest("GNU Radio without performance counters")
            ratio = seconds["cc_decoder"] / seconds["ours"]
            print(f"{frame}-bit frames: {ratio:.2f} times cc_decoder's rate")
            self.assertGreater(ratio, 0.5, f"{frame}-bit frames")

    def test_delayed_stream(self):
        # delayed=True: viterbi_decoder's stream decoder, nothing read past a frame, the
        # output delay() bits late (the first ones 0).
        bits = self.rng.integers(0, 2, 128 * 30, dtype=np.uint8)
        code = extended_encode(
            fec.cc_encoder_make(128, 7, 2, CODES["ccsds"], 0, fec.CC_STREAMING), bits)
        obj = decoder(128, CODES["ccsds"], fec.CC_STREAMING, delayed=True)
        out = extended_decode(obj, 2.0 * code.astype(np.float32) - 1.0)
        lag = obj.delay()
        self.assertEqual((lag, fec.get_history(obj)), (70 + 32 * 70, 0))
        self.assertEqual(out.size, bits.size)
        np.testing.assert_array_equal(out[:lag], 0)
        np.testing.assert_array_equal(out[lag:], bits[:bits.size - lag])
        # Framed modes ignore it.
        self.assertEqual(decoder(128, CODES["ccsds"], fec.CC_TERMINATED,
                                 delayed=True).delay(), 0)

    def test_fec_test_ber_no_worse_than_cc_decoder(self):
        # gr-fec's BER tools as ber_curve_gen.grc uses them (fec_test, ber_bf), with
        # cc_encoder and, on the same noisy symbols, cc_decoder and ours: in every mode
        # our BER is at most 1.3 times cc_decoder's, above 0.4 times it (no transmitted
        # bits leak through) and ber_bf reads it. Streaming frames come out aligned.
        frame = 2048
        data = np.random.default_rng(3).integers(0, 256, 50000, dtype=np.uint8)
        polys = CODES["802.11"]
        for mode in MODES:
            for esno in (-1.0, -0.5, 0.0):
                what = f"{mode} Es/N0 {esno} dB"
                theirs = fec_test_ber(fec.cc_encoder_make(frame, 7, 2, polys, 0, mode),
                                      fec.cc_decoder.make(frame, 7, 2, polys, 0, -1, mode),
                                      esno, data, seed=7)
                ours = fec_test_ber(fec.cc_encoder_make(frame, 7, 2, polys, 0, mode),
                                    decoder(frame, polys, mode), esno, data, seed=7)
                what += f": {ours.errors} errors, cc_decoder {theirs.errors}"
                np.testing.assert_array_equal(ours.symbols, theirs.symbols, err_msg=what)
                self.assertGreaterEqual(theirs.errors, 100, what)
                self.assertLessEqual(ours.errors, 1.3 * theirs.errors, what)
                self.assertGreater(ours.errors, 0.4 * theirs.errors, what)
                # Every whole frame but the last, which gr-fec's decoder block leaves
                # (a stream's waits for the symbols after it).
                self.assertEqual(ours.compared, theirs.compared, what)
                self.assertGreaterEqual(ours.compared,
                                        (data.size * 8 // frame - 1) * frame, what)
                self.assertEqual(ours.ber_bf_errors, ours.errors, what)
                self.assertAlmostEqual(ours.ber_bf, ours.errors / ours.compared,
                                       delta=1e-6 * ours.ber_bf, msg=what)

    def test_stream_in_tagged_and_async_decoders(self):
        # tagged_decoder holds nothing past a packet: once set_frame_size() announces
        # packets of a stream, each is decoded to its end. async_decoder refuses an
        # object that reads past its frame (as it refuses cc_decoder's CC_STREAMING);
        # the delayed one it takes.
        sizes = [300, 64, 1000, 17]
        bits = self.rng.integers(0, 2, sum(sizes), dtype=np.uint8)
        code = extended_encode(
            fec.cc_encoder_make(sum(sizes), 7, 2, CODES["ccsds"], 0, fec.CC_STREAMING),
            bits)
        symbols = 2.0 * code.astype(np.float32) - 1.0
        tags, offset = [], 0
        for n in sizes:
            tags.append(gr.tag_utils.python_to_tag(
                (offset, pmt.intern("packet_len"), pmt.from_long(2 * n))))
            offset += 2 * n
        obj = decoder(2048, CODES["ccsds"], fec.CC_STREAMING)
        out, _ = run(blocks.vector_source_f(symbols.tolist(), False, 1, tags),
                     fec.tagged_decoder(obj, gr.sizeof_float, gr.sizeof_char,
                                        "packet_len", 1500))
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(obj.frames(), len(sizes))
        with self.assertRaisesRegex(RuntimeError, "history"):
            fec.async_decoder(obj, False, True, 1500)
        fec.async_decoder(decoder(2048, CODES["ccsds"], fec.CC_STREAMING, delayed=True),
                          False, True, 1500)

    def test_noisy_frames_no_worse_than_cc_decoder(self):
        bits = self.rng.integers(0, 2, 256 * 400, dtype=np.uint8)
        code = extended_encode(
            fec.cc_encoder_make(256, 7, 2, CODES["ccsds"], 0, fec.CC_TERMINATED), bits)
        y = (2.0 * code - 1.0 + self.rng.normal(0, 0.75, code.size)).astype(np.float32)
        ours = extended_decode(decoder(256, CODES["ccsds"], fec.CC_TERMINATED), y)
        theirs = extended_decode(fec.cc_decoder.make(256, 7, 2, CODES["ccsds"], 0, -1,
                                                     fec.CC_TERMINATED), y)
        errors = np.count_nonzero(ours != bits)
        self.assertGreater(errors, 0, "noisy enough to tell")
        self.assertLessEqual(errors, np.count_nonzero(theirs != bits) * 1.1 + 5)

    def run_pdus(self, block, pdus, unread=0):
        """The data of the PDUs block sends out for pdus. With unread > 0 the block is
        expected to stop with that many PDUs left in its queue: waits for that, and a
        moment more for any late output."""
        out = run_fec_pdus(block, [(pmt.make_dict(), vector) for vector in pdus],
                           len(pdus) - unread, unread)
        return [np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8) for m in out]

    def test_async_decoder_frames_of_any_size(self):
        # async_decoder announces int(length / 2) less the tail: the frame's bits, of any
        # size (beyond the object's frame_size too). A PDU too short for its tail is
        # refused: an empty PDU.
        code = gputurbo.conv_code("ccsds")
        sizes = [300, 17, 5000, 1000]
        frames = [self.rng.integers(0, 2, n, dtype=np.uint8) for n in sizes]
        pdus = [pmt.init_f32vector(2 * (n + 6), (2.0 * code.encode(f) - 1.0).tolist())
                for n, f in zip(sizes, frames)]
        pdus.append(pmt.init_f32vector(8, [1.0] * 8))
        obj = decoder(1000, CODES["ccsds"], fec.CC_TERMINATED)
        out = self.run_pdus(fec.async_decoder(obj, False, True, 1500), pdus)
        self.assertEqual(len(out), len(pdus))
        for i, (bits, frame) in enumerate(zip(out, frames + [[]])):
            np.testing.assert_array_equal(bits, frame, err_msg=f"PDU {i}")
        self.assertEqual((obj.frames(), obj.refused_frames()), (4, 1))

    def test_async_decoder_pdus_of_any_length(self):
        # async_decoder holds a PDU in a buffer of mtu * 8 / rate() values and checks
        # its length only when set_frame_size() says True (packed: always); on False it
        # copies the PDU in unchecked. The object says False only for PDUs of fewer than
        # 8 bits' worth of values (0, 1, 8 here: an empty PDU out), so no PDU overruns
        # the buffer: an odd length decodes its frame, a frame over 2^20 bits that fits
        # the buffer comes out as zero bits, and a longer PDU makes gr-fec throw:
        # nothing comes out, the block stops and the PDU after it stays queued.
        code = gputurbo.conv_code("ccsds")
        frames = {n: self.rng.integers(0, 2, n, dtype=np.uint8) for n in (300, 500, 1000)}
        sent = {n: 2.0 * code.encode(f) - 1.0 for n, f in frames.items()}
        big = 2 ** 20 + 1
        pdus = [sent[300], [], [1.0], [1.0] * 8, np.append(sent[500], 1.0), sent[1000],
                np.ones(2 * (big + 6)), np.ones(2 ** 21 + 1025), sent[300]]
        obj = decoder(1000, CODES["ccsds"], fec.CC_TERMINATED)
        block = fec.async_decoder(obj, False, True, 2 ** 17 + 8)  # 2 097 280 values
        out = self.run_pdus(block, [pmt.init_f32vector(len(y), list(y)) for y in pdus],
                            unread=1)
        # After a refusal gr-fec counts the next terminated frame's tail as its bits.
        expected = [frames[300], [], [], [], np.append(frames[500], np.zeros(6)),
                    frames[1000], np.zeros(big)]
        self.assertEqual(len(out), len(expected))
        for i, (bits, frame) in enumerate(zip(out, expected)):
            np.testing.assert_array_equal(bits, frame, err_msg=f"PDU {i}")
        self.assertEqual(block.to_basic_block().nmsgs(pmt.intern("in")), 1)
        self.assertEqual((obj.frames(), obj.refused_frames()), (3, 3))

        # packed (truncated frames: a terminated one would come with its tail)
        frames = {n: self.rng.integers(0, 2, n, dtype=np.uint8) for n in (304, 1000)}
        sent = {n: 2.0 * code.encode(f, "truncated") - 1.0 for n, f in frames.items()}
        pdus = [sent[304], [], [1.0], np.append(sent[304], 1.0), sent[1000],
                np.ones(2 ** 21 + 1), sent[304]]
        obj = decoder(1000, CODES["ccsds"], fec.CC_TRUNCATED)
        block = fec.async_decoder(obj, True, True, 1500)
        out = self.run_pdus(block, [pmt.init_f32vector(len(y), list(y)) for y in pdus],
                            unread=1)
        expected = [frames[304], [], [], frames[304], frames[1000]]
        self.assertEqual(len(out), len(expected))
        for i, (data, frame) in enumerate(zip(out, expected)):
            np.testing.assert_array_equal(
                data, np.packbits(np.array(frame, np.uint8), bitorder="little"),
                err_msg=f"PDU {i}")
        self.assertEqual(block.to_basic_block().nmsgs(pmt.intern("in")), 1)
        self.assertEqual((obj.frames(), obj.refused_frames()), (3, 2))

    def test_tagged_decoder_packets(self):
        # Tail-biting frames: round(length / 2) is the frame; a packet too short for the
        # state of K-1 bits is consumed and gives nothing.
        code = gputurbo.conv_code("802.11")
        sizes = [64, 200, 4, 96]
        frames = [self.rng.integers(0, 2, n, dtype=np.uint8) for n in sizes]
        packets = [2.0 * code.encode(f, "tail-biting") - 1.0 if n >= 6 else
                   np.ones(2 * n, np.float32) for n, f in zip(sizes, frames)]
        tags, offset = [], 0
        for p in packets:
            tags.append(gr.tag_utils.python_to_tag(
                (offset, pmt.intern("packet_len"), pmt.from_long(len(p)))))
            offset += len(p)
        obj = decoder(256, CODES["802.11"], fec.CC_TAILBITING)
        out, _ = run(blocks.vector_source_f(np.concatenate(packets).tolist(), False, 1,
                                            tags),
                     fec.tagged_decoder(obj, gr.sizeof_float, gr.sizeof_char,
                                        "packet_len", 1500))
        np.testing.assert_array_equal(out, np.concatenate([frames[0], frames[1],
                                                           frames[3]]))
        self.assertEqual((obj.frames(), obj.refused_frames()), (3, 1))

    def test_bad_arguments_name_themselves(self):
        for args, text in (((64, 7, 2, [79, -109], 1), "start_state"),
                           ((64, 7, 2, [79, -109], 0, 5), "end_state"),
                           ((64, 7, 3, [79, -109]), "polys"),
                           ((64, 12, 2, [79, -109]), "K=12"),
                           ((0, 7, 2, [79, -109]), "frame_bits"),
                           ((4, 7, 2, [79, -109], 0, -1, fec.CC_TAILBITING), "K-1")):
            with self.assertRaisesRegex(ValueError, text, msg=str(args)):
                gputurbo.viterbi_decoder_fec.make(*args, backend="cpu")
        with self.assertRaisesRegex(ValueError, "start_state"):
            gputurbo.conv_encoder_fec.make(64, 7, 2, [79, -109], 2)
        self.assertEqual(gputurbo.conv_encoder_fec.make(64, 7, 2, [79, -109]).code(),
                         gputurbo.conv_code("ccsds").text)


if __name__ == "__main__":
    require_backend(gputurbo.viterbi_decoder_fec.make, 64, 7, 2, CODES["ccsds"])
    unittest.main(verbosity=2)
