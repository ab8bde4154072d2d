#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#

import sys

import numpy as np
from gnuradio import blocks, digital, fec, gr, gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import run_fec_pdus, seeded_case
from qa_conv_fec import fec_test_ber
from qa_turbo_decoder import codeword_length, gputurbo_encode, noise_sigma


def encode(bits, K):
    """Code bits of our stream encoder block, the reference for the FECAPI encoder."""
    return np.array(gputurbo_encode(bits, K), dtype=np.uint8)


def fec_loopback(bits, K, ebn0_db=None, seed=1, threading=None, objects=1, **kwargs):
    """bits -> fec.extended_encoder -> soft symbols the gr-fec way -> fec.extended_decoder.

    The soft symbols are made as gr-fec's fec_test (the core of bercurve_generator)
    makes them: digital.map_bb([-1, 1]) (code bit 0 -> -1, 1 -> +1), char_to_float, plus
    Gaussian noise when ebn0_db is given. Returns (decoded bits, soft symbols, decoder
    objects).
    """
    encoders = [gputurbo.turbo_encoder_fec.make(K) for _ in range(objects)]
    decoders = [gputurbo.turbo_decoder_fec.make(K, **kwargs) for _ in range(objects)]
    n_soft = len(bits) // K * codeword_length(K)
    noise = np.zeros(n_soft, dtype=np.float32)
    if ebn0_db is not None:
        noise = np.random.default_rng(seed).normal(
            0.0, noise_sigma(K, ebn0_db), n_soft).astype(np.float32)

    tb = gr.top_block()
    src = blocks.vector_source_b(list(bits), False)
    enc = fec.extended_encoder(encoders if objects > 1 else encoders[0],
                               threading=threading, puncpat='11')
    to_symbols = digital.map_bb([-1, 1])
    to_float = blocks.char_to_float(1, 1.0)
    noise_src = blocks.vector_source_f(noise.tolist(), False)
    add = blocks.add_ff()
    dec = fec.extended_decoder(decoders if objects > 1 else decoders[0],
                               threading=threading, ann=None, puncpat='11',
                               integration_period=10000)
    soft = blocks.vector_sink_f()
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, to_symbols, to_float, (add, 0))
    tb.connect(noise_src, (add, 1))
    tb.connect(add, dec, snk)
    tb.connect(add, soft)
    tb.run()
    return (np.array(snk.data(), dtype=np.uint8),
            np.array(soft.data(), dtype=np.float32), decoders)


def native_decode(soft, K, **kwargs):
    """The same soft values through our batched turbo_decoder block."""
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False)
    dec = gputurbo.turbo_decoder(K, **kwargs)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), dec


def cuda_unavailable():
    """Why the CUDA backend cannot run here, or None when it can."""
    try:
        gputurbo.turbo_decoder_fec.make(40, backend="cuda")
    except RuntimeError as e:
        return str(e)
    return None


# The backends of the tests that run on each: the CPU, and CUDA where it runs.
BACKENDS = ["cpu"] + (["cuda"] if cuda_unavailable() is None else [])


