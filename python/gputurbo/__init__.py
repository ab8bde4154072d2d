#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gr-gputurbo: batched LTE turbo encoding and decoding (3GPP TS 36.212) for GNU Radio.

Blocks: turbo_encoder (bits -> 3K+12 code bits per codeword) and turbo_decoder
(3K+12 LLRs, L = ln P(0)/P(1), -> K bits per codeword).
'''

# import pybind11 generated symbols into the gputurbo namespace
from .gputurbo_python import *
from .gputurbo_python import __version__

# import any pure python here
