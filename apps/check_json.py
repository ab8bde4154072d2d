# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks an app's JSON record: check_json.py FILE EXPRESSION...

Each expression is Python over `r`, the parsed record, and must be true:
    check_json.py ber.json 'r["config"]["code"] == "conv"' 'r["points"][0]["ber"] < 1e-3'
"""

import json
import sys


def main():
    path, expressions = sys.argv[1], sys.argv[2:]
    with open(path) as f:
        r = json.load(f)
    failed = [e for e in expressions if not eval(e, {}, {"r": r})]
    for e in failed:
        print(f"{path}: not true: {e}", file=sys.stderr)
    if failed:
        print(json.dumps(r, indent=2), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
