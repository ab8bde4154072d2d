#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The decoder blocks' GRC YAML and Python defaults against the engine's parameter table.

Each code family's table comes from the C++ code itself (gputurbo-bench --code FAMILY
--parameters-json); the DL-SCH blocks take the turbo code's and, over it, the transport
channel's own (gputurbo.transport_parameters() of the built module), the PDCCH block the
convolutional code's and, over it, the control channel's (gputurbo.control_parameters()). For every GRC block
of a family: each parameter is the table's or a known block-only one, its default and
choices are the table's, and the asserts accept exactly what the table accepts at the
edges of each range (every K of 0 ... 6200 against the LTE sizes). The Python bindings'
defaults are checked the same way.

    qa_parameters.py GPUTURBO_BENCH GRC_DIRS

GRC_DIRS: the folders of the blocks' YAML, separated by ':' (the build tree's, with the
generated decoder blocks, and the source tree's).
"""

import ast
import json
import os
import re
import subprocess
import sys
import unittest

SKIP_RETURN_CODE = 77  # ctest's SKIP_RETURN_CODE for this test
try:
    import yaml
except ImportError as e:
    print(f"SKIPPED: no PyYAML for {sys.executable}: {e}")
    sys.exit(SKIP_RETURN_CODE)

BENCH, GRC_DIRS = sys.argv[1:3] if len(sys.argv) >= 3 else (None, None)


def grc_block(block_id):
    """A block's YAML, from the first of GRC_DIRS that has it."""
    for folder in GRC_DIRS.split(os.pathsep):
        path = os.path.join(folder, block_id + ".block.yml")
        if os.path.exists(path):
            with open(path) as f:
                return yaml.safe_load(f)
    raise FileNotFoundError(f"{block_id}.block.yml in none of {GRC_DIRS}")

# Each code family's table (gputurbo-bench --code FAMILY) and the GRC blocks that take it.
DECODER_BLOCKS = {
    "turbo": ["gputurbo_turbo_decoder", "gputurbo_turbo_decoder_pdu",
              "variable_gputurbo_turbo_decoder_def"],
    "conv": ["gputurbo_viterbi_decoder", "gputurbo_viterbi_decoder_pdu",
             "gputurbo_conv_encoder"],
    "dlsch": ["gputurbo_dlsch_decoder_pdu", "gputurbo_dlsch_encoder_pdu"],
    "pdcch": ["gputurbo_pdcch_decoder_pdu"],
}
# Each decoder block's GRC YAML and the Python class whose make() it calls.
GRC_MAKES = {"gputurbo_turbo_decoder": "turbo_decoder",
             "gputurbo_turbo_decoder_pdu": "turbo_decoder_pdu",
             "variable_gputurbo_turbo_decoder_def": "turbo_decoder_fec",
             "gputurbo_viterbi_decoder": "viterbi_decoder",
             "gputurbo_viterbi_decoder_pdu": "viterbi_decoder_pdu",
             "gputurbo_dlsch_decoder_pdu": "dlsch_decoder_pdu",
             "gputurbo_pdcch_decoder_pdu": "pdcch_decoder_pdu"}
# GRC parameters of a FECAPI definition block, not of make(): the objects' array shape.
GRC_ONLY = {"ndim", "dim1", "dim2"}
# GRC ids and Python argument names of table parameters that differ from the table's.
RENAMED = {"frame_size": "K"}
# Parameters of the blocks that are not decoder parameters.
NOT_IN_TABLE = {"backend", "ndim", "dim1", "dim2", "packed"}
# The other parameters' values while one is probed: without training windows, g does
# not bound P (g <= K/P); frames, whose frame_bits the asserts check.
PROBE_CONTEXT = {"guard": "none", "termination": "terminated"}
# Defaults that differ from the table's on purpose: the transport decoder's early_stop
# is its own flag (a CRC stop per code block), not the turbo decoder's stop rule; the
# stream blocks of convolutional codes take a stream (the table's default, terminated,
# is that of frames: the engine, the apps, the PDU block).
OWN_DEFAULTS = {("transport_engine", "early_stop"): True,
                **{(block, "termination"): "streaming"
                   for block in ("viterbi_decoder", "gputurbo_viterbi_decoder",
                                 "conv_encoder", "gputurbo_conv_encoder")}}
