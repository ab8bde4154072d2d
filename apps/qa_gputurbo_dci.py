#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""gputurbo-dci through its files: encode reproduces the independent lte-dci vectors
(DCIs and MIBs); decode gives their payload back from noiseless LLRs and prints the RNTI
read from the CRC (the port count of a MIB), with exit status 3 where --rnti (--ports)
names another; search finds the DCIs of subframe files made here at the UE-specific
candidates of their RNTIs (36.213 §9.1.1, written here from the specification), in
the common space, exhaustively, and scrambled with --cell-id; bad options and input
files are refused with exit status 2. Python alone (no numpy).

    python3 qa_gputurbo_dci.py path/to/gputurbo-dci path/to/vectors.txt [test names]

decode and search run on the backend GPUTURBO_QA_BACKEND names (default cpu); where it
cannot run here the QA exits with 77 (ctest's skip), saying why.
"""

import os
import random
import resource
import subprocess
import sys
import tempfile
import unittest

from qa_app_files import app_files_case, hex_bits, noiseless_llrs

APP = sys.argv.pop(1) if len(sys.argv) > 1 else "gputurbo-dci"
VECTORS = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "lte-dci",
    "vectors.txt")

BACKEND = os.environ.get("GPUTURBO_QA_BACKEND", "cpu")
SKIP_RETURN_CODE = 77
PORT_MASKS = {0x0000: 1, 0xFFFF: 2, 0x5555: 4}  # 36.212 §5.3.1.1
SI_RNTI = 0xFFFF
CCE_LLRS = 72
N_CCE = 84  # 100 PRB, CFI 3, 2 antenna ports, N_g 1 (36.211 §6.8.1)


def bits_hex(bits):
    """Bits as the vectors write them: hex of whole bytes, MSB first, zeros after."""
    bits = bits + [0] * (-len(bits) % 8)
    return bytes(int("".join(map(str, bits[i:i + 8])), 2)
                 for i in range(0, len(bits), 8)).hex()


def read_cases():
    """Each case of vectors.txt (format: tests/data/lte-dci/README.md): kind ("dci" or
    "bch"), A, mask (its field "rnti"), E, data (A bits) and e (E bits)."""
    with open(VECTORS) as f:
        lines = f.read().splitlines()
    cases = []
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0] == "case":
            A, mask, E = int(words[5]), int(words[7]), int(words[9])
            cases.append(dict(number=int(words[1]), kind=words[3], A=A, mask=mask, E=E,
                              data=hex_bits(lines[i + 1].split()[1], A),
                              e=hex_bits(lines[i + 2].split()[1], E)))
    return cases


def common_candidates():
    """36.213 §9.1.1: levels 4 and 8 on CCEs 0 ... 15 (Y_k = 0)."""
    return [(4 * m, 4) for m in range(4)] + [(8 * m, 8) for m in range(2)]


def ue_candidates(n_cce, rnti, k):
    """36.213 §9.1.1: Y_k = (39827 Y_(k-1)) mod 65537 from Y_(-1) = the RNTI; candidate
    m of level L on CCEs L ((Y_k + m) mod floor(N_CCE / L)) + i, 6, 6, 2, 2 of levels
    1, 2, 4, 8, each once."""
    y = rnti
    for _ in range(k + 1):
        y = 39827 * y % 65537
    out = []
    for level, count in ((1, 6), (2, 6), (4, 2), (8, 2)):
        for m in range(count):
            c = (level * ((y + m) % (n_cce // level)), level)
            if c not in out:
                out.append(c)
    return out


def scrambling_sequence(c_init, n):
    """36.211 §7.2: c(k) = x1(k + 1600) + x2(k + 1600) mod 2, x1 started at 1, x2 at
    c_init."""
    x1 = [1] + [0] * 30
    x2 = [c_init >> i & 1 for i in range(31)]
    for i in range(1600 + n):
        x1.append((x1[i + 3] + x1[i]) % 2)
        x2.append((x2[i + 3] + x2[i + 2] + x2[i + 1] + x2[i]) % 2)
    return [(x1[k + 1600] + x2[k + 1600]) % 2 for k in range(n)]


class dci_case(app_files_case):
    app = APP
    read_cases = staticmethod(read_cases)

    def encode(self, data, E, *mask_args):
        out = self.path("e.u8")
        r = self.run_app("encode", "--bits", len(data), "--e", E, *mask_args, "--in",
                         self.write_bits("data.u8", data), "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.read_bits(out)

    def decode(self, A, llrs, *more):
        """(exit status, stdout, stderr, payload); payload None where --out was not
        written."""
        out = self.path("decoded.u8")
        if os.path.exists(out):
            os.remove(out)
        r = self.run_app("decode", "--bits", A, "--e", len(llrs), "--llr-in",
                         self.write_llrs("llr.f32", llrs), "--out", out, "--backend",
                         BACKEND, *more)
        payload = self.read_bits(out) if os.path.exists(out) else None
        return r.returncode, r.stdout, r.stderr, payload


class qa_gputurbo_dci(dci_case):

    def test_001_encode_reproduces_every_vector(self):
        # A DCI's mask as --rnti, in hex or decimal; a MIB's as --bch --ports, and as
        # its raw mask in --rnti.
        self.assertEqual(len(self.cases), 54)
        for c in self.cases:
            with self.subTest(case=c["number"]):
                rnti = hex(c["mask"]) if c["number"] % 2 else str(c["mask"])
                self.assertEqual(self.encode(c["data"], c["E"], "--rnti", rnti), c["e"])
                if c["kind"] == "bch":
                    self.assertEqual(self.encode(c["data"], c["E"], "--bch", "--ports",
                                                 PORT_MASKS[c["mask"]]), c["e"])

    def test_002_noiseless_llrs_decode_printing_the_rnti(self):
        # Every DCI but the two sent as fewer bits than they have (E < A + 16), which no
        # decoder can tell from others: 'rnti 0x....', the RNTI sent, exit status 0,
        # with --rnti of it too; every MIB: 'ports P'.
        dcis = [c for c in self.cases if c["kind"] == "dci" and c["E"] >= c["A"] + 16]
        self.assertEqual(len(dcis), 46)
        for c in dcis:
            with self.subTest(case=c["number"]):
                llrs = noiseless_llrs(c["e"])
                rc, out, err, payload = self.decode(c["A"], llrs)
                self.assertEqual((rc, out), (0, f"rnti 0x{c['mask']:04x}\n"), err)
                self.assertEqual(payload, c["data"])
                rc, out, err, _ = self.decode(c["A"], llrs, "--rnti", c["mask"])
                self.assertEqual(rc, 0, err)
        for c in (c for c in self.cases if c["kind"] == "bch"):
            with self.subTest(case=c["number"]):
                ports = PORT_MASKS[c["mask"]]
                for more in ([], ["--ports", ports]):
                    rc, out, err, payload = self.decode(24, noiseless_llrs(c["e"]),
                                                        "--bch", *more)
                    self.assertEqual((rc, out), (0, f"ports {ports}\n"), err)
                    self.assertEqual(payload, c["data"])

    def test_003_a_wrong_rnti_or_port_count_exits_3(self):
        c = next(c for c in self.cases if c["kind"] == "dci" and c["E"] == 288)
        llrs = noiseless_llrs(c["e"])
        rc, out, err, payload = self.decode(c["A"], llrs, "--rnti", hex(c["mask"] ^ 1))
        self.assertEqual((rc, out), (3, f"rnti 0x{c['mask']:04x}\n"), err)
        self.assertEqual(payload, c["data"])  # written whatever the RNTI
        # A DCI received in error (a third of its coded bits inverted, in every
        # repetition): some other RNTI.
        bad = [-x if i % 3 == 0 else x for i, x in enumerate(llrs)]
        rc, out, err, _ = self.decode(c["A"], bad, "--rnti", c["mask"])
        self.assertEqual(rc, 3, err)
        self.assertNotEqual(out, f"rnti 0x{c['mask']:04x}\n")
        # Nothing received: no information, whatever RNTI it gives.
        rc, out, err, _ = self.decode(c["A"], [0.0] * len(llrs), "--rnti",
                                      int(out.split()[1], 16))
        self.assertEqual(rc, 3, err)
        # A MIB of 2 ports checked for 4; one of no port mask.
        m = next(c for c in self.cases if c["kind"] == "bch" and c["mask"] == 0xFFFF)
        rc, out, err, _ = self.decode(24, noiseless_llrs(m["e"]), "--bch", "--ports", 4)
        self.assertEqual((rc, out), (3, "ports 2\n"), err)
        e = self.encode(m["data"], m["E"], "--rnti", 0x1234)
        rc, out, err, _ = self.decode(24, noiseless_llrs(e), "--bch")
        self.assertEqual((rc, out), (3, "ports 0\n"), err)

    def subframes(self, rng, first_k, count, ues, cell_id=None):
        """A search file of `count` subframes of 84 CCEs from subframe k = first_k on:
        in each, DCIs of SI-RNTI (common space) and of `ues` UEs at free candidates of
        their UE-specific spaces, encoded by the app, the other CCEs noise (every other
        subframe) or 0; scrambled with cell_id's sequence where given. The file, the
        RNTIs and the DCIs as the search prints them (space names only)."""
        llrs, rntis, sent = [], [], []
        sizes = [28, 15, 39, 48]  # 20 MHz FDD, 2 ports: 0/1A, 1C, 1, 2A
        while len(rntis) < ues:
            rnti = rng.randrange(61, 65000)
            if rnti not in rntis:
                rntis.append(rnti)
        for s in range(count):
            k = (first_k + s) % 10
            x = [rng.gauss(0.0, 1.0) if s % 2 else 0.0 for _ in range(CCE_LLRS * N_CCE)]
            used = [False] * N_CCE
            for rnti in [SI_RNTI] + rntis:
                space = common_candidates() if rnti == SI_RNTI else ue_candidates(
                    N_CCE, rnti, k)
                free = [c for c in space if not any(used[c[0]:c[0] + c[1]])]
                if not free:
                    continue
                first, level = rng.choice(free)
                used[first:first + level] = [True] * level
                A = rng.choice(sizes)
                payload = [rng.getrandbits(1) for _ in range(A)]
                e = self.encode(payload, CCE_LLRS * level, "--rnti", rnti)
                x[CCE_LLRS * first:CCE_LLRS * (first + level)] = noiseless_llrs(e)
                common = rnti == SI_RNTI or (first, level) in common_candidates()
                sent.append((s, first, level, A, rnti,
                             "common" if common else "ue-specific", bits_hex(payload)))
            if cell_id is not None:
                c = scrambling_sequence(k * 512 + cell_id, len(x))
                x = [-v if b else v for v, b in zip(x, c)]
            llrs += x
        return self.write_llrs("subframes.f32", llrs), rntis, sent

    def search(self, *args):
        """The app's detections: (subframe, cce, level, size, rnti, space, payload),
        and each line's correlation."""
        r = self.run_app("search", "--prb", 100, "--cfi", 3, "--backend", BACKEND,
                         *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        found, correlations = [], []
        for line in r.stdout.splitlines():
            w = line.split()
            self.assertEqual(w[0::2], ["subframe", "cce", "level", "size", "rnti",
                                       "space", "correlation", "payload"], line)
            found.append((int(w[1]), int(w[3]), int(w[5]), int(w[7]), int(w[9], 16),
                          w[11], w[15]))
            correlations.append(float(w[13]))
        return found, correlations

    def test_004_search_finds_the_dcis_of_a_subframe_file(self):
        # Three subframes from k = 8 (8, 9, 0), SI-RNTI and four UEs each: every DCI
        # where it was sent, nothing else, the re-encoded bits agreeing with every LLR.
        rng = random.Random(2026)
        path, rntis, sent = self.subframes(rng, 8, 3, 4)
        self.assertGreaterEqual(len(sent), 12)
        listed = ",".join(hex(r) for r in rntis)
        found, correlations = self.search("--subframe", 8, "--rnti", listed,
                                          "--llr-in", path)
        self.assertEqual(sorted(found), sorted(sent))
        self.assertTrue(all(c > 0.999 for c in correlations), correlations)
        # Without the RNTIs, the SI-RNTI DCIs alone; another first subframe moves the
        # UE-specific spaces away (their DCIs are found there by chance at most).
        found, _ = self.search("--subframe", 8, "--llr-in", path)
        self.assertEqual(sorted(found), sorted(d for d in sent if d[4] == SI_RNTI))
        found, _ = self.search("--subframe", 3, "--rnti", listed, "--llr-in", path)
        self.assertLess(len(set(found) & set(sent)), len(sent))
        # Exhaustive, the RNTIs listed: the same DCIs, and few others (a CRC passing by
        # chance for a listed or broadcast RNTI).
        found, _ = self.search("--subframe", 8, "--rnti", listed, "--exhaustive",
                               "--min-correlation", 0.99, "--llr-in", path)
        as_exhaustive = {d[:5] + ("exhaustive",) + d[6:] for d in sent}
        self.assertTrue(as_exhaustive <= set(found), as_exhaustive - set(found))
        self.assertLessEqual(len(found) - len(sent), 2)

    def test_005_search_descrambles_with_cell_id(self):
        rng = random.Random(7)
        path, rntis, sent = self.subframes(rng, 4, 2, 3, cell_id=101)
        listed = ",".join(map(str, rntis))
        found, _ = self.search("--subframe", 4, "--rnti", listed, "--cell-id", 101,
                               "--llr-in", path)
        self.assertEqual(sorted(found), sorted(sent))
        found, _ = self.search("--subframe", 4, "--rnti", listed, "--llr-in", path)
        self.assertEqual(found, [])

    def test_006_bad_options_and_input_files(self):
        c = next(c for c in self.cases if c["kind"] == "dci" and c["E"] == 144)
        llrs = self.write_llrs("llr.f32", noiseless_llrs(c["e"]))
        short = self.write_llrs("short.f32", noiseless_llrs(c["e"])[:-1])
        data = self.write_bits("data.u8", c["data"])
        A, E = c["A"], c["E"]
        sub = CCE_LLRS * N_CCE
        partial = self.write_llrs("partial.f32", [0.0] * (sub + 5))
        x = self.path("x")
        cases = [
            (["decode", "--bits", A, "--e", E, "--llr-in", short, "--out", x], 2,
             f"--llr-in: '{short}' holds {4 * (E - 1)} bytes, but {E} LLRs of --e take "
             f"{4 * E}"),
            (["encode", "--bits", A + 1, "--e", E, "--rnti", 1, "--in", data, "--out",
              x], 2, f"holds {A} bytes, but {A + 1} bits of --bits take {A + 1}"),
            (["encode", "--e", E, "--rnti", 1, "--in", data, "--out", x], 2,
             "--bits is required"),
            (["encode", "--bits", A, "--e", E, "--in", data, "--out", x], 2,
             "--rnti is required"),
            (["encode", "--bits", A, "--e", E, "--rnti", 65536, "--in", data, "--out",
              x], 2, "--rnti: '65536' is out of range: use 0 ... 65535 (0xffff)"),
            (["encode", "--bits", A, "--e", E, "--rnti", "0xg1", "--in", data, "--out",
              x], 2, "--rnti: '0xg1' is not a hexadecimal number"),
            (["encode", "--bits", A, "--e", 0, "--rnti", 1, "--in", data, "--out", x], 2,
             "--e: '0' is out of range: use 1 or more"),
            (["encode", "--bits", 0, "--e", E, "--rnti", 1, "--in", data, "--out", x], 2,
             "--bits: '0' is out of range: use 1 ... 65536"),
            (["encode", "--bch", "--bits", A, "--e", E, "--in", data, "--out", x], 2,
             f"--bits {A} with --bch: a MIB has 24 bits"),
            (["encode", "--bch", "--rnti", 1, "--e", E, "--in", data, "--out", x], 2,
             "--rnti goes without --bch"),
            (["encode", "--bch", "--ports", 3, "--e", E, "--in", data, "--out", x], 2,
             "ports=3 is not an antenna port count of the BCH: use 1, 2 or 4"),
            (["encode", "--ports", 2, "--bits", A, "--e", E, "--rnti", 1, "--in", data,
              "--out", x], 2, "--ports goes with --bch in encode"),
            (["encode", "--bits", A, "--e", E, "--rnti", 1, "--in", data, "--out", x,
              "--llr-in", llrs], 2, "--llr-in is no option of encode"),
            (["decode", "--bits", A, "--e", E, "--llr-in", llrs, "--out", x, "--cfi", 3],
             2, "--cfi is no option of decode"),
            (["decode", "--bits", A, "--e", E, "--llr-in", llrs, "--out", x, "--backend",
              "fpga"], 2, "backend"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in", llrs,
              "--bits", A], 2, "--bits is no option of search"),
            (["search", "--prb", 100, "--cfi", 3, "--llr-in", llrs], 2,
             "--subframe is required"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 10, "--llr-in", llrs], 2,
             "--subframe: 10 is out of range: use 0 ... 9"),
            (["search", "--prb", 5, "--cfi", 3, "--subframe", 0, "--llr-in", llrs], 2,
             "n_prb=5 is out of range"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in", llrs], 2,
             f"--llr-in: '{llrs}' holds {4 * E} bytes: not a whole number of subframes "
             f"of 72 N_CCE = {sub} LLRs ({4 * sub} bytes)"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in", partial],
             2, f"holds {4 * (sub + 5)} bytes: not a whole number of subframes"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in",
              self.write_llrs("zero.f32", [0.0] * sub), "--rnti", "5,0"], 2,
             "subframe 0: rntis[1]=0 is out of range: use 1 ... 65535"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in",
              self.write_llrs("zero.f32", [0.0] * sub), "--ng", "3"], 2,
             "--ng: unknown PHICH resource ng '3': use 1/6, 1/2, 1, 2"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in",
              self.write_llrs("zero.f32", [0.0] * sub), "--cell-id", 504], 2,
             "--cell-id: 504 is out of range: use 0 ... 503, or none"),
            (["search", "--prb", 100, "--cfi", 3, "--subframe", 0, "--llr-in",
              self.path("missing.f32")], 1, "--llr-in: cannot read"),
            (["encode", "--bits", A, "--e", E, "--rnti", 1, "--in", data, "--out",
              self.path("no-such-folder/e.u8")], 2, "does not exist"),
        ]
        self.assert_refused(cases)

    def test_007_inputs_are_read_as_far_as_needed(self):
        # /dev/zero (endless) is refused as too long: decode's LLRs at once, a search's
        # subframes after the most a file may hold; the memory limit makes a reader
        # that takes all of it fail fast rather than fill the machine.
        cases = [
            (["decode", "--bits", 27, "--e", 144, "--llr-in", "/dev/zero", "--out",
              self.path("x")], "--llr-in: '/dev/zero' holds more than 576 bytes, but "
             "144 LLRs of --e take 576"),
            (["encode", "--bits", 27, "--e", 144, "--rnti", 1, "--in", "/dev/zero",
              "--out", self.path("x")], "--in: '/dev/zero' holds more than 27 bytes"),
            (["search", "--prb", 6, "--cfi", 1, "--subframe", 0, "--llr-in",
              "/dev/zero"], "--llr-in: '/dev/zero' holds more than 10000 subframes of "
             "72 N_CCE = 144 LLRs (576 bytes): split it"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = subprocess.run([APP, *map(str, args)], capture_output=True, text=True,
                                   timeout=60, preexec_fn=lambda: resource.setrlimit(
                                       resource.RLIMIT_AS, (4 << 30, 4 << 30)))
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)


def require_backend():
    """Exits with SKIP_RETURN_CODE, saying why, where BACKEND cannot run here."""
    with tempfile.TemporaryDirectory() as folder:
        llrs = os.path.join(folder, "llr.f32")
        with open(llrs, "wb") as f:
            f.write(bytes(4 * 72))
        r = subprocess.run([APP, "decode", "--bits", "8", "--e", "72", "--llr-in", llrs,
                            "--out", os.path.join(folder, "out.u8"), "--backend",
                            BACKEND], capture_output=True, text=True)
    if r.returncode == 1 and "not available" in r.stderr:
        print(f"SKIPPED: backend {BACKEND} is not available here: {r.stderr.strip()}")
        sys.exit(SKIP_RETURN_CODE)


if __name__ == "__main__":
    require_backend()
    unittest.main(verbosity=2)
