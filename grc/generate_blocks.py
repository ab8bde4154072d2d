#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Writes a decoder block's GRC YAML from its template and the block's make() arguments.

    generate_blocks.py grc/gputurbo_turbo_decoder.block.yml.in OUT.block.yml

The template is the block's YAML with what only it knows: id, label, category, ports,
templates, callbacks, documentation, the asserts that tie parameters together, and,
under parameters, each argument's id in the order GRC shows them with what the block
changes (hide, a label of its own), and no_range_assert: the arguments whose range GRC
leaves to make(). `make_arguments_of` names the Python class whose
make_arguments (the parameter table's rows, block_options.h) give everything else:
dtype, default, options, the range asserts, and a documentation line per argument.
An argument the template does not list follows the listed ones. "@ARGUMENTS@" in a
template stands for every argument passed by keyword. Run with the build tree's
gnuradio.gputurbo on PYTHONPATH (CMake does).
"""

import re
import sys

import yaml

# GRC's labels of the arguments, shared by every block (a template may override one);
# an argument without one is labelled from its name.
LABELS = {
    "K": "Block Size K", "frame_size": "Block Size K", "algorithm": "Algorithm",
    "iterations": "Iterations", "scaling": "Extrinsic Scaling",
    "subblocks": "Sub-blocks P", "guard": "Sub-block Guard",
    "guard_window": "Guard Window g", "early_stop": "Early Stop",
    "stop_threshold": "Stop Threshold", "layout": "Input Layout",
    "llr_sign": "LLR Sign", "backend": "Backend", "max_batch": "Max Batch",
    "threads": "CPU Threads", "input_type": "Input Type", "int8_scale": "Int8 Scale",
    "batches_in_flight": "Batches in Flight", "arithmetic": "Arithmetic",
    "codeword_tags": "Codeword Tags", "devices": "CUDA Devices",
    "length_tag_key": "Length Tag Key", "frame_bits": "Frame Bits",
    "preset": "Code Preset", "constraint": "Constraint Length K",
    "polys": "Polynomials (octal)", "puncture": "Puncturing",
    "termination": "Termination", "decision_depth": "Decision Depth",
    "training_depth": "Training Depth", "segment_bits": "Segment Bits",
    "node_sync": "Node Sync", "output": "Output", "output_type": "Output Type",
    "mode": "Search Mode", "min_correlation": "Min Correlation",
    "max_false_alarm": "Max False Alarm",
}
OPTION_LABELS = {
    "algorithm": {"scaled-max-log": "Scaled Max-Log-MAP", "max-log": "Max-Log-MAP",
                  "log-map": "Log-MAP"},
    "early_stop": {"off": "Off", "crc24a": "CRC24A", "crc24b": "CRC24B",
                   "mean-llr": "Mean |LLR|", "min-llr": "Min |LLR|",
                   "hard": "Hard Decisions Stable"},
    "guard": {"none": "None", "pivi": "PIVI", "dstw": "DSTW", "pividstw": "PIVI-DSTW"},
    "layout": {"interleaved": "Interleaved (d0 d1 d2 triples)",
               "streams": "Streams (d0 | d1 | d2)"},
    "llr_sign": {"positive-one": "Positive = 1 (GNU Radio)",
                 "positive-zero": "Positive = 0 (ln P(0)/P(1))"},
    "backend": {"auto": "Auto", "cpu": "CPU", "cuda": "CUDA"},
    "arithmetic": {"auto": "Auto (Int16 where it runs)", "int16": "Int16",
                   "float32": "Float32"},
    "input_type": {"float": "Float", "int8": "Int8"},
    "output_type": {"float": "Float", "int8": "Int8"},
    "codeword_tags": {"failed": "Failed Codewords", "all": "Every Codeword",
                      "none": "None"},
    "output": {"bits": "Hard Bits", "llr": "A-Posteriori LLRs",
               "extrinsic": "Extrinsic LLRs",
               "code-extrinsic": "Code-Bit Extrinsic LLRs"},
    "termination": {"streaming": "Streaming", "terminated": "Terminated",
                    "truncated": "Truncated", "tail-biting": "Tail-Biting"},
}
DTYPES = {"integer": "int", "real": "float", "flag": "bool", "choice": "enum",
          "text": "string"}
# A range as an assert lists its values up to this many (the LTE sizes: the template's).
MAX_LISTED_VALUES = 8


def grc_text(value):
    """A default as GRC's YAML holds it."""
    return str(value)


def parameter(argument):
    name = argument["name"]
    p = {"id": name, "label": LABELS.get(name, name.replace("_", " ").title()),
         "dtype": DTYPES[argument["kind"]]}
    if "default" in argument:
        p["default"] = grc_text(argument["default"])
    if argument["choices"]:
        labels = OPTION_LABELS.get(name, {})
        p["options"] = list(argument["choices"])
        p["option_labels"] = [labels.get(c, c) for c in argument["choices"]]
    return p


def range_assert(row):
    """The assert of an argument's range, as the table's range_text says it."""
    name, kind = row["name"], row["kind"]
    if kind not in ("integer", "real"):
        return None
    values = row.get("values") or []
    if values:
        if len(values) > MAX_LISTED_VALUES:  # the template's
            return None
        return f"${{ {name} in ({', '.join(str(v) for v in values)}) }}"
    low, high = row["min"], row["max"]
    number = (lambda v: str(int(v))) if kind == "integer" else (lambda v: repr(float(v)))
    lower = f"{number(low)} {'<' if row['min_exclusive'] else '<='} {name}"
    text = f"{lower} <= {number(high)}" if high is not None else lower
    if row.get("zero_means"):
        text = f"{name} == 0 or {text}"
    return f"${{ {text} }}"


def keyword(argument, p):
    name = argument["name"]
    return f"{name}='${{{name}}}'" if p["dtype"] == "enum" else f"{name}=${{{name}}}"


def generate(template, arguments):
    block = dict(template)
    del block["make_arguments_of"]
    unchecked = set(block.pop("no_range_assert", []))
    own = {q["id"]: q for q in template["parameters"]}
    generated = {a["name"]: parameter(a) for a in arguments}
    order = [q["id"] for q in template["parameters"]]
    order += [a["name"] for a in arguments if a["name"] not in own]
    params = []
    for pid in order:
        p = dict(generated.get(pid, {}))
        p.update(own.get(pid, {}))
        if pid not in own:
            p["hide"] = "part"
        params.append(p)
    block["parameters"] = params
    asserts = [range_assert(a) for a in arguments if a["name"] not in unchecked]
    block["asserts"] = [a for a in asserts if a] + list(template.get("asserts", []))
    final = {p["id"]: p for p in params}  # the template's dtype decides the quotes
    passed = ",\n    ".join(keyword(a, final[a["name"]]) for a in arguments)
    block["templates"] = {
        key: value.replace("@ARGUMENTS@", passed) if isinstance(value, str) else value
        for key, value in template["templates"].items()}
    lines = [f"{generated[a['name']]['label']} ({a['name']}): {a['help']}" +
             (f"; {a['range']}" if a["range"] else "") for a in arguments]
    block["documentation"] = (template["documentation"].rstrip() +
                              "\n\nParameters:\n" + "\n".join(lines))
    return block


class Dumper(yaml.SafeDumper):
    pass


def text_block(dumper, text):
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


Dumper.add_representer(str, text_block)


def main(template_path, output_path):
    from gnuradio import gputurbo
    with open(template_path) as f:
        template = yaml.safe_load(f)
    block = generate(template, getattr(gputurbo, template["make_arguments_of"]).make_arguments)
    with open(output_path, "w") as f:
        f.write(f"# Generated from {template_path.split('/')[-1]} by generate_blocks.py "
                "and the parameter table: edit those.\n")
        yaml.dump(block, f, Dumper=Dumper, sort_keys=False, width=1000,
                  allow_unicode=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
