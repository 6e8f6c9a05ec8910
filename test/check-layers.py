#!/usr/bin/env python3
"""Check that the module's layers only include downwards.

The folders of model/ and helper/ are layers (see doc/mrc.rst, "Architecture"). A file
may include headers of its own layer and of the layers below it, never of a layer above:
in particular no NIC, link, switch or strategy code names a transport header. Usage:
check-layers.py [MODULE_DIR]; prints every include that points upwards and exits 1.
"""

import os
import re
import sys

# Lower rank = lower layer. Layers of equal rank may include each other.
RANKS = {
    "model/util": 0,
    "model/wire": 1,
    "model/link": 2,
    "model/switch": 3,
    "model/nic": 5,
    "model/cc": 4,
    "model/path": 4,
    "model/reliability": 4,
    "model/transport/common": 6,
    "model/transport/roce": 7,
    "model/transport/uec": 7,
    "model/transport/mrc": 7,
    "helper/fabric": 8,
    "helper/transports": 9,
    "helper/traffic": 9,
    "helper/results": 9,
    "helper/experiments": 10,
}
# Transports of equal rank must still not know each other.
SIBLINGS_APART = {"model/transport/roce", "model/transport/uec", "model/transport/mrc"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?(mrc-[a-z0-9-]+\.h)"', re.M)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__) + "/..")
    where = {}
    for top in ("model", "helper"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            folder = os.path.relpath(dirpath, root)
            for n in names:
                if n.endswith((".h", ".cc")):
                    if folder not in RANKS:
                        print(f"{folder}/{n}: folder {folder} is not a known layer (add it to {__file__})")
                        return 1
                    where[n] = folder
    errors = []
    for name, folder in sorted(where.items()):
        text = open(os.path.join(root, folder, name)).read()
        for m in INCLUDE.finditer(text):
            target = where.get(m.group(1))
            if target is None:
                continue
            line = text.count("\n", 0, m.start()) + 1
            up = RANKS[target] > RANKS[folder]
            sideways = target != folder and target in SIBLINGS_APART and folder in SIBLINGS_APART
            if up or sideways:
                errors.append(f"{folder}/{name}:{line}: includes {m.group(1)} of {target}, "
                              f"a layer {'above' if up else 'beside'} {folder}")
    if errors:
        print("\n".join(errors))
        print(f"layer check: {len(errors)} includes point upwards or sideways")
        return 1
    print(f"layer check: {len(where)} files include only their own and lower layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
