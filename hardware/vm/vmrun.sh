#!/bin/bash
# Runs a shell command inside a throw-away QEMU guest: Debian's 6.1 kernel with gpio-sim (and vimc),
# the host's / shared read-only over virtio-9p, a writable job folder as the working directory.
# Prints the command's output and exits with its status. It never reports success it did not see:
# no setup, a guest that does not boot, a hung guest or a missing exit code all give a non-zero status
# (2 = cannot run, 124 = timeout, 125 = guest did not report).
# Usage: vmrun.sh 'command ...'
# Env: NODWIRE_VM (setup dir, default /tmp/nodwire-vm), VM_MODS (default: what setup built, comma list),
#      VM_MEM (1G), VM_CPUS (2), VM_ACCEL=kvm|tcg (auto), VM_TIMEOUT (300 s), VM_KEEP=1 keeps the job dir.
set -uo pipefail
die() { echo "vmrun: ERROR: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ -n "$*" ] || die "usage: $0 'command ...'"
W=${NODWIRE_VM:-/tmp/nodwire-vm}
[ -f "$W/env" ] || die "no VM set up in $W: run hardware/vm/setup.sh first (or set NODWIRE_VM)"
W=$(cd "$W" && pwd)
. "$W/env"
[ -f "$W/kernel/boot/vmlinuz-$KVER" ] && [ -f "$W/initrd.gz" ] || die "kernel or initramfs missing in $W: re-run hardware/vm/setup.sh"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
MODS=${VM_MODS:-$(echo ${MODULES:-gpio-sim} | tr ' ' ,)}
if [ -z "${VM_ACCEL:-}" ]; then
  # Only real hardware KVM can boot a stock kernel; other /dev/kvm flavours (e.g. kvm-pvm) cannot.
  if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then VM_ACCEL=kvm; else VM_ACCEL=tcg; fi
fi
mkdir -p "$W/jobs"; JOB=$(mktemp -d "$W/jobs/job.XXXXXX") || die "cannot make a job folder in $W/jobs"
printf '%s\n' "$*" > "$JOB/cmd.sh"
boot() { # $1 = kvm|tcg
  local acc
  if [ "$1" = kvm ]; then acc="-enable-kvm -cpu host"; else acc="-accel tcg,thread=multi -cpu max"; fi
  rm -f "$JOB/rc" "$JOB/output" "$JOB/init-error"
  timeout "${VM_TIMEOUT:-300}" qemu-system-x86_64 $acc -smp "${VM_CPUS:-2}" -m "${VM_MEM:-1G}" \
    -nodefaults -no-user-config -display none -serial stdio -no-reboot \
    -kernel "$W/kernel/boot/vmlinuz-$KVER" -initrd "$W/initrd.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 vmjob=$JOB vmmods=$MODS" \
    -fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
    -fsdev local,id=job,path="$JOB",security_model=none,multidevs=remap \
    -device virtio-9p-pci,fsdev=job,mount_tag=job > "$JOB/console" 2>&1
}
start=$(date +%s.%N)
boot "$VM_ACCEL"; qrc=$?
if [ ! -e "$JOB/rc" ] && [ "$VM_ACCEL" = kvm ] && [ $qrc != 124 ]; then
  echo "vmrun: KVM boot failed (qemu rc=$qrc: $(tail -1 "$JOB/console")), retrying with TCG" >&2
  VM_ACCEL=tcg; boot tcg; qrc=$?
fi
end=$(date +%s.%N)
cat "$JOB/output" 2>/dev/null
rc=$(cat "$JOB/rc" 2>/dev/null)
if [ $qrc = 124 ]; then
  echo "vmrun: ERROR: guest did not finish within ${VM_TIMEOUT:-300}s" >&2; rc=124
elif [ -e "$JOB/init-error" ]; then
  echo "vmrun: ERROR: guest init failed: $(cat "$JOB/init-error")" >&2; rc=125
elif ! [[ "$rc" =~ ^[0-9]+$ ]]; then
  echo "vmrun: ERROR: the guest reported no exit status (qemu rc=$qrc)" >&2; rc=125
fi
echo "vmrun: accel=$VM_ACCEL qemu_rc=$qrc rc=$rc wall=$(echo "$end - $start" | bc)s; $(grep -h '^init:' "$JOB/console" | tr '\n' ' ')" >&2
if [ "$rc" -ge 124 ] 2>/dev/null; then echo "---- guest console (tail) ----" >&2; tail -30 "$JOB/console" >&2; fi
[ -n "${VM_KEEP:-}" ] || rm -rf "$JOB"
exit "$rc"
