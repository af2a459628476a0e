#!/usr/bin/env bash
# Install what is missing, then build and check BufferScope in stages (CONTRIBUTING.md has their
# minutes):
#   asan     build/asan (clang, ASan + UBSan): every test once, in parallel (ctest -j);
#   fuzz     the parser's fuzzer, built in the same tree, for BS_FUZZ_SECONDS (default 80:
#            at the asan tree's -O1 as many inputs as 60 s of a -O2 build);
#   tsan     build/tsan: the suites that run threaded code under ThreadSanitizer;
#   tidy     clang-tidy over the engine and the workspace (.clang-tidy), with the tsan tree's
#            compile commands;
#   release  build/release, the optimised build a user gets: what a sanitizer cannot run
#            (the `release` label: the package, an address-space limit, peak memory, glibc's
#            heaps).
# A finding of any stage fails the run. `./test.sh STAGE...` runs only those stages (in this
# order); BS_QUICK=1 runs the asan stage alone. The last line gives each stage's seconds.
set -euo pipefail
BS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=packaging/bootstrap.sh
. "$BS_ROOT/packaging/bootstrap.sh"

all_stages=(asan fuzz tsan tidy release)
if [ "$#" -gt 0 ]; then
    stages=("$@")
elif [ "${BS_QUICK:-0}" = 1 ]; then
    stages=(asan)
else
    stages=("${all_stages[@]}")
fi
for s in "${stages[@]}"; do
    [[ " ${all_stages[*]} " == *" $s "* ]] ||
        { echo "error: no stage '$s' (the stages: ${all_stages[*]})" >&2; exit 1; }
done
wants() { [[ " ${stages[*]} " == *" $1 "* ]]; }

# Each stage's seconds, printed on one line when the run ends, passed or failed.
timings=()
timed() {
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    timings+=("$name $((SECONDS - start))s")
    return "$status"
}
total_start=$SECONDS
print_timings() {
    local status=$?
    [ "${#timings[@]}" -gt 0 ] || exit "$status"
    printf '\033[1m==>\033[0m seconds: %s; total %ss%s\n' "${timings[*]}" \
        "$((SECONDS - total_start))" "$([ "$status" -eq 0 ] || echo ", FAILED (exit $status)")" >&2
    exit "$status"
}
trap print_timings EXIT

export QT_QPA_PLATFORM=offscreen
timed packages bs_install_packages debian-packages.txt debian-packages-test.txt

jobs=$(nproc)
if wants asan || wants fuzz; then
    timed asan-build bs_build asan
fi
if wants asan; then
    bs_log "Running every test under ASan + UBSan ($jobs at a time; the ones that time or weigh runs alone)"
    timed asan-test env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir "$BS_ROOT/build/asan" --output-on-failure --timeout 900 -j "$jobs" -LE release
fi
if wants fuzz; then
    bs_log "Fuzzing the parser for ${BS_FUZZ_SECONDS:-80} s"
    timed fuzz "$BS_ROOT/tests/fuzz/run_fuzz.sh" "${BS_FUZZ_SECONDS:-80}"
fi
# The threaded suites under ThreadSanitizer. Qt is not built with it: tests/tsan.supp names
# the reports from inside Qt's own code, and nothing of ours. Qt Test's 5-minute limit per
# test function is too short at TSan's speed.
tsan_suites=(tst_generated tst_parallel tst_coverage tst_mappedfile tst_sampledumps)
if wants tsan; then
    timed tsan-build bs_build tsan "${tsan_suites[@]}"
    bs_log "Running the threaded suites under ThreadSanitizer"
    tsan_regex="^($(IFS='|'; echo "${tsan_suites[*]}"))\$"
    timed tsan-test env TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$BS_ROOT/tests/tsan.supp" \
        QTEST_FUNCTION_TIMEOUT=1800000 \
        ctest --test-dir "$BS_ROOT/build/tsan" --output-on-failure --timeout 1800 -j "$jobs" -R "$tsan_regex"
fi

if wants tidy; then
    # The tsan tree's compile commands: one per source (run_tidy.sh says why).
    bs_build tsan bufferscope_proto
    bs_log "Checking the engine and the workspace with clang-tidy"
    timed tidy "$BS_ROOT/tests/tidy/run_tidy.sh"
fi

if wants release; then
    # The app, the files it installs and the suites of the `release` label (tests/CMakeLists.txt).
    timed release-build bs_build release bufferscope_release_checks
    bs_log "Running what a sanitizer cannot run (release)"
    timed release-test ctest --test-dir "$BS_ROOT/build/release" --output-on-failure --timeout 300 -L release
fi
