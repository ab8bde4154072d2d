#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#

import contextlib
import math
import os
import time

import numpy as np
from gnuradio import blocks, digital, gr, gr_unittest, pdu
from gnuradio import gputurbo
import pmt

from gputurbo_qa import (BACKEND, TURBO_VECTORS_DIR, fresh_rng, require_backend,
                         seeded_case)


def codeword_length(K):
    return 3 * K + 12


def noise_sigma(K, ebn0_db):
    """Noise std per real dimension for unit-energy BPSK at Eb/N0, rate K/(3K+12)."""
    rate = K / codeword_length(K)
    return math.sqrt(1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0)))


def make_decoder(K, **kwargs):
    """A turbo_decoder on BACKEND that tags every codeword, which most tests count;
    codeword_tags=None keeps the block's default."""
    kwargs.setdefault("backend", BACKEND)
    kwargs.setdefault("codeword_tags", "all")
    if kwargs["codeword_tags"] is None:
        del kwargs["codeword_tags"]
    return gputurbo.turbo_decoder(K, **kwargs)


def run_decoder(llrs, K, tags=(), **kwargs):
    """Runs LLRs (float, or int8 with input_type="int8") through a turbo_decoder;
    returns (bits, or float32 values with a soft output, int8 ones with
    output_type="int8", decoder, tags)."""
    tb = gr.top_block()
    if kwargs.get("input_type") == "int8":
        src = blocks.vector_source_b(np.asarray(llrs, dtype=np.int8).view(np.uint8)
                                     .tolist(), False, 1, list(tags))
    else:
        src = blocks.vector_source_f(np.asarray(llrs, dtype=np.float32).tolist(), False,
                                     1, list(tags))
    dec = make_decoder(K, **kwargs)
    soft = kwargs.get("output", "bits") != "bits"
    int8 = soft and kwargs.get("output_type") == "int8"
    snk = blocks.vector_sink_f() if soft and not int8 else blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    dtype = np.int8 if int8 else np.float32 if soft else np.uint8
    return (np.array(snk.data(), dtype=np.uint8).view(dtype) if dtype != np.float32
            else np.array(snk.data(), dtype=np.float32), dec, snk.tags())


def loopback(bits, K, ebn0_db=None, seed=1, **kwargs):
    """bits -> turbo_encoder -> BPSK (0 -> -1, 1 -> +1) [+ AWGN] -> LLR -> turbo_decoder.

    Returns (decoded bits, decoder, tags, channel hard-decision errors).
    """
    n_llrs = len(bits) // K * codeword_length(K)
    sigma = noise_sigma(K, ebn0_db) if ebn0_db is not None else 1.0
    tb = gr.top_block()
    src = blocks.vector_source_b(list(bits), False)
    enc = gputurbo.turbo_encoder(K)
    to_float = blocks.char_to_float(1, 1.0)
    bpsk = blocks.multiply_const_ff(2.0)
    offset = blocks.add_const_ff(-1.0)
    noise = np.random.default_rng(seed).normal(0.0, sigma, n_llrs) \
        if ebn0_db is not None else np.zeros(n_llrs)
    noise_src = blocks.vector_source_f(noise.astype(np.float32).tolist(), False)
    add = blocks.add_ff()
    to_llr = blocks.multiply_const_ff(2.0 / sigma ** 2)
    dec = make_decoder(K, **kwargs)
    channel = blocks.vector_sink_f()
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, to_float, bpsk, offset, (add, 0))
    tb.connect(noise_src, (add, 1))
    tb.connect(add, to_llr, dec, snk)
    tb.connect(to_llr, channel)
    tb.run()
    code = np.array(gputurbo_encode(bits, K))
    channel_errors = int(np.sum((np.array(channel.data()) > 0) != (code == 1)))
    return np.array(snk.data(), dtype=np.uint8), dec, snk.tags(), channel_errors


def gputurbo_encode(bits, K):
    tb = gr.top_block()
    src = blocks.vector_source_b(list(bits), False)
    snk = blocks.vector_sink_b()
    tb.connect(src, gputurbo.turbo_encoder(K), snk)
    tb.run()
    return snk.data()


def clean_llrs(code, magnitude=4.0):
    """Noiseless LLRs of the code bits, positive for 1 (the decoder's default sign)."""
    return np.where(np.asarray(code) == 1, magnitude, -magnitude).astype(np.float32)


def crc24a_blocks(rng, K, count):
    """count blocks of K bits: K - 24 random bits and their CRC24A (36.212 5.1.1)."""
    out = np.zeros((count, K), dtype=np.uint8)
    for block in out:
        block[:K - 24] = rng.integers(0, 2, K - 24)
        register = 0
        for bit in block[:K - 24]:
            feedback = ((register >> 23) & 1) ^ int(bit)
            register = (register << 1) & 0xFFFFFF
            if feedback:
                register ^= 0x864CFB
        block[K - 24:] = [(register >> (23 - i)) & 1 for i in range(24)]
    return out.reshape(-1)


_log_backend = None


