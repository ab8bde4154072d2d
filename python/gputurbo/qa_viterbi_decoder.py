#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The viterbi_decoder block: continuous streams (every bit out once, whatever the work
calls, the last ones at the end of the stream) and frames, against the encoder and the
numpy API, on the backend GPUTURBO_QA_BACKEND names."""

import re
import unittest

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import BACKEND, fresh_rng, require_backend, run_pdus
from qa_turbo_decoder import (codeword_tags, keyed_tags, paused_source, stream_tag,
                              wait_for)


def bpsk_llrs(sent, sigma, rng):
    """LLRs of BPSK (0 -> -1, 1 -> +1) over AWGN, positive for 1 (GNU Radio's sign)."""
    y = (2.0 * sent - 1.0) + rng.normal(0.0, sigma, sent.shape)
    return (2.0 * y / sigma**2).astype(np.float32)


def run(llrs, decoder, source_max=None, decoder_max=None, tags=()):
    """LLRs through the decoder block; returns (bits, or float32 values from a decoder of
    soft output, tags out). source_max and decoder_max cut the work calls of the source
    and the decoder short."""
    tb = gr.top_block()
    if llrs.dtype == np.int8:
        src = blocks.vector_source_b(llrs.view(np.uint8).tolist(), False, 1, list(tags))
    else:
        src = blocks.vector_source_f(llrs.tolist(), False, 1, list(tags))
    if source_max:
        src.set_max_noutput_items(source_max)
    if decoder_max:
        decoder.set_max_noutput_items(decoder_max)
    soft = decoder.output_signature().sizeof_stream_item(0) == 4
    snk = blocks.vector_sink_f() if soft else blocks.vector_sink_b()
    tb.connect(src, decoder, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.float32 if soft else np.uint8), snk.tags()


def tag_list(tags):
    """(offset, key, value as text) of every tag, sorted."""
    return sorted((t.offset, pmt.symbol_to_string(t.key), pmt.write_string(t.value))
                  for t in tags)


class qa_viterbi_decoder_stream(gr_unittest.TestCase):
    """termination "streaming": one stream from state 0."""

    def stream(self, preset, puncture, bits=20000, seed=1):
        rng = np.random.default_rng(seed)
        code = gputurbo.conv_code(preset)
        sent_bits = rng.integers(0, 2, bits, dtype=np.uint8)
        sent = code.encode(sent_bits, "streaming", puncture)
        return code, sent_bits, sent, rng

    def decoder(self, preset, puncture="", **kwargs):
        return gputurbo.viterbi_decoder(preset=preset, puncture=puncture,
                                        termination="streaming", backend=BACKEND,
                                        **kwargs)

    def test_noiseless_every_bit_out_once(self):
        for preset, puncture in (("ccsds", ""), ("dvb", "3/4"), ("gsm", ""),
                                 ("lte", "")):
            _, sent_bits, sent, _ = self.stream(preset, puncture)
            llrs = (8.0 * sent - 4.0).astype(np.float32)
            dec = self.decoder(preset, puncture)
            bits, _ = run(llrs, dec)
            self.assertEqual(bits.size, sent_bits.size, (preset, puncture))
            np.testing.assert_array_equal(bits, sent_bits, err_msg=f"{preset} {puncture}")
            self.assertEqual(dec.bits(), sent_bits.size)
            self.assertEqual(dec.partial_items(), 0)

    def test_output_does_not_depend_on_the_work_calls(self):
        # Noisy enough that the segments' decisions are close: any bit lost, repeated
        # or decided differently at a call boundary shows.
        for preset, puncture, sigma in (("ccsds", "", 0.8), ("dvb", "3/4", 0.6)):
            _, sent_bits, sent, rng = self.stream(preset, puncture, bits=30000, seed=2)
            llrs = bpsk_llrs(sent, sigma, rng)
            whole, _ = run(llrs, self.decoder(preset, puncture))
            self.assertEqual(whole.size, sent_bits.size)
            errors = int(np.count_nonzero(whole != sent_bits))
            self.assertGreater(errors, 10, "noisy enough to matter")
            self.assertLess(errors, sent_bits.size // 20)
            # On a GPU, batches in flight (1 or 4) and the calls' sizes decide how the
            # stream is cut into launches.
            for source_max, decoder_max, in_flight in ((7, None, 2), (None, 5, 4),
                                                       (333, 77, 1), (4096, 1000, 4),
                                                       (1, 3, 2)):
                bits, _ = run(llrs, self.decoder(preset, puncture,
                                                 batches_in_flight=in_flight),
                              source_max, decoder_max)
                np.testing.assert_array_equal(
                    bits, whole,
                    err_msg=f"{preset} {puncture} {source_max} {decoder_max} {in_flight}")

    def test_the_defaults_decode_a_stream(self):
        # A stream block's input is a stream: with its defaults the block decodes one,
        # as conv_encoder's defaults make one.
        _, sent_bits, sent, rng = self.stream("ccsds", "", bits=30000, seed=11)
        dec = gputurbo.viterbi_decoder(preset="ccsds", backend=BACKEND)
        bits, _ = run(bpsk_llrs(sent, 0.6, rng), dec)
        n = min(bits.size, sent_bits.size)
        self.assertLess(np.count_nonzero(bits[:n] != sent_bits[:n]), 30)
        self.assertEqual(bits.size, sent_bits.size)
        self.assertEqual(dec.termination(), "streaming")

    def test_a_work_call_decodes_a_batch_with_default_buffers(self):
        # The block asks GNU Radio for room for two batches upstream (its output
        # multiple) and, on the CPU, waits for one: the bits leave a batch at a time,
        # a segment for every lane of every thread, not a few thousand (a fraction of one
        # group of lanes, as with GNU Radio's default buffers before).
        if BACKEND != "cpu":
            self.skipTest("a GPU decodes what comes, its batches in flight")

        class chunks(gr.sync_block):
            def __init__(self):
                gr.sync_block.__init__(self, "chunks", [np.uint8], None)
                self.sizes = []

            def work(self, input_items, output_items):
                self.sizes.append(len(input_items[0]))
                return len(input_items[0])

        _, sent_bits, sent, rng = self.stream("ccsds", "", bits=600000, seed=14)
        dec = self.decoder("ccsds")
        lanes, threads = (int(x) for x in re.search(
            r"(\d+) thread\(s\).*\((\d+) segments", dec.device()).group(2, 1))
        batch = lanes * threads * 2240  # bits: the segments of K = 7 rate 1/2
        self.assertEqual(dec.output_multiple(), min(batch, 1 << 20))
        tb = gr.top_block()
        probe = chunks()
        tb.connect(blocks.vector_source_f(bpsk_llrs(sent, 0.6, rng).tolist(), False), dec,
                   probe)
        tb.run()
        self.assertEqual(sum(probe.sizes), sent_bits.size)
        # A whole batch a call, or the whole stream where a batch is longer (many cores).
        self.assertGreaterEqual(max(probe.sizes), min(batch, 1 << 20, sent_bits.size))

    def test_int8_input_and_the_other_sign(self):
        _, sent_bits, sent, rng = self.stream("ccsds", "", seed=3)
        llrs = bpsk_llrs(sent, 0.8, rng)
        floats, _ = run(llrs, self.decoder("ccsds"))
        q = np.clip(np.rint(llrs * 8.0), -127, 127).astype(np.int8)
        ints, _ = run(q, self.decoder("ccsds", input_type="int8"))
        self.assertLess(np.count_nonzero(ints != sent_bits), 2 * np.count_nonzero(
            floats != sent_bits) + 20)
        clean = (8.0 * sent - 4.0).astype(np.float32)
        negated, _ = run(-clean, self.decoder("ccsds", llr_sign="positive-zero"))
        np.testing.assert_array_equal(negated, sent_bits)

    def test_a_partial_step_at_the_end_is_counted(self):
        _, sent_bits, sent, _ = self.stream("ccsds", "", bits=1000)
        llrs = (8.0 * sent - 4.0).astype(np.float32)
        dec = self.decoder("ccsds")
        bits, _ = run(np.concatenate([llrs, llrs[:1]]), dec)  # half a step more
        np.testing.assert_array_equal(bits, sent_bits)
        self.assertEqual(dec.partial_items(), 1)

    def test_a_restart_starts_a_new_stream(self):
        # A restart empties GNU Radio's buffers: the decoder starts a new stream from
        # state 0 at the first item after it, and says so with a tag "restart" (the
        # input LLRs it held at the stop) on its first output bit. A source that starts
        # a new stream too (an encoder restarting) decodes again; one that goes on
        # mid-stream cannot be told apart, which the tag is for.
        _, first_bits, first, _ = self.stream("ccsds", "", bits=6000, seed=4)
        _, second_bits, second, _ = self.stream("ccsds", "", bits=6000, seed=5)
        llrs = (8.0 * np.concatenate([first, second]) - 4.0).astype(np.float32)
        src = paused_source(llrs, first.size)
        dec = self.decoder("ccsds", batches_in_flight=1)
        snk = blocks.vector_sink_b()
        tb = gr.top_block()
        tb.connect(src, dec, snk)
        tb.start()
        self.assertTrue(wait_for(lambda: dec.nitems_read(0) == first.size))
        tb.stop()
        tb.wait()
        before = np.array(snk.data(), dtype=np.uint8)
        self.assertEqual(keyed_tags(snk.tags(), "restart"), [])
        snk.reset()
        src.pause = None
        tb.start()
        tb.wait()
        after = np.array(snk.data(), dtype=np.uint8)
        np.testing.assert_array_equal(before, first_bits[:before.size])
        np.testing.assert_array_equal(after, second_bits)
        self.assertEqual(keyed_tags(snk.tags(), "restart"), [(0, 0)])

    def test_tags_move_by_the_rate(self):
        _, _, sent, _ = self.stream("dvb", "3/4", bits=3000)
        llrs = (8.0 * sent - 4.0).astype(np.float32)
        tag = gr.tag_utils.python_to_tag((400, pmt.intern("mark"), pmt.from_long(1)))
        _, tags = run(llrs, self.decoder("dvb", "3/4"), tags=[tag])
        marks = [t for t in tags if pmt.symbol_to_string(t.key) == "mark"]
        self.assertEqual(len(marks), 1)
        self.assertEqual(marks[0].offset, 400 * 3 // 4)  # 4 LLRs a 3 bits at 3/4


def node_sync_tags(tags):
    """(offset, phase, inverted) of every "node_sync" tag, in stream order."""
    return [(t.offset, pmt.to_long(pmt.dict_ref(t.value, pmt.intern("offset"), pmt.PMT_NIL)),
             pmt.to_bool(pmt.dict_ref(t.value, pmt.intern("inverted"), pmt.PMT_NIL)))
            for t in sorted(tags, key=lambda t: t.offset)
            if pmt.symbol_to_string(t.key) == "node_sync"]


class qa_viterbi_decoder_node_sync(gr_unittest.TestCase):
    """node_sync: a stream joined anywhere, inverted, or slipping, decodes as the aligned
    one once its phase is found, and each phase found is tagged."""

    def stream(self, preset, bits, sigma, seed):
        rng = np.random.default_rng(seed)
        sent_bits = rng.integers(0, 2, bits, dtype=np.uint8)
        sent = gputurbo.conv_code(preset).encode(sent_bits, "streaming")
        return sent_bits, bpsk_llrs(sent, sigma, rng)

    def decode(self, preset, llrs, node_sync=True):
        return run(llrs, gputurbo.viterbi_decoder(preset=preset, backend=BACKEND,
                                                  node_sync=node_sync))

    def test_the_phase_and_the_inversion_are_found(self):
        # CCSDS's code is transparent: an inverted stream decodes to the complements,
        # tagged not inverted; GSM's is not: its inversion is found. The first window
        # (1024 steps) is all it takes, and no bit precedes it.
        for preset, sigma in (("ccsds", 0.75), ("gsm", 0.75)):
            sent_bits, llrs = self.stream(preset, 30000, sigma, seed=21)
            aligned, _ = self.decode(preset, llrs, node_sync=False)
            aligned_errors = np.count_nonzero(aligned != sent_bits)
            self.assertGreater(aligned_errors, 5, preset)
            for offset in (0, 1):
                for inverted in (False, True):
                    what = f"{preset} offset {offset} inverted {inverted}"
                    received = np.concatenate([np.full(offset, 0.5, np.float32),
                                               -llrs if inverted else llrs])
                    bits, tags = self.decode(preset, received)
                    seen = inverted and preset == "gsm"
                    self.assertEqual(node_sync_tags(tags), [(0, offset, seen)], what)
                    if inverted and not seen:
                        bits = bits ^ 1
                    self.assertEqual(bits.size, sent_bits.size, what)
                    errors = np.count_nonzero(bits != sent_bits)
                    self.assertLess(abs(errors - aligned_errors),
                                    12 + 3 * np.sqrt(aligned_errors), what)

    def test_llr_output_in_the_streams_sign(self):
        # output="llr" with node_sync: each bit's LLR in the sign of the stream's LLRs
        # (llr_sign) where the phase found is inverted too: its sign is the bit but for
        # ties, the tag where it was.
        sent_bits, llrs = self.stream("gsm", 20000, 0.75, seed=23)
        received = np.concatenate([np.full(1, 0.5, np.float32), -llrs])
        bits, _ = self.decode("gsm", received)
        soft, tags = run(received, gputurbo.viterbi_decoder(
            preset="gsm", backend=BACKEND, node_sync=True, output="llr"))
        self.assertEqual(node_sync_tags(tags), [(0, 1, True)])
        self.assertEqual(soft.dtype, np.float32)
        self.assertEqual(soft.size, bits.size)
        decided = soft != 0
        self.assertGreater(np.mean(decided), 0.95)
        np.testing.assert_array_equal((soft[decided] > 0).astype(np.uint8),
                                      bits[decided])
        self.assertLess(np.count_nonzero(bits != sent_bits), sent_bits.size // 50)

    def test_a_slip_is_followed(self):
        # One LLR lost at step 40000: the check at step 65536 finds the new phase, and
        # the bits after it are the aligned stream's; those between are out of phase.
        sent_bits, llrs = self.stream("ccsds", 65536 + 14000, 0.75, seed=22)
        slipped = np.delete(llrs, 2 * 40000 + 1)
        bits, tags = self.decode("ccsds", slipped)
        self.assertEqual(node_sync_tags(tags), [(0, 0, False), (65536, 1, False)])
        self.assertEqual(bits.size, sent_bits.size - 1)
        before = np.count_nonzero(bits[:39900] != sent_bits[:39900])
        between = np.count_nonzero(bits[40100:65400] != sent_bits[40101:65401])
        after = np.count_nonzero(bits[65636:] != sent_bits[65637:])
        self.assertLess(before, 100)
        self.assertGreater(between, 5000)
        self.assertLess(after, 100)


class qa_viterbi_stream(gr_unittest.TestCase):
    """gputurbo.viterbi_stream, the numpy stream decoder: the block's bits, whatever
    the pieces the stream comes in, with node synchronisation too."""

    def decode_in_pieces(self, dec, llrs, rng):
        out, at = [], 0
        while at < llrs.size:
            n = int(rng.integers(0, 5000))
            out.append(dec.decode(llrs[at:at + n]))
            at += n
        out.append(dec.flush())
        return np.concatenate(out)

    def test_the_blocks_bits_in_pieces_of_any_size(self):
        rng = np.random.default_rng(31)
        code = gputurbo.conv_code("dvb")
        sent_bits = rng.integers(0, 2, 40000, dtype=np.uint8)
        llrs = bpsk_llrs(code.encode(sent_bits, "streaming", "3/4"), 0.6, rng)
        block, _ = run(llrs, gputurbo.viterbi_decoder(preset="dvb", puncture="3/4",
                                                      backend=BACKEND))
        dec = gputurbo.viterbi_stream(code, "3/4", backend=BACKEND)
        self.assertEqual(dec.backend, BACKEND)
        whole = np.concatenate([dec.decode(llrs), dec.flush()])
        np.testing.assert_array_equal(whole, block)
        np.testing.assert_array_equal(self.decode_in_pieces(dec, llrs, rng), block)
        self.assertGreater(np.count_nonzero(block != sent_bits), 10)
        q = np.clip(np.rint(llrs * 8), -127, 127).astype(np.int8)
        self.assertEqual(np.concatenate([dec.decode(q), dec.flush()]).size, block.size)

    def test_node_sync(self):
        rng = np.random.default_rng(32)
        code = gputurbo.conv_code("ccsds")
        sent_bits = rng.integers(0, 2, 30000, dtype=np.uint8)
        llrs = bpsk_llrs(code.encode(sent_bits, "streaming"), 0.75, rng)
        received = np.concatenate([np.float32([0.3]), -llrs])  # mid-step, inverted
        block, _ = run(received, gputurbo.viterbi_decoder(preset="ccsds", backend=BACKEND,
                                                          node_sync=True))
        dec = gputurbo.viterbi_stream(code, backend=BACKEND, node_sync=True)
        self.assertTrue(dec.node_sync)
        bits = self.decode_in_pieces(dec, received, rng)
        np.testing.assert_array_equal(bits, block)
        self.assertEqual(dec.sync_changes(),
                         [{"bit": 0, "llr": 1, "offset": 1, "inverted": False}])
        self.assertEqual(dec.sync_changes(), [])
        self.assertLess(np.count_nonzero((bits ^ 1) != sent_bits), 300)  # transparent

    def test_llr_output(self):
        # output="llr" (the cpu backend): float32 LLRs in place of the bits, the same in
        # pieces of any size, in the sign of llr_sign, their signs the bits but for ties,
        # and the stream block's (float and int8 items); refused where not given, naming
        # why.
        rng = np.random.default_rng(33)
        code = gputurbo.conv_code("dvb")
        sent_bits = rng.integers(0, 2, 30000, dtype=np.uint8)
        llrs = bpsk_llrs(code.encode(sent_bits, "streaming", "3/4"), 0.6, rng)
        dec = gputurbo.viterbi_stream(code, "3/4", backend="cpu", output="llr")
        self.assertEqual(dec.output, "llr")
        whole = np.concatenate([dec.decode(llrs), dec.flush()])
        self.assertEqual(whole.dtype, np.float32)
        np.testing.assert_array_equal(self.decode_in_pieces(dec, llrs, rng), whole)
        hard = gputurbo.viterbi_stream(code, "3/4", backend="cpu")
        bits = np.concatenate([hard.decode(llrs), hard.flush()])
        decided = whole != 0
        self.assertGreater(np.mean(decided), 0.95)
        np.testing.assert_array_equal((whole[decided] > 0).astype(np.uint8),
                                      bits[decided])
        block, _ = run(llrs, gputurbo.viterbi_decoder(preset="dvb", puncture="3/4",
                                                      backend="cpu", output="llr"))
        np.testing.assert_array_equal(block, whole)
        q, _ = run(llrs, gputurbo.viterbi_decoder(preset="dvb", puncture="3/4",
                                                  backend="cpu", output="llr",
                                                  output_type="int8", int8_scale=4.0))
        np.testing.assert_array_equal(q.view(np.int8),
                                      gputurbo.quantize_llrs(whole, 4.0))
        negated = gputurbo.viterbi_stream(code, "3/4", backend="cpu", output="llr",
                                          llr_sign="positive-zero")
        np.testing.assert_array_equal(
            np.concatenate([negated.decode(-llrs), negated.flush()]), -whole)
        with self.assertRaisesRegex(ValueError, "reference backend"):
            gputurbo.viterbi_stream(code, backend="reference", output="llr")
        with self.assertRaisesRegex(ValueError, "a stream gives \"bits\" or \"llr\""):
            gputurbo.viterbi_stream(code, backend="cpu", output="code-extrinsic")

    def test_bad_input(self):
        dec = gputurbo.viterbi_stream(gputurbo.conv_code("ccsds"), backend=BACKEND)
        for bad in (np.zeros((2, 4), np.float32), np.zeros(4), [1.0, 2.0]):
            with self.assertRaisesRegex(ValueError, "1-D array of float32 or int8"):
                dec.decode(bad)
        dec.decode(np.zeros(4, np.float32))
        with self.assertRaisesRegex(ValueError, "float, not int8"):
            dec.decode(np.zeros(4, np.int8))
        dec.reset()
        self.assertEqual(dec.decode(np.zeros(4, np.int8)).size, 0)
        with self.assertRaisesRegex(ValueError, "streaming"):
            gputurbo.viterbi_engine(gputurbo.conv_code("ccsds"), "streaming")


class qa_viterbi_decoder_frames(gr_unittest.TestCase):
    """Framed terminations: the engine's decisions, one frame after another."""

    def test_frames_equal_the_numpy_api(self):
        rng = np.random.default_rng(4)
        for termination in ("terminated", "truncated", "tail-biting"):
            code = gputurbo.conv_code("ccsds")
            frames = rng.integers(0, 2, (37, 200), dtype=np.uint8)
            sent = code.encode(frames, termination)
            llrs = bpsk_llrs(sent, 0.9, rng)
            engine = gputurbo.viterbi_engine(code, termination, backend=BACKEND)
            expected, _ = engine.decode(llrs, 200)
            dec = gputurbo.viterbi_decoder(200, preset="ccsds", termination=termination,
                                           backend=BACKEND, codeword_tags="all")
            bits, tags = run(llrs.ravel(), dec)
            np.testing.assert_array_equal(bits, expected.ravel(), err_msg=termination)
            self.assertEqual(dec.frame_length(), sent.shape[1])
            self.assertEqual(dec.bits(), frames.size)
            frame_tags = [t for t in tags if pmt.symbol_to_string(t.key) == "codeword"]
            self.assertEqual([t.offset for t in frame_tags], list(range(0, 37 * 200, 200)))

    def test_a_misaligned_restart_fails_every_frame(self):
        # Paused 51 LLRs into frame 10 and restarted: GNU Radio drops the 51 LLRs the
        # decoder held, the source goes on, and every frame after the restart starts 51
        # LLRs late. They do not end in state 0, where the tail of a terminated frame
        # leaves the encoder, so none passes (a misaligned frame would end there by
        # chance, 1 in 2^(K-1); these do not). The frames before pass.
        rng = np.random.default_rng(8)
        code = gputurbo.conv_code("ccsds")
        frames = rng.integers(0, 2, (30, 100), dtype=np.uint8)
        sent = code.encode(frames, "terminated")
        n = sent.shape[1]
        src = paused_source((8.0 * sent - 4.0).ravel(), 10 * n + 51)
        dec = gputurbo.viterbi_decoder(100, preset="ccsds", termination="terminated",
                                       backend=BACKEND, max_batch=4, batches_in_flight=1,
                                       codeword_tags="all")
        snk = blocks.vector_sink_b()
        tb = gr.top_block()
        tb.connect(src, dec, snk)
        tb.start()
        self.assertTrue(wait_for(lambda: len(snk.data()) == 10 * 100))
        tb.stop()
        tb.wait()
        np.testing.assert_array_equal(snk.data(), frames[:10].ravel())
        self.assertTrue(all(t[3] for t in codeword_tags(snk.tags())))
        snk.reset()
        src.pause = None
        tb.start()
        tb.wait()
        self.assertEqual(keyed_tags(snk.tags(), "restart"), [(0, 51)])
        misaligned = codeword_tags(snk.tags())
        self.assertEqual(len(misaligned), (20 * n - 51) // n)
        self.assertFalse(any(t[3] for t in misaligned), misaligned)

    def test_frames_that_do_not_end_in_state_zero_are_tagged_and_counted(self):
        # A stream read as terminated frames of 200 bits: a frame ends in the state the
        # stream's encoder is in after its 206 steps, state 0 only where the last 6 of
        # them took a 0 (1 in 64). Every other frame fails: tagged and counted.
        rng = np.random.default_rng(12)
        code = gputurbo.conv_code("ccsds")
        steps = 200 + code.constraint - 1
        stream_bits = rng.integers(0, 2, 40 * steps, dtype=np.uint8)
        stream = (8.0 * code.encode(stream_bits, "streaming") - 4.0).astype(np.float32)
        dec = gputurbo.viterbi_decoder(200, preset="ccsds", termination="terminated",
                                       backend=BACKEND)
        _, tags = run(stream, dec)
        ends = stream_bits.reshape(40, steps)[:, -(code.constraint - 1):]
        failing = [i for i in range(40) if ends[i].any()]
        self.assertGreater(len(failing), 30)
        self.assertEqual([(t[1], t[3]) for t in codeword_tags(tags)],
                         [(i, False) for i in failing])
        self.assertEqual(dec.failed_frames(), len(failing))
        # Frames sent terminated end in state 0: none fails.
        sent = code.encode(rng.integers(0, 2, (40, 200), dtype=np.uint8), "terminated")
        dec = gputurbo.viterbi_decoder(200, preset="ccsds", termination="terminated",
                                       backend=BACKEND)
        _, tags = run(bpsk_llrs(sent.ravel(), 0.4, rng), dec)
        self.assertEqual(codeword_tags(tags), [])
        self.assertEqual(dec.failed_frames(), 0)

    def test_a_partial_frame_at_the_end_is_counted(self):
        code = gputurbo.conv_code("802.11")
        sent = code.encode(np.zeros((3, 64), dtype=np.uint8))
        llrs = (8.0 * sent - 4.0).astype(np.float32).ravel()
        dec = gputurbo.viterbi_decoder(64, preset="802.11", termination="terminated",
                                       backend=BACKEND)
        bits, _ = run(llrs[:-10], dec)
        self.assertEqual(bits.size, 2 * 64)
        self.assertEqual(dec.partial_items(), sent.shape[1] - 10)

    def test_soft_output(self):
        # output="llr": frame_bits float32 items a frame whose signs (positive-one: > 0
        # is 1) are the block's own bits but where a value is 0 (a tie), the numpy
        # API's values, with the tags of output="bits" on the same items.
        # "code-extrinsic": one value per input LLR, the numpy API's, tags on the items
        # they came in on (length tags keep their value, the output rate being the
        # input's). positive-zero negates them. "llr" on the QA's backend (cuda too),
        # "code-extrinsic" on the cpu (cuda refuses it).
        rng = fresh_rng()
        code = gputurbo.conv_code("ccsds")
        frame_bits, count = 120, 12
        for termination in ("terminated", "truncated", "tail-biting"):
            with self.subTest(termination=termination):
                frames = rng.integers(0, 2, (count, frame_bits), dtype=np.uint8)
                sent = code.encode(frames, termination)
                n = sent.shape[1]
                llrs = bpsk_llrs(sent, 1.0, rng)
                # a channel that tests: its own decisions of many code bits are wrong
                self.assertGreater(np.sum((llrs > 0) != sent), 0.1 * sent.size)
                tags = [stream_tag(5 * n + 7, "mark", pmt.from_long(5)),
                        stream_tag(9 * n, "mark", pmt.from_long(9)),
                        stream_tag(2 * n, "packet_len", pmt.from_long(4 * n))]

                def decoder(**kwargs):
                    kwargs.setdefault("backend", "cpu")
                    return gputurbo.viterbi_decoder(
                        frame_bits, preset="ccsds", termination=termination,
                        max_batch=4, codeword_tags="all", **kwargs)

                hard, hard_tags = run(llrs.ravel(), decoder(backend=BACKEND), tags=tags)
                dec = decoder(output="llr", backend=BACKEND)
                self.assertEqual(dec.output_signature().sizeof_stream_item(0), 4)
                self.assertEqual(dec.relative_rate(), frame_bits / n)
                app, app_tags = run(llrs.ravel(), dec, tags=tags)
                np.testing.assert_array_equal(
                    app, gputurbo.viterbi_engine(code, termination, backend=BACKEND)
                    .decode(llrs, frame_bits, output="llr")[0].ravel())
                decided = app != 0  # max-log signs: the Viterbi's, but for ties
                # ties: 1 in 100 here on average, 6 in 100 in 1 of 300 seeds
                self.assertGreater(np.mean(decided), 0.9)
                np.testing.assert_array_equal((app[decided] > 0).astype(np.uint8),
                                              hard[decided])
                self.assertEqual(tag_list(app_tags), tag_list(hard_tags))
                self.assertEqual(len(codeword_tags(app_tags)), count)

                dec = decoder(output="code-extrinsic")
                self.assertEqual(dec.relative_rate(), 1.0)
                extrinsic, extrinsic_tags = run(llrs.ravel(), dec, tags=tags)
                engine = gputurbo.viterbi_engine(code, termination, backend="cpu")
                np.testing.assert_array_equal(
                    extrinsic,
                    engine.decode(llrs, frame_bits, output="code-extrinsic")[0].ravel())
                frame_tags = [(o // frame_bits * n, k, v)
                              for o, k, v in tag_list(hard_tags) if k == "codeword"]
                self.assertEqual(tag_list(extrinsic_tags),
                                 sorted(frame_tags + tag_list(tags)))

                for output, values, backend in (("llr", app, BACKEND),
                                                ("code-extrinsic", extrinsic, "cpu")):
                    negated, _ = run(-llrs.ravel(),
                                     decoder(output=output, llr_sign="positive-zero",
                                             backend=backend))
                    np.testing.assert_array_equal(negated, -values, err_msg=output)

    def test_int8_soft_output(self):
        # output_type="int8": one int8 item a value (the stream's items are bytes), the
        # float values quantised at int8_scale as int8 input is (quantize_llrs()), with
        # the same tags on the same items, for either kind.
        rng = fresh_rng()
        code = gputurbo.conv_code("ccsds")
        frame_bits, count = 100, 8
        sent = code.encode(rng.integers(0, 2, (count, frame_bits), dtype=np.uint8),
                           "truncated")
        llrs = bpsk_llrs(sent, 1.0, rng).ravel()
        tags = [stream_tag(3 * sent.shape[1] + 5, "mark", pmt.from_long(3))]
        for output in ("llr", "code-extrinsic"):
            with self.subTest(output=output):
                def decoder(**kwargs):
                    return gputurbo.viterbi_decoder(
                        frame_bits, preset="ccsds", termination="truncated",
                        backend="cpu", max_batch=3, codeword_tags="all", output=output,
                        **kwargs)

                values, float_tags = run(llrs, decoder(), tags=tags)
                # about half the values saturate at this scale
                scale = float(127 / np.median(np.abs(values)))
                dec = decoder(output_type="int8", int8_scale=scale)
                self.assertEqual(dec.output_signature().sizeof_stream_item(0), 1)
                q, q_tags = run(llrs, dec, tags=tags)
                q = q.view(np.int8)
                np.testing.assert_array_equal(q, gputurbo.quantize_llrs(values, scale))
                self.assertTrue(0 < np.sum(np.abs(q) == 127) < q.size)
                self.assertEqual(tag_list(q_tags), tag_list(float_tags))


class qa_viterbi_decoder_pdu(gr_unittest.TestCase):
    """One frame a PDU, of any length: the numpy API's decisions, every PDU answered in
    its place."""

    def run_pdus(self, messages, **kwargs):
        kwargs.setdefault("backend", BACKEND)
        dec = gputurbo.viterbi_decoder_pdu(**kwargs)
        return run_pdus(dec, messages, timeout=60)[0], dec

    def test_frames_of_every_length_and_bad_pdus_in_their_place(self):
        rng = np.random.default_rng(7)
        code = gputurbo.conv_code("dvb")
        engine = gputurbo.viterbi_engine(code, "terminated", "3/4", backend=BACKEND)
        messages, expected = [], []
        for i, frame_bits in enumerate(rng.permutation([1, 7, 40, 97, 1000, 2048, 5000] * 3)):
            bits = rng.integers(0, 2, int(frame_bits), dtype=np.uint8)
            llrs = bpsk_llrs(code.encode(bits, "terminated", "3/4"), 0.7, rng)
            meta = pmt.make_dict()
            if i % 2:
                meta = pmt.dict_add(meta, pmt.intern("frame_bits"),
                                    pmt.from_long(int(frame_bits)))
            messages.append(pmt.cons(meta, pmt.init_f32vector(llrs.size, llrs.tolist())))
            expected.append(engine.decode(llrs, int(frame_bits))[0])
        bad = [pmt.intern("not a pdu"),
               pmt.cons(pmt.make_dict(), pmt.init_u8vector(3, [1, 2, 3])),
               pmt.cons(pmt.make_dict(), pmt.init_f32vector(5, [1.0] * 5)),
               pmt.cons(pmt.dict_add(pmt.make_dict(), pmt.intern("frame_bits"),
                                     pmt.from_long(50)),
                        pmt.init_f32vector(100, [1.0] * 100))]
        for j, b in enumerate(bad):
            messages.insert(3 * j + 1, b)
            expected.insert(3 * j + 1, None)
        out, dec = self.run_pdus(messages, preset="dvb", puncture="3/4")
        self.assertEqual(len(out), len(messages))
        for (meta, bits), want in zip(out, expected):
            if want is None:
                self.assertFalse(meta["passed"])
                self.assertTrue(meta["error"])
                self.assertEqual(bits.size, 0)
            else:
                self.assertNotIn("error", meta)
                self.assertEqual(meta["frame_bits"], want.size)
                np.testing.assert_array_equal(bits, want)
        self.assertEqual(dec.failed_pdus(), len(bad))
        self.assertEqual(dec.decoded_pdus(), len(messages) - len(bad))

    def test_frame_bits_of_other_number_types(self):
        # frame_bits as a long, a uint64 or a whole double: the integer it holds; a
        # fraction or text is refused, the message naming the key, the value, its type
        # and what to give.
        code = gputurbo.conv_code("802.11")
        bits = np.random.default_rng(9).integers(0, 2, 40, dtype=np.uint8)
        llrs = (8.0 * code.encode(bits) - 4.0).astype(np.float32)

        def message(value):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("frame_bits"), value)
            return pmt.cons(meta, pmt.init_f32vector(llrs.size, llrs.tolist()))

        out, _ = self.run_pdus([message(v) for v in (
            pmt.from_long(40), pmt.from_uint64(40), pmt.from_double(40.0),
            pmt.from_double(40.5), pmt.intern("40"))], preset="802.11")
        for meta, decoded in out[:3]:
            self.assertEqual(meta["frame_bits"], 40)
            np.testing.assert_array_equal(decoded, bits)
        self.assertIn("metadata frame_bits=40.5 is not an integer but a double: use a "
                      "long, or a uint64 or a double of a whole value",
                      out[3][0]["error"])
        self.assertIn("metadata frame_bits=\"40\" is not an integer but a string",
                      out[4][0]["error"])

    def test_soft_output(self):
        # output="llr": each PDU's data is an f32vector of frame_bits floats whose signs
        # (positive-one: > 0 is 1) are the block's own bits but for ties (0), the
        # numpy API's values, with the metadata of output="bits";
        # "code-extrinsic": an f32vector of the input's length, the numpy API's;
        # positive-zero negates them; a PDU that fails gets an empty f32vector.
        rng = fresh_rng()
        code = gputurbo.conv_code("dvb")
        engine = gputurbo.viterbi_engine(code, "terminated", "3/4", backend="cpu")
        llrs, sizes = [], rng.permutation([7, 40, 97, 300] * 3)
        for frame_bits in sizes:
            bits = rng.integers(0, 2, int(frame_bits), dtype=np.uint8)
            llrs.append(bpsk_llrs(code.encode(bits, "terminated", "3/4"), 0.8, rng))

        def messages(sign=1.0):
            out = [pmt.cons(pmt.dict_add(pmt.make_dict(), pmt.intern("seq"),
                                         pmt.from_long(i)),
                            pmt.init_f32vector(x.size, (sign * x).tolist()))
                   for i, x in enumerate(llrs)]
            return out + [pmt.cons(pmt.make_dict(), pmt.init_f32vector(5, [1.0] * 5))]

        kwargs = dict(preset="dvb", puncture="3/4")
        hard, _ = self.run_pdus(messages(), backend="cpu", **kwargs)
        app, _ = self.run_pdus(messages(), backend="cpu", output="llr", **kwargs)
        extrinsic, _ = self.run_pdus(messages(), backend="cpu", output="code-extrinsic",
                                     **kwargs)
        self.assertEqual([m for m, _ in app], [m for m, _ in hard])
        self.assertEqual([m for m, _ in extrinsic], [m for m, _ in hard])
        for output, values in (("llr", app), ("code-extrinsic", extrinsic)):
            negated, _ = self.run_pdus(messages(-1.0), backend="cpu", output=output,
                                       llr_sign="positive-zero", **kwargs)
            for i, x in enumerate(llrs):
                frame_bits = int(sizes[i])
                want = engine.decode(x, frame_bits, output=output)[0]
                got = values[i][1]
                self.assertEqual((got.dtype, got.size),
                                 (np.float32, frame_bits if output == "llr" else x.size))
                np.testing.assert_array_equal(got, want, err_msg=f"{output} PDU {i}")
                np.testing.assert_array_equal(negated[i][1], -got,
                                              err_msg=f"{output} PDU {i}")
                if output == "llr":
                    decided = got != 0
                    np.testing.assert_array_equal((got[decided] > 0).astype(np.uint8),
                                                  hard[i][1][decided], err_msg=f"PDU {i}")
            meta, data = values[-1]
            self.assertIn("error", meta)
            self.assertEqual((data.dtype, data.size), (np.float32, 0))

    def test_int8_soft_output(self):
        # output_type="int8": each PDU's data is an s8vector, the float values
        # quantised at int8_scale (quantize_llrs()), with the same metadata; a PDU that
        # fails gets an empty s8vector.
        rng = fresh_rng()
        code = gputurbo.conv_code("802.11")
        messages = []
        for frame_bits in (7, 60, 200):
            bits = rng.integers(0, 2, frame_bits, dtype=np.uint8)
            x = bpsk_llrs(code.encode(bits, "terminated"), 0.8, rng)
            messages.append(pmt.cons(pmt.make_dict(), pmt.init_f32vector(x.size,
                                                                         x.tolist())))
        messages.append(pmt.cons(pmt.make_dict(), pmt.init_f32vector(5, [1.0] * 5)))
        for output in ("llr", "code-extrinsic"):
            with self.subTest(output=output):
                kwargs = dict(preset="802.11", backend="cpu", output=output,
                              int8_scale=3.0)
                values, _ = self.run_pdus(messages, **kwargs)
                q, _ = self.run_pdus(messages, output_type="int8", **kwargs)
                self.assertEqual([m for m, _ in q], [m for m, _ in values])
                for (_, got), (_, want) in zip(q[:-1], values[:-1]):
                    self.assertEqual(got.dtype, np.int8)
                    np.testing.assert_array_equal(got, gputurbo.quantize_llrs(want, 3.0))
                self.assertIn("error", q[-1][0])
                self.assertEqual((q[-1][1].dtype, q[-1][1].size), (np.int8, 0))

    def test_streaming_is_refused(self):
        with self.assertRaisesRegex(ValueError, "streaming"):
            gputurbo.viterbi_decoder_pdu(termination="streaming", backend="cpu")


class qa_conv_encoder_block(gr_unittest.TestCase):
    """The conv_encoder block: conv_code.encode() in blocks, and a round trip through
    the decoder in one flowgraph."""

    def encode(self, bits, **kwargs):
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist(), False)
        enc = gputurbo.conv_encoder(**kwargs)
        src.set_max_noutput_items(101)  # many work calls: the state carries across
        snk = blocks.vector_sink_b()
        tb.connect(src, enc, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8), enc

    def test_equals_the_numpy_encoder(self):
        rng = np.random.default_rng(5)
        for preset, puncture, termination in (("ccsds", "", "streaming"),
                                              ("dvb", "3/4", "streaming"),
                                              ("802.11", "2/3", "terminated"),
                                              ("lte", "", "tail-biting"),
                                              ("gsm", "", "truncated")):
            code = gputurbo.conv_code(preset)
            if termination == "streaming":
                bits = rng.integers(0, 2, 6000, dtype=np.uint8)
                expected = code.encode(bits, termination, puncture)
            else:
                bits = rng.integers(0, 2, (9, 300), dtype=np.uint8)
                expected = code.encode(bits, termination, puncture).ravel()
            out, enc = self.encode(bits.ravel(), frame_bits=300, preset=preset,
                                   puncture=puncture, termination=termination)
            np.testing.assert_array_equal(out, expected,
                                          err_msg=f"{preset} {puncture} {termination}")
            self.assertEqual(enc.partial_items(), 0)

    def test_a_partial_period_is_counted(self):
        bits = np.ones(3 * 100 + 2, dtype=np.uint8)
        out, enc = self.encode(bits, preset="dvb", puncture="3/4", termination="streaming")
        self.assertEqual(out.size, 4 * 100)
        self.assertEqual(enc.partial_items(), 2)

    def test_the_defaults_make_what_the_decoder_takes(self):
        # Both default to a stream.
        bits = np.random.default_rng(13).integers(0, 2, 5000, dtype=np.uint8)
        sent, _ = self.encode(bits, preset="ccsds")
        decoded, _ = run((8.0 * sent - 4.0).astype(np.float32),
                         gputurbo.viterbi_decoder(preset="ccsds", backend=BACKEND))
        np.testing.assert_array_equal(decoded, bits)

    def test_round_trip_through_the_decoder(self):
        rng = np.random.default_rng(6)
        bits = rng.integers(0, 2, 9000, dtype=np.uint8)
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist(), False)
        enc = gputurbo.conv_encoder(preset="ccsds", puncture="3/4",
                                    termination="streaming")
        # Bits to LLRs of GNU Radio's sign: 1 -> +4, 0 -> -4.
        to_llr = blocks.char_to_float(1, 0.125)
        shift = blocks.add_const_ff(-4.0)
        dec = gputurbo.viterbi_decoder(preset="ccsds", puncture="3/4",
                                       termination="streaming", backend=BACKEND)
        snk = blocks.vector_sink_b()
        tb.connect(src, enc, to_llr, shift, dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)


class qa_viterbi_decoder_parameters(gr_unittest.TestCase):
    def test_bad_parameters_name_themselves(self):
        for kwargs, name in (({"constraint": 12}, "constraint"),
                             ({"polys": "133,9"}, "polynomial"),
                             ({"puncture": "3/4", "preset": "gsm"}, "puncturing"),
                             ({"termination": "circular"}, "termination"),
                             ({"frame_bits": 0, "termination": "terminated"},
                              "frame_bits"),
                             ({"node_sync": True, "termination": "terminated"},
                              "node_sync"),
                             ({"frame_bits": 4, "termination": "tail-biting"}, "K-1"),
                             ({"input_type": "int16"}, "input_type"),
                             ({"max_batch": -1}, "max_batch")):
            with self.assertRaises(ValueError, msg=str(kwargs)) as caught:
                gputurbo.viterbi_decoder(backend="cpu", **kwargs)
            self.assertIn(name, str(caught.exception), kwargs)

    def test_soft_output_where_it_is_not_given(self):
        # A stream's code-extrinsic, its llr where its decoder does not give it
        # (reference), and a backend that does not give a kind (cuda:
        # code-extrinsic), refuse soft output at make(), naming what gives it; extrinsic
        # and unknown outputs are refused too.
        with self.assertRaisesRegex(ValueError, "output=code-extrinsic: termination "
                                    "streaming gives bits or llr"):
            gputurbo.viterbi_decoder(termination="streaming", backend="cpu",
                                     output="code-extrinsic")
        with self.assertRaisesRegex(ValueError, "output=llr: termination streaming "
                                    "gives it on the cpu and cuda backends with "
                                    "soft_algorithm max-log, for every code but K = 9 "
                                    "with four outputs \\(this stream: reference "
                                    "backend\\)"):
            gputurbo.viterbi_decoder(termination="streaming", output="llr",
                                     backend="reference")
        for make in (gputurbo.viterbi_decoder, gputurbo.viterbi_decoder_pdu):
            with self.assertRaisesRegex(ValueError, "unknown output 'extrinsic': use one "
                                        "of bits, llr, code-extrinsic"):
                make(termination="terminated", backend="cpu", output="extrinsic")
            with self.assertRaisesRegex(ValueError, "unknown output 'soft'"):
                make(termination="terminated", backend="cpu", output="soft")
        try:
            gputurbo.viterbi_decoder_pdu(backend="cuda")
        except RuntimeError as e:
            self.skipTest(f"no CUDA here: {e}")
        for make in (gputurbo.viterbi_decoder, gputurbo.viterbi_decoder_pdu):
            with self.assertRaisesRegex(ValueError, "output=code-extrinsic: the cuda "
                                        "backend of this decoder does not give it: use "
                                        "output=bits or llr"):
                make(termination="terminated", backend="cuda", output="code-extrinsic")
            make(termination="terminated", backend="cuda", output="llr")

    def test_a_preset_overrides_constraint_and_polys(self):
        dec = gputurbo.viterbi_decoder(preset="gsm", constraint=7, polys="133,171",
                                       backend="cpu")
        self.assertEqual(dec.code(), gputurbo.conv_code("gsm").text)


if __name__ == "__main__":
    require_backend(gputurbo.viterbi_decoder)
    unittest.main(verbosity=2)
