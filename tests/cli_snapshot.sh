#!/usr/bin/env bash
# Writes what every headless command prints for the dumps, logs and folders we have,
# one file per run (stdout, stderr and exit status), to OUTDIR. Run it with the binary
# before a refactor and after it, then `diff -r`: the command line's output must not move.
#   tests/cli_snapshot.sh BINARY OUTDIR [BIG_DUMP]
set -u
bin=$1
out=$2
big=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
real=$here/../../shared/real
mkdir -p "$out"
n=0
run() {
    n=$((n + 1))
    local f
    f=$(printf '%s/%04d' "$out" "$n")
    {
        echo "# $*" | sed "s#$here/##g; s#$real/#real/#g; s#$out/#OUT/#g"
        "$bin" "$@" 2>"$f.err"
        echo "# exit $?"
    } >"$f.out"
    sed -i "s#$here/##g; s#$real/#real/#g; s#$out/#OUT/#g" "$f.out" "$f.err"
}
dumps=("$data"/*.txt "$data"/bad/*.txt "$data"/hostile/*.txt "$data"/fuzz/*.txt)
[ -d "$real" ] && dumps+=("$real"/*buffer-assignment.txt "$real"/*memory-usage-report.txt)
[ -n "$big" ] && dumps+=("$big")
for d in "${dumps[@]}"; do
    run report "$d"
    run report "$d" --json
    run report "$d" --group-by source --top 5
    run report "$d" --value 1 --json
done
run report "$data/tpu_unstack.buffer-assignment.txt" --step 3 --fail-above 1KiB
run list "$data"
run list "$data" --json
run fit "$data" --limit 16GiB
run fit "$data" --limit H100 --json
run diff "$data/tpu_unstack.buffer-assignment.txt" "$data/tpu_dynamic_slice.buffer-assignment.txt"
run diff "$data/gpu_decoder_layer.buffer-assignment.txt" "$data/gpu_vllm_update_slice.buffer-assignment.txt" --json
for log in "$data"/oom/*.log; do
    run oom "$log"
    run oom "$log" "$data" --json
done
for v in usage gantt memory-map breakdown; do
    run export "$data/gpu_decoder_layer.buffer-assignment.txt" --view $v --out "$out/export-$v.csv"
done
run export "$data/gpu_decoder_layer.buffer-assignment.txt" --view compare \
    --compare "$data/gpu_vllm_update_slice.buffer-assignment.txt" --out "$out/export-compare.csv"
# What a mistyped command line is told.
u=$data/tpu_unstack.buffer-assignment.txt
run report
run report "$u" --top
run report "$u" --top x
run report "$u" --step -1
run report "$u" --group-by stack
run report "$u" --fail-above lots
run report "$u" --bogus
run report "$u" "$u"
run report "$u" --value ""
run diff "$u"
run diff "$u" "$u" --fail-on nothing
run diff "$u" "$u" --fail-above-delta
run list
run list "$data" "$data"
run list "$u"
run oom
run fit "$data"
run fit "$data" --limit
run fit "$data" --limit huge
run fit "$data" --limit 16GiB --resident nonsense
run export "$u" --view usage
run export "$u" --view usage --out x.png --width 0
run export "$u" --view usage --out x.png --height 100000
run export "$u" --view usage --out x.png --scale 99
run export "$u" --view usage --out x.png --order sideways
run export "$u" --view usage --out x.bmp
run --threads 0 report "$u"
run report "$u" --threads
run nosuchcommand
if [ -d "$real" ]; then
    run list "$real"
    run list "$real" --json
    run fit "$real" --limit 80GiB --json
    run fit "$real" --limit 24GiB
    b=("$real"/pairs/renamed/before/*buffer-assignment.txt)
    a=("$real"/pairs/renamed/after/*buffer-assignment.txt)
    run diff "${b[0]}" "${a[0]}"
    run diff "${b[0]}" "${a[0]}" --json --top 40
    run report "${a[0]}"
    run report "${a[0]%-buffer-assignment.txt}-memory-usage-report.txt" --json
    for log in "$real"/oom/*.log; do
        run oom "$log"
        run oom "$log" "$real" --json
    done
fi
# Binary modules, XProf's sidecars, captures and profile folders (core/open, HloProtoDumps).
bin=$data/binary
for p in "$bin"/protos/*.hlo.pb "$bin"/handmade/*.hlo.pb "$bin"/hostile/*.hlo.pb; do
    run report "$p"
    run report "$p" --json
done
cap=("$bin"/profile/plugins/profile/*/*.xplane.pb)
run list "${cap[0]}"
run list "$bin/profile" --json
run summary "$bin/profile"
run report "${cap[0]}#jit_unstack(7)" --json
run report "${cap[0]}"
run diff "${cap[0]}" "${cap[0]}"
if [ -d "$real" ]; then
    run report "$real/training/jit_loss_fn(17).hlo_proto.pb" --json
    run list "$real/training"
fi
[ -n "$big" ] && run export "$big" --view usage --out "$out/export-big.csv"
[ -n "$big" ] && run diff "$big" "$data/gpu_decoder_layer.buffer-assignment.txt" --json
echo "$n runs in $out"
