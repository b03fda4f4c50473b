#!/bin/sh
# Nodwire's systemd unit and installer under a real systemd, INSIDE the hardware/vm guest (real kernel,
# gpio-sim, vimc): does the hardening of deploy/nodwire.service leave the service able to drive GPIO
# lines and capture from a camera, and nothing more? Does install.sh work on a running system? Steps:
#   1. In a private mount namespace, /etc becomes a writable copy and /usr/local an empty tmpfs, so the
#      installer can change them; the guest and the host see nothing of it.
#   2. systemd 252 boots as PID 1 of a new PID namespace with only a runner unit. The runner installs
#      with deploy/install.sh as on a real machine (groupadd gpio, useradd nodwire, files, daemon-reload,
#      enable, restart waiting for READY=1), runs it again (idempotent), and at the end
#      deploy/uninstall.sh --purge. A drop-in first replaces only ExecStart by a probe; everything else is
#      the unit as installed. Last, the real `nodwire run` under the unit (only its log files differ). The probe checks, inside the sandbox:
#      user, groups, capabilities, read-only filesystem, hidden /home, private /tmp, the device
#      allow-list, a GPIO line driven by the real `nodwire gpio set`, libcamera's `cam` capturing from vimc.
#   3. The runner checks RuntimeDirectory, READY/STATUS, the watchdog (a probe that stops pinging is
#      killed and restarted) and RestartPreventExitStatus=78 (a refused config is not restarted).
# Prints PASS/FAIL lines; exit 1 on any FAIL, 2 when it cannot run, 3 when the test systemd did not finish within
# SERVICE_HIL_TIMEOUT (never a silent pass).
#   NODWIRE_BIN   the nodwire binary to install (default: <repo>/.build/release/nodwire)
#   SERVICE_HIL_TIMEOUT  seconds for the whole systemd run (default 540; vmrun's VM_TIMEOUT must be longer)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NW=${NODWIRE_BIN:-$REPO/.build/release/nodwire}
die() { echo "service-hil: CANNOT RUN: $*"; exit 2; }
[ -n "${NODWIRE_IN_VM:-}" ] || die "not inside the hardware/vm guest"
# Everything below runs in a private mount namespace: the overlays and the test systemd's shutdown
# (it unmounts what it can when it exits) stay out of the guest's own mounts, the job folder included.
if [ -z "${SERVICE_HIL_NS:-}" ]; then SERVICE_HIL_NS=1 exec unshare --mount --propagation private sh "$0" "$@"; fi
[ -x "$NW" ] || die "no nodwire binary at $NW (set NODWIRE_BIN)"
for c in cam gpioset systemd-notify unshare; do command -v $c >/dev/null || die "$c missing"; done
[ -d /sys/kernel/config/gpio-sim ] || die "gpio-sim not loaded"
ls /dev/media* >/dev/null 2>&1 || die "no /dev/media* (vimc not loaded)"

# --- gpio-sim chip with the Raspberry Pi's line names ----------------------------------------------
CFG=/sys/kernel/config/gpio-sim/nodwire-svc
mkdir "$CFG" "$CFG/bank0" || die "cannot make $CFG"
echo 4 > "$CFG/bank0/num_lines"; echo nodwire-svc > "$CFG/bank0/label"
i=0; for n in GPIO17 GPIO27 GPIO22 GPIO5; do mkdir "$CFG/bank0/line$i"; echo $n > "$CFG/bank0/line$i/name"; i=$((i + 1)); done
echo 1 > "$CFG/live" || die "gpio-sim chip did not go live"
SIM=/sys/devices/platform/$(cat "$CFG/dev_name")/$(cat "$CFG/bank0/chip_name")
CHIPDEV=/dev/$(basename "$SIM")

