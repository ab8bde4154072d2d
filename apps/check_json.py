# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks a record: check_json.py FILE [EXPRESSION...]

Every tool writes one record format (docs/usage.md, "Records"):

    {"record": 1, "tool": ..., "command": ..., "commit": ..., "version": ..., "date": ...,
     "device": ..., "cpu": ..., "parameters": {...}, "rows": [{...}, ...]}

parameters hold the settings shared by every row; a row holds what was measured and the
settings of its own, and reads over the parameters. The file must be such a record, and
each expression, Python over `r` (the record) and `row` (its first row over its
parameters), must be true:

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


def rows(r):
    """Each row over the record's parameters."""
    return [{**r["parameters"], **row} for row in r["rows"]]


def main():
    path, expressions = sys.argv[1], sys.argv[2:]
    with open(path) as f:
        r = json.load(f)
    errors = envelope_errors(r)
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
