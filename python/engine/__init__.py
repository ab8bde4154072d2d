#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gputurbo: the gr-gputurbo engine on numpy arrays, on the GPU or the CPU, without GNU
Radio (gnuradio.gputurbo re-exports all of it beside the blocks).

LTE turbo code (3GPP TS 36.212): turbo_engine (decode() and encode() of whole batches),
decode() below, lte_block_sizes(), qpp_interleaver(), crc(), crc24a(), crc24b(),
crc_ok() and quantize_llrs(); LTE transport blocks: transport_encode(),
transport_engine (decode() and decode_batch() with HARQ soft buffers), transport_block,
soft_buffer_length() and transport_parameters(); the LTE control channels:
control_engine (DCI and MIB blocks encoded and decoded, the PDCCH's blind search, the
PBCH), dci_size(), parse_dci(), pack_dci(), default_dci_sizes(), cce_count(),
common_search_space(), ue_search_space(), every_candidate(), descramble_pdcch() and
control_parameters(); convolutional codes: conv_code (encode(), depuncture()),
viterbi_engine, viterbi_stream, conv_presets() and pack_int4().
'''

from .engine_python import *
from .engine_python import __version__

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
