#!/usr/bin/env bash
# libgpiod v2 for testing Sources/CGPIOD on a machine that only has Debian 12's libgpiod 1.6.
#
# PyPI's `gpiod` (the Python bindings of libgpiod) ships, in its source package, the C sources of the libgpiod
# release it was made with (lib/, include/gpiod.h, libgpiod-version.txt). This script downloads that source
# package with pip, compiles ONLY the C library (not the Python extension) with gcc into a static library
#     .build-gpiod2/prefix/lib/libgpiod.a   .build-gpiod2/prefix/include/gpiod.h   .build-gpiod2/prefix/VERSION
# and prints the libgpiod version it built (asked from the archive by a small probe program).
#
#   scripts/gpiod-v2.sh           the library only
#   scripts/gpiod-v2.sh --swift   then also `swift build --build-tests` against it in .build-gpiod2/swift and
#                                 check that the binaries really use it: `nodwire gpio list` must report
#                                 "libgpiod v2 (<version>)", the v2 functions must be inside the binaries and
#                                 no libgpiod shared library may be loaded (the system's v1 is libgpiod.so.2).
#
# Idempotent: a library already built from the same source package is kept (not even rewritten); the swift
# build is incremental. Any missing tool, failed download, wrong checksum, failed compile or failed check
# is a non-zero exit with a message.
# Env: GPIOD_PY_VERSION  PyPI gpiod version (default 2.4.3, which bundles libgpiod 2.2.5)
#      GPIOD_PY_SHA256   sha256 of that source package (pinned for the default version; when you change the
#                        version, give its checksum here, or it is only reported, not checked)
#      GPIOD2_DIR        work folder (default <repo>/.build-gpiod2; .build-*/ is git-ignored)
#      GPIOD2_SCRATCH    swift scratch path for --swift (default $GPIOD2_DIR/swift)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
DEFAULT_VERSION=2.4.3
DEFAULT_SHA256=54e44dc2734d64ef8e0c6a2be7b72c4d1fe50c58176984fb047fc4e007cc375b
PYV=${GPIOD_PY_VERSION:-$DEFAULT_VERSION}
if [ -n "${GPIOD_PY_SHA256:-}" ]; then SHA=$GPIOD_PY_SHA256
elif [ "$PYV" = "$DEFAULT_VERSION" ]; then SHA=$DEFAULT_SHA256
else SHA=; fi
D=${GPIOD2_DIR:-$REPO/.build-gpiod2}
PREFIX=$D/prefix
SCRATCH=${GPIOD2_SCRATCH:-$D/swift}
SWIFT=
case "${1:-}" in
  "") ;;
  --swift) SWIFT=1 ;;
  *) echo "usage: $0 [--swift]" >&2; exit 64 ;;
esac