# Choices of the table that a block does not offer: a PDU is a frame, never a stream; a
# turbo code's decoders give no soft output of the code bits, and a convolutional
# code's information bits have no input LLR of their own to take away (extrinsic).
NOT_OFFERED = {("gputurbo_viterbi_decoder_pdu", "termination"): {"streaming"},
               ("gputurbo_turbo_decoder", "output"): {"code-extrinsic"},
               ("gputurbo_turbo_decoder_pdu", "output"): {"code-extrinsic"},
               ("gputurbo_viterbi_decoder", "output"): {"extrinsic"},
               ("gputurbo_viterbi_decoder_pdu", "output"): {"extrinsic"}}


def load_table(family):
    if family == "dlsch":
        # The turbo decoder's parameters, and the transport channel's own over them
        # (early_stop is the transport decoder's CRC stop, a flag).
        from gnuradio import gputurbo
        table = load_table("turbo")
        table.update({p["name"]: p for p in gputurbo.transport_parameters()})
        return table
    if family == "pdcch":
        # The Viterbi decoder's parameters (threads, devices, max_batch), and the
        # control channel's own.
        from gnuradio import gputurbo
        table = load_table("conv")
        table.update({p["name"]: p for p in gputurbo.control_parameters()})
        return table
    out = subprocess.run([BENCH, "--code", family, "--parameters-json"], check=True,
                         capture_output=True, text=True).stdout
    return {p["name"]: p for p in json.loads(out)}


def typed(p, text):
    """A table value (text as the C++ writes it) as Python sees it."""
    kind = p["kind"]
    if kind == "integer":
        return int(text)
    if kind == "real":
        return float(text)
    if kind == "flag":
        return str(text).lower() in ("true", "1")
    return str(text)


def grc_value(param, text):
    """A GRC parameter's value as the flowgraph's expressions see it."""
    dtype = param.get("dtype")
    if dtype == "int":
        return int(text)
    if dtype in ("float", "real"):
        return float(text)
    if dtype == "bool":
        return str(text) == "True"
    return str(text)


def accepts(p, v):
    """Whether the table accepts the number v for p."""
    if p.get("values"):
        return v in p["values"]
    if p["kind"] == "integer" and p.get("zero_means") and v == 0:
        return True
    low = p["min"]
    high = p["max"] if p["max"] is not None else float("inf")
    return (v > low if p["min_exclusive"] else v >= low) and v <= high


def probes(p):
    """Values at the edges of p's range, where a copy of a range goes wrong (inner
    values may depend on other parameters: P divides K)."""
    low = p["min"]
    high = p["max"]
    if p.get("values"):
        return list(range(0, int(high) + 57))
    if p["kind"] == "integer":
        edges = [-1, 0, low - 1, low]
        edges += [high, high + 1] if high is not None else [10 ** 9]
        return sorted(set(int(v) for v in edges))
    step = 1e-6
    edges = [low - step, low, low + step]
    edges += [high, high + step] if high is not None else [1e9]
    return edges


def passed_arguments(template, names):
    """The arguments that a GRC make template's first gputurbo call passes, by name:
    positional ones (${x}) in names' order, keywords (name=...) where they stand."""
    call = re.search(r"gputurbo\.\w+(?:\.make)?\((.*?)\)\s*$", template, re.S | re.M)
    passed = []
    for i, item in enumerate(re.split(r",\s*", call.group(1).strip())):
        keyword = re.match(r"(\w+)=", item)
        passed.append(keyword.group(1) if keyword else
                      names[i] if re.fullmatch(r"'?\$\{%s\}'?" % names[i], item) else
                      item)
    return passed


