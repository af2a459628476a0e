#!/usr/bin/env bash
# Interleaved timing of `bufferscope report FILE --json` at --threads 1 and the default, with
# `wc -l FILE` as the yardstick: the figures tests/bench/README.md ("Threads") quotes.
#
#   tests/bench/threads_compare.sh FILE [ROUNDS] [BINARY]
#
# Each round runs wc -l, the serial report and the default report one after the other, so a
# noisy minute on the machine hits all three. Prints every run, then the medians, the speed-up
# of the default over --threads 1 (ratio of the medians) and the default's multiple of wc -l.
# The JSON of both is compared byte for byte.
set -euo pipefail

file=${1:?usage: threads_compare.sh FILE [ROUNDS] [BINARY]}
rounds=${2:-5}
here=$(cd "$(dirname "$0")/../.." && pwd)
binary=${3:-$here/build/release/app/bufferscope}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

seconds() { # STDOUT command...: wall seconds, with the peak RSS in KiB after a space
    local to=$1
    shift
    /usr/bin/time -f "%e %M" -o "$out/time" "$@" >"$to"
    cat "$out/time"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

: >"$out/wc"
: >"$out/t1"
: >"$out/tn"
for ((i = 1; i <= rounds; ++i)); do
    seconds /dev/null wc -l "$file" >>"$out/wc"
    seconds "$out/t1.json" "$binary" report "$file" --json --threads 1 >>"$out/t1"
    seconds "$out/tn.json" "$binary" report "$file" --json >>"$out/tn"
    printf 'round %d: wc -l %s s, --threads 1 %s s, default %s s\n' "$i" \
        "$(tail -1 "$out/wc" | cut -d' ' -f1)" "$(tail -1 "$out/t1" | cut -d' ' -f1)" \
        "$(tail -1 "$out/tn" | cut -d' ' -f1)"
done
cmp -s "$out/t1.json" "$out/tn.json" || { echo "the JSON differs between --threads 1 and the default" >&2; exit 1; }

wc_median=$(cut -d' ' -f1 "$out/wc" | median)
t1_median=$(cut -d' ' -f1 "$out/t1" | median)
tn_median=$(cut -d' ' -f1 "$out/tn" | median)
t1_rss=$(cut -d' ' -f2 "$out/t1" | sort -n | tail -1)
tn_rss=$(cut -d' ' -f2 "$out/tn" | sort -n | tail -1)
size=$(stat -c %s "$file")
echo "cores: $(nproc); file: $file ($((size / 1000000)) MB); $rounds rounds"
awk -v w="$wc_median" -v a="$t1_median" -v b="$tn_median" -v ra="$t1_rss" -v rb="$tn_rss" \
    -v s="$size" 'BEGIN {
    printf "median: wc -l %.2f s, --threads 1 %.2f s, default %.2f s\n", w, a, b
    printf "speed-up of the default: %.2fx; default = %.1fx wc -l\n", a / b, b / w
    printf "peak RSS: --threads 1 %d MiB (%.2fx the file), default %d MiB (%.2fx the file)\n",
        ra / 1024, ra * 1024 / s, rb / 1024, rb * 1024 / s
}'
echo "the JSON is the same at --threads 1 and the default"
