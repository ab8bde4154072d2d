#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The Python package gputurbo with GNU Radio out of reach: turbo and Viterbi decoding
of numpy arrays (encode, BPSK over AWGN, decode, compare the bits) on the CPU, and on
CUDA where this build and machine have it. `import gnuradio` fails here, so the package
passes only if it needs no GNU Radio. Exit 0 when every check holds.

    PYTHONPATH=build/test_modules python3 tests/standalone_numpy.py
"""

import sys

sys.modules["gnuradio"] = None  # any import of GNU Radio raises ImportError

import numpy as np  # noqa: E402
import gputurbo  # noqa: E402

rng = np.random.default_rng(1)


def bpsk_llrs(code, sigma):
    """BPSK (0 -> -1, 1 -> +1) over AWGN, as LLRs 2y/sigma^2 (positive means 1)."""
    y = (2.0 * code - 1.0) + rng.normal(0.0, sigma, code.shape)
    return (2.0 * y / sigma**2).astype(np.float32)


def turbo(backend):
    eng = gputurbo.turbo_engine(K=1024, backend=backend)
    bits = rng.integers(0, 2, (64, eng.K), dtype=np.uint8)
    decoded, iterations, passed = eng.decode(bpsk_llrs(eng.encode(bits), 0.7))
    assert decoded.shape == bits.shape and passed.all(), (backend, passed)
    assert np.array_equal(decoded, bits), f"turbo on {backend}: bit errors"
    # The module-level helper infers K from the row length.
    assert np.array_equal(gputurbo.decode(bpsk_llrs(eng.encode(bits), 0.7),
                                          backend=backend)[0], bits)
    return eng


def viterbi(backend):
    code = gputurbo.conv_code(preset="ccsds")
    eng = gputurbo.viterbi_engine(code, backend=backend)
    frame_bits = 1000
    bits = rng.integers(0, 2, (32, frame_bits), dtype=np.uint8)
    decoded, passed = eng.decode(bpsk_llrs(code.encode(bits), 0.5), frame_bits)
    assert passed.all(), (backend, passed)
    assert np.array_equal(decoded, bits), f"Viterbi on {backend}: bit errors"
    return eng


def main():
    backends = ["cpu"]
    try:
        gputurbo.turbo_engine(K=40, backend="cuda")
        backends.append("cuda")
    except RuntimeError as e:
        print(f"cuda: skipped: {e}")
    for backend in backends:
        t, v = turbo(backend), viterbi(backend)
        print(f"{backend}: turbo K=1024 and Viterbi CCSDS decode every bit "
              f"({t.device}; {v.device})")
    assert "gnuradio" not in [m.split(".")[0] for m in sys.modules
                              if sys.modules[m] is not None]
    print(f"gputurbo {gputurbo.__version__} from {gputurbo.__file__}")
    print(f"standalone_numpy: {2 * len(backends)} passed, 0 failed")


if __name__ == "__main__":
    main()
