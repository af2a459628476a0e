#!/usr/bin/env bash
# Checks the desktop integration files and the Debian package: the desktop entry, AppStream
# metainfo, MIME type and man page validate; the icons were rendered at their sizes; cpack
# makes a .deb holding every file in its place, with the shared-library dependencies.
# Usage: check_packaging.sh SOURCE_DIR BINARY_DIR
set -euo pipefail
src=$1
bin=$2
id=io.github.bufferscope.BufferScope
fail() { echo "FAIL: $*" >&2; exit 1; }

desktop-file-validate "$src/packaging/$id.desktop" || fail "desktop entry does not validate"
appstreamcli validate --no-net "$src/packaging/$id.metainfo.xml" || fail "metainfo does not validate"
xmllint --noout "$src/packaging/$id.mime.xml" || fail "MIME type XML is not well-formed"
grep -q 'MimeType=application/x-xla-buffer-assignment;' "$src/packaging/$id.desktop" ||
    fail "the desktop entry does not claim the MIME type"
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -ww -z "$bin/packaging/bufferscope.1" 2>&1)
[ -z "$warnings" ] || fail "man page warnings: $warnings"

for size in 16 22 24 32 48 64 128 256; do
    png="$bin/packaging/icons/${size}x${size}/apps/$id.png"
    [ -f "$png" ] || fail "missing icon $png"
    file "$png" | grep -q "PNG image data, $size x $size" || fail "$png is not ${size}x${size}"
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$bin" && cpack -G DEB -B "$out" >/dev/null) || fail "cpack -G DEB failed"
deb=$(ls "$out"/bufferscope_*_*.deb)
contents=$(dpkg-deb -c "$deb")
for path in usr/bin/bufferscope "usr/share/applications/$id.desktop" \
    "usr/share/metainfo/$id.metainfo.xml" "usr/share/mime/packages/$id.xml" \
    "usr/share/icons/hicolor/scalable/apps/$id.svg" "usr/share/icons/hicolor/48x48/apps/$id.png" \
    usr/share/man/man1/bufferscope.1.gz usr/share/doc/bufferscope/copyright; do
    grep -q "\./$path\$" <<<"$contents" || fail "$path is not in the package"
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6gui6 libqt6core6 libqcustomplot2.1-qt6 libqt6svg6; do
    grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
echo "packaging OK: $(basename "$deb"), Depends: $depends"
