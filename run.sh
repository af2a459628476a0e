#!/usr/bin/env bash
# Install what is missing, build the BufferScope application alone (Release, Ninja: no tests,
# no benchmarks) and open it on FILE|DIR... or, with no argument, on the bundled sample dump.
# Without a display it prints the report instead.
set -euo pipefail
BS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=packaging/bootstrap.sh
. "$BS_ROOT/packaging/bootstrap.sh"

bs_install_packages
bs_build release bufferscope
app="$BS_ROOT/build/release/app/bufferscope"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    bs_log "No display (DISPLAY and WAYLAND_DISPLAY are unset), so no window: printing the report instead."
    if [ "$#" -eq 0 ]; then
        set -- "$BS_ROOT/tests/data/gpu_decoder_layer.buffer-assignment.txt"
    fi
    status=0
    for f in "$@"; do
        "$app" report "$f" || status=$?
    done
    exit "$status"
fi
exec "$app" "$@"
