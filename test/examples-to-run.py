#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Examples that ns-3's test.py runs as smoke tests when the module sits in an
# ns-3 source tree (contrib/mrc): `./test.py --constrain=example` runs each
# listed example whose condition is true; test/in-tree-build.sh runs them after
# the "mrc" TestSuite when the list is not empty.
#
# Format (read by test.py with exec):
#   cpp_examples: list of tuples ("program [--arg=value ...]", run_condition,
#       valgrind_condition). The program is the NAME given to
#       build_lib_example() in examples/CMakeLists.txt; the arguments should
#       keep the run short (about a second). Both conditions are Python
#       expressions as strings, evaluated by test.py against its build
#       settings, e.g. "True", "False", "ENABLE_REAL_TIME == False".
#       Example: ("mrc-wire-gallery --packets=4", "True", "True").
#   python_examples: list of tuples ("script.py [args]", run_condition) for
#       scripts in examples/ (none: the module ships no Python examples).

cpp_examples = [
    ("mrc-fabric-incast --senders=2 --bytes=100000", "True", "False"),
    ("mrc-topology --planes=2", "True", "False"),
    ("mrc-topology --topology=fattree --k=4", "True", "False"),
    ("mrc-tutorial --writes=2 --bytes=8192", "True", "False"),
    ("mrc-bench-floor --pending=100 --events=20000", "True", "False"),
]

python_examples = []
