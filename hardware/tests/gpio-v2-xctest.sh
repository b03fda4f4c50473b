#!/bin/sh
# Runs INSIDE the hardware/vm guest: the GPIO XCTests of a libgpiod v2 build (made in the Debian 13 chroot,
# /work/shared/trixie) against the guest's real gpio-sim, in that chroot. The guest covers the host's
# /var/tmp with a tmpfs: this script unmounts it to reach the (read-only) chroot underneath.
# Usage: gpio-v2-xctest.sh <package dir holding .build-trixie> [trixie root, default /var/tmp/trixie-root]
set -eu
PKG=$1; TR=${2:-/var/tmp/trixie-root}
H=
case "$TR" in /var/tmp/*) mountpoint -q /var/tmp && umount /var/tmp;; esac
R=$H$TR
[ -e "$R/.ready" ] || { echo "gpio-v2-xctest: CANNOT RUN: no trixie root at $TR on the host"; exit 2; }
X=$(ls -d "$H$PKG"/.build-trixie/debug/*.xctest | head -1)
[ -n "$X" ] || { echo "gpio-v2-xctest: CANNOT RUN: no .build-trixie xctest in $PKG"; exit 2; }
for m in proc sys dev; do mount --rbind /$m "$R/$m"; done   # rbind: /sys/kernel/config too
mount -t tmpfs tmp "$R/tmp"   # writable /tmp for the tests
mount --bind /opt/swift "$R/opt/swift"
mount --bind "$H$PKG" "$R/src"
rc=0
chroot "$R" /usr/bin/env -i PATH=/usr/bin:/bin NODWIRE_HW=1 HOME=/tmp \
  sh -c "pkg-config --modversion libgpiod | sed 's/^/trixie libgpiod /'; /src/${X#$H$PKG/} ApplianceTests.GPIOTests" > /run/v2.log 2>&1 || rc=$?
grep -E "error:|skipped|Executed" /run/v2.log | sort -u | head -20
skipped=$(grep -c "' skipped" /run/v2.log || true)
# Ran at all: a wrong filter or an empty bundle runs no test and exits 0.
executed=$(sed -n 's/.*Executed \([0-9]*\) tests\{0,1\},.*/\1/p' /run/v2.log | tail -1)
echo "gpio-v2-xctest: rc=$rc executed=${executed:-0} skipped=$skipped"
[ $rc = 0 ] && [ "$skipped" = 0 ] && [ "${executed:-0}" -gt 0 ]
