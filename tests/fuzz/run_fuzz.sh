#!/usr/bin/env bash
# Runs the parser fuzzer (build/asan/tests/fuzz/fuzz_parser: the asan preset builds it beside the
# tests) for SECONDS (default 80), seeded with the sample dumps, the bad-input corpus, the
# attack seeds and the kept reproducers. Exits non-zero on any finding and says where its
# reproducer is.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-80}
fuzzer="$root/build/asan/tests/fuzz/fuzz_parser"
work="$root/build/asan/fuzz-run"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/findings"
cp "$root"/tests/data/*.txt "$root"/tests/data/bad/*.txt "$work/corpus/"
find "$root/tests/data/fuzz" -type f ! -name README.md -exec cp {} "$work/corpus/" \;
# Seeds for the other inputs the fuzzer feeds the bytes to (the optimized HLO's stack tables).
cp "$root"/tests/fuzz/seeds/* "$work/corpus/"
# Out-of-memory logs (parse/OomMessage): the same bytes are read as one.
cp "$root"/tests/data/oom/*.log "$work/corpus/"
# And as users save them: UTF-16 with its mark (iconv, of Debian's libc-bin).
iconv -f UTF-8 -t UTF-16 "$root/tests/data/oom/gpu-bfc-decoder.log" >"$work/corpus/utf16.log"
# Binary modules (parse/HloProtoDump): the samples' protos, mutated as protobuf bytes.
cp "$root"/tests/data/binary/protos/*.hlo.pb "$root"/tests/data/binary/hostile/*.hlo.pb "$work/corpus/"
find "$root/tests/data/binary/profile" -name '*.xplane.pb' -exec cp {} "$work/corpus/" \;
# Captures with allocators' events (parse/XPlaneMemory): the memory tests' cases, written.
for c in threads tie tpu runs linked bysize hostile; do
    python3 "$root/tests/bench/make_memory_capture.py" "$work/corpus/memory-$c.xplane.pb" \
        --case "$c" >/dev/null
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
# -malloc_limit_mb: inputs are at most 64 KiB, so any allocation of 512 MiB is sized by a number
# read from the file, not by the file: a finding. -timeout: an input may take 10 s, no more.
"$fuzzer" -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=512 -rss_limit_mb=2048 \
    -max_len=65536 -dict="$root/tests/fuzz/dump.dict" -artifact_prefix="$work/findings/" \
    -print_final_stats=1 "$work/corpus" >"$work/fuzz.log" 2>&1 || status=$?
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)" "$work/fuzz.log" || true
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$work/findings")" ]; then
    tail -n 60 "$work/fuzz.log" >&2
    echo "error: the fuzzer found a problem (exit $status); reproducers in $work/findings:" >&2
    ls -l "$work/findings" >&2
    echo "Fix it, then copy the minimised reproducer into tests/data/fuzz/ (fuzz_parser -minimize_crash=1 FILE)." >&2
    exit 1
fi
echo "fuzz_parser: ${seconds} s, no findings"