# --- 1. a writable /etc and /usr/local for the installer ---------------------------------------------
cp -a /etc /run/etc && mount --bind /run/etc /etc || die "cannot make /etc writable"
mount -t tmpfs usrlocal /usr/local || die "cannot mount /usr/local"
# PrivateTmp needs a writable /tmp (the guest's is the host's, read-only); the marker must not be seen.
# The tmpfs would hide whatever this run uses from under the host's /tmp (CI may clone there): the
# checkout and the binary's folder are bound back in at the same paths (read-only, as all of the host).
case "$REPO" in /tmp) die "the checkout is /tmp itself: the writable /tmp PrivateTmp needs would hide it; clone into a folder";; esac
mkdir -p /run/host-tmp && mount --bind /tmp /run/host-tmp || die "cannot bind the host's /tmp"
mount -t tmpfs tmp /tmp && touch /tmp/host-tmp-marker || die "cannot mount /tmp"
for p in "$REPO" "$(dirname "$NW")"; do
  case "$p" in
    /tmp/*) [ -d "$p" ] && continue   # already under one bound back
            mkdir -p "$p" && mount --bind "/run/host-tmp/${p#/tmp/}" "$p" || die "cannot bind $p back over the tmpfs on /tmp";;
  esac
done
[ -x "$REPO/deploy/install.sh" ] && [ -x "$NW" ] || die "$REPO/deploy/install.sh or $NW not visible after the tmpfs on /tmp"
mkdir -m 1777 /run/open
# libcamera lists only devices udev has initialised: write udev's records (no udevd in the guest).
mkdir -p /run/udev/data
for d in /sys/bus/media/devices/* /sys/class/video4linux/*; do [ -e "$d/dev" ] && printf 'I:1\n' > "/run/udev/data/c$(cat "$d/dev")"; done
# A device the user nodwire may open by its mode, so only the unit's DevicePolicy can refuse it.
chmod 666 /dev/ttyS1 2>/dev/null || die "no /dev/ttyS1 to test DevicePolicy with"

# --- 2. the probe, the drop-in and the runner --------------------------------------------------------
cat > /run/probe.sh <<EOF
#!/bin/sh
# Runs as nodwire.service's main process, inside the unit's sandbox.
fail=0
chk() { if eval "\$2" >/dev/null 2>&1; then echo "PASS: sandbox: \$1"; else echo "FAIL: sandbox: \$1"; fail=1; fi; }
mode=\$(cat /run/probe-mode)
if [ "\$mode" = config-error ]; then echo "probe: exiting 78 like a refused config"; exit 78; fi
if [ "\$mode" = hang ]; then systemd-notify --ready --status="probe: hanging"; exec sleep 600; fi
chk "runs as user nodwire" '[ "\$(id -un)" = nodwire ]'
chk "in groups video and gpio" 'id -Gn | grep -qw video && id -Gn | grep -qw gpio'
chk "no capabilities" 'grep -Eq "^CapEff:[[:space:]]+0+\$" /proc/self/status'
chk "no_new_privs" 'grep -Eq "^NoNewPrivs:[[:space:]]+1" /proc/self/status'
chk "seccomp filter on" 'grep -Eq "^Seccomp:[[:space:]]+2" /proc/self/status'
chk "/run/nodwire writable" 'touch /run/nodwire/x && rm /run/nodwire/x'
chk "/run read-only (ReadOnlyPaths): /run/open has mode 1777" '! touch /run/open/nodwire-probe'
chk "/etc read-only" '! touch /etc/nodwire-probe'
chk "reads the setup page's token /etc/nodwire/web-token (root:nodwire 0640)" 'grep -Eqx "[0-9a-f]{64}" /etc/nodwire/web-token'
chk "/home hidden" '! ls /home/'
chk "private /tmp" 'touch /tmp/probe && [ ! -e /tmp/host-tmp-marker ]'
chk "/sys readable (libcamera enumerates there)" 'cat /sys/class/video4linux/video0/name'
chk "DevicePolicy refuses /dev/ttyS1 (mode 666)" '! sh -c ": < /dev/ttyS1"'
chk "/dev/null usable" 'echo x > /dev/null'
# Held until the check is done (not for a fixed time, which a loaded host can outlast), then stopped.
/usr/local/bin/nodwire gpio set --chip nodwire-svc --line GPIO27 --value 1 --hold 3600 2>/run/nodwire/gpio.err &
# Its start under TCG can take longer than a second on a loaded host: wait until it says it holds the line.
pid=\$!; i=0; until grep -q holding /run/nodwire/gpio.err || ! kill -0 \$pid 2>/dev/null || [ \$i -ge 1200 ]; do sleep 0.1; i=\$((i + 1)); done
chk "nodwire gpio set says it holds GPIO27 at 1 (\$(grep -o 'read back.*' /run/nodwire/gpio.err))" 'grep -q "read back 1, holding" /run/nodwire/gpio.err'
chk "nodwire gpio set drives GPIO27 (seen in gpio-sim)" '[ "\$(cat $SIM/sim_gpio1/value)" = 1 ]'
kill -TERM \$pid; wait \$pid; rc=\$?
chk "nodwire gpio set: SIGTERM during the hold, exit 143 (rc=\$rc: \$(cat /run/nodwire/gpio.err | tr '\n' ' '))" '[ \$rc = 143 ] && grep -q "caught SIGTERM during the hold" /run/nodwire/gpio.err'
chk "GPIO27 back to 0" '[ "\$(cat $SIM/sim_gpio1/value)" = 0 ]'
chk "libcamera lists the vimc camera" 'cam -l 2>&1 | grep -q "platform/vimc"'
cam -c1 --capture=3 -s width=640,height=480 > /run/nodwire/cam.out 2>&1; rc=\$?
chk "libcamera captures 3 frames (rc=\$rc: \$(grep -ci 'seq:' /run/nodwire/cam.out) frames)" '[ \$rc = 0 ] && [ "\$(grep -ci "seq:" /run/nodwire/cam.out)" -ge 3 ]'
[ \$fail = 0 ] || cat /run/nodwire/cam.out
systemd-notify --ready --status="probe done, fail=\$fail"
# WatchdogSec=10s: keep pinging until the runner stops us.
while :; do systemd-notify WATCHDOG=1; sleep 2; done
EOF
chmod 755 /run/probe.sh
mkdir -p /run/systemd/system/nodwire.service.d
cat > /run/systemd/system/nodwire.service.d/probe.conf <<EOF
[Service]
ExecStart=
ExecStart=/bin/sh /run/probe.sh
# systemd-notify is a child of the probe; the real nodwire notifies from its main process.
NotifyAccess=all
StandardOutput=append:/run/probe.out
StandardError=append:/run/probe.out
EOF
cat > /run/runner.sh <<'EOF'
#!/bin/sh
# Runs as a unit of the test systemd: starts nodwire.service in each mode and checks what systemd saw.
fail=0
ok() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
prop() { systemctl show -P "$1" nodwire.service; }
# Where the run is and when: a slow or stuck step shows in the log (seconds since the runner started).
T0=$(date +%s); step() { echo "  [runner +$(( $(date +%s) - T0 )) s] $*"; }
step "install.sh --no-start"
echo check > /run/probe-mode
if timeout 120 "$REPO/deploy/install.sh" --binary "$NW" --no-start > /run/install1.log 2>&1; then ok "install.sh on the running system (--no-start)"
else bad "install.sh: $(tail -5 /run/install1.log)"; fi
getent group gpio >/dev/null && id -nG nodwire | grep -qw gpio && id -nG nodwire | grep -qw video \
  && ok "install.sh made group gpio and user nodwire in video, gpio" || bad "accounts: $(id nodwire 2>&1)"
[ "$(systemctl is-enabled nodwire.service)" = enabled ] && ok "enabled" || bad "is-enabled: $(systemctl is-enabled nodwire.service)"
# Device permissions as udev would set them: the installed 60-nodwire.rules for the GPIO chip, Debian's
# 50-udev-default.rules for the camera. No udevd (nor udev package) here, so they are applied by hand
# from the installed rule's own GROUP and MODE: this tests the unit with those permissions.
g=$(sed -n 's/^SUBSYSTEM=="gpio".*GROUP="\([a-z]*\)".*MODE="\([0-7]*\)".*/\1 \2/p' /etc/udev/rules.d/60-nodwire.rules)
chgrp "${g% *}" "$CHIPDEV" && chmod "${g#* }" "$CHIPDEV" || bad "cannot apply '$g' to $CHIPDEV"
for d in /dev/media* /dev/video* /dev/v4l-subdev*; do [ -e "$d" ] && chgrp video "$d" && chmod 660 "$d"; done
step "install.sh again (starts the probe)"
# Again, now starting it: an upgrade on a running system (config kept, restart waits for READY=1).
if timeout 120 "$REPO/deploy/install.sh" --binary "$NW" > /run/install2.log 2>&1; then ok "install.sh again: restarted, READY=1 came back"
else bad "second install.sh: $(tail -8 /run/install2.log)"; fi
grep -q "kept your /etc/nodwire/nodwire.toml" /run/install2.log && ok "second install kept the config" || bad "second install: $(cat /run/install2.log)"
[ "$(prop ActiveState)/$(prop SubState)" = active/running ] && ok "active/running" || bad "state $(prop ActiveState)/$(prop SubState)"
case "$(prop StatusText)" in "probe done, fail=0") ok "STATUS= reaches systemctl: '$(prop StatusText)'";; *) bad "StatusText '$(prop StatusText)'";; esac
st=$(stat -c '%U:%G %a' /run/nodwire 2>&1)
[ "$st" = "nodwire:nodwire 750" ] && ok "RuntimeDirectory /run/nodwire is $st" || bad "/run/nodwire: $st"
[ "$(prop User)" = nodwire ] && ok "User=nodwire" || bad "User=$(prop User)"
systemctl stop nodwire.service
[ ! -e /run/nodwire ] && ok "stop removes /run/nodwire" || bad "/run/nodwire left after stop"
systemctl reset-failed nodwire.service 2>/dev/null

