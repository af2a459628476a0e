#!/usr/bin/env bash
# The command line's synopsis is written once, in app/usage.txt. Checks that `--help` prints it,
# that the README's "Command line" block is it (up to its first blank line), and that the man
# page was made from it.
# Usage: check_synopsis.sh SOURCE_DIR BINARY_DIR
set -euo pipefail
src=$1
bin=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

usage="$src/app/usage.txt"
synopsis=$(awk '/^$/ { done = 1 } !done' "$usage")

help=$("$bin/app/bufferscope" --help)
[ "$help" = "usage:
$(cat "$usage")" ] || fail "--help does not print app/usage.txt: $(diff <(printf '%s\n' "$help") <(printf 'usage:\n'; cat "$usage"))"

readme=$(awk '/^## Command line/ { on = 1; next }
    on && /^```$/ { inside = !inside; if (!inside) on = 0; next } inside' "$src/README.md")
[ "$readme" = "$synopsis" ] ||
    fail "the README's Command line block is not app/usage.txt's synopsis:
$(diff <(printf '%s\n' "$readme") <(printf '%s\n' "$synopsis"))"

man=$(LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou -rLL=200n "$bin/packaging/bufferscope.1" |
    awk '/^SYNOPSIS/ { on = 1; next } on && /^[A-Z]/ { on = 0 } on')
[ "$(printf '%s\n' "$man" | sed '/^$/d')" = "$synopsis" ] ||
    fail "the man page's SYNOPSIS is not app/usage.txt's synopsis:
$(diff <(printf '%s\n' "$man" | sed '/^$/d') <(printf '%s\n' "$synopsis"))"
echo "synopsis: --help, README and man page agree with app/usage.txt"