@contextlib.contextmanager
def warnings_logged():
    """Collects what GNU Radio's loggers log at warning level or above inside the with
    block, as a list of (logger name, message) in time order."""
    global _log_backend
    if _log_backend is None:  # a sink cannot be removed again: one per process
        _log_backend = gr.dictionary_logger_backend()
        gr.logging().add_default_sink(_log_backend)
    before = _log_backend.get_map()
    level = gr.logging().default_level()
    gr.logging().set_default_level(gr.log_levels.warn)
    found = []
    try:
        yield found
    finally:
        gr.logging().set_default_level(level)
        new = [(when, name, message)
               for name, entries in _log_backend.get_map().items()
               for when, message in entries - before.get(name, set())]
        found.extend((name, message) for _, name, message in sorted(new))


class paused_source(gr.sync_block):
    """Hands out its float items up to position `pause` (None: to the end), then waits;
    like a radio's stream, it goes on where it was when the flowgraph restarts."""

    def __init__(self, items, pause):
        gr.sync_block.__init__(self, "paused_source", None, [np.float32])
        self.items = np.asarray(items, dtype=np.float32)
        self.position = 0
        self.pause = pause

    def work(self, input_items, output_items):
        end = len(self.items) if self.pause is None else self.pause
        count = min(len(output_items[0]), end - self.position)
        if count <= 0:
            if self.pause is None:
                return -1  # done
            time.sleep(0.001)
            return 0
        output_items[0][:count] = self.items[self.position:self.position + count]
        self.position += count
        return count


def wait_for(condition, timeout=30.0):
    start = time.perf_counter()
    while not condition() and time.perf_counter() - start < timeout:
        time.sleep(0.005)
    return condition()


def stream_tag(offset, key, value):
    t = gr.tag_t()
    t.offset, t.key, t.value = offset, pmt.intern(key), value
    return t


def keyed_tags(tags, key):
    """(offset, value) of the tags with that key, in stream order."""
    return sorted((t.offset, pmt.to_python(t.value)) for t in tags
                  if pmt.symbol_to_string(t.key) == key)


def codeword_tags(tags):
    """(offset, index, iterations, passed) of every "codeword" tag, in stream order."""
    out = []
    for t in sorted(tags, key=lambda t: t.offset):
        if pmt.symbol_to_string(t.key) != "codeword":
            continue
        d = t.value
        out.append((t.offset,
                    pmt.to_uint64(pmt.dict_ref(d, pmt.intern("index"), pmt.PMT_NIL)),
                    pmt.to_long(pmt.dict_ref(d, pmt.intern("iterations"), pmt.PMT_NIL)),
                    pmt.to_bool(pmt.dict_ref(d, pmt.intern("passed"), pmt.PMT_NIL))))
    return out


