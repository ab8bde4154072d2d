#!/usr/bin/env python3
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""gputurbo-dlsch through its files: encode reproduces the independent DL-SCH vectors;
decode gives their data back from noiseless LLRs (float and int8, either sign) and says
'crc failed' with exit status 3 for corrupted ones; rv 0 and rv 2 over BPSK/AWGN, each
failing alone, decode once combined through --harq-out and --harq-in; input files of the
wrong size or content (endless ones, soft buffers of another tbs, version or length) are
refused with exit status 2. Python alone (no numpy).

    python3 qa_gputurbo_dlsch.py path/to/gputurbo-dlsch path/to/dlsch.txt [test names]
"""

import math
import os
import random
import resource
import struct
import subprocess
import sys
import unittest

from qa_app_files import app_files_case, hex_bits, noiseless_llrs

APP = sys.argv.pop(1) if len(sys.argv) > 1 else "gputurbo-dlsch"
VECTORS = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "lte-dlsch",
    "dlsch.txt")


def read_cases():
    """Each case of dlsch.txt (format: tests/data/lte-dlsch/README.md): its fields, data
    (tbs bits) and e (G bits)."""
    with open(VECTORS) as f:
        lines = f.read().splitlines()
    cases = []
    for i, line in enumerate(lines):
        words = line.split()
        if not words or words[0] != "case":
            continue
        fields = dict(zip(words[2::2], map(int, words[3::2])))
        data = hex_bits(lines[i + 1].split()[1], fields["tbs"])
        e = hex_bits(lines[i + 2].split()[1], fields["G"])
        cases.append((fields, data, e))
    return cases


def awgn_llrs(bits, sigma, rng):
    """BPSK 0 -> -1, 1 -> +1 over AWGN of deviation sigma (Box-Muller on rng.random(),
    which Python keeps reproducible), as LLRs 2y/sigma^2, positive for 1."""
    llrs = []
    for b in bits:
        u1, u2 = 1.0 - rng.random(), rng.random()
        noise = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        llrs.append(2.0 * ((2 * b - 1) + sigma * noise) / sigma ** 2)
    return llrs


class dlsch_case(app_files_case):
    app = APP
    read_cases = staticmethod(read_cases)

    def format_args(self, fields, rv=None):
        return ["--tbs", fields["tbs"], "--g", fields["G"], "--qm", fields["Qm"], "--rv",
                fields["rv"] if rv is None else rv]

    def encode(self, fields, data, rv=None, *more):
        out = self.path("e.u8")
        r = self.run_app("encode", *self.format_args(fields, rv), "--in",
                         self.write_bits("data.u8", data), "--out", out, *more)
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.read_bits(out)

    def decode(self, fields, llr_path, *more, rv=None):
        """(exit status, stdout, data); data None where --out was not written."""
        out = self.path("decoded.u8")
        if os.path.exists(out):
            os.remove(out)
        r = self.run_app("decode", *self.format_args(fields, rv), "--llr-in", llr_path,
                         "--out", out, *more)
        data = self.read_bits(out) if os.path.exists(out) else None
        return r.returncode, r.stdout, r.stderr, data


class qa_gputurbo_dlsch(dlsch_case):

    def test_001_encode_reproduces_every_vector(self):
        self.assertEqual(len(self.cases), 140)
        for fields, data, e in self.cases:
            with self.subTest(tbs=fields["tbs"], rv=fields["rv"], Qm=fields["Qm"]):
                self.assertEqual(self.encode(fields, data), e)

    def test_002_noiseless_llrs_decode_to_the_data(self):
        # rv 0 of every transport block size (up to 13 code blocks).
        for fields, data, e in (c for c in self.cases if c[0]["rv"] == 0):
            with self.subTest(tbs=fields["tbs"], Qm=fields["Qm"]):
                rc, out, err, got = self.decode(
                    fields, self.write_llrs("llr.f32", noiseless_llrs(e)))
                self.assertEqual((rc, out), (0, "crc ok\n"), err)
                self.assertEqual(got, data)

    def test_003_int8_and_the_engines_sign(self):
        fields, data, e = next(c for c in self.cases
                               if c[0]["rv"] == 0 and c[0]["C"] > 1)
        cases = (("int8", self.write_llrs("llr.i8", noiseless_llrs(e, 40), "b"),
                  ["--llr-type", "int8"]),
                 ("positive-zero", self.write_llrs("llr0.f32", noiseless_llrs(e, -4.0)),
                  ["--llr-sign", "positive-zero"]))
        for name, path, more in cases:
            with self.subTest(name):
                rc, out, err, got = self.decode(fields, path, *more)
                self.assertEqual((rc, out), (0, "crc ok\n"), err)
                self.assertEqual(got, data)
        # The engine's sign read as GNU Radio's: every bit inverted, no CRC.
        rc, out, err, got = self.decode(fields, cases[1][1])
        self.assertEqual((rc, out), (3, "crc failed\n"), err)

    def test_004_corrupted_llrs_fail_the_crc(self):
        fields, data, e = next(c for c in self.cases
                               if c[0]["rv"] == 0 and c[0]["C"] > 1)
        llrs = noiseless_llrs(e)
        for k in range(0, len(llrs) // 2):
            llrs[k] = -llrs[k]
        rc, out, err, got = self.decode(fields, self.write_llrs("bad.f32", llrs))
        self.assertEqual((rc, out), (3, "crc failed\n"), err)
        self.assertEqual(len(got), fields["tbs"])  # written whatever the CRC says
        self.assertNotEqual(got, data)

    def test_005_scrambling(self):
        # Encoded with --c-init 12345: decodes with it, fails with another or none.
        fields, data, _ = next(c for c in self.cases if c[0]["tbs"] > 1000)
        e = self.encode(fields, data, None, "--c-init", 12345)
        self.assertNotEqual(e, self.encode(fields, data))
        path = self.write_llrs("scrambled.f32", noiseless_llrs(e))
        for more, want in ((["--c-init", 12345], 0), (["--c-init", 12346], 3), ([], 3)):
            with self.subTest(more=more):
                rc, out, err, got = self.decode(fields, path, *more)
                self.assertEqual(rc, want, err)
                if want == 0:
                    self.assertEqual(got, data)

    def test_006_rv0_and_rv2_combine_where_each_alone_fails(self):
        # Code rate 0.67 for each transmission over BPSK/AWGN at Eb/N0 0 dB (of that
        # rate): too noisy alone (0 of 200 random trials decode), while the two together
        # carry twice the energy at a lower rate (200 of 200).
        rng = random.Random(2026)
        tbs, G = 2000, 3000
        fields = {"tbs": tbs, "G": G, "Qm": 2, "rv": 0}
        data = [rng.getrandbits(1) for _ in range(tbs)]
        sigma = math.sqrt(1.0 / (2.0 * tbs / G))
        llrs = {rv: self.write_llrs(f"rv{rv}.f32",
                                    awgn_llrs(self.encode(fields, data, rv), sigma, rng))
                for rv in (0, 2)}
        for rv in (0, 2):
            with self.subTest(alone=rv):
                rc, out, err, _ = self.decode(fields, llrs[rv], rv=rv)
                self.assertEqual((rc, out), (3, "crc failed\n"), err)
        first, combined = self.path("rv0.harq"), self.path("rv0+2.harq")
        rc, out, err, _ = self.decode(fields, llrs[0], "--harq-out", first, rv=0)
        self.assertEqual(rc, 3, err)
        rc, out, err, got = self.decode(fields, llrs[2], "--harq-in", first, "--harq-out",
                                        combined, rv=2)
        self.assertEqual((rc, out), (0, "crc ok\n"), err)
        self.assertEqual(got, data)
        # The buffer: a header ("GTHQ", version 1, tbs, length: little-endian 32-bit
        # words), then the int8 codeword of the one code block (K = 2048 for the 2024
        # bits with the CRC), 3K+12 values; the combined one differs where rv 2 added in.
        size = os.path.getsize(first)
        self.assertEqual(size, os.path.getsize(combined))
        self.assertEqual(size, 16 + 3 * 2048 + 12)
        with open(first, "rb") as a, open(combined, "rb") as b:
            a, b = a.read(), b.read()
        self.assertEqual(a[:16], b"GTHQ" + struct.pack("<3I", 1, tbs, 3 * 2048 + 12))
        self.assertEqual(a[:16], b[:16])
        self.assertNotEqual(a, b)

    def test_007_bad_input_files(self):
        fields, data, e = next(c for c in self.cases if c[0]["rv"] == 0)
        tbs, G = fields["tbs"], fields["G"]
        short = self.write_llrs("short.f32", noiseless_llrs(e)[:-1])
        cases = [
            (["decode", *self.format_args(fields), "--llr-in", short, "--out",
              self.path("x")], 2,
             f"--llr-in: '{short}' holds {4 * (G - 1)} bytes, but {G} LLRs of --g take "
             f"{4 * G}"),
            (["decode", *self.format_args(fields), "--llr-in", short, "--llr-type",
              "int8", "--out", self.path("x")], 2,
             f"holds {4 * (G - 1)} bytes, but {G} LLRs of --g take {G}"),
            (["encode", *self.format_args(fields), "--in",
              self.write_bits("long.u8", data + [0]), "--out", self.path("x")], 2,
             f"holds {tbs + 1} bytes, but {tbs} bits of --tbs take {tbs}"),
            (["encode", *self.format_args(fields), "--in",
              self.write_bits("two.u8", [0] * 5 + [2] + data[6:]), "--out",
              self.path("x")], 2, "byte 5 of"),
            (["decode", *self.format_args(fields), "--llr-in",
              self.write_llrs("llr.f32", noiseless_llrs(e)), "--harq-in",
              self.write_bits("buffer.harq", [0] * 10), "--out", self.path("x")], 2,
             "is not a soft buffer that --harq-out wrote"),
            (["encode", *self.format_args(fields), "--in", self.path("missing.u8"),
              "--out", self.path("x")], 1, "--in: cannot read"),
            (["encode", *self.format_args(fields), "--in",
              self.write_bits("data.u8", data), "--out",
              self.path("no-such-folder/e.u8")], 2, "does not exist"),
        ]
        self.assert_refused(cases)

    def test_008_inputs_are_read_as_far_as_needed(self):
        # /dev/zero (endless) is refused at once as too long, as any file is that holds
        # more than its command takes; the memory limit makes a reader that takes all
        # of it fail fast rather than fill the machine.
        fields, data, e = next(c for c in self.cases if c[0]["rv"] == 0)
        tbs, G = fields["tbs"], fields["G"]
        llrs = self.write_llrs("llr.f32", noiseless_llrs(e))
        cases = [
            (["encode", *self.format_args(fields), "--in", "/dev/zero"],
             f"--in: '/dev/zero' holds more than {tbs} bytes, but {tbs} bits of --tbs "
             f"take {tbs}"),
            (["decode", *self.format_args(fields), "--llr-in", "/dev/zero"],
             f"--llr-in: '/dev/zero' holds more than {4 * G} bytes, but {G} LLRs of --g "
             f"take {4 * G}"),
            (["decode", *self.format_args(fields), "--llr-in", llrs, "--harq-in",
              "/dev/zero"], "--harq-in: '/dev/zero' is not a soft buffer"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = subprocess.run([APP, *map(str, args), "--out", self.path("x")],
                                   capture_output=True, text=True, timeout=60,
                                   preexec_fn=lambda: resource.setrlimit(
                                       resource.RLIMIT_AS, (4 << 30, 4 << 30)))
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)

    def test_009_a_soft_buffer_file_says_what_it_holds(self):
        # tbs 2000 and 2001 have soft buffers of one length (one code block of K = 2048);
        # a buffer is read back only for its own tbs, whole, in its own format version.
        tbs, G = 2000, 3000
        fields = {"tbs": tbs, "G": G, "Qm": 2, "rv": 0}
        data = [i * 7 % 3 % 2 for i in range(tbs)]
        llrs = self.write_llrs("rv0.f32", noiseless_llrs(self.encode(fields, data)))
        buffer = self.path("rv0.harq")
        rc, out, err, _ = self.decode(fields, llrs, "--harq-out", buffer)
        self.assertEqual((rc, out), (0, "crc ok\n"), err)
        with open(buffer, "rb") as f:
            written = f.read()

        def variant(name, content):
            with open(self.path(name), "wb") as f:
                f.write(content)
            return self.path(name)

        length = 3 * 2048 + 12
        cases = [
            (buffer, 2001, "is the soft buffer of tbs=2000, not of --tbs 2001"),
            (variant("headerless.harq", written[16:]), tbs,
             "is not a soft buffer that --harq-out wrote: it does not start with the "
             "header \"GTHQ\""),
            (variant("version2.harq", written[:4] + struct.pack("<I", 2) + written[8:]),
             tbs, "is a soft buffer of format version 2: this gputurbo-dlsch reads "
             "version 1"),
            (variant("short.harq", written[:-1]), tbs,
             f"holds {16 + length - 1} bytes, but the header and the {length} values of "
             f"tbs=2000 take {16 + length}"),
        ]
        for path, want_tbs, message in cases:
            with self.subTest(message=message):
                rc, out, err, got = self.decode(dict(fields, tbs=want_tbs), llrs,
                                                "--harq-in", path, rv=2)
                self.assertEqual((rc, out, got), (2, "", None), err)
                self.assertIn(message, err)
        rc, out, err, got = self.decode(fields, llrs, "--harq-in", buffer, rv=0)
        self.assertEqual((rc, out, got), (0, "crc ok\n", data), err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
