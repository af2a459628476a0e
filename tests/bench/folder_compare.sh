#!/usr/bin/env bash
# Interleaved timing of a dump folder read four ways: `bufferscope list DIR --json` at the
# default threads and at --threads 1, the Python loop over every line (python_lines.py, the
# floor of any script), and the window (bench_gui DIR: from Open Folder until every module is
# listed in the Modules dock). The figures tests/bench/README.md ("A folder of modules")
# quotes.
#
#   tests/bench/folder_compare.sh DIR [ROUNDS] [BINARY] [BENCH_GUI]
#
# Each round runs all four one after the other, so a noisy minute on the machine hits all of
# them; the wall times include starting the process. Prints every round, then the medians and
# the ratios the issue asks for (default vs --threads 1, list vs Python, window vs list).
set -euo pipefail

dir=${1:?usage: folder_compare.sh DIR [ROUNDS] [BINARY] [BENCH_GUI]}
rounds=${2:-7}
here=$(cd "$(dirname "$0")/../.." && pwd)
binary=${3:-$here/build/release/app/bufferscope}
bench=${4:-$here/build/release/tests/bench/bench_gui}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

milliseconds() { # command...: its wall time in ms, its output discarded
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for ((i = 1; i <= rounds; ++i)); do
    d=$(milliseconds "$binary" list "$dir" --json)
    s=$(milliseconds "$binary" list "$dir" --json --threads 1)
    p=$(milliseconds python3 "$here/tests/bench/python_lines.py" "$dir")
    w=$(QT_QPA_PLATFORM=offscreen "$bench" "$dir" 2>/dev/null | awk '/all listed/ {print $3}')
    [[ -n $w ]] || { echo "bench_gui did not list $dir" >&2; exit 1; }
    echo "$d" >>"$out/default"
    echo "$s" >>"$out/serial"
    echo "$p" >>"$out/python"
    echo "$w" >>"$out/window"
    printf 'round %d: list %d ms, list --threads 1 %d ms, Python lines %d ms, window %d ms\n' \
        "$i" "$d" "$s" "$p" "$w"
done

d=$(median <"$out/default")
s=$(median <"$out/serial")
p=$(median <"$out/python")
w=$(median <"$out/window")
echo "cores: $(nproc); $dir: $(find "$dir" -name '*buffer-assignment*.txt' | wc -l) dumps; $rounds rounds"
awk -v d="$d" -v s="$s" -v p="$p" -v w="$w" 'BEGIN {
    printf "median: list %d ms, --threads 1 %d ms, Python lines %d ms, window all listed %d ms\n",
        d, s, p, w
    printf "default %.2fx faster than --threads 1; list in %.2fx the Python time; " \
        "the window in %.2fx the list time\n",
        s / d, d / p, w / d
}'