class qa_parameters(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tables = {family: load_table(family) for family in DECODER_BLOCKS}
        cls.table = cls.tables["turbo"]

    def parameter(self, name):
        return self.table.get(RENAMED.get(name, name))

    def test_001_table(self):
        # What the rest relies on: every parameter has a kind, a default and help.
        for name, p in ((n, p) for t in self.tables.values() for n, p in t.items()):
            self.assertIn(p["kind"], ("integer", "real", "choice", "text", "flag"), name)
            self.assertTrue(p["help"], name)
            if p["kind"] == "choice":
                self.assertIn(p["default"], p["choices"], name)
            if p["kind"] in ("integer", "real"):
                self.assertTrue(accepts(p, typed(p, p["default"])), name)

    def test_002_grc_blocks(self):
        for family, block_ids in DECODER_BLOCKS.items():
            self.table = self.tables[family]
            for block_id in block_ids:
                block = grc_block(block_id)
                with self.subTest(block=block_id):
                    self.check_block(block_id, block)

    def check_block(self, block_id, block):
        params = {q["id"]: q for q in block["parameters"]}
        defaults = {i: grc_value(q, q["default"]) for i, q in params.items()}
        asserts = [compile(a.strip()[2:-1].strip(), f"{block_id} assert", "eval")
                   for a in block.get("asserts", [])]

        def valid(values):
            return all(eval(a, {}, dict(values)) for a in asserts)

        self.assertTrue(valid(defaults), f"{block_id}: defaults fail the asserts")
        disagree = []
        for grc_id, q in params.items():
            p = self.parameter(grc_id)
            if p is None:
                self.assertIn(grc_id, NOT_IN_TABLE,
                              f"{block_id}: {grc_id} is not in the parameter table")
                continue
            want = OWN_DEFAULTS.get((block_id, p["name"]), typed(p, p["default"]))
            self.assertEqual(defaults[grc_id], want, f"{block_id}: default of {grc_id}")
            if p["kind"] == "choice":
                offered = set(p["choices"]) - NOT_OFFERED.get((block_id, grc_id), set())
                self.assertEqual(sorted(map(str, q["options"])), sorted(offered),
                                 f"{block_id}: options of {grc_id}")
            if p["kind"] not in ("integer", "real"):
                continue
            for v in probes(p):
                values = dict(defaults, **PROBE_CONTEXT)
                values[grc_id] = v
                if valid(values) != accepts(p, v):
                    disagree.append(f"{grc_id}={v} (the table: {p['range']})")
        if disagree:
            self.fail(f"{block_id}: the asserts and the table disagree: " +
                      "; ".join(disagree))

    def test_003_python_defaults(self):
        try:
            from gnuradio import gputurbo
        except ImportError as e:
            self.skipTest(f"the gputurbo module does not import here: {e}")
        functions = (("turbo", "turbo_decoder", gputurbo.turbo_decoder.__init__),
                     ("turbo", "turbo_decoder_pdu", gputurbo.turbo_decoder_pdu.__init__),
                     ("turbo", "turbo_decoder_fec.make", gputurbo.turbo_decoder_fec.make),
                     ("turbo", "turbo_engine", gputurbo.turbo_engine.__init__),
                     ("dlsch", "transport_engine", gputurbo.transport_engine.__init__),
                     ("conv", "viterbi_decoder", gputurbo.viterbi_decoder.__init__),
                     ("conv", "viterbi_decoder_pdu", gputurbo.viterbi_decoder_pdu.__init__),
                     ("conv", "conv_encoder", gputurbo.conv_encoder.__init__),
                     ("dlsch", "dlsch_decoder_pdu", gputurbo.dlsch_decoder_pdu.__init__),
                     ("dlsch", "dlsch_encoder_pdu", gputurbo.dlsch_encoder_pdu.__init__),
                     ("pdcch", "pdcch_decoder_pdu", gputurbo.pdcch_decoder_pdu.__init__))
        for family, label, function in functions:
            self.table = self.tables[family]
            signature = function.__doc__.splitlines()[0]
            found = re.findall(r"(\w+): [\w.]+ = ('[^']*'|[^,)]+)", signature)
            self.assertTrue(found, signature)
            for name, text in found:
                p = self.parameter(name)
                if p is None:
                    self.assertIn(name, NOT_IN_TABLE, f"{label}: {name}")
                    continue
                want = OWN_DEFAULTS.get((label, p["name"]), typed(p, p["default"]))
                self.assertEqual(ast.literal_eval(text), want,
                                 f"{label}: default of {name}")

    def test_005_grc_parameters_are_make_arguments(self):
        # Each decoder block's GRC parameters are its make() arguments (the Python
        # class's make_arguments, from the parameter table), each passed by the make
        # template: a new argument fails here until the YAML has it.
        try:
            from gnuradio import gputurbo
        except ImportError as e:
            self.skipTest(f"the gputurbo module does not import here: {e}")
        for block_id, cls in GRC_MAKES.items():
            block = grc_block(block_id)
            ids = [q["id"] for q in block["parameters"] if q["id"] not in GRC_ONLY]
            names = [a["name"] for a in getattr(gputurbo, cls).make_arguments]
            with self.subTest(block=block_id):
                self.assertEqual(sorted(ids), sorted(names))
                make = block["templates"].get("var_make", block["templates"].get("make"))
                self.assertEqual(passed_arguments(make, names), names, block_id)
                # GRC writes an enum's value bare: the template quotes it, and no other.
                for q in block["parameters"]:
                    if q["id"] in names:
                        self.assertEqual(f"'${{{q['id']}}}'" in make, q["dtype"] == "enum",
                                         f"{block_id}: quotes of {q['id']}")

    def test_006_usage_table(self):
        # docs/usage.md's parameter table of turbo_decoder: the make() arguments, in
        # order, with their defaults.
        try:
            from gnuradio import gputurbo
        except ImportError as e:
            self.skipTest(f"the gputurbo module does not import here: {e}")
        source_grc = GRC_DIRS.split(os.pathsep)[-1]
        with open(os.path.join(source_grc, "..", "docs", "usage.md")) as f:
            text = f.read()
        section = text.split("### `gputurbo.turbo_decoder(K, …)`", 1)[1].split("\n### ")[0]
        rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \|", section, re.M)
        arguments = gputurbo.turbo_decoder.make_arguments
        self.assertEqual([name for name, _ in rows], [a["name"] for a in arguments])
        for (name, default), a in zip(rows, arguments):
            if "default" in a:
                documented = default.strip().strip("`")
                want = a["default"]
                if isinstance(want, (int, float)) and not isinstance(want, bool):
                    documented = float(documented)
                self.assertEqual(documented, want, f"usage.md: default of {name}")

    def test_007_stream_output_port_follows_output(self):
        # The GRC output port of turbo_decoder and viterbi_decoder: byte for output
        # "bits", float for soft output, byte for int8 soft output (output_type), as the
        # block's own output items (1, 4 or 1 bytes).
        try:
            from gnuradio import gputurbo
        except ImportError as e:
            self.skipTest(f"the gputurbo module does not import here: {e}")
        item_size = {"byte": 1, "float": 4}
        for block_id, make, choices in (
                ("gputurbo_turbo_decoder", lambda **kwargs: gputurbo.turbo_decoder(
                    40, backend="cpu", **kwargs), ["bits", "llr", "extrinsic"]),
                ("gputurbo_viterbi_decoder", lambda **kwargs: gputurbo.viterbi_decoder(
                    40, termination="terminated", backend="cpu", **kwargs),
                 ["bits", "llr", "code-extrinsic"])):
            dtype = grc_block(block_id)["outputs"][0]["dtype"]
            self.assertTrue(dtype.startswith("${") and dtype.endswith("}"), dtype)
            expression = compile(dtype[2:-1].strip(), "output dtype", "eval")
            arguments = {a["name"]: a
                         for a in getattr(gputurbo, GRC_MAKES[block_id]).make_arguments}
            self.assertEqual(arguments["output"]["choices"], choices)
            self.assertEqual(arguments["output_type"]["choices"], ["float", "int8"])
            for choice in choices:
                for output_type in ("float", "int8"):
                    with self.subTest(block=block_id, output=choice,
                                      output_type=output_type):
                        grc_dtype = eval(expression, {}, {"output": choice,
                                                          "output_type": output_type})
                        floats = choice != "bits" and output_type == "float"
                        self.assertEqual(grc_dtype, "float" if floats else "byte")
                        block = make(output=choice, output_type=output_type)
                        self.assertEqual(block.output_signature().sizeof_stream_item(0),
                                         item_size[grc_dtype])

    def test_004_K_must_be_an_integer(self):
        # Every make() that takes K says what K must be when it is no integer (pybind11
        # alone would list the overloads). A float is refused even with an integral
        # value, as GRC refuses one for an int parameter; NumPy integers are integers.
        try:
            import numpy as np
            from gnuradio import gputurbo
        except ImportError as e:
            self.skipTest(f"the gputurbo module does not import here: {e}")
        makes = (gputurbo.turbo_decoder, gputurbo.turbo_encoder,
                 gputurbo.turbo_decoder_fec.make, gputurbo.turbo_encoder_fec.make)
        must_be = "K must be an integer, one of the 188 LTE block sizes 40 ... 6144"
        for make in makes:
            for K in (1024.0, 1024.5, "1024", None, np.float32(1024)):
                with self.subTest(make=make.__name__, K=K):
                    with self.assertRaisesRegex(TypeError, f"{must_be}: got .*\\("):
                        make(K)
            with self.assertRaisesRegex(ValueError, "K=1099511627776 is not an LTE"):
                make(2 ** 40)
            with self.assertRaisesRegex(ValueError, "K=41 is not an LTE"):
                make(np.int64(41))
        with self.assertRaisesRegex(TypeError, f"{must_be}: got 1024.0 \\(float\\)"):
            gputurbo.turbo_decoder(K=1024.0)
        self.assertEqual(gputurbo.turbo_encoder(np.int16(40)).block_size(), 40)


if __name__ == '__main__':
    if BENCH is None:
        sys.exit(__doc__)
    unittest.main(argv=sys.argv[:1])