# until COND LIMIT: poll (0.5 s) until the shell condition holds; false after LIMIT seconds. Waits are for what
# systemd does, never a fixed time a loaded host can outlast; the limit only bounds a failure.
until_ok() { _e=$(( $(date +%s) + $2 )); until eval "$1"; do [ "$(date +%s)" -ge $_e ] && return 1; sleep 0.5; done; }

step "watchdog"
echo hang > /run/probe-mode
t0=$(date +%s)
systemctl start nodwire.service
pid1=$(prop MainPID)
# Precondition: the hanging probe is the one running (it said READY and stopped pinging).
[ "$(prop ActiveState)" = active ] && [ "$(prop StatusText)" = "probe: hanging" ] && [ "$pid1" -gt 0 ] 2>/dev/null \
  && ok "watchdog: the probe runs and has stopped pinging (MainPID $pid1)" || bad "watchdog: probe not running: $(prop ActiveState) '$(prop StatusText)' MainPID $pid1"
# WatchdogSec=10s, RestartSec=2s, then the new probe's start: wait for systemd to have done it.
until_ok '[ "$(prop NRestarts)" -ge 1 ] 2>/dev/null && [ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" != "$pid1" ] && [ "$(prop MainPID)" != 0 ]' 180
n=$(prop NRestarts); pid2=$(prop MainPID); dt=$(( $(date +%s) - t0 ))
# The hanging probe would sleep 600 s: only systemd ends it, and not before WatchdogSec (10 s) has passed.
# (systemd's own "Watchdog timeout" message goes to /dev/console, which the test cannot read.)
if [ "$n" -ge 1 ] 2>/dev/null && [ "$pid2" != "$pid1" ] && [ "$(prop ActiveState)" = active ] && [ $dt -ge 10 ]; then
  ok "watchdog: a probe that stopped pinging was killed and restarted (NRestarts=$n, ${dt} s after the start; WatchdogSec=10s)"
