#!/usr/bin/env python3
#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Writes the pybind11 docstring header of a block from its public header.

    header_docstrings.py include/gnuradio/gputurbo/turbo_decoder.h turbo_decoder_pydoc.h

Each Doxygen comment (/*! ... */ or //! lines) becomes the docstring of the class or
method declared right after it: __doc_gr_gputurbo_<class> and
__doc_gr_gputurbo_<class>_<method>, the names that D(...) in the bindings refers to.
So the documentation is written once, in the header, and a method without a comment
fails to compile in the bindings.
"""

import re
import sys
import textwrap

COMMENT_AND_DECL = re.compile(
    r"(?:/\*!(?P<block>.*?)\*/|(?P<lines>(?:[ \t]*//![^\n]*\n)+))\s*(?P<decl>[^;{]*)",
    re.S)


def comment_text(match):
    """The comment without its delimiters and leading asterisks."""
    if match.group("block") is not None:
        lines = [re.sub(r"^\s*\*? ?", "", line) for line in match.group("block").split("\n")]
    else:
        lines = [re.sub(r"^\s*//! ?", "", line) for line in match.group("lines").splitlines()]
    return textwrap.dedent("\n".join(lines)).strip()


def to_docstring(text):
    """Doxygen commands to plain text: \\param lines become an Args section."""
    description, params = [], []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("\\ingroup"):
            continue
        param = re.match(r"\\param\s+(\w+)\s*(.*)", stripped)
        if param:
            params.append([param.group(1), param.group(2)])
        elif params and stripped:
            params[-1][1] += " " + stripped  # continuation of the last \param
        else:
            description.append(line)
    doc = re.sub(r"\\brief\s*", "", "\n".join(description)).strip()
    if params:
        doc += "\n\nArgs:\n" + "\n".join(
            textwrap.fill(f"{name}: {desc}", width=86, initial_indent="    ",
                          subsequent_indent="        ") for name, desc in params)
    return re.sub(r"\\p\s+(\w+)", r"\1", doc)


def docstrings(header):
    cls = None
    for match in COMMENT_AND_DECL.finditer(header):
        decl = " ".join(match.group("decl").split())
        doc = to_docstring(comment_text(match))
        class_decl = re.match(r"class\s+(?:\w+\s+)*?(\w+)\s*(?::|$)", decl)
        function = re.search(r"(\w+)\s*\(", decl)
        if class_decl:
            cls = class_decl.group(1)
            yield cls, doc
        elif function and cls:
            yield f"{cls}_{function.group(1)}", doc


def main(header_path, output_path):
    with open(header_path) as f:
        header = f.read()
    out = [
        "/* Generated from " + header_path.split("/include/")[-1] +
        " by header_docstrings.py: edit the header, not this file. */",
        "#include \"pydoc_macros.h\"",
        "#define D(...) DOC(gr, gputurbo, __VA_ARGS__)",
        "",
    ]
    for name, doc in docstrings(header):
        if ")doc\"" in doc:
            sys.exit(f"{header_path}: the docstring of {name} contains ')doc\"'")
        out.append(f"static const char* __doc_gr_gputurbo_{name} = R\"doc({doc})doc\";")
        out.append("")
    with open(output_path, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
