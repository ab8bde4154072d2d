#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""viterbi_decoder_fec and conv_encoder_fec: gr-fec's cc_decoder and cc_encoder
arguments, cc_encoder's bits, and decoding in fec.extended_decoder, async_decoder and
tagged_decoder, on the backend GPUTURBO_QA_BACKEND names."""

import os
import sys
import time
import unittest

import numpy as np
from gnuradio import blocks, fec, gr
from gnuradio import gputurbo
import pmt

BACKEND = os.environ.get("GPUTURBO_QA_BACKEND", "cpu")
SKIP_RETURN_CODE = 77  # ctest's SKIP_RETURN_CODE for these tests
MODES = (fec.CC_STREAMING, fec.CC_TERMINATED, fec.CC_TRUNCATED, fec.CC_TAILBITING)
CODES = {"ccsds": [79, -109], "802.11": [109, 79]}  # gr-fec's form of ours


def require_backend():
    try:
        gputurbo.viterbi_decoder_fec.make(64, 7, 2, CODES["ccsds"], backend=BACKEND)
    except RuntimeError as e:
        print(f"SKIPPED: backend {BACKEND} is not available here: {e}")
        sys.exit(SKIP_RETURN_CODE)


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
                    self.assertEqual(out.size, bits.size, what)
                    lag = obj.delay()  # a stream's bits come out that much later
                    self.assertEqual(lag > 0, mode == fec.CC_STREAMING, what)
                    np.testing.assert_array_equal(out[:lag], 0, err_msg=what)
                    np.testing.assert_array_equal(out[lag:], bits[:bits.size - lag],
                                                  err_msg=what)
                    self.assertEqual(obj.frames(), 30)

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
        tb = gr.top_block()
        debug = blocks.message_debug()
        tb.msg_connect(block, "out", debug, "store")
        tb.start()
        port = pmt.intern("in")
        for vector in pdus:
            block.to_basic_block()._post(port, pmt.cons(pmt.make_dict(), vector))
        deadline = time.time() + 30
        while ((debug.num_messages() < len(pdus) - unread or
                block.to_basic_block().nmsgs(port) > unread) and time.time() < deadline):
            time.sleep(0.01)
        if unread:
            time.sleep(0.5)
        tb.stop()
        tb.wait()
        return [np.array(pmt.u8vector_elements(pmt.cdr(debug.get_message(i))),
                         dtype=np.uint8) for i in range(debug.num_messages())]

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
    require_backend()
    unittest.main(verbosity=2)
