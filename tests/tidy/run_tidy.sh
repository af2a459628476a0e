#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy) with the release build's compile commands over
# the engine and the workspace (core/, workspace/: what test.sh checks, ~7 min on 2 cores), or
# with --all over every source file of ours, the widgets and the app too (~25 min: each of
# their files parses Qt Widgets). Any finding fails, and only the findings are printed; the
# full log is kept in build/release/clang-tidy.log.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build="$root/build/release"
log="$build/clang-tidy.log"
[ -f "$build/compile_commands.json" ] || { echo "error: no $build/compile_commands.json; build the release preset first" >&2; exit 1; }
dirs='core|workspace'
[ "${1:-}" = --all ] && dirs='core|workspace|widgets|app'
# GCC's warning flags that clang does not know are not findings.
status=0
run-clang-tidy -quiet -p "$build" -j "$(nproc)" -extra-arg=-Wno-unknown-warning-option \
    "$root/($dirs)/" >"$log" 2>&1 || status=$?
files=$(grep -c '^clang-tidy' "$log" || true)
findings=$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^/.*:[0-9]+:[0-9]+: (warning|error):' | sort -u || true)
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
    echo "clang-tidy: findings in $files files (full log: $log):" >&2
    if [ -n "$findings" ]; then echo "$findings" >&2; else tail -40 "$log" >&2; fi
    exit 1
fi
echo "clang-tidy: $files files, no findings"