else bad "watchdog: NRestarts=$n MainPID $pid1 -> $pid2 state $(prop ActiveState) after ${dt} s"; fi
systemctl stop nodwire.service; systemctl reset-failed nodwire.service 2>/dev/null

step "exit 78"
echo config-error > /run/probe-mode
systemctl start nodwire.service 2>/dev/null
# "failed" is final: a unit that is to be restarted shows activating (auto-restart) instead.
until_ok '[ "$(prop ActiveState)" = failed ] || [ "$(prop NRestarts)" != 0 ]' 120
if [ "$(prop ActiveState)" = failed ] && [ "$(prop NRestarts)" = 0 ] && [ "$(prop ExecMainStatus)" = 78 ]; then
  ok "exit 78 (refused config): failed, not restarted"
else bad "exit 78: state $(prop ActiveState) NRestarts=$(prop NRestarts) status $(prop ExecMainStatus)"; fi

step "nodwire run"
# The real `nodwire run` under the installed unit and its sandbox: the vimc camera, a status LED on GPIO17
# (gpio-sim line 0). Only the log destinations differ from the installed unit (no journald here).
rm -r /run/systemd/system/nodwire.service.d
mkdir -p /run/systemd/system/nodwire.service.d
printf '[Service]\nStandardOutput=append:/run/run.out\nStandardError=append:/run/run.err\n' > /run/systemd/system/nodwire.service.d/log.conf
systemctl daemon-reload
printf '\n[[outputs]]\nname = "led"\nchip = "nodwire-svc"\nline = "GPIO17"\n\n[status_led]\noutput = "led"\nsearching = [200, 200]\n' >> /etc/nodwire/nodwire.toml
systemctl reset-failed nodwire.service 2>/dev/null
t0=$(date +%s)
if timeout 150 systemctl start nodwire.service; then
  ok "nodwire run: started, READY=1 $(( $(date +%s) - t0 )) s after the start (first camera frame): $(grep -o 'receiving frames.*' /run/run.err)"
