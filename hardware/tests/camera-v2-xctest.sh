#!/bin/sh
# Runs INSIDE the hardware/vm guest: the camera XCTests of a build against libcamera 0.4 (made in the
# Debian 13 chroot, /work/shared/trixie, which needs libcamera-ipa for vimc) against the guest's real vimc
# camera, in that chroot. Same mounts as gpio-v2-xctest.sh: the guest's /var/tmp tmpfs hides the chroot.
# Usage: camera-v2-xctest.sh <package dir holding .build-trixie> [trixie root, default /var/tmp/trixie-root]
set -eu
PKG=$1; R=${2:-/var/tmp/trixie-root}
case "$R" in /var/tmp/*) mountpoint -q /var/tmp && umount /var/tmp;; esac
[ -e "$R/.ready" ] || { echo "camera-v2-xctest: CANNOT RUN: no trixie root at $R on the host"; exit 2; }
ls "$R"/usr/lib/*/libcamera/ipa_vimc.so >/dev/null 2>&1 \
  || { echo "camera-v2-xctest: CANNOT RUN: libcamera-ipa missing in $R (run.sh 'apt-get install libcamera-ipa')"; exit 2; }
X=$(ls -d "$PKG"/.build-trixie/debug/*.xctest | head -1)
[ -n "$X" ] || { echo "camera-v2-xctest: CANNOT RUN: no .build-trixie xctest in $PKG"; exit 2; }
for m in proc sys dev run; do mount --rbind /$m "$R/$m"; done   # /run: the udev records camera-hil.sh wrote
mkdir -p /run/udev/data
for d in /sys/bus/media/devices/* /sys/class/video4linux/*; do
  [ -e "$d/dev" ] && printf 'I:1\n' > "/run/udev/data/c$(cat "$d/dev")"
done
mount -t tmpfs tmp "$R/tmp"
mount --bind /opt/swift "$R/opt/swift"
mount --bind "$PKG" "$R/src"
rc=0
chroot "$R" /usr/bin/env -i PATH=/usr/bin:/bin NODWIRE_HW=1 HOME=/tmp LIBCAMERA_LOG_LEVELS='*:ERROR' \
  sh -c "pkg-config --modversion libcamera | sed 's/^/trixie libcamera /'; /src/${X#$PKG/} PipelineTests.CameraTests" > /run/cam-v2.log 2>&1 || rc=$?
grep -E "trixie libcamera|error:|skipped|Executed" /run/cam-v2.log | sort -u | head -20
skipped=$(grep -c "' skipped" /run/cam-v2.log || true)
# Ran at all: a wrong filter or an empty bundle runs no test and exits 0.
executed=$(sed -n 's/.*Executed \([0-9]*\) tests\{0,1\},.*/\1/p' /run/cam-v2.log | tail -1)
echo "camera-v2-xctest: rc=$rc executed=${executed:-0} skipped=$skipped"
[ $rc = 0 ] && [ "$skipped" = 0 ] && [ "${executed:-0}" -gt 0 ]
