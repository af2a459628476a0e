#!/usr/bin/env bash
# Runs clang-tidy 22 (the checks in .clang-tidy) over the engine and the workspace (core/,
# workspace/: what test.sh checks), or with --all over the widgets and the app too, with the
# compile commands of the tsan tree: clang's own flags, one command per source (the other trees
# build unity files and precompiled headers, which would make clang-tidy read every library
# header in every file). Any finding fails, and only the findings are printed; the full log is
# kept in build/tsan/clang-tidy.log. Needs the tsan tree configured and its generated protobuf
# headers (./test.sh tidy makes both).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build="$root/build/tsan"
log="$build/clang-tidy.log"
[ -f "$build/compile_commands.json" ] || { echo "error: no $build/compile_commands.json; configure the tsan preset first" >&2; exit 1; }
dirs='core|workspace'
[ "${1:-}" = --all ] && dirs='core|workspace|widgets|app'
status=0
if command -v run-clang-tidy-22 >/dev/null 2>&1; then
    tidy=(run-clang-tidy-22 -clang-tidy-binary clang-tidy-22)
else
    tidy=(run-clang-tidy) # Debian 12's clang-tidy 14, where bookworm-security has no 22
fi
"${tidy[@]}" -quiet -p "$build" -j "$(nproc)" "$root/($dirs)/" >"$log" 2>&1 || status=$?
files=$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -cE '^(\[ *[0-9]+/[0-9]+\].* )?clang-tidy' || true)
findings=$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^/.*:[0-9]+:[0-9]+: (warning|error):' | sort -u || true)
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
    echo "clang-tidy: findings in $files files (full log: $log):" >&2
    if [ -n "$findings" ]; then echo "$findings" >&2; else tail -40 "$log" >&2; fi
    exit 1
fi
echo "clang-tidy: $files files, no findings"
