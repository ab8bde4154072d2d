#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gr-gputurbo: batched LTE turbo encoding and decoding (3GPP TS 36.212) and Viterbi
decoding of convolutional codes for GNU Radio, on the GPU or the CPU.

Blocks: turbo_encoder (bits -> 3K+12 code bits per codeword), turbo_decoder (3K+12
LLRs -> K bits per codeword) and turbo_decoder_pdu; conv_encoder, viterbi_decoder (a
continuous stream or frames) and viterbi_decoder_pdu. FECAPI objects for gr-fec:
turbo_encoder_fec, turbo_decoder_fec, conv_encoder_fec and viterbi_decoder_fec (with
gr-fec's cc_encoder and cc_decoder arguments).

Without a flowgraph, on numpy arrays: turbo_engine (decode() and encode() of whole
batches), decode() below, lte_block_sizes(), qpp_interleaver(), crc24a(), crc24b() and
crc_ok(); LTE transport blocks: transport_encode(), transport_engine (decode() and
decode_batch() with HARQ soft buffers), transport_block and soft_buffer_length();
convolutional codes: conv_code (encode(), depuncture()) and conv_presets().
'''

# import pybind11 generated symbols into the gputurbo namespace
from .gputurbo_python import *
from .gputurbo_python import __version__

# import any pure python here
import numpy as _np


def decode(llrs, K=None, **params):
    """Decodes a batch of codewords with a turbo_engine made for this call.

    llrs: float32 or int8 of shape (n, 3K+12), or (3K+12,) for one codeword; see
    turbo_engine.decode(), which returns (bits, iterations, passed). K: the block size;
    None infers it from the row length 3K+12, which must be that of an LTE size
    (ValueError otherwise). params: turbo_engine's other parameters (backend, llr_sign,
    iterations, ...). A turbo_engine kept between calls saves making the engine each time.
    """
    if K is None:
        length = _np.shape(llrs)[-1] if _np.ndim(llrs) else 0
        K, tail = divmod(length - 12, 3)
        if tail or K not in lte_block_sizes():
            raise ValueError(f"llrs rows of {length} values are no LTE codeword: a row "
                             "holds 3K+12 values for one of the 188 K of "
                             "lte_block_sizes() (K=40: 132, ..., K=6144: 18444)")
    return turbo_engine(K=K, **params).decode(llrs)
