#!/usr/bin/env python3
"""Check that CMakeLists.txt and wscript name exactly the same files.

Compares the library sources, headers, test sources and examples of the two
build descriptions, and checks that every file either of them names exists.
Usage: check-build-lists.py [MODULE_DIR]
"""

import ast
import os
import re
import sys


def cmake_lists(root):
    """Return {'source','header','test','example'} -> set of paths from CMake."""
    text = open(os.path.join(root, "CMakeLists.txt")).read()
    text = re.sub(r"#[^\n]*", "", text)
    m = re.search(r"build_lib\((.*?)\)\s*$", text, re.S | re.M)
    if not m:
        sys.exit("CMakeLists.txt: no build_lib(...) call found")
    keys = {"SOURCE_FILES": "source", "HEADER_FILES": "header", "TEST_SOURCES": "test"}
    out = {v: set() for v in keys.values()}
    current = None
    for tok in m.group(1).split():
        if re.fullmatch(r"[A-Z_]+", tok):
            current = keys.get(tok)
        elif current:
            out[current].add(tok)
    ex_text = re.sub(r"#[^\n]*", "", open(os.path.join(root, "examples", "CMakeLists.txt")).read())
    out["example"] = set()
    for call in re.finditer(r"build_lib_example\((.*?)\)", ex_text, re.S):
        files = re.search(r"SOURCE_FILES\s+(.*?)(?:\s+[A-Z_]{4,}\s|$)", call.group(1), re.S)
        for f in files.group(1).split():
            out["example"].add("examples/" + f)
    return out


def wscript_lists(root):
    """Return the same sets from wscript and examples/wscript, read as Python."""
    out = {"source": set(), "header": set(), "test": set(), "example": set()}

    def strings(node):
        return {elt.value for elt in node.elts if isinstance(elt, ast.Constant)}

    tree = ast.parse(open(os.path.join(root, "wscript")).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
            target = node.targets[0]
            owner = target.value.id if isinstance(target.value, ast.Name) else ""
            if target.attr == "source" and isinstance(node.value, ast.List):
                kind = {"module": "source", "module_test": "test", "headers": "header"}.get(owner)
                if kind:
                    out[kind] |= strings(node.value)
    ex_tree = ast.parse(open(os.path.join(root, "examples", "wscript")).read())
    for node in ast.walk(ex_tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
            if node.targets[0].attr == "source":
                vals = node.value.elts if isinstance(node.value, ast.List) else [node.value]
                for v in vals:
                    if isinstance(v, ast.Constant):
                        out["example"].add("examples/" + v.value)
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__) + "/..")
    cm, ws = cmake_lists(root), wscript_lists(root)
    errors = []
    for kind in ("source", "header", "test", "example"):
        for f in sorted(cm[kind] - ws[kind]):
            errors.append(f"{kind} {f}: in CMakeLists.txt but not in wscript")
        for f in sorted(ws[kind] - cm[kind]):
            errors.append(f"{kind} {f}: in wscript but not in CMakeLists.txt")
        for f in sorted(cm[kind] | ws[kind]):
            if not os.path.isfile(os.path.join(root, f)):
                errors.append(f"{kind} {f}: named by the build but does not exist")
    # Every C++ file under model/ and helper/ must be built, and every test file listed.
    for folder, kinds in (("model", ("source", "header")), ("helper", ("source", "header")),
                          ("test", ("test",)), ("examples", ("example",))):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        names = sorted(os.path.relpath(os.path.join(dp, n), d)
                       for dp, _, ns in os.walk(d) for n in ns)
        for name in names:
            path = f"{folder}/{name}"
            # test/fuzz/: libFuzzer harnesses that ./ns3-mrc fuzz builds with clang itself
            if (name.endswith((".cc", ".h")) and os.path.basename(name) != "mrc-gtest-main.cc"
                    and not path.startswith("test/fuzz/")):
                if not any(path in cm[k] for k in kinds):
                    errors.append(f"{path}: exists but no build description names it")
    counts = ", ".join(f"{len(cm[k])} {k}s" for k in ("source", "header", "test", "example"))
    if errors:
        print("\n".join(errors))
        print(f"build lists differ ({len(errors)} problems)")
        return 1
    print(f"CMakeLists.txt and wscript agree: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
