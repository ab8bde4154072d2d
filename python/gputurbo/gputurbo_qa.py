#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the QA modules (qa_*.py) share: the backend under test and the skip of a module
whose backend this build or machine lacks, the test vectors' folders, PDUs through a
block, the check that a call releases the GIL, 36.211's scrambling sequence, a test case
of seeded random bits and a generator of fresh ones (seed printed). The
QA imports it from its own folder (each qa_*.py runs as a script there: ctest,
scripts/device-gnuradio)."""

import os
import re
import sys
import threading
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

# The backend under test: "cpu" (default), "reference", or "cuda", which skips the whole
# module, with the reason, where this build or machine cannot run it.
BACKEND = os.environ.get("GPUTURBO_QA_BACKEND", "cpu")
SKIP_RETURN_CODE = 77  # ctest's SKIP_RETURN_CODE for these tests

HERE = os.path.dirname(os.path.abspath(__file__))
USAGE_MD = os.path.join(HERE, "..", "..", "docs", "usage.md")
# Encoder vectors made with srsRAN_4G's encoder, the DL-SCH vectors and the control
# channels' (DCI and BCH), kept in this repository (tests/data/lte-turbo, lte-dlsch and
# lte-dci, format: their README.md); GPUTURBO_VECTORS_DIR, GPUTURBO_DLSCH_VECTORS_DIR
# and GPUTURBO_DCI_VECTORS_DIR name other copies.
TURBO_VECTORS_DIR = os.environ.get("GPUTURBO_VECTORS_DIR") or os.path.join(
    HERE, "..", "..", "tests", "data", "lte-turbo")
DLSCH_VECTORS_DIR = os.environ.get("GPUTURBO_DLSCH_VECTORS_DIR") or os.path.join(
    HERE, "..", "..", "tests", "data", "lte-dlsch")
DCI_VECTORS_DIR = os.environ.get("GPUTURBO_DCI_VECTORS_DIR") or os.path.join(
    HERE, "..", "..", "tests", "data", "lte-dci")

PDU_PORT = pmt.intern("pdus")


def require_backend(make, *args, **kwargs):
    """Exits with SKIP_RETURN_CODE, saying why, when make(*args, backend=BACKEND,
    **kwargs), the block under test on BACKEND, cannot be made here."""
    try:
        make(*args, backend=BACKEND, **kwargs)
    except RuntimeError as e:
        print(f"SKIPPED: backend {BACKEND} is not available here: {e}")
        sys.exit(SKIP_RETURN_CODE)


def skip_class_unless(test_class, make, *args, **kwargs):
    """For a setUpClass: unittest.SkipTest, said on stderr as well (a skipped GPU test
    must not pass unnoticed), when make(*args, backend=test_class.BACKEND, **kwargs)
    cannot be made here."""
    try:
        make(*args, backend=test_class.BACKEND, **kwargs)
    except RuntimeError as e:
        reason = f"backend {test_class.BACKEND} is not available here: {e}"
        print(f"\nSKIPPED {test_class.__name__}: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)


def run_pdus(block, messages, timeout):
    """Posts the messages to a PDU block, runs until as many come out or timeout seconds
    pass; returns (outputs as (meta dict, data: uint8, or float32 from an f32vector, or
    int8 from an s8vector), seconds from the start to the last output)."""
    tb = gr.top_block()
    sink = blocks.message_debug(True)
    tb.msg_connect((block, "pdus"), (sink, "store"))
    for m in messages:  # queued before the start: they arrive as one burst
        block.to_basic_block()._post(PDU_PORT, m)
    start = time.perf_counter()
    tb.start()
    while sink.num_messages() < len(messages):
        if time.perf_counter() - start > timeout:
            break
        time.sleep(0.001)
    seconds = time.perf_counter() - start
    tb.stop()
    tb.wait()
    outputs = []
    for i in range(sink.num_messages()):
        m = sink.get_message(i)
        data = pmt.cdr(m)
        if pmt.is_f32vector(data):
            values = np.array(pmt.f32vector_elements(data), dtype=np.float32)
        elif pmt.is_s8vector(data):
            values = np.array(pmt.s8vector_elements(data), dtype=np.int8)
        else:
            values = np.array(pmt.u8vector_elements(data), dtype=np.uint8)
        outputs.append((pmt.to_python(pmt.car(m)), values))
    return outputs, seconds


def run_usage_example(heading):
    """Runs the first Python example after `heading` in docs/usage.md, as written."""
    with open(USAGE_MD) as f:
        section = f.read().split(heading, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "docs/usage.md", "exec"), {"__name__": "usage_example"})


def gold_sequence(c_init, n):
    """c(0) ... c(n-1) of 36.211 §7.2 for c_init: the scrambling sequence, written here
    from the specification for the QA's transmitters."""
    nc = 1600
    x1 = np.zeros(nc + n + 31, dtype=np.uint8)
    x2 = np.zeros(nc + n + 31, dtype=np.uint8)
    x1[0] = 1
    x2[:31] = [(c_init >> i) & 1 for i in range(31)]
    for k in range(nc + n):
        x1[k + 31] = x1[k + 3] ^ x1[k]
        x2[k + 31] = x2[k + 3] ^ x2[k + 2] ^ x2[k + 1] ^ x2[k]
    return x1[nc:nc + n] ^ x2[nc:nc + n]


