# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks a record: check_json.py FILE [EXPRESSION...]

Every tool writes one record format (docs/usage.md, "Records"):

    {"record": 1, "tool": ..., "command": ..., "commit": ..., "version": ..., "date": ...,
     "device": ..., "cpu": ..., "parameters": {...}, "rows": [{...}, ...]}

parameters hold the settings shared by every row; a row holds what was measured and the
settings of its own, and reads over the parameters. The file must be such a record, each
row's llr_statistics (of soft output, from gputurbo-ber and gputurbo-bench) complete and
consistent, and each expression, Python over `r` (the record) and `row` (its first row
over its parameters), must be true:

    check_json.py ber.json 'r["parameters"]["code"] == "conv"' 'row["ber"] < 1e-3'
"""

import json
import sys

FORMAT = 1
# Field: the types its value may have.
ENVELOPE = {
    "record": (int,),
    "tool": (str,),
    "command": (str,),
    "commit": (str,),
    "version": (str, type(None)),
    "date": (str, type(None)),
    "device": (str, type(None)),
    "cpu": (str, type(None)),
    "parameters": (dict,),
    "rows": (list,),
}
OPTIONAL = {"note": (str,)}
NUMBER = (int, float)
COUNT = (int,)
# A row's llr_statistics (docs/usage.md, "Records"): field: the types its value may have.
LLR_STATISTICS = {
    "count": COUNT,
    "mean_abs_llr": NUMBER,
    "channel_mean_abs_llr": NUMBER,
    "wrong_signs": COUNT,
    "zeros": COUNT,
    "nan_values": COUNT,
    "sign_error_rate": NUMBER,
    "predicted_ber": NUMBER,
    "predicted_over_measured": NUMBER + (type(None),),
    "histogram": (dict,),
}
HISTOGRAM = {"low": NUMBER, "high": NUMBER, "bin_width": NUMBER, "counts": (list,)}


def envelope_errors(r):
    """What makes r no record of this format (nothing when it is one)."""
    if not isinstance(r, dict):
        return ["not a JSON object"]
    errors = []
    for key, types in ENVELOPE.items():
        if key not in r:
            errors.append(f"no '{key}'")
        elif not isinstance(r[key], types):
            errors.append(f"'{key}' is a {type(r[key]).__name__}")
    for key in r:
        if key not in ENVELOPE and key not in OPTIONAL:
            errors.append(f"'{key}' is no field of a record")
    if r.get("record") != FORMAT:
        errors.append(f"record format {r.get('record')!r}, not {FORMAT}")
    if not all(isinstance(row, dict) for row in r.get("rows", [])):
        errors.append("a row is no JSON object")
    return errors


def field_errors(name, d, fields):
    """Fields of fields missing from the object d, or of another type."""
    return [f"{name}: no '{key}'" if key not in d else
            f"{name}: '{key}' is a {type(d[key]).__name__}"
            for key, types in fields.items()
            if key not in d or isinstance(d[key], bool) or not isinstance(d[key], types)]


def llr_statistics_errors(s, name="llr_statistics"):
    """What makes s no complete, consistent llr_statistics: each field there, the
    histogram's bins spanning low ... high, its counts summing to count, and those below
    0 (the wrong signs: values seen from the bit sent) to wrong_signs."""
    errors = field_errors(name, s, LLR_STATISTICS)
    if errors:
        return errors
    h = s["histogram"]
    errors = field_errors(f"{name}.histogram", h, HISTOGRAM)
    if errors:
        return errors
    counts = h["counts"]
    bins = (h["high"] - h["low"]) / h["bin_width"]
    if len(counts) != round(bins):
        errors.append(f"{name}.histogram: {len(counts)} bins for {h['low']} ... "
                      f"{h['high']} in steps of {h['bin_width']}")
    elif not all(isinstance(c, int) and c >= 0 for c in counts):
        errors.append(f"{name}.histogram: a count is no non-negative integer")
    elif sum(counts) != s["count"]:
        errors.append(f"{name}.histogram: its counts sum to {sum(counts)}, not count "
                      f"{s['count']}")
    elif h["low"] == -h["high"] and len(counts) % 2 == 0 and \
            sum(counts[:len(counts) // 2]) != s["wrong_signs"]:
        errors.append(f"{name}.histogram: {sum(counts[:len(counts) // 2])} values below "
                      f"0, not wrong_signs {s['wrong_signs']}")
    if s["wrong_signs"] + s["zeros"] > s["count"]:
        errors.append(f"{name}: more wrong signs and zeros than values")
    return errors


def rows_errors(r):
    """What is wrong with the rows' llr_statistics (nothing where none has them)."""
    return [e for i, row in enumerate(r["rows"]) if "llr_statistics" in row
            for e in llr_statistics_errors(row["llr_statistics"],
                                           f"rows[{i}].llr_statistics")]


def rows(r):
    """Each row over the record's parameters."""
    return [{**r["parameters"], **row} for row in r["rows"]]


def main():
    path, expressions = sys.argv[1], sys.argv[2:]
    with open(path) as f:
        r = json.load(f)
    errors = envelope_errors(r)
    if not errors:
        errors = rows_errors(r)
    if not errors:
        first = rows(r)[0] if r["rows"] else {}
        errors = [f"not true: {e}" for e in expressions
                  if not eval(e, {}, {"r": r, "row": first})]
    for e in errors:
        print(f"{path}: {e}", file=sys.stderr)
    if errors:
        print(json.dumps(r, indent=2), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