else
  bad "nodwire run did not start: $(prop ActiveState)/$(prop SubState) status $(prop ExecMainStatus): $(tail -8 /run/run.err)"
fi
pid1=$(prop MainPID); tr=$(date +%s)
# The LED blinks 200 ms on, 200 ms off: sample until it was seen on and off, then off and on again.
seen=""; i=0; while [ $i -lt 600 ]; do seen="$seen$(cat "$SIM/sim_gpio0/value")"; case "$seen" in *1*0*1*|*0*1*0*) break;; esac; sleep 0.1; i=$((i + 1)); done
case "$seen" in *1*0*1*|*0*1*0*) ok "nodwire run: the status LED blinks its 'searching' pattern on GPIO17 (vimc shows no face; ${#seen} samples)";;
  *) bad "nodwire run: status LED samples $seen";; esac
# The watchdog (WatchdogSec=10s) must not fire: look once more than 10 s have passed since READY=1.
until_ok '[ $(( $(date +%s) - tr )) -ge 12 ]' 30
case "$(prop StatusText)" in *" fps, CPU "*", no face"*) ok "nodwire run: STATUS= '$(prop StatusText)'";; *) bad "nodwire run: StatusText '$(prop StatusText)'";; esac
[ "$(prop NRestarts)" = 0 ] && [ "$(prop MainPID)" = "$pid1" ] && [ "$(prop ActiveState)" = active ] \
  && ok "nodwire run: its frame loop keeps the watchdog fed (no restart after $(( $(date +%s) - t0 )) s)" \
  || bad "nodwire run: NRestarts=$(prop NRestarts) MainPID $pid1 -> $(prop MainPID) $(prop ActiveState)"
systemctl stop nodwire.service
[ "$(prop ExecMainStatus)" = 0 ] && ok "nodwire run: stopped with exit status 0" || bad "nodwire run: exit status $(prop ExecMainStatus): $(tail -5 /run/run.err)"
grep -q '"reason":"stopping"' /run/run.out 2>/dev/null || grep -q 'frame loop ended' /run/run.err \
  && ok "nodwire run: stopped gracefully ($(grep -o 'frame loop ended.*' /run/run.err))" || bad "nodwire run: no graceful end: $(tail -5 /run/run.err)"
