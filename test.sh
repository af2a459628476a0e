#!/usr/bin/env bash
# Install what is missing, build BufferScope and run the whole test suite with CTest under the
# offscreen Qt platform. The last line is CTest's summary.
set -euo pipefail
BS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=packaging/bootstrap.sh
. "$BS_ROOT/packaging/bootstrap.sh"

bs_install_packages
bs_build release
export QT_QPA_PLATFORM=offscreen
bs_log "Running the test suite"
ctest --test-dir "$BS_ROOT/build/release" --output-on-failure --timeout 300
