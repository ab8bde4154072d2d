#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gr-gputurbo: batched LTE turbo encoding and decoding (3GPP TS 36.212) and Viterbi
decoding of convolutional codes for GNU Radio, on the GPU or the CPU.

Blocks: turbo_encoder (bits -> 3K+12 code bits per codeword), turbo_decoder (3K+12
LLRs -> K bits per codeword) and turbo_decoder_pdu; conv_encoder, viterbi_decoder (a
continuous stream or frames) and viterbi_decoder_pdu; dlsch_encoder_pdu and
dlsch_decoder_pdu; pdcch_decoder_pdu (a subframe's PDCCH LLRs -> the DCIs found). FECAPI objects for gr-fec: turbo_encoder_fec, turbo_decoder_fec,
conv_encoder_fec and viterbi_decoder_fec (with gr-fec's cc_encoder and cc_decoder
arguments).

Without a flowgraph, on numpy arrays: everything of the package gputurbo (the engine
without GNU Radio), re-exported here: turbo_engine, decode(), lte_block_sizes(),
qpp_interleaver(), crc(), crc_ok(); transport_encode(), transport_engine;
control_engine, dci_size(), parse_dci(), pack_dci() and the PDCCH's search spaces;
conv_code, viterbi_engine, viterbi_stream and conv_presets().
'''

# The engine's numpy API: the package gputurbo, which needs no GNU Radio.
from gputurbo import *

# import pybind11 generated symbols into the gputurbo namespace
from .gputurbo_python import *
from .gputurbo_python import __version__
