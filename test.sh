#!/usr/bin/env bash
# Install what is missing, then build and test BufferScope three ways:
#   1. the Release build's whole suite (CTest, offscreen Qt platform);
#   2. clang-tidy over the engine and the workspace (.clang-tidy) — any finding fails;
#   3. the parser fuzzer for BS_FUZZ_SECONDS (default 60) — any finding fails;
#   4. the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer;
#   5. the suites that run threaded code (the parser's drivers, the coverage sweep, the
#      parallel helpers, the read-ahead) under ThreadSanitizer — any report fails.
# The last line is CTest's summary of the ThreadSanitizer run. BS_QUICK=1 runs step 1 only.
set -euo pipefail
BS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=packaging/bootstrap.sh
. "$BS_ROOT/packaging/bootstrap.sh"

quick=${BS_QUICK:-0}
bs_install_packages debian-packages.txt debian-packages-test.txt
export QT_QPA_PLATFORM=offscreen

bs_build release
bs_log "Running the test suite (release)"
ctest --test-dir "$BS_ROOT/build/release" --output-on-failure --timeout 300
[ "$quick" = 1 ] && exit 0

bs_log "Checking the sources with clang-tidy"
"$BS_ROOT/tests/tidy/run_tidy.sh"

bs_build fuzz
bs_log "Fuzzing the parser for ${BS_FUZZ_SECONDS:-60} s"
"$BS_ROOT/tests/fuzz/run_fuzz.sh" "${BS_FUZZ_SECONDS:-60}"

bs_build asan
bs_log "Running the test suite under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$BS_ROOT/build/asan" --output-on-failure --timeout 600

# The threaded suites under ThreadSanitizer. Qt is not built with it: tests/tsan.supp names
# the reports from inside Qt's own code, and nothing of ours. Qt Test's 5-minute limit per
# test function is too short at TSan's speed.
tsan_suites=(tst_generated tst_parallel tst_coverage tst_mappedfile tst_sampledumps)
bs_build tsan "${tsan_suites[@]}"
bs_log "Running the threaded suites under ThreadSanitizer"
tsan_regex="^($(IFS='|'; echo "${tsan_suites[*]}"))\$"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$BS_ROOT/tests/tsan.supp" \
QTEST_FUNCTION_TIMEOUT=1800000 \
    ctest --test-dir "$BS_ROOT/build/tsan" --output-on-failure --timeout 1800 -R "$tsan_regex"
