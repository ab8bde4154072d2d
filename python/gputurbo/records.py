# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one record format of every tool's --json (docs/usage.md, "Records"), for the
examples and scripts written in Python; the apps write it from apps/record.cc and
apps/check_json.py checks it.

    from gnuradio.gputurbo import records
    records.write(path, records.record("examples/foo.py", decoder.device(),
                                       {"K": 6144}, [{"ebn0_db": 1.0, "ber": 1e-4}]))
"""

import json
import os
import platform
import shlex
import subprocess
import sys
import time

FORMAT = 1


def commit():
    """$GPUTURBO_COMMIT, else the commit of the running program's checkout (with -dirty
    where tracked files differ from it), else "unknown"."""
    if os.environ.get("GPUTURBO_COMMIT"):
        return os.environ["GPUTURBO_COMMIT"]
    here = os.path.dirname(os.path.abspath(sys.argv[0] or "."))

    def git(*words):
        return subprocess.run(["git", "-C", here, *words], capture_output=True, text=True,
                              check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no")
                       else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def host_cpu():
    """The host CPU's model name, family and model, and its logical cores ("AMD EPYC
    (family 25, model 17), 2 cores"), as the apps write it: model names such as "AMD
    EPYC" leave the generation to the family and model numbers."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor's fields
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    name = fields.get("model name") or platform.processor() or "unknown CPU"
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return f"{name}, {os.cpu_count()} cores"


def command_line():
    """This program's command line: the program as the path it was started by, relative
    to the working directory where it lies below it, and its arguments, quoted."""
    program = os.path.relpath(sys.argv[0]) if sys.argv[0] else "python3"
    if program.startswith(".."):
        program = os.path.basename(program)
    return shlex.join([program] + sys.argv[1:])


def record(tool, device, parameters, rows, note=None, **envelope):
    """A record: {"record": 1, tool, command, commit, version, date, device, cpu,
    parameters (the settings every row shares), rows (each one's own settings and what it
    measured)} and the note where given. envelope overrides a field (command, commit,
    version, date, cpu), for a record made of other runs."""
    try:
        from gnuradio.gputurbo import __version__ as version
    except ImportError:  # a script that drives the apps alone
        version = None
    r = {"record": FORMAT, "tool": tool, "command": command_line(), "commit": commit(),
         "version": version, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
         "device": device, "cpu": host_cpu(), "parameters": dict(parameters),
         "rows": list(rows)}
    unknown = set(envelope) - set(r)
    if unknown:
        raise ValueError(f"record: {sorted(unknown)} is no field of a record")
    r.update(envelope)
    if note:
        r["note"] = note
    return r


def write(path, r):
    """Writes the record r to path, indented."""
    with open(path, "w") as f:
        json.dump(r, f, indent=2)
        f.write("\n")
