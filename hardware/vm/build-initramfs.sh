#!/bin/bash
# Builds the guest's initramfs: static busybox, the kernel modules it needs (with their dependencies,
# resolved from modules.dep) and hardware/vm/init as /init.
# Usage: build-initramfs.sh <extracted-kernel-root> <kver> <out.cpio.gz> [extra-module...]
set -euo pipefail
die() { echo "build-initramfs: ERROR: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: $0 <kernel-root> <kver> <out.cpio.gz> [module...]"
KROOT=$1; KVER=$2; OUT=$3; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
MD=$KROOT/lib/modules/$KVER
[ -f "$MD/modules.dep" ] || die "$MD/modules.dep missing (run depmod)"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T"/{bin,sbin,proc,sys,dev,host,lib/modules/$KVER}
cp /bin/busybox "$T/bin/busybox"
for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -sf busybox "$T/bin/$a"; done
cp "$HERE/init" "$T/init"; chmod 755 "$T/init"
declare -A seen
add() { # module name -> its .ko path and those of its dependencies
  local rel d
  rel=$(grep -E "(^|/)${1//[-_]/[-_]}\.ko(\.xz|\.zst)?:" "$MD/modules.dep" | head -1 | cut -d: -f1)
  [ -n "$rel" ] || die "module $1 not found in $MD"
  [ -n "${seen[$rel]:-}" ] && return 0
  seen[$rel]=1
  for d in $(grep -E "^$rel:" "$MD/modules.dep" | cut -d: -f2); do add "$(basename "${d%%.ko*}")"; done
}
for m in virtio_pci 9pnet_virtio 9p configfs "$@"; do add "$m"; done
for rel in "${!seen[@]}"; do mkdir -p "$T/lib/modules/$KVER/$(dirname "$rel")"; cp "$MD/$rel" "$T/lib/modules/$KVER/$rel"; done
for f in modules.dep modules.builtin modules.order modules.alias; do [ -f "$MD/$f" ] && cp "$MD/$f" "$T/lib/modules/$KVER/"; done
# Written beside and renamed: a VM booting from this work dir at the same time (another ci-hil.sh run sets
# it up again) reads either the old or the new file, never a half-written one.
(cd "$T" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT.tmp.$$" && mv -f "$OUT.tmp.$$" "$OUT" || die "cannot write $OUT"
echo "initramfs: $OUT ($(du -h "$OUT" | cut -f1), ${#seen[@]} modules)"