say() { echo "gpiod-v2: $*" >&2; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
die() { echo "gpiod-v2: FAILED: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found ($2)"; }
need python3 "apt-get install python3"
python3 -m pip --version >/dev/null 2>&1 || die "python3 -m pip does not work (apt-get install python3-pip)"
for t in gcc ar nm tar sha256sum; do need $t "apt-get install build-essential"; done
mkdir -p "$D" "$PREFIX/lib" "$PREFIX/include"
D=$(cd "$D" && pwd); PREFIX=$D/prefix
STAMP=$PREFIX/SOURCE
RECIPE=1   # bump when the compile recipe below changes, so an existing library is rebuilt
WANT="gpiod==$PYV sha256=${SHA:-unchecked} recipe=$RECIPE"

# ---------------------------------------------------------------- 1. the static library
if [ -s "$PREFIX/lib/libgpiod.a" ] && [ -s "$PREFIX/include/gpiod.h" ] && [ -s "$PREFIX/VERSION" ] \
   && [ -f "$STAMP" ] && [ "$(head -1 "$STAMP")" = "$WANT" ]; then
  say "up to date: $PREFIX/lib/libgpiod.a from $WANT"
else
  T0=$(date +%s.%N)
  DL=$D/download
  SDIST=$DL/gpiod-$PYV.tar.gz
  mkdir -p "$DL"
  if [ -s "$SDIST" ] && [ -n "$SHA" ] && [ "$(sha256sum < "$SDIST" | cut -d' ' -f1)" = "$SHA" ]; then
    say "have $SDIST"
  else
    rm -f "$SDIST"
    say "downloading the PyPI source package gpiod==$PYV"
    # LIBGPIOD_VERSION / LINK_SYSTEM_LIBGPIOD steer the package's setup.py (which pip runs for metadata).
    if ! env -u LIBGPIOD_VERSION -u LINK_SYSTEM_LIBGPIOD python3 -m pip download --no-deps --no-binary :all: \
         --disable-pip-version-check --no-input -d "$DL" "gpiod==$PYV" > "$DL/pip.log" 2>&1; then
      tail -20 "$DL/pip.log" >&2
      die "pip download gpiod==$PYV (log: $DL/pip.log)"
    fi
    [ -s "$SDIST" ] || { ls -l "$DL" >&2; die "pip did not save $SDIST (is gpiod==$PYV a source package?)"; }
  fi
  GOT=$(sha256sum < "$SDIST" | cut -d' ' -f1)
  if [ -n "$SHA" ]; then
    [ "$GOT" = "$SHA" ] || die "sha256 of $SDIST is $GOT, expected $SHA"
  else
    say "WARNING: gpiod==$PYV is not pinned: sha256 $GOT not checked (set GPIOD_PY_SHA256)"
  fi

  SRC=$D/gpiod-$PYV
  rm -rf "$SRC" "$SRC.part"; mkdir -p "$SRC.part"
  tar -xzf "$SDIST" -C "$SRC.part" --strip-components=1 || die "cannot unpack $SDIST"
  mv "$SRC.part" "$SRC"
  for f in include/gpiod.h lib/internal.h lib/uapi/gpio.h lib/misc.c lib/chip.c lib/line-request.c libgpiod-version.txt; do
    [ -s "$SRC/$f" ] || die "gpiod==$PYV does not bundle the libgpiod C sources: $f missing in $SRC (pick a 2.x version that does)"
  done
  LV=$(tr -d ' \n' < "$SRC/libgpiod-version.txt")
  [[ "$LV" =~ ^2\.[0-9]+(\.[0-9]+)*$ ]] || die "gpiod==$PYV bundles libgpiod '$LV', not 2.x"
  if grep -q GPIOD_LINE_BULK_MAX_LINES "$SRC/include/gpiod.h"; then die "$SRC/include/gpiod.h is the v1 API"; fi

  # Only the C library: lib/*.c. gpiod/ext/*.c (the Python extension) is left alone. Flags as the package's
  # own setup.py uses for its bundled build (-D_GNU_SOURCE, the version string: GPIOD_VERSION_STR up to libgpiod
# 2.2, GPIOD_API_VERSION_STR from 2.3; include + lib on the path).
  OBJ=$D/obj; rm -rf "$OBJ"; mkdir -p "$OBJ"
  shopt -s nullglob; CFILES=("$SRC"/lib/*.c); shopt -u nullglob
  say "compiling libgpiod $LV: ${#CFILES[@]} files from $SRC/lib"
  for c in "${CFILES[@]}"; do
    gcc -std=gnu11 -O2 -g -fPIC -Wall -Wextra -D_GNU_SOURCE "-DGPIOD_VERSION_STR=\"$LV\"" "-DGPIOD_API_VERSION_STR=\"$LV\"" \
        -I"$SRC/include" -I"$SRC/lib" -c "$c" -o "$OBJ/$(basename "${c%.c}").o" || die "gcc $c"
  done
  rm -f "$PREFIX/lib/libgpiod.a.part"
  ar rcs "$PREFIX/lib/libgpiod.a.part" "$OBJ"/*.o || die "ar"
  mv "$PREFIX/lib/libgpiod.a.part" "$PREFIX/lib/libgpiod.a"
  cp "$SRC/include/gpiod.h" "$PREFIX/include/gpiod.h"
  echo "$LV" > "$PREFIX/VERSION"
  printf '%s\nlibgpiod %s, built %s from %s\n' "$WANT" "$LV" "$(date -u +%FT%TZ)" "$SDIST" > "$STAMP"
  say "built $PREFIX/lib/libgpiod.a in $(since "$T0") s"
fi
LV=$(cat "$PREFIX/VERSION")

# The probe: the header must be v2 and the archive must link on its own and report the version.
PROBE=$D/probe
cat > "$PROBE.c" <<'EOF'
#include <gpiod.h>
#include <stdio.h>
#ifdef GPIOD_LINE_BULK_MAX_LINES
#error "this gpiod.h is libgpiod v1"
#endif
int main(void)
{
    struct gpiod_request_config *c = gpiod_request_config_new();
    if (!c) return 1;
    gpiod_request_config_free(c);
    printf("%s\n", gpiod_api_version());
    return 0;
}
EOF
gcc -Wall -Werror -I"$PREFIX/include" "$PROBE.c" "$PREFIX/lib/libgpiod.a" -o "$PROBE" || die "probe program does not build against $PREFIX"
PV=$("$PROBE") || die "probe program failed"
[ "$PV" = "$LV" ] || die "the archive reports libgpiod '$PV', the source package says '$LV'"
echo "libgpiod $PV (static, from PyPI gpiod==$PYV): $PREFIX/lib/libgpiod.a, $PREFIX/include/gpiod.h"

[ -n "$SWIFT" ] || exit 0

# ---------------------------------------------------------------- 2. the package against it
need swift "Swift toolchain not on PATH"
mkdir -p "$SCRATCH"; SCRATCH=$(cd "$SCRATCH" && pwd)
BIN=$SCRATCH/debug/nodwire
XCT=$SCRATCH/debug/NodwirePackageTests.xctest
# SwiftPM does not track libraries found through -L: relink when the archive is not the one last linked.
LINKED=$SCRATCH/libgpiod-linked
ARCHIVE_ID="$PREFIX/lib/libgpiod.a $(sha256sum < "$PREFIX/lib/libgpiod.a" | cut -d' ' -f1)"
if [ "$(cat "$LINKED" 2>/dev/null)" != "$ARCHIVE_ID" ]; then rm -f "$BIN" "$XCT" "$LINKED"; fi
# -I and -L come before the system paths, so <gpiod.h> and -lgpiod resolve to the v2 header and archive.
# Except that SwiftPM puts the flags of pkg-config packages first on the link line, and their .pc files say
# -L/usr/lib/x86_64-linux-gnu: ld would find the system's v1 libgpiod.so there before our -L. So SwiftPM gets
# copies of the .pc files of every pkg-config package in Package.swift (libcamera, libmosquitto, libturbojpeg,
# and what they require) without that -L (a directory the linker searches anyway).
need pkg-config "apt-get install pkg-config"
PC=$D/pkgconfig; mkdir -p "$PC"
pcs=$(sed -nE 's/.*pkgConfig: "([^"]+)".*/\1/p' "$REPO/Package.swift")
[ -n "$pcs" ] || die "no pkgConfig packages found in $REPO/Package.swift"
for p in $pcs $(for q in $pcs; do pkg-config --print-requires "$q"; done | awk '{print $1}' | sort -u); do
  f=$(pkg-config --path "$p") || die "pkg-config cannot find $p (scripts/setup.sh installs it)"
  sed -E 's/-L[$][{]libdir[}] ?//g' "$f" > "$PC/$p.pc.part" && mv "$PC/$p.pc.part" "$PC/$p.pc"
  ! grep -E '^Libs' "$PC/$p.pc" | grep -q -- '-L' || die "$PC/$p.pc still puts a -L before ours: $(grep -E '^Libs' "$PC/$p.pc")"
done
T0=$(date +%s.%N)
say "swift build --build-tests --scratch-path $SCRATCH against $PREFIX (log: $SCRATCH/build.log)"
if ! (cd "$REPO" && swift build --build-tests --scratch-path "$SCRATCH" --pkg-config-path "$PC" \
        -Xcc -I"$PREFIX/include" -Xlinker -L"$PREFIX/lib") > "$SCRATCH/build.log" 2>&1; then
  grep -E 'error:' "$SCRATCH/build.log" | sort -u | head -20 >&2
  tail -5 "$SCRATCH/build.log" >&2
  die "swift build against libgpiod $LV (log: $SCRATCH/build.log)"
fi
say "swift build done in $(since "$T0") s"
[ -x "$BIN" ] || die "$BIN not built"
[ -x "$XCT" ] || die "$XCT not built"
echo "$ARCHIVE_ID" > "$LINKED"

# The checks: v2 inside, no libgpiod shared library, and the binary's own report.
for f in "$BIN" "$XCT"; do
  so=$(ldd "$f" | grep -i libgpiod || true)
  [ -z "$so" ] || die "$(basename "$f") loads a libgpiod shared library: $so"
  syms=$(nm "$f" | grep -E ' gpiod_' || true)
  for s in gpiod_chip_request_lines gpiod_api_version; do   # v2-only functions, linked in from the archive
    grep -qE " T $s\$" <<< "$syms" || die "$(basename "$f") does not contain $s from libgpiod v2"
  done
  ! grep -qE ' U gpiod_' <<< "$syms" || die "$(basename "$f") leaves libgpiod symbols to a shared library: $(grep -E ' U gpiod_' <<< "$syms" | head -3)"
done
REPORT=$("$BIN" gpio list 2>&1 | head -1 || true)
[ "$REPORT" = "libgpiod v2 ($LV)" ] || die "nodwire gpio list reports '$REPORT', expected 'libgpiod v2 ($LV)'"
say "checked: no libgpiod .so in ldd of nodwire and the test bundle; both contain the v2 functions; nodwire says '$REPORT'"
echo "NODWIRE_BIN=$BIN"
echo "NODWIRE_XCTEST=$XCT"
