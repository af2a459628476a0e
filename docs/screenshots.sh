#!/usr/bin/env bash
# Regenerates the README's pictures from the app itself: the main window grabbed with
# --screenshot, and charts rendered by 'bufferscope export'. Run after ./run.sh or ./test.sh
# has built the app. Uses the offscreen platform, so no display is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BUFFERSCOPE:-build/release/app/bufferscope}
out=docs/images
data=tests/data
mkdir -p "$out"
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# A fresh settings folder: the pictures show the defaults, not this machine's choices.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
"$bin" --screenshot "$out/main-window.png" --select 528 "$data/gpu_vllm_update_slice.buffer-assignment.txt"
"$bin" export "$data/gpu_vllm_update_slice.buffer-assignment.txt" --view usage --select 528 \
    --width 900 --height 340 --scale 1 --out "$out/usage.png"
"$bin" export "$data/gpu_decoder_layer.buffer-assignment.txt" --view gantt --select fusion.40 \
    --width 900 --height 420 --scale 1 --out "$out/gantt.png"
"$bin" export "$data/gpu_vllm_update_slice.buffer-assignment.txt" --view memory-map --select 528 \
    --width 900 --height 420 --scale 1 --out "$out/memory-map.png"
"$bin" export "$data/gpu_decoder_layer.buffer-assignment.txt" --view breakdown \
    --width 900 --height 320 --scale 1 --out "$out/breakdown.png"
# Call stacks (a 2026-style dump from the generator, with its <stem>.txt): What Fills Memory
# grouped top-down beside its flame graph, the selected value's stack in the inspector.
gen=${BUFFERSCOPE_GEN_DUMP:-build/release/tests/bench/gen_dump}
stacks=$(mktemp -d)
"$gen" --values 4000 --seed 7 --stacks \
    --out "$stacks/module_0001.jit_train_step-buffer-assignment.txt" >/dev/null
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
    "$bin" --screenshot "$out/call-stacks.png" --select copy.230 --group-by stack \
    "$stacks/module_0001.jit_train_step-buffer-assignment.txt"
rm -rf "$stacks"
# What Fills Memory and the comparison view, grabbed by the GUI benchmark's --shots.
bench=${BUFFERSCOPE_BENCH_GUI:-build/release/tests/bench/bench_gui}
shots=$(mktemp -d)
"$bench" "$data/gpu_decoder_layer.buffer-assignment.txt" --shots "$shots" >/dev/null
cp "$shots/what-fills-memory.png" "$out/what-fills-memory.png"
"$bench" "$data/tpu_dynamic_slice.buffer-assignment.txt" --shots "$shots" \
    --compare "$data/tpu_random_normal.buffer-assignment.txt" >/dev/null
cp "$shots/compare.png" "$out/compare.png"
rm -rf "$shots"
echo "wrote $(ls "$out" | wc -l) pictures to $out"