gpioinfo nodwire-svc | grep '"GPIO17"' | grep -q unused && ok "nodwire run: GPIO17 released" || bad "nodwire run: $(gpioinfo nodwire-svc | grep GPIO17)"

step "uninstall.sh --purge"
if timeout 120 "$REPO/deploy/uninstall.sh" --purge > /run/uninstall.log 2>&1; then ok "uninstall.sh --purge"; else bad "uninstall: $(tail -5 /run/uninstall.log)"; fi
left=$(ls -d /usr/local/bin/nodwire /usr/local/share/nodwire /etc/nodwire /etc/systemd/system/nodwire.service \
  /etc/udev/rules.d/60-nodwire.rules /etc/systemd/system/multi-user.target.wants/nodwire.service 2>/dev/null)
[ -z "$left" ] && ! getent passwd nodwire >/dev/null && ok "uninstall --purge removed the files, the unit and the user" \
  || bad "uninstall left: $left $(getent passwd nodwire)"
case "$(systemctl show -P LoadState nodwire.service)" in not-found) ok "systemd no longer knows nodwire.service";;
  *) bad "LoadState $(systemctl show -P LoadState nodwire.service) after uninstall";; esac
step "done (fail=$fail): the test systemd exits"
systemctl --no-block exit $fail
exit $fail
EOF
cat > /run/systemd/system/nodwire-runner.service <<EOF
[Unit]
DefaultDependencies=no
[Service]
Type=oneshot
Environment=REPO=$REPO NW=$NW CHIPDEV=$CHIPDEV SIM=$SIM
TimeoutStartSec=infinity
ExecStart=/bin/sh /run/runner.sh
StandardOutput=append:/run/runner.out
StandardError=append:/run/runner.out
EOF

# --- 3. boot systemd as PID 1 of a new PID namespace -------------------------------------------------
mount -t cgroup2 cgroup2 /sys/fs/cgroup || die "cannot mount cgroup2"
# ~100 s on an idle 2-core TCG guest, over 300 s when the host is busy building.
limit=${SERVICE_HIL_TIMEOUT:-540}
# The runner's lines are shown as they come: were the guest itself to hang, vmrun still prints how far it got.
: > /run/runner.out; tail -n +1 -f /run/runner.out & tailpid=$!
# unshare --fork blocks SIGTERM while it waits, and systemd as PID 1 takes SIGTERM as "re-execute": a plain
# `timeout` bounded nothing (a hung run then took the whole guest's 900 s and printed nothing). So KILL after
# a grace, and --kill-child takes the namespace's PID 1, hence every process in it, down with unshare.
timeout -k 20 "$limit" unshare --kill-child --pid --fork --mount-proc /lib/systemd/systemd --unit=nodwire-runner.service \
    --log-target=console --log-level=warning > /run/systemd.log 2>&1
src=$?
sleep 1; kill $tailpid 2>/dev/null
late=; case $src in 124|137) late=1; echo "FAIL: the test systemd did not finish within ${limit}s (SERVICE_HIL_TIMEOUT; rc=$src)";; esac
[ -s /run/runner.out ] || echo "FAIL: the runner wrote nothing"
cat /run/probe.out 2>/dev/null | grep -E '^(PASS|FAIL)' || echo "FAIL: the probe wrote nothing"
if [ $src != 0 ] || grep -q '^FAIL' /run/probe.out /run/runner.out 2>/dev/null || ! grep -q '^PASS' /run/probe.out 2>/dev/null; then
    echo "---- systemd (rc=$src) ----"; tail -30 /run/systemd.log; echo "---- probe ----"; cat /run/probe.out 2>/dev/null
    # 3: the run did not finish in time (hardware/ci-hil.sh runs the suite once more then, and says so).
    echo "service-hil: FAILED"; [ -n "$late" ] && exit 3; exit 1
fi
echo "service-hil: all passed ($(grep -c '^PASS' /run/probe.out) in the sandbox, $(grep -c '^PASS' /run/runner.out) by systemd)"
