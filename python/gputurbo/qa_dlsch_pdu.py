#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""dlsch_encoder_pdu and dlsch_decoder_pdu: the encoder sends the bits of the independent
DL-SCH vectors (tests/data/lte-dlsch, which the engine's transport_encode reproduces);
noiseless LLRs decode to the data; HARQ transmissions combine; bad PDUs are answered, in
their place, with the reason; many PDUs of mixed sizes decode in few engine calls."""

import math
import os
import time

import numpy as np
from gnuradio import gr_unittest
from gnuradio import gputurbo
import pmt

from gputurbo_qa import BACKEND, DLSCH_VECTORS_DIR, gold_sequence, pdu, require_backend
import gputurbo_qa


def hex_bits(text, n):
    """The first n bits of hex digits, MSB first."""
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(text + "0" * (len(text) % 2)),
                                       dtype=np.uint8))
    return bits[:n]


def read_vectors():
    """Each case of dlsch.txt: (fields, data bits, e bits)."""
    cases = []
    with open(os.path.join(DLSCH_VECTORS_DIR, "dlsch.txt")) as f:
        lines = [line.split() for line in f if line.strip()]
    for head, data, e in zip(lines[0::3], lines[1::3], lines[2::3]):
        assert head[0] == "case" and data[0] == "data" and e[0] == "e", head
        fields = {k: int(v) for k, v in zip(head[2::2], head[3::2])}
        cases.append((fields, hex_bits(data[1], fields["tbs"]),
                      hex_bits(e[1], fields["G"])))
    return cases


def llrs_of(bits, magnitude=4.0):
    """Noiseless LLRs of bits, GNU Radio's sign (positive means 1)."""
    return ((2.0 * bits.astype(np.float32) - 1.0) * magnitude).astype(np.float32)


def run_pdus(block, messages, timeout=120.0):
    """Posts the messages to a PDU block, runs until as many come out; returns the
    outputs as (meta dict, numpy data)."""
    return gputurbo_qa.run_pdus(block, messages, timeout)[0]


def decoder(**kwargs):
    kwargs.setdefault("backend", BACKEND)
    return gputurbo.dlsch_decoder_pdu(**kwargs)


def symbols_for(tbs, rate, Qm=2):
    """G for a code rate about rate: whole symbols, at least one a code block."""
    return Qm * max(int(round((tbs + 24) / rate / Qm)), 13)


class qa_dlsch_pdu(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def encode(self, messages, **kwargs):
        outputs = run_pdus(gputurbo.dlsch_encoder_pdu(**kwargs), messages)
        self.assertEqual(len(outputs), len(messages))
        return outputs

    def test_001_encoder_sends_the_vectors(self):
        # Every one of the 140 vectors (tbs 16 ... 75376, up to 13 code blocks, Qm 2, 4
        # and 6, rv 0 ... 3): the format from the metadata, or tbs from the length, or G
        # from resource elements; unpacked and packed data.
        cases = read_vectors()
        self.assertEqual(len(cases), 140)
        messages, packed = [], []
        for i, (f, data, _) in enumerate(cases):
            meta = dict(seq=i, rv=f["rv"], Qm=f["Qm"])
            if i % 3 == 0:
                meta["tbs"] = f["tbs"]
            if i % 2 == 0:
                meta["G"] = f["G"]
            else:
                meta["resource_elements"] = f["G"] // f["Qm"]
            messages.append(pdu(data, **meta))
            packed.append(pdu(np.packbits(data), tbs=f["tbs"], G=f["G"], rv=f["rv"],
                              Qm=f["Qm"]))
        outputs = self.encode(messages)
        for i, ((meta, sent), (f, _, e)) in enumerate(zip(outputs, cases)):
            self.assertNotIn("error", meta)
            self.assertEqual(meta["seq"], i)
            for key in ("tbs", "G", "rv", "Qm"):
                self.assertEqual(meta[key], f[key], f"case {i}: {key}")
            self.assertEqual((meta["layers"], meta["soft_buffer"], meta["c_init"]),
                             (1, 0, -1))
            np.testing.assert_array_equal(sent, e, err_msg=f"case {i}: {f}")
        for (meta, sent), (f, _, e) in zip(self.encode(packed, packed=True), cases):
            np.testing.assert_array_equal(sent, e, err_msg=f"packed: {f}")

    def test_002_encoder_scrambles_and_takes_its_defaults(self):
        f, data, e = read_vectors()[9]  # tbs 680, rv 1
        c_init = (0x1234 << 14) + 301
        outputs = self.encode([pdu(data, G=f["G"], c_init=c_init),
                               pdu(data, G=f["G"])],
                              rv=f["rv"], Qm=f["Qm"], c_init=c_init)
        for meta, sent in outputs:
            self.assertEqual(meta["c_init"], c_init)
            np.testing.assert_array_equal(sent, e ^ gold_sequence(c_init, f["G"]))

    def test_003_noiseless_loopback(self):
        # Sizes with one and several code blocks, filler bits, Qm 2 ... 8, two layers,
        # a limited soft buffer, scrambling; float and int8 LLRs; both signs.
        formats = [dict(tbs=16, G=120), dict(tbs=1000, G=3000, Qm=4, c_init=777),
                   dict(tbs=6500, G=9600, Qm=6, layers=2, rv=3),
                   dict(tbs=20000, G=30000, Qm=8, soft_buffer=40000),
                   dict(tbs=75376, G=100008, Qm=6, c_init=65537)]
        data = [self.rng.integers(0, 2, f["tbs"], dtype=np.uint8) for f in formats]
        sent = self.encode([pdu(d, seq=i, **f)
                            for i, (d, f) in enumerate(zip(data, formats))])
        for kwargs, convert in ((dict(), llrs_of),
                                (dict(llr_sign="positive-zero"), lambda b: -llrs_of(b)),
                                (dict(int8_scale=4.0),
                                 lambda b: (llrs_of(b) * 4.0).astype(np.int8))):
            with self.subTest(**kwargs):
                # The encoder's metadata is all the decoder needs.
                messages = [pdu(convert(bits), **meta) for meta, bits in sent]
                dec = decoder(**kwargs)
                outputs = run_pdus(dec, messages)
                self.assertEqual(len(outputs), len(formats))
                for i, ((meta, bits), f) in enumerate(zip(outputs, formats)):
                    self.assertNotIn("error", meta)
                    self.assertEqual(meta["seq"], i)
                    self.assertIs(meta["crc_ok"], True)
                    np.testing.assert_array_equal(bits, data[i], err_msg=str(f))
                    blocks_ = math.ceil((f["tbs"] + 24) / 6120)
                    self.assertEqual(len(meta["iterations"]), blocks_)
                    self.assertTrue(all(1 <= n < 6 for n in meta["iterations"]),
                                    meta["iterations"])  # the CRC stopped each early
                self.assertEqual((dec.decoded_pdus(), dec.failed_pdus()), (5, 0))
                self.assertEqual(dec.batches(), 1)

    def noisy(self, bits, sigma):
        """BPSK (0 -> -1, 1 -> +1) over AWGN, as LLRs 2y/sigma^2 (positive means 1)."""
        y = (2.0 * bits - 1.0) + self.rng.normal(0.0, sigma, bits.shape)
        return (2.0 * y / sigma ** 2).astype(np.float32)

    def test_004_harq_rv0_and_rv2_combine(self):
        # Code rate 0.93 for each transmission, at an Eb/N0 where either alone mostly
        # fails and the two combined mostly pass. All in one burst: each process's rv 2
        # waits for its rv 0 (a second transmission of a process closes the batch).
        tbs, trials = 2000, 20
        G = 2 * ((tbs + 24) * 107 // 100 // 2)
        rate = tbs / G
        sigma = math.sqrt(1.0 / (2.0 * rate * 10.0 ** (2.5 / 10.0)))
        data = [self.rng.integers(0, 2, tbs, dtype=np.uint8) for _ in range(trials)]
        sent = {rv: self.encode([pdu(d, G=G, rv=rv) for d in data]) for rv in (0, 2)}
        combined_messages, alone_messages = [], []
        for i in range(trials):
            rv0, rv2 = (self.noisy(sent[rv][i][1], sigma) for rv in (0, 2))
            process = i % 8
            combined_messages += [pdu(rv0, tbs=tbs, G=G, rv=0, harq_process=process,
                                      new_data=True, seq=i),
                                  pdu(rv2, tbs=tbs, G=G, rv=2, harq_process=process,
                                      new_data=False, seq=i)]
            alone_messages += [pdu(rv0, tbs=tbs, G=G, rv=0), pdu(rv2, tbs=tbs, G=G, rv=2)]
        dec = decoder(max_batch=64)
        outputs = run_pdus(dec, combined_messages)
        self.assertEqual(len(outputs), 2 * trials)
        first = sum(m["crc_ok"] for m, _ in outputs[0::2])
        combined = sum(m["crc_ok"] and np.array_equal(b, data[i])
                       for i, (m, b) in enumerate(outputs[1::2]))
        self.assertEqual([m["seq"] for m, _ in outputs],
                         [i // 2 for i in range(2 * trials)])
        self.assertEqual(dec.harq_processes(), 8)
        self.assertGreaterEqual(dec.batches(), trials)  # rv 2 after its rv 0, each time
        alone = run_pdus(decoder(), alone_messages)
        # rv 2 at this rate sends no systematic bit, and the decoder can end with
        # all-zero decisions, whose CRC-24A checks: the receiver must not pass them.
        for i, (m, b) in enumerate(alone[1::2]):
            self.assertTrue(not m["crc_ok"] or np.array_equal(b, data[i]), i)
        rv2_alone = sum(m["crc_ok"] for m, _ in alone[1::2])
        self.assertEqual(first, sum(m["crc_ok"] for m, _ in alone[0::2]))
        print(f"\n  passed of {trials} ({dec.backend()}): rv 0 {first}, "
              f"rv 2 {rv2_alone}, rv 0 + 2 {combined}")
        self.assertLess(first, trials // 4)
        self.assertLess(rv2_alone, trials // 4)
        self.assertGreater(combined, 3 * trials // 4)

        # new_data starts a process afresh; release() forgets it (its next
        # transmission starts afresh whatever new_data says): rv 2 alone, then rv 0 added.
        dec = decoder()
        rv0 = self.noisy(sent[0][0][1], sigma)
        rv2 = self.noisy(sent[2][0][1], sigma)
        outputs = run_pdus(dec, [pdu(rv0, tbs=tbs, G=G, rv=0, harq_process=3)])
        self.assertEqual(dec.harq_processes(), 1)
        dec.release(3)
        dec.release(4)  # none: nothing happens
        self.assertEqual(dec.harq_processes(), 0)
        outputs = run_pdus(dec, [pdu(rv2, tbs=tbs, G=G, rv=2, harq_process=3,
                                     new_data=False),
                                 pdu(rv0, tbs=tbs, G=G, rv=0, harq_process=3,
                                     new_data=False)])
        self.assertEqual(len(outputs), 2)
        self.assertEqual(dec.batches(), 3)
        self.assertTrue(outputs[1][0]["crc_ok"])
        np.testing.assert_array_equal(outputs[1][1], data[0])

    def test_005_bad_pdus_are_answered_never_dropped(self):
        tbs, G = 1000, 3000
        data = self.rng.integers(0, 2, tbs, dtype=np.uint8)
        (meta, e), = self.encode([pdu(data, G=G)])
        good = llrs_of(e)
        d = pmt.make_dict()
        bad = [
            (pmt.intern("hello"), "not a PDU"),
            (pmt.cons(pmt.from_long(3), pmt.init_f32vector(G, good)), "not a dict"),
            (pmt.cons(d, pmt.init_u8vector(G, e.tolist())), "neither an f32vector"),
            (pdu(np.zeros(0, np.float32), tbs=tbs), "no LLRs"),
            (pdu(good, G=G), "no tbs"),
            (pdu(good, tbs="1000", G=G), "tbs=\"1000\" is not an integer"),
            (pdu(good[:-2], tbs=tbs, G=G), "G=3000 LLRs expected; the PDU has 2998"),
            (pdu(good, tbs=tbs, resource_elements=1499), "G=2998 LLRs expected"),
            (pdu(good, tbs=tbs, rv=4), "rv=4 is out of range"),
            (pdu(good, tbs=tbs, Qm=3), "Qm=3 is not a modulation order"),
            (pdu(good, tbs=tbs, layers=0), "layers=0"),
            (pdu(good, tbs=0), "tbs=0"),
            (pdu(good, tbs=tbs, c_init=-5), "c_init=-5"),
            (pdu(good, tbs=tbs, harq_process=-2), "harq_process=-2 is out of range"),
            (pdu(good, tbs=tbs, harq_process=1, new_data="yes"), "new_data"),
            # process 2 holds a buffer of tbs 1000 (the first good PDU)
            (pdu(llrs_of(np.zeros(G, np.uint8)), tbs=1032, G=G, harq_process=2,
                 new_data=False), "whose buffer holds tbs=1000"),
        ]
        messages = ([pdu(good, tbs=tbs, G=G, harq_process=2, seq=0)] +
                    [m for m, _ in bad] + [pdu(good, tbs=tbs, G=G, seq=1)])
        dec = decoder()
        outputs = run_pdus(dec, messages)
        self.assertEqual(len(outputs), len(messages))
        for meta, bits in (outputs[0], outputs[-1]):
            self.assertIs(meta["crc_ok"], True)
            np.testing.assert_array_equal(bits, data)
        for (meta, bits), (_, reason) in zip(outputs[1:-1], bad):
            self.assertIs(meta["crc_ok"], False)
            self.assertIn(reason, meta["error"])
            self.assertEqual(len(bits), 0)
        self.assertEqual((dec.decoded_pdus(), dec.failed_pdus()), (2, len(bad)))
        # The failed retransmission left process 2 as it was.
        outputs = run_pdus(dec, [pdu(good, tbs=tbs, G=G, harq_process=2, new_data=False)])
        self.assertIs(outputs[0][0]["crc_ok"], True)

        # The encoder's.
        bad = [
            (pmt.intern("hello"), "not a PDU"),
            (pmt.cons(d, pmt.init_f32vector(4, [0.0] * 4)), "not a u8vector of bits"),
            (pdu(data), "no G"),
            (pdu(data, tbs=999, G=G), "tbs=999 does not fit the PDU's 1000 bits"),
            (pdu(data, G=3001), "G=3001 does not fit tbs=1000"),
            (pdu(data, G=G, rv=-1), "rv=-1"),
            (pdu(data, G=G, soft_buffer=-1), "soft_buffer=-1"),
            (pdu(data, resource_elements=0), "resource_elements=0 gives no G"),
            (pdu(data, resource_elements=2 ** 40), "resource_elements=1099511627776"),
            (pdu(data, resource_elements=10, Qm=5), "Qm=5"),
        ]
        enc = gputurbo.dlsch_encoder_pdu()
        outputs = run_pdus(enc, [m for m, _ in bad] + [pdu(data, G=G)])
        for (meta, bits), (_, reason) in zip(outputs, bad):
            self.assertIn(reason, meta["error"])
            self.assertNotIn("crc_ok", meta)
            self.assertEqual(len(bits), 0)
        np.testing.assert_array_equal(outputs[-1][1], e)
        self.assertEqual((enc.encoded_pdus(), enc.failed_pdus()), (1, len(bad)))
        packed = gputurbo.dlsch_encoder_pdu(packed=True)
        outputs = run_pdus(packed, [pdu(np.packbits(data), tbs=1008, G=G),
                                    pdu(np.packbits(data), tbs=992, G=G),
                                    pdu(np.packbits(data), tbs=993, G=G)])
        self.assertIn("tbs=1008 does not fit the PDU's 125 packed bytes",
                      outputs[0][0]["error"])
        self.assertIn("tbs=992 does not fit", outputs[1][0]["error"])
        self.assertNotIn("error", outputs[2][0])
        self.assertEqual(len(outputs[2][1]), G)

    def test_006_many_pdus_of_mixed_sizes(self):
        # More PDUs than max_batch, shuffled sizes (one to four code blocks, filler
        # bits), some in HARQ processes: every one decodes, in order, in
        # ceil(n / max_batch) engine calls.
        sizes = (40, 1000, 6500, 20000)
        counts = (60, 50, 30, 10)
        order = [tbs for tbs, c in zip(sizes, counts) for _ in range(c)]
        self.rng.shuffle(order)
        data = [self.rng.integers(0, 2, tbs, dtype=np.uint8) for tbs in order]
        sent = self.encode([pdu(d, G=symbols_for(len(d), 0.6, Qm=4), Qm=4, seq=i)
                            for i, d in enumerate(data)])
        messages = []
        for i, (meta, bits) in enumerate(sent):
            if i % 5 == 0:
                meta["harq_process"] = i
            messages.append(pdu(llrs_of(bits), **meta))
        dec = decoder(max_batch=32)
        start = time.perf_counter()
        outputs = run_pdus(dec, messages)
        seconds = time.perf_counter() - start
        self.assertEqual(len(outputs), len(data))
        for i, ((meta, bits), d) in enumerate(zip(outputs, data)):
            self.assertEqual(meta["seq"], i)
            self.assertIs(meta["crc_ok"], True, meta)
            np.testing.assert_array_equal(bits, d, err_msg=f"PDU {i}")
        self.assertEqual(dec.batches(), math.ceil(len(data) / 32))
        self.assertEqual(dec.harq_processes(), math.ceil(len(data) / 5))
        print(f"\n{len(data)} transport blocks of {sizes} bits on {dec.backend()} "
              f"({dec.device()}): {seconds:.2f} s, "
              f"{sum(order) / seconds / 1e6:.2f} Mbit/s of data, {dec.batches()} batches")

    def test_007_parameters(self):
        for make, kwargs, pattern in (
                (decoder, dict(iterations=0), "iterations"),
                (decoder, dict(algorithm="bcjr"), "algorithm"),
                (decoder, dict(max_batch=-1), "max_batch"),
                (decoder, dict(int8_scale=0.0), "int8_scale"),
                (decoder, dict(Qm=3), "Qm=3"),
                (decoder, dict(layers=5), "layers=5"),
                (decoder, dict(rv=4), "rv=4"),
                (decoder, dict(soft_buffer=-1), "soft_buffer=-1"),
                (decoder, dict(c_init=-2), "c_init=-2"),
                (decoder, dict(c_init=2 ** 31), "c_init=2147483648"),
                (decoder, dict(backend="fpga"), "backend"),
                (decoder, dict(max_harq_processes=0), "max_harq_processes=0"),
                (gputurbo.dlsch_encoder_pdu, dict(Qm=5), "Qm=5"),
                (gputurbo.dlsch_encoder_pdu, dict(rv=-1), "rv=-1")):
            with self.subTest(**kwargs):
                with self.assertRaisesRegex(ValueError, pattern):
                    make(**kwargs)
        dec = decoder(iterations=4)
        self.assertEqual(dec.iterations(), 4)
        self.assertEqual(dec.max_batch(), 1024 if BACKEND == "cuda" else 64)
        self.assertEqual(dec.backend(), BACKEND)

        # Defaults stand in for what the metadata leaves out; an explicit P that does
        # not divide a code block's size fails that PDU only.
        data = self.rng.integers(0, 2, 1000, dtype=np.uint8)  # one block, K = 1024
        (meta, e), = self.encode([pdu(data, G=2400, Qm=6, rv=2, c_init=99)])
        llrs = llrs_of(e)
        outputs = run_pdus(decoder(Qm=6, rv=2, c_init=99), [pdu(llrs, tbs=1000)])
        self.assertIs(outputs[0][0]["crc_ok"], True)
        np.testing.assert_array_equal(outputs[0][1], data)
        outputs = run_pdus(decoder(), [pdu(llrs, tbs=1000, Qm=6, rv=2)])  # no c_init
        self.assertIs(outputs[0][0]["crc_ok"], False)
        outputs = run_pdus(decoder(subblocks=3), [pdu(llrs, tbs=1000, Qm=6, rv=2,
                                                      c_init=99)])
        self.assertIn("code block size K=1024 of tbs=1000", outputs[0][0]["error"])
        outputs = run_pdus(decoder(subblocks=4, early_stop=False, iterations=3),
                           [pdu(llrs, tbs=1000, Qm=6, rv=2, c_init=99)])
        self.assertIs(outputs[0][0]["crc_ok"], True)
        self.assertEqual(list(outputs[0][0]["iterations"]), [3])

    def test_008_a_bad_pdu_fails_alone(self):
        # A format that passes the metadata's checks but leaves its code block no bit to
        # send (a soft buffer of 3 bits) fails in its batch alone: the others decode
        # and keep their HARQ processes, which the next transmissions combine into.
        tbs, G = 1000, 3000
        data = self.rng.integers(0, 2, tbs, dtype=np.uint8)
        (meta, e), = self.encode([pdu(data, G=G)])
        good = llrs_of(e)
        dec = decoder()
        outputs = run_pdus(dec, [
            pdu(good, tbs=tbs, G=G, harq_process=0, seq=0),
            pdu(llrs_of(np.zeros(132, np.uint8)), tbs=1, G=132, soft_buffer=3,
                harq_process=5, seq=1),
            pdu(good, tbs=tbs, G=G, harq_process=1, seq=2)])
        self.assertEqual([m["seq"] for m, _ in outputs], [0, 1, 2])
        self.assertEqual(dec.batches(), 1)
        for meta, bits in (outputs[0], outputs[2]):
            self.assertNotIn("error", meta)
            self.assertIs(meta["crc_ok"], True)
            np.testing.assert_array_equal(bits, data)
        self.assertIn("soft_buffer=3 leaves code block 0 (K=40) a circular buffer of "
                      "N_cb=3 bits with none to send", outputs[1][0]["error"])
        self.assertEqual((dec.decoded_pdus(), dec.failed_pdus()), (2, 1))
        self.assertEqual(dec.harq_processes(), 2)
        outputs = run_pdus(dec, [pdu(good, tbs=tbs, G=G, harq_process=p, new_data=False)
                                 for p in (0, 1)])
        self.assertTrue(all(m["crc_ok"] for m, _ in outputs))

    def test_009_harq_processes_stay_within_their_limit(self):
        # By default 4096 processes keep a soft buffer: of 4200, the 104 used least
        # recently were dropped. With max_harq_processes=4, a burst of 10 new processes
        # goes in batches of 4 at most, and only the 4 used last keep a buffer; the
        # others were dropped (counted, and logged). A dropped process's retransmission
        # starts afresh.
        tbs, G = 40, 132
        data = self.rng.integers(0, 2, tbs, dtype=np.uint8)
        (meta, e), = self.encode([pdu(data, G=G)])
        llrs = llrs_of(e)
        dec = decoder()
        outputs = run_pdus(dec, [pdu(llrs, tbs=tbs, G=G, harq_process=p)
                                 for p in range(4200)])
        self.assertEqual(len(outputs), 4200)
        self.assertEqual(dec.harq_processes(), 4096)
        self.assertEqual(dec.dropped_harq_processes(), 104)
        dec = decoder(max_harq_processes=4)
        outputs = run_pdus(dec, [pdu(llrs, tbs=tbs, G=G, harq_process=p, seq=p)
                                 for p in range(10)])
        self.assertEqual([m["seq"] for m, _ in outputs], list(range(10)))
        self.assertTrue(all(m["crc_ok"] for m, _ in outputs))
        self.assertEqual(dec.batches(), 3)
        self.assertEqual((dec.harq_processes(), dec.dropped_harq_processes()), (4, 6))
        outputs = run_pdus(dec, [pdu(llrs, tbs=tbs, G=G, harq_process=p, new_data=False)
                                 for p in (9, 0)])
        self.assertTrue(all(m["crc_ok"] for m, _ in outputs))
        self.assertEqual((dec.harq_processes(), dec.dropped_harq_processes()), (4, 7))

    def test_010_metadata_numbers_of_other_types(self):
        # Numbers as Python, GRC and other blocks send them: a whole double or a uint64
        # is the integer it holds (0.0 and 1.0 flags too); a fraction, text or a uint64
        # beyond a long is refused, the message naming the key, the value, its type and
        # what to give.
        tbs, G = 1000, 3000
        data = self.rng.integers(0, 2, tbs, dtype=np.uint8)
        (meta, e), = self.encode([pdu(data, G=pmt.from_double(3000.0),
                                      rv=pmt.from_uint64(0))])
        self.assertEqual((meta["G"], meta["rv"]), (G, 0))
        good = llrs_of(e)
        whole = pdu(good, tbs=pmt.from_uint64(tbs), G=pmt.from_double(float(G)),
                    rv=pmt.from_double(0.0), harq_process=pmt.from_double(1.0),
                    new_data=pmt.from_double(1.0))
        bad = [
            (pdu(good, tbs=tbs, G=G, rv=pmt.from_double(2.5)),
             "metadata rv=2.5 is not an integer but a double: use a long, or a uint64 "
             "or a double of a whole value"),
            (pdu(good, tbs="1000", G=G),
             "metadata tbs=\"1000\" is not an integer but a string"),
            (pdu(good, tbs=tbs, G=pmt.from_uint64(2**64 - 1)),
             "metadata G=18446744073709551615 is not an integer but a uint64"),
            (pdu(good, tbs=tbs, G=G, harq_process=1, new_data=pmt.from_double(0.5)),
             "metadata new_data=0.5 is not a flag but a double: use a bool (True or "
             "False), or 0 or 1"),
        ]
        outputs = run_pdus(decoder(), [whole] + [m for m, _ in bad])
        self.assertEqual(len(outputs), 1 + len(bad))
        self.assertIs(outputs[0][0]["crc_ok"], True, outputs[0][0].get("error"))
        np.testing.assert_array_equal(outputs[0][1], data)
        for (meta, _), (_, reason) in zip(outputs[1:], bad):
            self.assertIs(meta["crc_ok"], False)
            self.assertIn(reason, meta["error"])


if __name__ == '__main__':
    require_backend(gputurbo.dlsch_decoder_pdu)
    gr_unittest.run(qa_dlsch_pdu)
