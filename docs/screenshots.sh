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
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
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
# What Fills Memory, grabbed by the GUI benchmark's --shots.
bench=${BUFFERSCOPE_BENCH_GUI:-build/release/tests/bench/bench_gui}
shots=$(mktemp -d)
"$bench" "$data/gpu_decoder_layer.buffer-assignment.txt" --shots "$shots" >/dev/null
cp "$shots/what-fills-memory.png" "$out/what-fills-memory.png"
rm -rf "$shots"
# The comparison window on a regression: gpu_decoder_layer against a recompile that renumbered
# every name and id (gen_dump --renumber) and in which wrapped_slice.1 (wrapped_slice.2 there)
# doubled and lives from step 50.
pair=$(mktemp -d)
"$gen" --renumber "$data/gpu_decoder_layer.buffer-assignment.txt" --out "$pair/b0.txt" >/dev/null
sed -e 's/^allocation 3: size 138706944,/allocation 3: size 277413888,/' \
    -e 's/<1201 wrapped_slice.2 @0> (size=138706944,/<1201 wrapped_slice.2 @0> (size=277413888,/' \
    -e 's/^    wrapped_slice.2{}:57-66/    wrapped_slice.2{}:50-66/' \
    -e 's/^Total bytes used: 932847568 (889.63MiB)/Total bytes used: 1071554512 (1021.92MiB)/' \
    "$pair/b0.txt" >"$pair/gpu_decoder_layer_after-buffer-assignment.txt"
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
    "$bin" "$data/gpu_decoder_layer.buffer-assignment.txt" --select wrapped_slice.1 \
    --compare "$pair/gpu_decoder_layer_after-buffer-assignment.txt" --screenshot "$out/compare.png"
rm -rf "$pair"
# Out of memory: a log made for the decoder-layer sample (tests/data/oom/make_oom.py) dropped
# with a folder holding that module: the message's window, and the main window with what it
# lists selected and the device's limit as the budget.
oom=$(mktemp -d)
cp "$data/gpu_decoder_layer.buffer-assignment.txt" \
    "$oom/module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"
cp "$data/gpu_vllm_update_slice.buffer-assignment.txt" \
    "$oom/module_0007.jit_update_slice.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
    "$bin" "$data/oom/gpu-bfc-decoder.log" "$oom" --screenshot "$out/oom.png"
mv "$out/oom-window.png" "$out/oom-module.png"
rm -rf "$oom"
# A TPU out-of-memory report alone: its buffers split into what the shapes need and the padding.
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
    "$bin" "$data/oom/tpu-hbm-unstack.log" --screenshot "$out/oom-tpu.png"
# Several modules on one device (Tools > Device Fit), three generated modules, 512 MiB.
fit=$(mktemp -d)
"$gen" --values 3000 --seed 1 \
    --out "$fit/module_0012.jit_train_step.sm_9.0_gpu_after_optimizations-buffer-assignment.txt" >/dev/null
"$gen" --values 1500 --seed 2 \
    --out "$fit/module_0009.jit_eval_step.sm_9.0_gpu_after_optimizations-buffer-assignment.txt" >/dev/null
"$gen" --values 800 --seed 3 \
    --out "$fit/module_0003.jit_init.sm_9.0_gpu_after_optimizations-buffer-assignment.txt" >/dev/null
rm -f "$fit"/*.json
QT_QPA_PLATFORM="offscreen:configfile=$data/screens/1366x768.json" \
    "$bin" "$fit" --fit 512MiB --screenshot "$out/device-fit.png"
# The usage chart of the largest, with what the device holds and a 512 MiB budget.
"$bin" export "$fit/module_0012.jit_train_step.sm_9.0_gpu_after_optimizations-buffer-assignment.txt" \
    --view usage --budget 512MiB --width 900 --height 340 --scale 1 --out "$out/usage-held.png"
rm -rf "$fit"
# The default window as a new user meets it, on a laptop and a desktop screen: a sample and a
# 100k-value generated dump, each with a value selected.
big=$(mktemp -d)
"$gen" --values 100000 --seed 1 --out "$big/module_0001.jit_train_step-buffer-assignment.txt" >/dev/null
rm -f "$big"/*.json
for screen in 1366x768 1920x1080; do
    # Fresh settings each: the out-of-memory run above left its limit as the budget.
    XDG_CONFIG_HOME=$(mktemp -d) QT_QPA_PLATFORM="offscreen:configfile=$data/screens/$screen.json" \
        "$bin" --screenshot "$out/window-sample-$screen.png" --select 528 \
        "$data/gpu_vllm_update_slice.buffer-assignment.txt"
    XDG_CONFIG_HOME=$(mktemp -d) QT_QPA_PLATFORM="offscreen:configfile=$data/screens/$screen.json" \
        "$bin" --screenshot "$out/window-100k-$screen.png" --select custom-call.7066 \
        "$big/module_0001.jit_train_step-buffer-assignment.txt"
done
rm -rf "$big"
echo "wrote $(ls "$out" | wc -l) pictures to $out"