class qa_turbo_decoder(seeded_case):

    def test_001_noiseless_loopback_many_batches(self):
        # More codewords than max_batch: several work() calls, all decoded, in order.
        for K, count, max_batch in ((40, 100, 16), (1008, 20, 4), (6144, 5, 2)):
            bits = self.random_bits(K, count)
            out, dec, tags, _ = loopback(bits, K, max_batch=max_batch)
            self.assertEqual(dec.backend(), BACKEND)
            self.assertEqual(dec.codewords(), count)
            self.assertEqual(dec.partial_items(), 0)
            np.testing.assert_array_equal(out, bits, err_msg=f"K={K}")
            self.assertEqual(len(codeword_tags(tags)), count)

    def test_002_noisy_loopback(self):
        # At 2.5 dB the channel flips about 14 % of the code bits (a lower bound keeps the
        # test honest); six iterations correct all of them for these 60 codewords.
        K, count = 1008, 60
        bits = self.random_bits(K, count)
        out, dec, tags, channel_errors = loopback(bits, K, ebn0_db=2.5, seed=5,
                                                  max_batch=16)
        self.assertGreater(channel_errors, 0.10 * count * codeword_length(K))
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(len(codeword_tags(tags)), count)

    def test_003_noisy_loopback_fails_at_low_snr(self):
        # The same chain at -1 dB must show errors: the decoder does not see the bits.
        K, count = 1008, 10
        bits = self.random_bits(K, count)
        out, _, _, _ = loopback(bits, K, ebn0_db=-1.0, seed=6)
        self.assertEqual(len(out), len(bits))
        self.assertGreater(np.sum(out != bits), 0.01 * len(bits))

    def test_004_tags(self):
        K, count = 256, 50
        bits = self.random_bits(K, count)
        _, _, tags, _ = loopback(bits, K, max_batch=8, iterations=4)
        found = codeword_tags(tags)
        self.assertEqual([t[0] for t in found], [i * K for i in range(count)])
        self.assertEqual([t[1] for t in found], list(range(count)))
        self.assertTrue(all(t[2] == 4 for t in found))
        self.assertTrue(all(t[3] is True for t in found))
        for t in tags:  # exactly the documented fields
            if pmt.symbol_to_string(t.key) == "codeword":
                value = pmt.to_python(t.value)
                self.assertEqual(sorted(value), ["index", "iterations", "passed"])
                self.assertTrue(pmt.is_uint64(
                    pmt.dict_ref(t.value, pmt.intern("index"), pmt.PMT_NIL)))

    def test_005_early_stop_status_in_tags(self):
        # Clean LLRs reach a mean |L| of 40 in fewer than 8 iterations; an unreachable
        # threshold runs all of them and reports the codeword as not passed.
        K, count = 256, 10
        bits = self.random_bits(K, count)
        _, _, tags, _ = loopback(bits, K, iterations=8, early_stop="mean-llr")
        found = codeword_tags(tags)
        self.assertEqual(len(found), count)
        self.assertTrue(all(1 <= t[2] < 8 and t[3] for t in found), found)

        _, _, tags, _ = loopback(bits, K, iterations=8, early_stop="mean-llr",
                                 stop_threshold=1e9)
        found = codeword_tags(tags)
        self.assertTrue(all(t[2] == 8 and not t[3] for t in found), found)

    def test_006_partial_codeword(self):
        # 7 codewords and 100 LLRs of an 8th: the 7 are decoded, the rest reported.
        K, count, extra = 256, 7, 100
        bits = self.random_bits(K, count + 1)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        llrs = (2.0 * code - 1.0) * 4.0
        out, dec, tags = run_decoder(llrs[:count * codeword_length(K) + extra], K,
                                     max_batch=3)
        self.assertEqual(dec.partial_items(), extra)
        self.assertEqual(dec.codewords(), count)
        np.testing.assert_array_equal(out, bits[:count * K])
        self.assertEqual(len(codeword_tags(tags)), count)

        # Whole codewords only: nothing left over.
        _, dec, _ = run_decoder(llrs[:count * codeword_length(K)], K)
        self.assertEqual(dec.partial_items(), 0)

    def test_007_bad_parameters(self):
        cases = [
            (dict(K=41), ValueError, "block size"),
            (dict(K=0), ValueError, "block size"),
            (dict(K=40, iterations=0), ValueError, "iterations"),
            (dict(K=40, iterations=33), ValueError, "iterations"),
            (dict(K=40, subblocks=3), ValueError, "subblocks"),
            (dict(K=40, subblocks=2, guard="dstw", guard_window=21), ValueError,
             "guard_window"),
            (dict(K=40, algorithm="bcjr"), ValueError, "algorithm"),
            (dict(K=40, guard="wide"), ValueError, "guard"),
            (dict(K=40, early_stop="crc16"), ValueError, "stop"),
            (dict(K=40, layout="rows"), ValueError, "layout"),
            (dict(K=40, scaling=0.0), ValueError, "scaling"),
            (dict(K=40, stop_threshold=-1.0), ValueError, "stop_threshold"),
            (dict(K=40, threads=-1), ValueError, "threads"),
            (dict(K=40, backend="fpga"), ValueError, "backend"),
        ]
        # "cuda" raises where this build or machine cannot run it, and works elsewhere.
        try:
            gputurbo.turbo_decoder(40, backend="cuda")
        except RuntimeError as e:
            self.assertIn("cuda", str(e))
        cases += [
            (dict(K=40, max_batch=-1), ValueError, "max_batch"),
            (dict(K=40, max_batch=131073), ValueError, "max_batch"),
            (dict(K=6144, max_batch=40000), ValueError, "max_batch"),
            (dict(K=40, codeword_tags="some"), ValueError, "codeword_tags"),
            (dict(K=40, batches_in_flight=-1), ValueError, "batches_in_flight"),
            (dict(K=40, batches_in_flight=5), ValueError, "batches_in_flight"),
            (dict(K=40, input_type="int16"), ValueError, "input_type"),
            (dict(K=40, input_type="int8", int8_scale=0.0), ValueError, "int8_scale"),
            (dict(K=40, arithmetic="int4"), ValueError, "arithmetic"),
        ]
        for kwargs, error, pattern in cases:
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(error, pattern):
                    make_decoder(**kwargs)
        # A window as large as K/P is fine.
        make_decoder(40, subblocks=2, guard="dstw", guard_window=20)

    def test_008_nan_and_inf(self):
        # NaN decodes like 0 (an erasure), +-Inf like +-1000 (the engine's clamp).
        K, count = 256, 8
        bits = self.random_bits(K, count)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        sigma = noise_sigma(K, 4.0)
        y = (2.0 * code - 1.0) + self.rng.normal(0.0, sigma, len(code))
        llrs = (2.0 * y / sigma ** 2).astype(np.float32)

        erased = self.rng.random(len(llrs)) < 0.2
        with_nan, with_zero = llrs.copy(), llrs.copy()
        with_nan[erased], with_zero[erased] = np.nan, 0.0
        out_nan, _, tags_nan = run_decoder(with_nan, K)
        out_zero, _, tags_zero = run_decoder(with_zero, K)
        np.testing.assert_array_equal(out_nan, out_zero)
        self.assertEqual(codeword_tags(tags_nan), codeword_tags(tags_zero))
        np.testing.assert_array_equal(out_zero, bits)  # the erasures were recoverable

        # Infinities of both signs, some of them wrong, on a fifth of the values.
        hit = self.rng.random(len(llrs)) < 0.2
        sign = np.where(self.rng.random(len(llrs)) < 0.9, 1.0, -1.0) * \
            np.where(code == 1, 1.0, -1.0)
        with_inf, with_limit = llrs.copy(), llrs.copy()
        with_inf[hit] = sign[hit] * np.inf
        with_limit[hit] = sign[hit] * 1000.0
        out_inf, _, tags_inf = run_decoder(with_inf, K, algorithm="log-map")
        out_limit, _, tags_limit = run_decoder(with_limit, K, algorithm="log-map")
        np.testing.assert_array_equal(out_inf, out_limit)
        self.assertEqual(codeword_tags(tags_inf), codeword_tags(tags_limit))

    def test_009_runtime_setters(self):
        dec = make_decoder(40)
        self.assertEqual(dec.iterations(), 6)
        dec.set_iterations(3)
        self.assertEqual(dec.iterations(), 3)
        self.assertAlmostEqual(dec.stop_threshold(), 40.0)
        dec.set_stop_threshold(12.5)
        self.assertAlmostEqual(dec.stop_threshold(), 12.5)
        for bad in (0, 33):
            with self.assertRaisesRegex(ValueError, "iterations"):
                dec.set_iterations(bad)
        for bad in (-1.0, float("nan"), float("inf")):
            with self.assertRaisesRegex(ValueError, "stop_threshold"):
                dec.set_stop_threshold(bad)
        self.assertEqual(dec.iterations(), 3)
        self.assertAlmostEqual(dec.stop_threshold(), 12.5)

        # The new values reach the decoding: tags report them.
        K, count = 40, 5
        bits = self.random_bits(K, count)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        llrs = (2.0 * code - 1.0) * 2.0
        tb = gr.top_block()
        src = blocks.vector_source_f(llrs.tolist(), False)
        dec = make_decoder(K, early_stop="mean-llr", iterations=10)
        snk = blocks.vector_sink_b()
        tb.connect(src, dec, snk)
        dec.set_stop_threshold(1e9)  # unreachable: every codeword runs all iterations
        dec.set_iterations(2)
        tb.run()
        found = codeword_tags(snk.tags())
        self.assertEqual(len(found), count)
        self.assertTrue(all(t[2] == 2 and not t[3] for t in found), found)
        np.testing.assert_array_equal(np.array(snk.data()), bits)

    def test_010_options_decode(self):
        # Every algorithm, sub-blocks with each guard, the streams layout and the
        # inverted sign convention decode clean codewords.
        K, count = 512, 6
        bits = self.random_bits(K, count)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        llrs = (2.0 * code - 1.0) * 3.0
        for kwargs in (dict(algorithm="log-map"), dict(algorithm="max-log"),
                       dict(subblocks=4, guard="none"), dict(subblocks=4, guard="pivi"),
                       dict(subblocks=8, guard="dstw", guard_window=16),
                       dict(early_stop="hard"), dict(threads=1)):
            with self.subTest(**kwargs):
                out, _, _ = run_decoder(llrs, K, **kwargs)
                np.testing.assert_array_equal(out, bits)
        out, _, _ = run_decoder(-llrs, K, llr_sign="positive-zero")
        np.testing.assert_array_equal(out, bits)
        out, _, _ = run_decoder(-llrs, K)  # the wrong sign convention fails
        self.assertGreater(np.sum(out != bits), len(bits) // 4)

        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist(), False)
        enc = gputurbo.turbo_encoder(K, "streams")
        to_float = blocks.char_to_float(1, 1.0)
        to_llr = blocks.multiply_const_ff(6.0)
        offset = blocks.add_const_ff(-3.0)
        dec = make_decoder(K, layout="streams")
        snk = blocks.vector_sink_b()
        tb.connect(src, enc, to_float, to_llr, offset, dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()), bits)

    def test_011_srsran_vectors(self):
        # Codewords of an encoder nobody on this project wrote decode to their blocks.
        for K in (40, 6144):
            info, enc = [], []
            with open(os.path.join(TURBO_VECTORS_DIR, f"K{K:04d}.txt")) as f:
                for line in f:
                    if line.startswith(("info ", "enc ")):
                        tag, _, text = line.split()
                        (info if tag == "info" else enc).append(
                            np.array([int(b) for b in text], dtype=np.uint8))
            llrs = (2.0 * np.concatenate(enc) - 1.0) * 5.0
            out, _, _ = run_decoder(llrs, K)
            np.testing.assert_array_equal(out, np.concatenate(info), err_msg=f"K={K}")


    def test_012_every_codeword_leaves_at_end_of_stream(self):
        # Any count of codewords, any batch size and pipeline depth: all of them come
        # out, in order, each with its tag, and nothing is left in flight.
        K = 40
        for count, max_batch, depth in ((1, 1, 1), (1, 64, 4), (7, 3, 2), (50, 8, 4),
                                        (33, 0, 2), (64, 16, 3)):
            with self.subTest(count=count, max_batch=max_batch, depth=depth):
                bits = self.random_bits(K, count)
                code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
                out, dec, tags = run_decoder((2.0 * code - 1.0) * 4.0, K,
                                             max_batch=max_batch,
                                             batches_in_flight=depth)
                np.testing.assert_array_equal(out, bits)
                self.assertEqual(dec.codewords(), count)
                found = codeword_tags(tags)
                self.assertEqual([t[1] for t in found], list(range(count)))
                self.assertEqual([t[0] for t in found], [i * K for i in range(count)])

    def test_013_int8_input(self):
        # blocks.float_to_char quantises in the flowgraph; the int8 decoder then gives
        # what the float decoder gives for the same quantised values.
        K, count, scale = 1008, 12, 8.0
        bits = self.random_bits(K, count)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        sigma = noise_sigma(K, 2.5)
        y = (2.0 * code - 1.0) + self.rng.normal(0.0, sigma, len(code))
        llrs = (2.0 * y / sigma ** 2).astype(np.float32)

        tb = gr.top_block()
        src = blocks.vector_source_f(llrs.tolist(), False)
        quantise = blocks.float_to_char(1, scale)
        dec = make_decoder(K, input_type="int8", int8_scale=scale)
        snk = blocks.vector_sink_b()
        raw = blocks.vector_sink_b()
        tb.connect(src, quantise, dec, snk)
        tb.connect(quantise, raw)
        tb.run()
        q = np.array(raw.data(), dtype=np.uint8).view(np.int8)
        self.assertEqual(len(q), len(llrs))
        self.assertLessEqual(np.max(np.abs(q / scale - np.clip(llrs, -16, 15.875))),
                             0.5 / scale + 1e-6)
        np.testing.assert_array_equal(np.array(snk.data()), bits)

        out_float, _, _ = run_decoder(q.astype(np.float32) / scale, K)
        np.testing.assert_array_equal(np.array(snk.data()), out_float)
        # int8_scale is honoured: the same values read at another scale still decode.
        out_int8, _, _ = run_decoder(q, K, input_type="int8", int8_scale=2.0)
        np.testing.assert_array_equal(out_int8, bits)

    def test_014_input_tags_stay_on_their_codeword(self):
        K, count = 256, 9
        n = codeword_length(K)
        bits = self.random_bits(K, count)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        positions = [0, 5, n - 1, n, 3 * n + 400, count * n - 1]
        tags = []
        for p in positions:
            t = gr.tag_t()
            t.offset = p
            t.key = pmt.intern("mark")
            t.value = pmt.from_long(p)
            tags.append(t)
        out, _, out_tags = run_decoder((2.0 * code - 1.0) * 4.0, K, tags=tags,
                                       max_batch=2, batches_in_flight=3)
        np.testing.assert_array_equal(out, bits)
        moved = sorted((t.offset, pmt.to_long(t.value)) for t in out_tags
                       if pmt.symbol_to_string(t.key) == "mark")
        self.assertEqual(moved, [(p // n * K + p % n * K // n, p) for p in positions])

    def test_016_codeword_tags_of_failed_codewords_by_default(self):
        # By default only codewords whose stop rule failed are tagged: none with early
        # stopping off, and exactly the failed ones with it.
        K, count = 256, 12
        bits = self.random_bits(K, count)
        out, _, tags, _ = loopback(bits, K, codeword_tags=None)
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(codeword_tags(tags), [])

        # CRC24B stop on blocks that carry no CRC: each fails unless its last 24 bits
        # happen to check (probability 2^-24).
        _, _, tags, _ = loopback(bits, K, iterations=3, early_stop="crc24b",
                                 codeword_tags=None)
        found = codeword_tags(tags)
        self.assertEqual([t[1] for t in found], list(range(count)))
        self.assertTrue(all(t[2] == 3 and not t[3] for t in found), found)
        self.assertEqual([t[0] for t in found], [i * K for i in range(count)])

        _, _, tags, _ = loopback(bits, K, iterations=3, early_stop="crc24b",
                                 codeword_tags="none")
        self.assertEqual(codeword_tags(tags), [])

    def test_018_gnuradio_soft_demapper_with_defaults(self):
        # GNU Radio's own soft demapper feeds the decoder as it is: its sign (positive
        # means 1) is the block's default. BPSK and QPSK at high SNR decode every bit.
        K, count = 256, 6
        bits = self.random_bits(K, count)
        for const in (digital.constellation_bpsk(), digital.constellation_qpsk()):
            with self.subTest(constellation=type(const).__name__):
                k = const.bits_per_symbol()
                tb = gr.top_block()
                src = blocks.vector_source_b(bits.tolist(), False)
                symbols = blocks.pack_k_bits_bb(k) if k > 1 else blocks.copy(1)
                n_symbols = len(bits) // K * codeword_length(K) // k
                noise = blocks.vector_source_c(
                    (0.1 * (self.rng.normal(size=n_symbols) +
                            1j * self.rng.normal(size=n_symbols))).tolist(), False)
                add = blocks.add_cc()
                dec = gputurbo.turbo_decoder(K, backend=BACKEND)
                snk = blocks.vector_sink_b()
                tb.connect(src, gputurbo.turbo_encoder(K), symbols,
                           digital.constellation_encoder_bc(const), (add, 0))
                tb.connect(noise, (add, 1))
                tb.connect(add, digital.constellation_soft_decoder_cf(const), dec, snk)
                tb.run()
                np.testing.assert_array_equal(np.array(snk.data()), bits)

    def test_019_erased_input_never_passes(self):
        # All-zero bits pass CRC-24A: erased (zero, NaN) codewords decode to them, and
        # they, like near-zero ones, must be reported failed.
        K = 104
        n = codeword_length(K)
        llrs = np.concatenate([np.zeros(n), np.full(n, np.nan), np.full(n, 1e-7)])
        out, _, tags = run_decoder(llrs.astype(np.float32), K, early_stop="crc24a",
                                   iterations=2)
        np.testing.assert_array_equal(out[:2 * K], np.zeros(2 * K))
        self.assertEqual([(t[1], t[3]) for t in codeword_tags(tags)],
                         [(0, False), (1, False), (2, False)])

    def test_017_automatic_batch_at_small_K(self):
        # About 4 Mbit per batch on CUDA: many codewords at K = 40.
        dec = make_decoder(40)
        self.assertEqual(dec.max_batch(), 104857 if BACKEND == "cuda" else 64)

    def test_015_automatic_choices(self):
        dec = make_decoder(6144)
        # The CPU's int16 kernels take 32 (AVX-512) or 16 (AVX2) sub-blocks, float32 1.
        engine = gputurbo.turbo_engine(6144, backend=BACKEND)
        self.assertEqual(dec.subblocks(), engine.subblocks)
        self.assertIn(dec.subblocks(), (192,) if BACKEND == "cuda" else (32, 16, 1))
        self.assertEqual(dec.subblocks() == 1, engine.arithmetic == "float32")
        self.assertEqual(dec.max_batch(), 682 if BACKEND == "cuda" else 64)
        dec = make_decoder(6144, subblocks=4, max_batch=10)
        self.assertEqual((dec.subblocks(), dec.max_batch()), (4, 10))

    def test_020_tagged_stream_to_pdus(self):
        # Packets of m codewords, tagged with their length in LLRs, leave as PDUs of m*K
        # decoded bits; batches of 4 codewords cut through packets of 3.
        K, m, packets = 40, 3, 7
        n = codeword_length(K)
        bits = self.random_bits(K, m * packets)
        llrs = clean_llrs(gputurbo_encode(bits, K))
        for key in ("packet_len", "frame_len"):
            with self.subTest(key=key):
                tb = gr.top_block()
                src = blocks.vector_source_f(llrs.tolist(), False)
                to_tagged = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, m * n,
                                                           key)
                kwargs = {} if key == "packet_len" else dict(length_tag_key=key)
                dec = make_decoder(K, max_batch=4, **kwargs)
                to_pdu = pdu.tagged_stream_to_pdu(gr.types.byte_t, key)
                sink = blocks.message_debug()
                tb.connect(src, to_tagged, dec, to_pdu)
                tb.msg_connect((to_pdu, "pdus"), (sink, "store"))
                with warnings_logged() as warnings:
                    # Not run(): a tagged-stream block that misses a length tag stops
                    # its thread, and the flowgraph would never end.
                    tb.start()
                    wait_for(lambda: sink.num_messages() == packets)
                    tb.stop()
                    tb.wait()
                self.assertEqual(warnings, [])
                self.assertEqual(dec.misaligned_length_tags(), 0)
                self.assertEqual(sink.num_messages(), packets)
                for i in range(packets):
                    data = pmt.u8vector_elements(pmt.cdr(sink.get_message(i)))
                    np.testing.assert_array_equal(
                        np.array(data, dtype=np.uint8),
                        bits[i * m * K:(i + 1) * m * K], err_msg=f"PDU {i}")

        # length_tag_key "": the tag moves like any other, its value unchanged.
        tags = [stream_tag(offset, "packet_len", pmt.from_long(2 * n))
                for offset in (0, 2 * n)]
        out, dec, out_tags = run_decoder(llrs[:4 * n], K, tags=tags, length_tag_key="")
        np.testing.assert_array_equal(out, bits[:4 * K])
        self.assertEqual(keyed_tags(out_tags, "packet_len"), [(0, 2 * n), (2 * K, 2 * n)])
        self.assertEqual(dec.misaligned_length_tags(), 0)

    def test_021_misaligned_length_tags_are_dropped_and_reported(self):
        K, count = 40, 8
        n = codeword_length(K)
        bits = self.random_bits(K, count)
        llrs = clean_llrs(gputurbo_encode(bits, K))

        def tag(offset, value):
            return stream_tag(offset, "packet_len", value)

        tags = [tag(0, pmt.from_long(2 * n)),         # 2 codewords: kept
                tag(2 * n, pmt.from_long(n + 3)),     # not whole codewords
                tag(3 * n + 5, pmt.from_long(n)),     # not on a boundary
                tag(4 * n, pmt.from_uint64(n)),       # 1 codeword, as uint64: kept
                tag(5 * n, pmt.intern("long")),       # not a number
                tag(6 * n, pmt.from_long(0))]         # no codeword
        with warnings_logged() as warnings:
            out, dec, out_tags = run_decoder(llrs, K, tags=tags, max_batch=3)
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(keyed_tags(out_tags, "packet_len"), [(0, 2 * K), (4 * K, K)])
        self.assertTrue(pmt.is_uint64([t.value for t in out_tags
                                       if t.offset == 4 * K and
                                       pmt.symbol_to_string(t.key) == "packet_len"][0]))
        self.assertEqual(dec.misaligned_length_tags(), 4)
        self.assertEqual([name for name, _ in warnings], ["turbo_decoder"] * 4)
        for (_, message), codeword in zip(warnings, (2, 3, 5, 6)):
            self.assertRegex(message, f'"packet_len" .* codeword {codeword} dropped')

        # Many: the first ten are logged one by one, the rest summed up (at most once a
        # second, and at stop).
        many_count = 16
        many_bits = self.random_bits(K, many_count)
        many_llrs = clean_llrs(gputurbo_encode(many_bits, K))
        many = [tag(i * n + 1, pmt.from_long(n)) for i in range(many_count)]
        with warnings_logged() as warnings:
            _, dec, out_tags = run_decoder(many_llrs, K, tags=many)
        self.assertEqual(keyed_tags(out_tags, "packet_len"), [])
        self.assertEqual(dec.misaligned_length_tags(), many_count)
        self.assertIn("the next ones are counted", warnings[9][1])
        summaries = warnings[10:]
        self.assertTrue(1 <= len(summaries) <= 2, warnings)
        self.assertIn(f"{many_count} in all", summaries[-1][1])

    def restart_mid_stream(self, K, count, pause):
        """Codewords of CRC24A blocks from a paused_source that stops at item `pause`;
        the flowgraph is stopped there and restarted, and the source goes on. Returns
        (bits, decoder, (bits, tags) of the first run, (bits, tags) of the second)."""
        bits = crc24a_blocks(self.rng, K, count)
        src = paused_source(clean_llrs(gputurbo_encode(bits, K)), pause)
        dec = make_decoder(K, max_batch=4, batches_in_flight=1, early_stop="crc24a",
                           iterations=4)
        snk = blocks.vector_sink_b()
        tb = gr.top_block()
        tb.connect(src, dec, snk)
        whole = pause // codeword_length(K)
        tb.start()
        self.assertTrue(wait_for(lambda: len(snk.data()) == whole * K))
        tb.stop()
        tb.wait()
        runs = [(np.array(snk.data(), dtype=np.uint8), snk.tags())]
        snk.reset()
        src.pause = None
        tb.start()
        tb.wait()
        runs.append((np.array(snk.data(), dtype=np.uint8), snk.tags()))
        return bits, dec, runs

    def test_022_restart(self):
        # A restart empties GNU Radio's buffers: the LLRs the decoder held at the stop
        # are lost, and the source goes on from where it was.
        K, count = 40, 30
        n = codeword_length(K)

        # Paused mid-codeword: the 50 LLRs held are lost, the new stream starts 50 LLRs
        # into a codeword, and every codeword after the restart is misaligned. The
        # decoder reports the restart and its loss, and the CRC fails every one.
        bits, dec, ((before, tags_before), (after, tags_after)) = \
            self.restart_mid_stream(K, count, 10 * n + 50)
        np.testing.assert_array_equal(before, bits[:10 * K])
        self.assertTrue(all(t[3] for t in codeword_tags(tags_before)))
        self.assertEqual(keyed_tags(tags_before, "restart"), [])
        self.assertEqual(keyed_tags(tags_after, "restart"), [(0, 50)])
        misaligned = codeword_tags(tags_after)
        self.assertEqual(len(misaligned), (count * n - (10 * n + 50)) // n)
        self.assertEqual(len(after), len(misaligned) * K)
        self.assertTrue(not any(t[3] for t in misaligned), misaligned)
        self.assertEqual(dec.partial_items(), (count * n - (10 * n + 50)) % n)

        # Paused on a codeword boundary: nothing held, and the first item of the new
        # stream starts a codeword again, as it does.
        bits, dec, ((before, _), (after, tags_after)) = \
            self.restart_mid_stream(K, count, 10 * n)
        np.testing.assert_array_equal(np.concatenate([before, after]), bits)
        self.assertEqual(keyed_tags(tags_after, "restart"), [(0, 0)])
        self.assertTrue(all(t[3] for t in codeword_tags(tags_after)))
        self.assertEqual(dec.partial_items(), 0)

    def test_023_warnings_only_when_data_is_lost(self):
        # A flowgraph that ends with whole codewords, every one delivered, logs no
        # warning: not at its end, not at a stop() after it, not at a restart.
        K, count = 40, 12
        n = codeword_length(K)
        bits = self.random_bits(K, count)
        llrs = clean_llrs(gputurbo_encode(bits, K))
        with warnings_logged() as warnings:
            tb = gr.top_block()
            src = blocks.vector_source_b(bits.tolist(), False)
            to_float = blocks.char_to_float(1, 1.0)
            to_llr = blocks.multiply_const_ff(8.0)
            offset = blocks.add_const_ff(-4.0)
            dec = make_decoder(K, max_batch=5)
            snk = blocks.vector_sink_b()
            tb.connect(src, gputurbo.turbo_encoder(K), to_float, to_llr, offset, dec, snk)
            tb.run()
            tb.stop()
            tb.wait()
            tb.start()  # the source has finished: nothing flows
            tb.wait()

            pdu_tb = gr.top_block()
            pdu_dec = gputurbo.turbo_decoder_pdu(backend=BACKEND)
            pdu_sink = blocks.message_debug()
            pdu_tb.msg_connect((pdu_dec, "pdus"), (pdu_sink, "store"))
            for i in range(count):
                pdu_dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(
                    pmt.make_dict(), pmt.init_f32vector(n, llrs[i * n:(i + 1) * n])))
            pdu_tb.start()
            self.assertTrue(wait_for(lambda: pdu_sink.num_messages() == count))
            pdu_tb.stop()
            pdu_tb.wait()
        np.testing.assert_array_equal(np.array(snk.data()), bits)
        self.assertEqual(pdu_dec.decoded_pdus(), count)
        self.assertEqual(warnings, [])

        # Data lost is reported: LLRs of a partial codeword, bits of a partial block.
        with warnings_logged() as warnings:
            _, dec, _ = run_decoder(llrs[:3 * n + 7], K)
            encoded = gputurbo_encode(bits[:2 * K + 3], K)
        self.assertEqual(len(encoded), 2 * n)
        self.assertEqual([name for name, _ in warnings],
                         ["turbo_decoder", "turbo_encoder"], warnings)
        self.assertIn("7 input LLR(s) left undecoded", warnings[0][1])
        self.assertIn("3 input bit(s) left unencoded", warnings[1][1])

    def test_024_soft_output(self):
        # output="llr": K floats per codeword (the stream's items are floats) whose signs
        # are the bits of output="bits" (positive-one: > 0 is 1), with the same tags on
        # the same items, over several batches; "extrinsic" is llr less the systematic
        # input (int16 reads it in steps of 1/16); positive-zero negates them.
        rng = fresh_rng()
        K, count = 256, 20
        bits = rng.integers(0, 2, K * count, dtype=np.uint8)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        sigma = noise_sigma(K, 0.0)  # some codewords fail: values near 0
        y = (2.0 * code - 1.0) + rng.normal(0.0, sigma, len(code))
        llrs = (2.0 * y / sigma ** 2).astype(np.float32)
        n = codeword_length(K)
        tags = [stream_tag(5 * n + 7, "mark", pmt.from_long(5)),
                stream_tag(13 * n, "mark", pmt.from_long(13))]
        systematic = llrs.reshape(count, n)[:, 0:3 * K:3].ravel()
        # a channel that tests: its own decisions of many bits are wrong
        self.assertGreater(np.sum((systematic > 0) != bits), 0.05 * len(bits))

        def tag_list(found):
            return sorted((t.offset, pmt.symbol_to_string(t.key),
                           pmt.write_string(t.value)) for t in found)

        for arithmetic in ("float32", "int16"):
            with self.subTest(arithmetic=arithmetic):
                kwargs = dict(max_batch=8, arithmetic=arithmetic, early_stop="hard")
                hard, dec, hard_tags = run_decoder(llrs, K, tags, **kwargs)
                self.assertEqual(dec.output_signature().sizeof_stream_item(0), 1)
                app, dec, app_tags = run_decoder(llrs, K, tags, output="llr", **kwargs)
                self.assertEqual(dec.output_signature().sizeof_stream_item(0), 4)
                self.assertEqual(len(app), K * count)
                np.testing.assert_array_equal((app > 0).astype(np.uint8), hard)
                self.assertEqual(tag_list(app_tags), tag_list(hard_tags))
                self.assertEqual(len(codeword_tags(app_tags)), count)

                extrinsic, _, extrinsic_tags = run_decoder(llrs, K, tags,
                                                           output="extrinsic", **kwargs)
                self.assertEqual(tag_list(extrinsic_tags), tag_list(hard_tags))
                step = 1 / 32 if arithmetic == "int16" else 1e-4
                np.testing.assert_allclose(extrinsic, app - systematic, rtol=0,
                                           atol=step + 1e-4 * np.abs(app).max())

                zero, _, _ = run_decoder(-llrs, K, tags, output="llr",
                                         llr_sign="positive-zero", **kwargs)
                np.testing.assert_array_equal(zero, -app)

        with self.assertRaisesRegex(ValueError, "unknown output 'soft': use one of bits, "
                                    "llr, extrinsic"):
            make_decoder(40, output="soft")

    def test_025_int8_soft_output(self):
        # output_type="int8": one int8 item a value (the stream's items are bytes), the
        # float values quantised at int8_scale as int8 input is (quantize_llrs()), with
        # the same tags on the same items; from int8 input too.
        rng = fresh_rng()
        K, count = 256, 12
        bits = rng.integers(0, 2, K * count, dtype=np.uint8)
        code = np.array(gputurbo_encode(bits, K), dtype=np.float32)
        sigma = noise_sigma(K, 0.5)
        y = (2.0 * code - 1.0) + rng.normal(0.0, sigma, len(code))
        llrs = (2.0 * y / sigma ** 2).astype(np.float32)
        n = codeword_length(K)
        tags = [stream_tag(5 * n + 7, "mark", pmt.from_long(5))]

        def tag_list(found):
            return sorted((t.offset, pmt.symbol_to_string(t.key),
                           pmt.write_string(t.value)) for t in found)

        settings = dict(max_batch=4, early_stop="hard")
        app = run_decoder(llrs, K, output="llr", **settings)[0]
        scale = float(127 / np.median(np.abs(app)))  # about half saturate
        for output in ("llr", "extrinsic"):
            for input_type, x in (("float", llrs),
                                  ("int8", gputurbo.quantize_llrs(llrs, scale))):
                with self.subTest(output=output, input_type=input_type):
                    kwargs = dict(output=output, input_type=input_type,
                                  int8_scale=scale, **settings)
                    values, _, float_tags = run_decoder(x, K, tags, **kwargs)
                    q, dec, q_tags = run_decoder(x, K, tags, output_type="int8",
                                                 **kwargs)
                    self.assertEqual(dec.output_signature().sizeof_stream_item(0), 1)
                    self.assertEqual((q.dtype, q.size), (np.int8, K * count))
                    np.testing.assert_array_equal(q, gputurbo.quantize_llrs(values,
                                                                            scale))
                    if output == "llr" and input_type == "float":
                        self.assertTrue(0 < np.sum(np.abs(q) == 127) < q.size)
                    self.assertEqual(tag_list(q_tags), tag_list(float_tags))
        with self.assertRaisesRegex(ValueError, "unknown output_type 'int16': use one "
                                    "of float, int8"):
            make_decoder(40, output="llr", output_type="int16")


if __name__ == '__main__':
    require_backend(gputurbo.turbo_decoder, 40)
    gr_unittest.run(qa_turbo_decoder)
