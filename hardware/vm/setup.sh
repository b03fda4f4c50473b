#!/bin/bash
# Nodwire HIL VM, one-time setup on a Debian 12 (bookworm) x86_64 host (root, apt only).
#  1. apt: qemu, static busybox, kernel headers + source matching linux-image-amd64, gpiod tools, libcamera,
#     python3-pip (scripts/gpiod-v2.sh downloads libgpiod v2's sources from PyPI for ci-hil.sh).
#  2. extracts Debian's linux-image .deb into the work dir (the host's own kernel is NOT touched).
#  3. builds gpio-sim.ko (with a private irq_sim) and vimc.ko out of tree: Debian 12's kernel ships
#     neither (CONFIG_GPIO_SIM / CONFIG_VIDEO_VIMC unset).
#  4. builds a small initramfs (busybox + modules + hardware/vm/init).
# Usage: setup.sh [WORKDIR]     WORKDIR default: $NODWIRE_VM or /tmp/nodwire-vm
# Env:   SKIP_APT=1 (packages already there), VM_MODULES="gpio-sim vimc" (modules to build).
# Idempotent: re-running skips finished steps. Any failure stops with a message and a non-zero exit.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
W=${1:-${NODWIRE_VM:-/tmp/nodwire-vm}}
MODULES=${VM_MODULES:-gpio-sim vimc}
die() { echo "nodwire-vm setup: ERROR: $*" >&2; exit 1; }
step() { echo "== $(date +%T) $*"; }
[ "$(id -u)" = 0 ] || die "must run as root (apt, module build)"
[ "$(uname -m)" = x86_64 ] || die "the recipe boots Debian's amd64 kernel; this host is $(uname -m)"
case "$W" in /run/*|/var/tmp/*) die "WORKDIR $W is hidden inside the guest (it mounts its own /run and /var/tmp); pick another";; esac
mkdir -p "$W" && W=$(cd "$W" && pwd)
# Two runs may set up the same work dir at once (ci-hil.sh sets it up every time): one at a time. VMs already
# booting from it are safe: the files they read (env, initrd.gz) are replaced by a rename.
exec 9> "$W/.setup.lock"; flock 9
export DEBIAN_FRONTEND=noninteractive
if [ -z "${SKIP_APT:-}" ]; then
  step "apt-get update"
  apt-get update -qq || die "apt-get update failed"
fi
KVER=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(6\.1\.[^ ]*-amd64\)$/\1/p' | head -1)
[ -n "$KVER" ] || die "cannot determine the kernel version behind linux-image-amd64 (apt-cache depends)"
step "kernel $KVER"
if [ -z "${SKIP_APT:-}" ]; then
  step "apt-get install"
  apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends \
    qemu-system-x86 busybox-static cpio xz-utils bc make gcc pkg-config \
    "linux-headers-$KVER" linux-source-6.1 gpiod libgpiod-dev libcamera-dev libcamera-ipa libcamera-tools systemd python3-pip > "$W/apt.log" 2>&1 \
    || { tail -20 "$W/apt.log" >&2; die "apt-get install failed (log: $W/apt.log)"; }
fi
for t in qemu-system-x86_64 cpio xz make gcc cam; do command -v $t >/dev/null || die "$t missing (run without SKIP_APT)"; done
[ -x /bin/busybox ] && /bin/busybox --list | grep -x modprobe >/dev/null || die "/bin/busybox (busybox-static) missing"
[ -d "/usr/src/linux-headers-$KVER" ] || die "linux-headers-$KVER not installed"
[ -f /usr/src/linux-source-6.1.tar.xz ] || die "linux-source-6.1 not installed"
cd "$W"
# 1. kernel image + stock modules, extracted from the .deb
if [ ! -e "kernel/boot/vmlinuz-$KVER" ]; then
  step "extract linux-image-$KVER"
  rm -rf kernel debs; mkdir -p debs kernel
  (cd debs && apt-get download "linux-image-$KVER" >/dev/null) || die "apt-get download linux-image-$KVER failed"
  dpkg-deb -x debs/linux-image-"${KVER}"_*.deb kernel || die "dpkg-deb -x failed"
fi
# 2. out-of-tree modules from the matching source
P=linux-source-6.1; S=ksrc/$P
need=0; for m in $MODULES; do [ -e "mods/$m/$m.ko" ] || need=1; done
if [ $need = 1 ]; then
  step "build modules: $MODULES"
  rm -rf ksrc mods; mkdir -p ksrc
  tar -xJf /usr/src/linux-source-6.1.tar.xz -C ksrc --wildcards \
    "$P/drivers/gpio/gpio-sim.c" "$P/drivers/gpio/gpiolib.h" "$P/kernel/irq/irq_sim.c" \
    "$P/drivers/media/test-drivers/vimc/*" || die "cannot extract driver sources"
  for m in $MODULES; do
    mkdir -p "mods/$m"
    case $m in
      gpio-sim)
        cp $S/drivers/gpio/gpio-sim.c mods/gpio-sim/gpio-sim-core.c
        cp $S/drivers/gpio/gpiolib.h $S/kernel/irq/irq_sim.c mods/gpio-sim/
        # irq_sim is built-in only when something selects it; Debian's kernel has it off, so build a private
        # copy. irq_to_desc() is not exported to modules; generic_handle_irq() does the same job here.
        sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' mods/gpio-sim/irq_sim.c
        grep -q 'generic_handle_irq(irqnum)' mods/gpio-sim/irq_sim.c || die "irq_sim.c patch did not apply (kernel source changed?)"
        printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-core.o irq_sim.o\n' > mods/gpio-sim/Kbuild ;;
      vimc)
        cp $S/drivers/media/test-drivers/vimc/*.[ch] mods/vimc/
        printf 'obj-m := vimc.o\nvimc-y := %s\n' "$(cd mods/vimc && ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')" > mods/vimc/Kbuild ;;
      *) die "don't know how to build module $m" ;;
    esac
    make -s -C "/usr/src/linux-headers-$KVER" M="$W/mods/$m" -j"$(nproc)" modules > "mods/$m/build.log" 2>&1 \
      || { grep -v 'Skipping BTF' "mods/$m/build.log" | tail -20 >&2; die "building $m.ko failed"; }
    [ -e "mods/$m/$m.ko" ] || die "building $m.ko produced no module"
  done
fi
mkdir -p "kernel/lib/modules/$KVER/extra"
for m in $MODULES; do cp "mods/$m/$m.ko" "kernel/lib/modules/$KVER/extra/"; done
/bin/busybox depmod -b kernel "$KVER" || die "depmod failed"
# 3. initramfs
step "initramfs"
"$HERE/build-initramfs.sh" kernel "$KVER" initrd.gz $MODULES
printf 'KVER=%s\nMODULES="%s"\n' "$KVER" "$MODULES" > env.tmp.$$ && mv -f env.tmp.$$ env   # atomic: vmrun.sh may be reading it
step "setup done: $W"
