# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the apps' QA shares (Python alone, no numpy): bits from the vectors' hex, LLRs
of known bits, and a test case that runs an app through files in a folder of its own."""

import os
import struct
import subprocess
import tempfile
import unittest


def hex_bits(text, n):
    """The first n bits of hex digits, most significant first."""
    return [int(c, 16) >> (3 - i) & 1 for c in text for i in range(4)][:n]


def noiseless_llrs(bits, magnitude=4.0):
    """GNU Radio's sign: positive means 1."""
    return [magnitude if b else -magnitude for b in bits]


class app_files_case(unittest.TestCase):
    """Runs `app` (set by the subclass) with files in a temporary folder; `cases` holds
    what the subclass's read_cases() gives."""

    app = None

    @classmethod
    def read_cases(cls):
        return []

    @classmethod
    def setUpClass(cls):
        cls.cases = cls.read_cases()
        cls.folder = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def write_bits(self, name, bits):
        with open(self.path(name), "wb") as f:
            f.write(bytes(bits))
        return self.path(name)

    def write_llrs(self, name, llrs, fmt="f"):
        with open(self.path(name), "wb") as f:
            f.write(struct.pack(f"<{len(llrs)}{fmt}", *llrs))
        return self.path(name)

    def read_bits(self, path):
        with open(path, "rb") as f:
            return list(f.read())

    def run_app(self, *args):
        return subprocess.run([self.app, *map(str, args)], capture_output=True,
                              text=True)

    def assert_refused(self, cases):
        """Each (args, status, message): the app exits with status, says message on
        stderr and writes nothing to stdout."""
        for args, status, message in cases:
            with self.subTest(args=args):
                r = self.run_app(*args)
                self.assertEqual(r.returncode, status, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertEqual(r.stdout, "")
