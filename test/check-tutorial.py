#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run every shell command of the tutorial (doc/mrc-tutorial.rst) so it cannot go stale.

  check-tutorial.py SOURCE_DIR BUILD_DIR

The tutorial marks each ``.. code-block:: sh`` with a comment just before it:

  .. checked               run the block's commands; each must exit 0
  .. checked: exit=N       the block's last command must exit N (the others 0)

and may show what a block prints with a text block marked

  .. output-of-previous    every non-blank line of the next ``.. code-block:: text``
                           must appear in the output of the last sh block

and quote a source file with a block marked

  .. excerpt-of: PATH      every non-blank line of the next block must be a line of PATH
                           (relative to SOURCE_DIR; leading blanks ignored)

A sh block without a mark fails the check. Commands run one by one with bash in a scratch
folder that holds build/ (BUILD_DIR), data/ and scripts/ (links into the source) and a
copy of examples/, in the order of the text, so later blocks see the files earlier ones wrote;
"python3" is the interpreter running this script (Debian's, with matplotlib). The file must
also parse with docutils without warnings. Exit 0 when everything passes.
"""

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIME_LIMIT = 300  # seconds per command


def blocks(text):
    """Yield (line number, language, mark, body lines) of every code block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^\.\. code-block:: *(\S+)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        mark = lines[j].strip() if j >= 0 and lines[j].startswith(".. ") else ""
        i += 1
        while i < len(lines) and lines[i].strip() == "":
            i += 1
        body = []
        while i < len(lines) and (lines[i].startswith("   ") or lines[i].strip() == ""):
            body.append(lines[i][3:])
            i += 1
        while body and body[-1].strip() == "":
            body.pop()
        yield start + 1, m.group(1), mark, body


def commands(body):
    """The commands of a block: continuation lines joined, comments skipped."""
    out, cur = [], ""
    for line in body:
        if not cur and (line.strip() == "" or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        out.append(cur + line)
        cur = ""
    if cur:
        out.append(cur)
    return out


def check_docutils(path, text):
    import docutils.core

    err = io.StringIO()
    docutils.core.publish_doctree(
        text,
        source_path=path,
        settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": err},
    )
    return [l for l in err.getvalue().splitlines() if re.match(r"^\S+:\d+: \((WARNING|ERROR|SEVERE)", l)]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    path = os.path.join(src, "doc", "mrc-tutorial.rst")
    text = open(path, encoding="utf-8").read()
    problems = [f"docutils: {p}" for p in check_docutils(path, text)]
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["MPLBACKEND"] = "Agg"
    ran = 0
    with tempfile.TemporaryDirectory(prefix="mrc-tutorial-") as scratch:
        os.symlink(build, os.path.join(scratch, "build"))
        for d in ("data", "scripts"):
            os.symlink(os.path.join(src, d), os.path.join(scratch, d))
        shutil.copytree(os.path.join(src, "examples"), os.path.join(scratch, "examples"))
        last_output = None
        for line, lang, mark, body in blocks(text):
            where = f"{path}:{line}"
            if lang in ("sh", "bash", "console", "shell"):
                m = re.match(r"^\.\. checked(?:: exit=(\d+))?$", mark)
                if not m:
                    problems.append(f"{where}: a {lang} block without '.. checked' before it")
                    continue
                want_last = int(m.group(1) or 0)
                cmds = commands(body)
                last_output = ""
                for k, cmd in enumerate(cmds):
                    want = want_last if k == len(cmds) - 1 else 0
                    try:
                        r = subprocess.run(["bash", "-c", cmd], cwd=scratch, env=env,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           timeout=TIME_LIMIT)
                    except subprocess.TimeoutExpired:
                        problems.append(f"{where}: '{cmd}' gave no answer within {TIME_LIMIT} s")
                        continue
                    ran += 1
                    out = r.stdout.decode("utf-8", "replace")
                    last_output += out
                    if r.returncode != want:
                        problems.append(f"{where}: '{cmd}' exited {r.returncode}, not {want}:\n"
                                        + out[-1500:])
            elif mark.startswith(".. excerpt-of: "):
                quoted = os.path.join(src, mark[len(".. excerpt-of: "):].strip())
                if not os.path.isfile(quoted):
                    problems.append(f"{where}: {quoted} does not exist")
                    continue
                have = {l.strip() for l in open(quoted, encoding="utf-8")}
                for want in body:
                    if want.strip() and want.strip() not in have:
                        problems.append(f"{where}: '{want.strip()}' is not a line of {quoted}")
            elif mark == ".. output-of-previous":
                if last_output is None:
                    problems.append(f"{where}: output shown before any checked command")
                    continue
                for want in body:
                    if want.strip() and want.strip() not in last_output:
                        problems.append(f"{where}: the output shown has '{want.strip()}', the "
                                        f"command printed:\n{last_output[-1500:]}")
    for p in problems:
        print(p)
    print(f"tutorial: {ran} commands run, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
