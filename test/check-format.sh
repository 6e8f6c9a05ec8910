#!/bin/sh
# Fail if any C++ file of the module is not formatted with the module's
# .clang-format (ns-3.37's style). Usage: check-format.sh [MODULE_DIR]
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
command -v clang-format >/dev/null || { echo "clang-format is not installed"; exit 1; }
files=$(find model helper examples test validation -name '*.h' -o -name '*.cc' 2>/dev/null | sort)
[ -n "$files" ] || { echo "no C++ files found under $root"; exit 1; }
# shellcheck disable=SC2086
if clang-format --style=file --dry-run --Werror $files; then
    echo "clang-format: $(echo "$files" | wc -l) files formatted"
else
    echo "clang-format: the files above need 'clang-format -i' (style: .clang-format)"
    exit 1
fi