def run_fec_pdus(block, pdus, expected, unread=0):
    """Posts (meta, vector) PDUs to a gr-fec message block (fec.async_encoder,
    async_decoder: ports "in" and "out"); returns the PDUs it sends out once there are
    `expected` of them. With unread > 0 the block is expected to stop with that many PDUs
    left in its queue: waits for that, and a moment more for any late output."""
    tb = gr.top_block()
    debug = blocks.message_debug()
    tb.msg_connect(block, "out", debug, "store")
    tb.start()
    port = pmt.intern("in")
    for meta, vector in pdus:
        block.to_basic_block()._post(port, pmt.cons(meta, vector))
    deadline = time.time() + 30
    while ((debug.num_messages() < expected or
            block.to_basic_block().nmsgs(port) > unread) and time.time() < deadline):
        time.sleep(0.01)
    if unread:
        time.sleep(0.5)
    tb.stop()
    tb.wait()
    return [debug.get_message(i) for i in range(debug.num_messages())]


def seen_inside(decode, calls=20):
    """Whether the main thread saw a worker thread inside decode(), which it calls up to
    `calls` times: with a switch interval longer than the test, a thread keeps the GIL
    until it blocks, so the main thread, sleeping in steps of 1 ms, can see the worker
    between "decoding" and "done" only while decode() has released the GIL; otherwise
    the worker runs all its calls in one go."""
    state = {"phase": "starting", "stop": False}

    def worker():
        state["phase"] = "decoding"
        for _ in range(calls):
            decode()
            if state["stop"]:
                break
        state["phase"] = "done"

    seen = set()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        while thread.is_alive():
            seen.add(state["phase"])
            if state["phase"] == "decoding":
                state["stop"] = True
            time.sleep(0.001)
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    return "decoding" in seen


def to_pmt(value):
    """A metadata value as PMT: bools, ints (NumPy's too) and anything pmt.to_pmt takes."""
    if isinstance(value, type(pmt.PMT_NIL)):
        return value
    if isinstance(value, (bool, np.bool_)):
        return pmt.from_bool(bool(value))
    if isinstance(value, (int, np.integer)):
        return pmt.from_long(int(value))
    return pmt.to_pmt(value)


def pdu(data, **meta):
    """A PDU of u8 bits (uint8), s8 LLRs (int8) or f32 LLRs (any other numbers) with
    metadata meta."""
    data = np.asarray(data)
    d = pmt.make_dict()
    for key, value in meta.items():
        d = pmt.dict_add(d, pmt.intern(key), to_pmt(value))
    if data.dtype == np.uint8:
        vector = pmt.init_u8vector(len(data), data.tolist())
    elif data.dtype == np.int8:
        vector = pmt.init_s8vector(len(data), data.tolist())
    else:
        vector = pmt.init_f32vector(len(data), data.astype(np.float32).tolist())
    return pmt.cons(d, vector)


def fresh_rng():
    """A generator of fresh random inputs, as the C++ tests' test_seed(): its seed is
    GPUTURBO_TEST_SEED when that is set, else a new one, and is printed, so that a
    failure can be replayed."""
    given = os.environ.get("GPUTURBO_TEST_SEED")
    seed = int(given, 0) if given else int(np.random.SeedSequence().entropy % 2 ** 64)
    print(f"  seed {seed} ({'from GPUTURBO_TEST_SEED' if given else 'fresh'}; replay: "
          f"GPUTURBO_TEST_SEED={seed})", flush=True)
    return np.random.default_rng(seed)


class seeded_case(gr_unittest.TestCase):
    """A test case whose random inputs come from one fixed seed: a failure replays."""

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def random_bits(self, K, count):
        return self.rng.integers(0, 2, K * count, dtype=np.uint8)
