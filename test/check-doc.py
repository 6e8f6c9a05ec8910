#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parse every doc/*.rst (the model chapter mrc.rst and the others) with docutils and fail on any error or warning (title levels,
malformed tables, broken lists, leftover merge markers). Sphinx-only directives and
roles (highlight, ns-3's substitutions) are ignored, since plain docutils lacks them."""
import glob
import io
import re
import sys

import docutils.core
import docutils.utils

root = sys.argv[1] if len(sys.argv) > 1 else "."
problems = []


def check(path):
    src = open(path, encoding="utf-8").read()
    for n, line in enumerate(src.split("\n"), 1):
        if re.match(r"^(<{7,}|>{7,}) ", line):
            problems.append(f"{path}:{n}: merge conflict marker")
        # A merge's "=======" separator: seven '=' alone, not the underline of a title of at most
        # seven characters (a title's underline is at least as long as the title).
        if line == "=======":
            lines = src.split("\n")
            prev = lines[n - 2] if n >= 2 else ""
            overline = n >= 3 and lines[n - 3] == line
            if not overline and (prev.strip() == "" or len(prev) > 7):
                nxt = lines[n] if n < len(lines) else ""
                underline_next = n + 1 < len(lines) and lines[n + 1] == line and nxt.strip() != ""
                if not underline_next:
                    problems.append(f"{path}:{n}: merge conflict marker (=======)")
    src = src.replace(".. include:: replace.txt", "").replace(".. highlight:: cpp", "")
    src = re.sub(r"\|(ns3|ns-3)\|", "ns-3", src)
    err = io.StringIO()
    docutils.core.publish_doctree(
        src,
        source_path=path,
        settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": err},
    )
    for line in err.getvalue().splitlines():
        if re.match(r"^\S+:\d+: \((WARNING|ERROR|SEVERE)", line):
            problems.append(line)


for path in sorted(glob.glob(root + "/doc/*.rst")):
    check(path)
for p in problems:
    print(p)
print(f"check-doc: {len(problems)} problem(s) in {root}/doc/*.rst")
sys.exit(1 if problems else 0)