class qa_turbo_fec(seeded_case):

    def skip_without_cuda(self):
        reason = cuda_unavailable()
        if reason is not None:
            # Said on stderr as well: a skipped GPU test must not pass unnoticed.
            print(f"\nSKIPPED {self.id()}: no CUDA backend: {reason}", file=sys.stderr)
            self.skipTest(f"no CUDA backend: {reason}")

    # --- (a) noiseless round trip -------------------------------------------------------

    def check_noiseless_round_trip(self, backend):
        # Sizes at both ends of the table, and two whose rate times 3K+12 falls just
        # short of K in floating point (see code_rate() in turbo_decoder_fec_impl.cc).
        for K, count in ((40, 12), (88, 6), (1008, 4), (1568, 3), (6144, 3)):
            with self.subTest(K=K):
                bits = self.random_bits(K, count)
                out, soft, decoders = fec_loopback(bits, K, backend=backend)
                # gr-fec's soft symbols: +1 for a code bit 1, in our encoder's order.
                np.testing.assert_array_equal(soft, 2.0 * encode(bits, K) - 1.0)
                np.testing.assert_array_equal(out, bits, err_msg=f"K={K}")
                self.assertEqual(decoders[0].frames(), count)
                self.assertEqual(decoders[0].backend(), backend)

    def test_001_noiseless_round_trip_cpu(self):
        self.check_noiseless_round_trip("cpu")

    def test_002_noiseless_round_trip_threaded(self):
        # gr-fec's parallel wrappers: one object per branch, frames dealt in turn.
        K, count = 256, 16
        bits = self.random_bits(K, count)
        for threading in ("capillary", "ordinary"):
            with self.subTest(threading=threading):
                out, _, decoders = fec_loopback(bits, K, threading=threading, objects=4,
                                                backend="cpu")
                np.testing.assert_array_equal(out, bits)
                self.assertEqual([d.frames() for d in decoders], [count // 4] * 4)

    def test_003_sign_convention(self):
        # The default takes gr-fec's convention (positive means 1); the native one
        # (positive means 0) on the same symbols decodes something else entirely.
        K, count = 512, 4
        bits = self.random_bits(K, count)
        out, _, _ = fec_loopback(bits, K, backend="cpu", llr_sign="positive-zero")
        self.assertEqual(len(out), len(bits))
        self.assertGreater(np.sum(out != bits), len(bits) // 4)
        out, _, _ = fec_loopback(bits, K, backend="cpu")
        np.testing.assert_array_equal(out, bits)

    # --- (b) AWGN, and the same bits as the native block ----------------------------------

    def check_awgn(self, backend):
        # At Eb/N0 = 1.5 dB the channel flips about 17 % of the code bits (the lower
        # bound shows the noise is there); six iterations correct them all.
        K, count = 6144, 6
        bits = self.random_bits(K, count)
        out, soft, decoders = fec_loopback(bits, K, ebn0_db=1.5, seed=7, backend=backend)
        code = encode(bits, K)
        channel_errors = int(np.sum((soft > 0) != (code == 1)))
        self.assertGreater(channel_errors, 0.15 * len(code))
        np.testing.assert_array_equal(out, bits)

        # The native block decodes the same values to the same bits (same engine, same
        # configuration; it batches them, which changes nothing).
        native, dec = native_decode(soft, K, backend=backend,
                                    subblocks=decoders[0].subblocks())
        self.assertEqual(dec.backend(), backend)
        np.testing.assert_array_equal(native, out)

    def test_004_awgn_cpu(self):
        self.check_awgn("cpu")

    def test_005_same_bits_as_native_with_errors(self):
        # Where frames keep errors, the two paths must still agree bit for bit: an
        # equality of error-free outputs alone would not show it.
        K, count = 1008, 8
        bits = self.random_bits(K, count)
        for kwargs in (dict(iterations=2), dict(algorithm="log-map", iterations=3),
                       dict(early_stop="crc24b", iterations=8)):
            with self.subTest(**kwargs):
                out, soft, _ = fec_loopback(bits, K, ebn0_db=0.0, seed=11,
                                            backend="cpu", **kwargs)
                self.assertGreater(np.sum(out != bits), 10)
                native, _ = native_decode(soft, K, backend="cpu",
                                          **kwargs)
                np.testing.assert_array_equal(native, out)

    def test_006_ber_curve_generator(self):
        # gr-fec's BER tool pairs the objects: no errors at Es/N0 = -2 dB (Eb/N0 2.8 dB),
        # many at -8 dB (Eb/N0 -3.2 dB, below what any rate-1/3 code can correct).
        K = 512
        esno = [-8.0, -2.0]
        encoders = [gputurbo.turbo_encoder_fec.make(K) for _ in esno]
        decoders = [gputurbo.turbo_decoder_fec.make(K, backend="cpu") for _ in esno]
        tb = gr.top_block()
        ber = fec.bercurve_generator(encoders, decoders, esno, threading=None, seed=3)
        frames = 40
        sinks = []
        for i in range(len(esno)):
            sink = []
            for port in (2 * i, 2 * i + 1):  # decoded, sent: packed bytes
                head = blocks.head(gr.sizeof_char, frames * K // 8)
                snk = blocks.vector_sink_b()
                tb.connect((ber, port), head, snk)
                sink.append(snk)
            sinks.append(sink)
        tb.run()
        errors = []
        for decoded, sent in sinks:
            rx = np.unpackbits(np.array(decoded.data(), dtype=np.uint8))
            tx = np.unpackbits(np.array(sent.data(), dtype=np.uint8))
            self.assertEqual(len(rx), frames * K)
            errors.append(int(np.sum(rx != tx[:len(rx)])))
        self.assertGreater(errors[0], 0.05 * frames * K)
        self.assertEqual(errors[1], 0)

    # --- (c) PDUs ---------------------------------------------------------------------

    def run_pdus(self, block, pdus, expected, unread=0):
        """Posts PDUs to a message block; returns the PDUs it sends out (run_fec_pdus)."""
        return run_fec_pdus(block, pdus, expected, unread)

    def test_007_async_pdus(self):
        # fec.async_encoder and fec.async_decoder, one codeword per PDU, metadata kept.
        for K in (40, 88, 6144):
            with self.subTest(K=K):
                frames = [self.rng.integers(0, 2, K, dtype=np.uint8) for _ in range(3)]
                encoder = fec.async_encoder(gputurbo.turbo_encoder_fec.make(K),
                                            False, True, True, 1500)
                coded = self.run_pdus(
                    encoder,
                    [(pmt.to_pmt({"frame": i}), pmt.init_u8vector(K, f.tolist()))
                     for i, f in enumerate(frames)], len(frames))
                self.assertEqual(len(coded), len(frames))
                soft = []
                for frame, msg in zip(frames, coded):
                    code = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
                    np.testing.assert_array_equal(code, encode(frame, K))
                    y = 2.0 * code.astype(np.float32) - 1.0
                    y += self.rng.normal(0.0, noise_sigma(K, 4.0), len(y))
                    soft.append((pmt.car(msg), pmt.init_f32vector(len(y), y.tolist())))

                obj = gputurbo.turbo_decoder_fec.make(K, backend="cpu", iterations=5)
                decoder = fec.async_decoder(obj, False, True, 1500)
                decoded = self.run_pdus(decoder, soft, len(frames))
                self.assertEqual(len(decoded), len(frames))
                self.assertEqual(obj.block_size(), K)
                for i, (frame, msg) in enumerate(zip(frames, decoded)):
                    bits = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
                    np.testing.assert_array_equal(bits, frame)
                    meta = pmt.to_python(pmt.car(msg))
                    self.assertEqual(meta["frame"], i)
                    self.assertEqual(meta["iterations"], 5.0)

    # --- (d) sizes and parameters ---------------------------------------------------------

    def test_008_sizes_and_frame_size_changes(self):
        dec = gputurbo.turbo_decoder_fec.make(1008, backend="cpu")
        enc = gputurbo.turbo_encoder_fec.make(1008)
        self.assertIsInstance(dec, fec.generic_decoder)
        self.assertIsInstance(enc, fec.generic_encoder)
        self.assertEqual((dec.get_input_size(), dec.get_output_size()), (3036, 1008))
        self.assertEqual((enc.get_input_size(), enc.get_output_size()), (1008, 3036))
        self.assertAlmostEqual(dec.rate(), 1008 / 3036)
        self.assertAlmostEqual(enc.rate(), 3036 / 1008)
        self.assertEqual(fec.get_decoder_input_conversion(dec), "none")
        self.assertEqual(fec.get_decoder_output_conversion(dec), "none")
        self.assertEqual(fec.get_encoder_input_conversion(enc), "none")
        self.assertEqual(fec.get_encoder_output_conversion(enc), "none")
        self.assertEqual(fec.get_shift(dec), 0.0)
        self.assertEqual(fec.get_history(dec), 0)
        self.assertEqual(fec.get_decoder_input_item_size(dec), gr.sizeof_float)
        self.assertEqual(fec.get_decoder_output_item_size(dec), gr.sizeof_char)
        self.assertEqual(dec.get_iterations(), 6.0)
        self.assertEqual(gputurbo.turbo_decoder_fec.make(40, iterations=9)
                         .get_iterations(), 9.0)

        # gr-fec's wrappers find a frame's bits as its length times rate(), truncated
        # (async_decoder) or rounded (tagged_decoder): exactly mK for m codewords, at
        # every size (K / (3K+12) to the nearest double falls short for some).
        sizes = [K for K in range(40, 6145)
                 if (K <= 512 and K % 8 == 0) or (512 < K <= 1024 and K % 16 == 0)
                 or (1024 < K <= 2048 and K % 32 == 0) or (K > 2048 and K % 64 == 0)]
        self.assertEqual(len(sizes), 188)
        for K in sizes:
            rate = gputurbo.turbo_decoder_fec.make(K, backend="cpu").rate()
            for m in range(1, 200):
                n = m * codeword_length(K)
                self.assertEqual((int(n * rate), round(n * rate)), (m * K, m * K),
                                 f"K={K}, {m} codewords")
            self.assertTrue(enc.set_frame_size(K))
            self.assertEqual(int(K * enc.rate()), codeword_length(K))

        # set_frame_size(mK) announces m codewords; anything else is refused: 1 input
        # item and no output until the next announcement. Both answer True, which keeps
        # async_decoder's length check on (test_016). K stays.
        dec = gputurbo.turbo_decoder_fec.make(40, backend="cpu")
        sizes = lambda: (dec.get_input_size(), dec.get_output_size())
        self.assertTrue(dec.set_frame_size(80))
        self.assertEqual(sizes(), (264, 80))
        most = (2 ** 31 - 1) // 132  # codewords whose input size fits an int
        self.assertTrue(dec.set_frame_size(40 * most))
        self.assertEqual(sizes(), (132 * most, 40 * most))
        for bad in (0, 39, 41, 48, 76, 6144, 40 * (most + 1), 2 ** 32 - 1):
            with self.subTest(frame_size=bad):
                self.assertTrue(dec.set_frame_size(40))
                self.assertTrue(dec.set_frame_size(bad))
                self.assertEqual(sizes(), (1, 0))
        self.assertTrue(dec.set_frame_size(40))
        self.assertEqual(sizes(), (132, 40))
        self.assertEqual((dec.block_size(), dec.frames(), dec.refused_frames()), (40, 0, 0))
        for bad in (0, 41, 6152, 2 ** 31):
            self.assertFalse(enc.set_frame_size(bad))
        self.assertEqual((enc.block_size(), enc.get_output_size()), (6144, 18444))

    def test_009_bad_parameters(self):
        for make in (gputurbo.turbo_decoder_fec.make, gputurbo.turbo_encoder_fec.make):
            for K in (41, 0, -8, 6145, 6208):
                with self.subTest(make=make.__name__, K=K):
                    with self.assertRaisesRegex(ValueError, "block size"):
                        make(K)
        with self.assertRaisesRegex(ValueError, "nearest valid sizes 40 and 48"):
            gputurbo.turbo_decoder_fec.make(41)
        cases = [
            (dict(iterations=0), "iterations"),
            (dict(iterations=33), "iterations"),
            (dict(subblocks=3), "subblocks"),
            (dict(subblocks=-1), "subblocks"),
            (dict(algorithm="bcjr"), "algorithm"),
            (dict(guard="wide"), "guard"),
            (dict(early_stop="crc16"), "stop"),
            (dict(scaling=0.0), "scaling"),
            (dict(stop_threshold=-1.0), "stop_threshold"),
            (dict(threads=-1), "threads"),
            (dict(backend="fpga"), "backend"),
            (dict(arithmetic="int8"), "arithmetic"),
        ]
        for kwargs, pattern in cases:
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(ValueError, pattern):
                    gputurbo.turbo_decoder_fec.make(40, **kwargs)

    def test_010_status_of_the_last_frame(self):
        K = 256
        dec = gputurbo.turbo_decoder_fec.make(K, backend="cpu", iterations=8,
                                              early_stop="mean-llr", stop_threshold=20.0)
        self.assertEqual((dec.frames(), dec.last_iterations(), dec.last_passed()),
                         (0, 0, False))
        bits = self.random_bits(K, 1)
        # Clean channel values, scaled to LLRs of a good channel: stops early.
        y = (2.0 * encode(bits, K).astype(np.float32) - 1.0) * 4.0
        tb = gr.top_block()
        src = blocks.vector_source_f(y.tolist(), False)
        snk = blocks.vector_sink_b()
        tb.connect(src, fec.extended_decoder(dec, threading=None, ann=None,
                                             puncpat='11', integration_period=10000), snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()), bits)
        self.assertEqual(dec.frames(), 1)
        self.assertTrue(1 <= dec.last_iterations() < 8)
        self.assertTrue(dec.last_passed())

    # --- (e) the CUDA backend -------------------------------------------------------------

    def test_011_noiseless_round_trip_cuda(self):
        self.skip_without_cuda()
        self.check_noiseless_round_trip("cuda")
        # subblocks = 0: the engine picks P for the GPU.
        self.assertEqual(gputurbo.turbo_decoder_fec.make(6144, backend="cuda")
                         .subblocks(), 192)

    def test_012_awgn_cuda(self):
        self.skip_without_cuda()
        self.check_awgn("cuda")


    # --- (f) frame sizes through gr-fec's PDU and tagged-stream wrappers ------------------

    def test_013_async_decoder_frames(self):
        for backend in BACKENDS:
            with self.subTest(backend=backend):
                self.check_013_async_decoder_frames(backend)

    def check_013_async_decoder_frames(self, backend):
        # gr-fec's async_decoder announces int(length * rate()) bits per PDU. m whole
        # codewords give mK and are decoded; any other length (one value short, a
        # codeword of another K, two and a half codewords) is refused: a PDU of that
        # many zero bits with the metadata, counted, and the block goes on.
        for K in (40, 1008, 6144):
            with self.subTest(K=K):
                frames = self.random_bits(K, 4).reshape(4, K)
                soft = [2.0 * encode(f, K).astype(np.float32) - 1.0 for f in frames]
                K2 = 2 * K if K <= 3072 else K // 2
                other = 2.0 * encode(self.random_bits(K2, 1), K2) - 1.0
                pdus = [
                    soft[0],                          # one codeword
                    np.concatenate(soft[1:3]),        # two
                    soft[0][:-1],                     # one value short
                    other,                            # a codeword of K2
                    np.concatenate(soft[1:3] + [soft[0][:len(soft[0]) // 2]]),
                    soft[3],                          # one codeword again
                ]
                obj = gputurbo.turbo_decoder_fec.make(K, backend=backend)
                refused = [np.zeros(int(len(y) * obj.rate())) for y in pdus[2:5]]
                expected = [frames[0], np.concatenate(frames[1:3])] + refused + [frames[3]]
                decoder = fec.async_decoder(obj, False, True, 3 * K // 8)
                out = self.run_pdus(
                    decoder,
                    [(pmt.to_pmt({"pdu": i}), pmt.init_f32vector(len(y), y.tolist()))
                     for i, y in enumerate(pdus)], len(pdus))
                self.assertEqual(len(out), len(pdus))
                for i, (msg, bits) in enumerate(zip(out, expected)):
                    self.assertEqual(pmt.to_python(pmt.car(msg))["pdu"], i)
                    np.testing.assert_array_equal(
                        np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8),
                        np.array(bits, dtype=np.uint8), err_msg=f"PDU {i}")
                self.assertEqual((obj.frames(), obj.refused_frames()), (4, 3))
                self.assertEqual(obj.block_size(), K)

    def test_014_async_decoder_packed(self):
        for backend in BACKENDS:
            with self.subTest(backend=backend):
                self.check_014_async_decoder_packed(backend)

    def check_014_async_decoder_packed(self, backend):
        # packed=True: whole codewords come out packed (LSB first with rev_pack); gr-fec
        # ignores a refusal there and sends int(length * rate()) / 8 bytes anyway, so
        # only the count shows it, and the next PDU is decoded as usual.
        K = 1024
        frames = self.random_bits(K, 3).reshape(3, K)
        soft = [2.0 * encode(f, K).astype(np.float32) - 1.0 for f in frames]
        pdus = [np.concatenate(soft[0:2]), soft[2][:-1], soft[2]]
        obj = gputurbo.turbo_decoder_fec.make(K, backend=backend)
        decoder = fec.async_decoder(obj, True, True, 1500)
        out = self.run_pdus(
            decoder, [(pmt.PMT_NIL, pmt.init_f32vector(len(y), y.tolist())) for y in pdus],
            len(pdus))
        packed = [np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8) for m in out]
        np.testing.assert_array_equal(packed[0], np.packbits(frames[0:2], bitorder="little"))
        np.testing.assert_array_equal(packed[2], np.packbits(frames[2], bitorder="little"))
        self.assertEqual((obj.frames(), obj.refused_frames()), (3, 1))

    def test_015_tagged_decoder_frames(self):
        for backend in BACKENDS:
            with self.subTest(backend=backend):
                self.check_015_tagged_decoder_frames(backend)

    def check_015_tagged_decoder_frames(self, backend):
        # gr-fec's tagged_decoder announces round(length * rate()) bits per packet: a
        # packet of the wrong length is consumed and gives no items and no tag, where
        # gr-fec would read 3K+12 values from it; whole codewords decode, two at once as
        # well. (3K+11 rounds to K: gr-fec cannot tell it from a codeword.)
        for K in (40, 6144):
            with self.subTest(K=K):
                frames = self.random_bits(K, 4).reshape(4, K)
                soft = [2.0 * encode(f, K).astype(np.float32) - 1.0 for f in frames]
                n = codeword_length(K)
                packets = [soft[0], soft[1][:n - 2], soft[1][:n // 2],
                           np.concatenate(soft[1:3]), soft[3][:n - 2], soft[3]]
                tags = []
                offset = 0
                for p in packets:
                    tag = gr.tag_t()
                    tag.offset, tag.key, tag.value = (
                        offset, pmt.intern("packet_len"), pmt.from_long(len(p)))
                    tags.append(tag)
                    offset += len(p)
                obj = gputurbo.turbo_decoder_fec.make(K, backend=backend)
                tb = gr.top_block()
                src = blocks.vector_source_f(np.concatenate(packets).tolist(), False, 1,
                                             tags)
                dec = fec.tagged_decoder(obj, gr.sizeof_float, gr.sizeof_char,
                                         "packet_len", max(1500, 2 * K // 8))
                snk = blocks.vector_sink_b()
                tb.connect(src, dec, snk)
                tb.run()
                np.testing.assert_array_equal(
                    np.array(snk.data(), dtype=np.uint8),
                    np.concatenate([frames[0], frames[1], frames[2], frames[3]]))
                lengths = [pmt.to_long(t.value) for t in snk.tags()
                           if pmt.symbol_to_string(t.key) == "packet_len"]
                self.assertEqual(lengths, [K, 2 * K, K])
                self.assertEqual((obj.frames(), obj.refused_frames()), (4, 3))

    def test_016_async_decoder_any_length(self):
        for backend in BACKENDS:
            for packed in (False, True):
                with self.subTest(backend=backend, packed=packed):
                    self.check_016_async_decoder_any_length(backend, packed)

    def check_016_async_decoder_any_length(self, backend, packed):
        # async_decoder holds a PDU in a buffer of mtu * 8 / rate() values (36140 here)
        # and checks its length only when set_frame_size() says True (packed: always);
        # on False it copies the PDU in unchecked. The object says True for every
        # length, so no PDU overruns the buffer: whole codewords decode, other lengths
        # (0, 1, odd, one value short) come out as int(length * rate()) zero bits
        # (packed: bytes of gr-fec's bit buffer), and a longer PDU (unpacked 40 000
        # values, a refused length; packed 2^21 + 1) makes gr-fec throw: nothing comes
        # out, the block stops and the PDU after it stays queued.
        K = 1024
        frames = self.random_bits(K, 14).reshape(14, K)
        soft = [2.0 * encode(f, K).astype(np.float32) - 1.0 for f in frames]
        pdus = [soft[0], soft[0][:0], soft[0][:1], soft[1][:1001], soft[1][:-1],
                np.concatenate(soft[2:13]), soft[13]]
        obj = gputurbo.turbo_decoder_fec.make(K, backend=backend)
        decoded = [frames[0], [], [], None, None, np.concatenate(frames[2:13]), frames[13]]
        too_long = np.ones(2 ** 21 + 1 if packed else 40000, np.float32)
        decoder = fec.async_decoder(obj, packed, True, 1500)
        out = self.run_pdus(
            decoder, [(pmt.PMT_NIL, pmt.init_f32vector(len(y), y.tolist()))
                      for y in pdus + [too_long, soft[0]]], len(pdus), unread=1)
        self.assertEqual(len(out), len(pdus))
        self.assertEqual(decoder.to_basic_block().nmsgs(pmt.intern("in")), 1)
        for i, (msg, y, bits) in enumerate(zip(out, pdus, decoded)):
            data = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
            size = int(len(y) * obj.rate())
            if packed:
                self.assertEqual(len(data), size // 8, f"PDU {i}")
                if bits is not None:
                    np.testing.assert_array_equal(
                        data, np.packbits(np.array(bits, np.uint8), bitorder="little"),
                        err_msg=f"PDU {i}")
            else:
                np.testing.assert_array_equal(
                    data, np.zeros(size) if bits is None else bits, err_msg=f"PDU {i}")
        self.assertEqual((obj.frames(), obj.refused_frames()), (13, 4))

    def test_017_fec_test_ber_against_float_decoder(self):
        # gr-fec's BER tools as ber_curve_gen.grc uses them (fec_test, ber_bf) with our
        # objects, in the waterfall: at most 1.3 times the bit errors of the float
        # reference decoder of the same parameters on the same noisy symbols, more than
        # 0.4 times them (no transmitted bits leak through), and ber_bf reads the same.
        K, frames = 1024, 200
        data = np.random.default_rng(5).integers(0, 256, K * frames // 8, dtype=np.uint8)
        sent = np.unpackbits(data).reshape(frames, K)
        reference = gputurbo.turbo_engine(K=K, backend="reference")
        for backend in BACKENDS:
            for esno in (-4.75, -4.5, -4.25):
                ours = fec_test_ber(gputurbo.turbo_encoder_fec.make(K),
                                    gputurbo.turbo_decoder_fec.make(K, backend=backend),
                                    esno, data, seed=3)
                decoded = ours.compared // K
                bits, _, _ = reference.decode(
                    ours.symbols.reshape(-1, codeword_length(K))[:decoded])
                theirs = int(np.count_nonzero(bits != sent[:decoded]))
                what = (f"{backend} Es/N0 {esno} dB: {ours.errors} errors, the float "
                        f"decoder {theirs}")
                self.assertGreaterEqual(theirs, 1000, what)
                self.assertLessEqual(ours.errors, 1.3 * theirs, what)
                self.assertGreater(ours.errors, 0.4 * theirs, what)
                self.assertGreaterEqual(decoded, frames - 1, what)
                self.assertEqual(ours.ber_bf_errors, ours.errors, what)
                self.assertAlmostEqual(ours.ber_bf, ours.errors / ours.compared,
                                       delta=1e-6 * ours.ber_bf, msg=what)

    def test_018_arithmetic(self):
        # float32 on the CPU, the exact reference frame by frame, gives the stream
        # block's float32 bits where frames keep errors.
        K, count = 1008, 8
        bits = self.random_bits(K, count)
        kwargs = dict(backend="cpu", arithmetic="float32", iterations=2)
        out, soft, _ = fec_loopback(bits, K, ebn0_db=0.0, seed=11, **kwargs)
        self.assertGreater(np.sum(out != bits), 10)
        native, _ = native_decode(soft, K, **kwargs)
        np.testing.assert_array_equal(native, out)


if __name__ == '__main__':
    gr_unittest.run(qa_turbo_fec)
