#!/bin/sh
# Nodwire camera hardware-in-the-loop test. Runs INSIDE the hardware/vm guest (real kernel, vimc virtual
# camera, real libcamera): runs the real `nodwire` binary built on the host against the camera. Every check
# prints PASS/FAIL; exit 1 on any FAIL, 2 when it cannot run at all (never a silent pass).
#   NODWIRE_BIN      the nodwire binary (default: <repo>/.build-hil/debug/nodwire)
#   NODWIRE_XCTEST   optional xctest bundle; its CameraTests are run with NODWIRE_HW=1 at the end
# vimc facts used here: libcamera lists it as "platform/vimc.0 Sensor B"; it offers RGB formats only and
# sizes it rounds (640x480 -> 636x480); it has no frame-rate control; it draws a moving frame counter.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NW=${NODWIRE_BIN:-$REPO/.build-hil/debug/nodwire}
T=${TMPDIR:-/run}/camera-hil.$$; mkdir -p "$T"
pass=0; fail=0
ok()   { pass=$((pass + 1)); echo "PASS: $*"; }
bad()  { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # description, expected, actual
  if [ "$2" = "$3" ]; then ok "$1 ($3)"; else bad "$1: expected '$2', got '$3'"; fi; }
die()  { echo "camera-hil: CANNOT RUN: $*"; exit 2; }
now()  { cut -d' ' -f1 /proc/uptime; }
since() { echo "$(now) $1" | awk '{printf "%.2f", $1 - $2}'; }
# wait_for FILE PATTERN TIMEOUT-S: until a line of FILE matches
wait_for() {
  d=$(echo "$(now) $3" | awk '{print $1 + $2}')
  until grep -q "$2" "$1" 2>/dev/null; do
    [ "$(echo "$(now) $d" | awk '{print ($1 > $2)}')" = 1 ] && return 1; sleep 0.1; done; return 0; }
# y4m_check FILE: prints "W H frames" if the file is a whole number of Cmono frames, else an error text
y4m_check() {
  hdr=$(head -n 1 "$1")
  w=$(echo "$hdr" | tr ' ' '\n' | sed -n 's/^W//p'); h=$(echo "$hdr" | tr ' ' '\n' | sed -n 's/^H//p')
  case "$hdr" in "YUV4MPEG2 "*Cmono*) ;; *) echo "bad header: $hdr"; return;; esac
  size=$(stat -c %s "$1"); body=$((size - ${#hdr} - 1)); per=$((6 + w * h))
  if [ $((body % per)) != 0 ]; then echo "not whole frames: $body bytes after the header, $per per frame"; return; fi
  echo "$w $h $((body / per))"
}

[ -x "$NW" ] || die "nodwire binary $NW not found: build on the host first (swift build --scratch-path .build-hil)"
ls /dev/media* >/dev/null 2>&1 || die "no /dev/media*: not inside the hardware/vm guest, or vimc not loaded"
# libcamera lists only devices udev has initialised (a /run/udev/data/c<major>:<minor> record). There is
# no udevd in the guest: write the records by hand.
udev_records() {
  mkdir -p /run/udev/data
  for d in /sys/bus/media/devices/* /sys/class/video4linux/*; do
    [ -e "$d/dev" ] && printf 'I:1\n' > "/run/udev/data/c$(cat "$d/dev")"
  done
}
udev_records
export LIBCAMERA_LOG_LEVELS=${LIBCAMERA_LOG_LEVELS:-*:ERROR}
T0=$(now)

# --- 1. list
s=$(now)
"$NW" cameras > "$T/list" 2> "$T/list.err"; rc=$?
check "cameras exits 0" 0 $rc
head -1 "$T/list" | grep -q '^libcamera v' && ok "cameras names the libcamera version: $(head -1 "$T/list")" || bad "no version line: $(head -1 "$T/list")"
grep -q '^0: platform/vimc.0 Sensor B$' "$T/list" && ok "cameras lists vimc as camera 0" || bad "vimc not listed: $(cat "$T/list" "$T/list.err")"
grep -qE '^  [+*] (BGR888|RGB888) ' "$T/list" && ok "cameras marks a readable format" || bad "no readable format: $(cat "$T/list")"
grep -q 'no FrameDurationLimits' "$T/list" && ok "cameras says vimc's rate cannot be set" || bad "frame-rate line: $(grep -i 'frame rate' "$T/list")"
"$NW" cameras --json > "$T/list.json" 2>&1; rc=$?
check "cameras --json exits 0" 0 $rc
grep -q '"id" : "platform/vimc.0 Sensor B"' "$T/list.json" && ok "cameras --json has the id" || bad "json: $(head -c 300 "$T/list.json")"
echo "  [list took $(since $s)s]"

# --- 2. capture 3 s into a clip: frames of the reported size, a measured rate
s=$(now)
"$NW" capture --seconds 3 --out "$T/clip.y4m" > "$T/cap.out" 2> "$T/cap.err"; rc=$?
check "capture exits 0" 0 $rc
cat "$T/cap.err" "$T/cap.out" | sed 's/^/  | /'
size=$(sed -n 's/^nodwire capture: camera 0: [^:]*: \([0-9]*x[0-9]*\) .*/\1/p' "$T/cap.err")
[ -n "$size" ] && ok "capture reports the delivered size $size" || bad "no size reported: $(cat "$T/cap.err")"
grep -q "asked 640x480; the camera adjusted it" "$T/cap.err" && ok "capture reports that vimc adjusted 640x480" || bad "no adjustment reported"
set -- $(y4m_check "$T/clip.y4m")
if [ $# = 3 ]; then
  check "clip size matches the reported size" "$size" "$1x$2"
  wrote=$(sed -n 's/.*wrote \([0-9]*\) frames.*/\1/p' "$T/cap.out")
  check "clip frame count matches what capture says it wrote" "$wrote" "$3"
  [ "$3" -ge 3 ] && ok "clip holds $3 frames" || bad "clip holds only $3 frames"
else
  bad "clip: $*"
fi
rate=$(sed -n 's/.*measured \([0-9.]*\) fps delivered.*/\1/p' "$T/cap.out")
[ -n "$rate" ] && [ "$(echo "$rate > 0" | bc)" = 1 ] && ok "measured rate $rate fps delivered" || bad "no positive measured rate: $(cat "$T/cap.out")"
cam=$(sed -n 's/.*measured [0-9.]* fps delivered, \([0-9.]*\) fps from the camera.*/\1/p' "$T/cap.out")
c=$(sed -n 's/^captured \([0-9]*\) frames, delivered \([0-9]*\), dropped \([0-9]*\).*/\1 \2 \3/p' "$T/cap.out")
set -- $c
[ $# = 3 ] && [ $(($2 + $3)) -le "$1" ] && [ $(($2 + $3 + 1)) -ge "$1" ] \
  && ok "counters add up: captured $1 = delivered $2 + dropped $3 (+ at most 1 waiting); camera ${cam} fps" \
  || bad "counters: $(cat "$T/cap.out")"
echo "  [capture took $(since $s)s]"

# --- 3. measuring only (no --out), and a 180° turn done by copying (vimc cannot flip)
"$NW" capture --seconds 1 --rotation 180 > "$T/rot.out" 2> "$T/rot.err"; rc=$?
check "capture --rotation 180 exits 0" 0 $rc
grep -q "180° turn by copying" "$T/rot.err" && ok "rotation done by copying is reported" || bad "rotation: $(cat "$T/rot.err")"
grep -q "wrote" "$T/rot.out" && bad "capture without --out wrote a file" || ok "capture without --out only measures"

# --- 4. busy: a second program asking for the same camera. The first captures until it is stopped (SIGINT
# after the checks; its 3600 s are never reached), not for a fixed time a loaded host could outlast.
s=$(now)
"$NW" capture --seconds 3600 --out "$T/long.y4m" > "$T/long.out" 2> "$T/long.err" & pid=$!
if wait_for "$T/long.err" "capturing for" 120; then
  "$NW" capture --seconds 1 > "$T/busy.out" 2> "$T/busy.err"; rc=$?
  check "second capture of a busy camera: exit status (EX_TEMPFAIL)" 75 $rc
  # vimc cannot even be listed while another process streams from it, so the camera is named by number
  # and the holder by its lock on the media device.
  grep -q "camera 0 .*is in use by another program (/dev/media0 (VIMC MDEV) is held by 'nodwire' (pid $pid))" "$T/busy.err" \
    && ok "busy message names the camera and the holder: $(cat "$T/busy.err")" || bad "busy message: $(cat "$T/busy.err")"
  "$NW" cameras > "$T/list-busy" 2>&1; rc=$?
  grep -q "/dev/media0 (VIMC MDEV) is held by 'nodwire' (pid $pid)" "$T/list-busy" \
    && ok "cameras says who holds the camera (rc=$rc)" || bad "cameras while busy: rc=$rc $(cat "$T/list-busy")"
else
  bad "the first capture never started: $(cat "$T/long.err")"
fi
# SIGINT ends the first one early, with a whole clip. Precondition: it was still capturing.
kill -0 $pid 2>/dev/null && ok "the first capture was still running through the busy checks" || bad "the first capture ended early: $(cat "$T/long.err")"
kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit status 128+2" 130 $rc
set -- $(y4m_check "$T/long.y4m")
[ $# = 3 ] && [ "$3" -ge 1 ] && ok "SIGINT: clip complete ($3 whole frames of $1x$2)" || bad "SIGINT clip: $*"
"$NW" capture --seconds 1 > "$T/after.out" 2> "$T/after.err"; rc=$?
check "the camera is free again after the first program ended" 0 $rc
echo "  [busy took $(since $s)s]"

# --- 5. errors for people
"$NW" capture --seconds 1 --camera nosuch > "$T/e1" 2>&1; rc=$?
[ $rc = 69 ] && grep -q "'nosuch' not found" "$T/e1" && grep -q "0: platform/vimc.0 Sensor B" "$T/e1" \
  && ok "unknown camera fails (rc=69) and lists the cameras" || bad "unknown camera: rc=$rc $(cat "$T/e1")"
"$NW" capture --seconds 1 --camera 3 > "$T/e2" 2>&1; rc=$?
[ $rc = 69 ] && grep -q "camera 3 not found" "$T/e2" && ok "camera number out of range fails (rc=69)" || bad "camera 3: rc=$rc $(cat "$T/e2")"
"$NW" capture --seconds 1 --rotation 90 > "$T/e3" 2>&1; rc=$?
[ $rc = 64 ] && grep -q "0 or 180" "$T/e3" && ok "rotation 90 refused (rc=64) with what is allowed" || bad "rotation 90: rc=$rc $(cat "$T/e3")"

# --- 6. the XCTest camera tests against the same camera
if [ -n "${NODWIRE_XCTEST:-}" ]; then
  s=$(now)
  [ -e "$NODWIRE_XCTEST" ] || die "NODWIRE_XCTEST=$NODWIRE_XCTEST not found"
  NODWIRE_HW=1 "$NODWIRE_XCTEST" ${NODWIRE_CAMERA_XCTEST_FILTER:-PipelineTests.CameraTests} > "$T/xctest" 2>&1; rc=$?
  grep -E "error:|Executed" "$T/xctest" | tail -6
  skipped=$(grep -c "' skipped" "$T/xctest")
  check "XCTest CameraTests with NODWIRE_HW=1 exit status" 0 $rc
  check "XCTest CameraTests skipped inside the VM" 0 "$skipped"
  # Precondition of the two above: the hardware tests ran at all (a wrong filter runs none and exits 0).
  want=$(grep -c 'func testHardware' "$REPO/Tests/PipelineTests/CameraTests.swift"); [ -z "${NODWIRE_CAMERA_XCTEST_FILTER:-}" ] || want=1
  hw=$(grep -cE "Test Case '.*testHardware.*' passed" "$T/xctest")
  [ "$want" -gt 0 ] && [ "$hw" -ge "$want" ] && ok "XCTest: all $want camera tests (testHardware*) of CameraTests ran and passed" \
    || bad "XCTest: $hw of $want camera tests passed ($(grep -E 'Executed' "$T/xctest" | tail -1))"
  echo "  [xctest took $(since $s)s]"
fi

# --- 7. the camera goes away during a capture (last: vimc is gone afterwards). Unbinding the driver removes
# the device nodes; without udev libcamera is not told, frames just stop. nodwire must report the camera
# gone (exit 74) within its 2 s frame timeout, not hang or crash (libcamera 0.0.3 aborts if such a camera
# is stopped).
s=$(now)
"$NW" capture --seconds 3600 > "$T/gone.out" 2> "$T/gone.err" & pid=$!
if wait_for "$T/gone.err" "capturing for" 120; then
  sleep 1   # let frames flow; the precondition is checked right below
  kill -0 $pid 2>/dev/null && ok "capturing when vimc is unbound" || bad "the capture ended before the unplug: $(cat "$T/gone.err")"
  tu=$(now); echo vimc.0 > /sys/bus/platform/drivers/vimc/unbind || bad "cannot unbind vimc"
  wait $pid; rc=$?; dt=$(since $tu)
  check "camera unplugged during capture: exit status (EX_IOERR)" 74 $rc
  grep -q "camera 0: platform/vimc.0 Sensor B was disconnected while in use" "$T/gone.err" \
    && ok "unplug message names the camera (after ${dt}s)" || bad "unplug message: $(cat "$T/gone.err")"
  # Noticed by the 2 s frame timeout, not by the end of the 3600 s capture: the time is reported, and only
  # bounded far above what a loaded TCG guest needs (2.3-8.6 s measured).
  [ "$(echo "$dt < 60" | bc)" = 1 ] && ok "unplug noticed ${dt}s after it happened (not at the end of the capture)" || bad "unplug took ${dt}s to notice"
else
  bad "the capture for the unplug test never started: $(cat "$T/gone.err")"; kill $pid
fi
echo "  [unplug took $(since $s)s]"

# --- 8. `nodwire run` on the camera, the camera unplugged while it runs. vimc is bound again first (the
# device nodes come back with new udev records). The appliance must keep going: report camera_lost on the
# event stream and in the log, keep trying (its status line says why there are no frames), and still stop
# cleanly on SIGTERM. (Getting the camera back needs udev: without it libcamera 0.0.3 never re-lists a
# camera, see hardware/README.md.)
s=$(now)
echo vimc.0 > /sys/bus/platform/drivers/vimc/bind || bad "cannot bind vimc again"
for i in 1 2 3 4 5 6 7 8 9 10; do ls /dev/media* >/dev/null 2>&1 && break; sleep 0.5; done
udev_records
printf '[logging]\nlevel = "debug"\n[budget]\nactive_rate = 10\n' > "$T/run.toml"
"$NW" run --camera 0 --config "$T/run.toml" --status-interval 1 > "$T/run.out" 2> "$T/run.err" & pid=$!
if wait_for "$T/run.err" "receiving frames from camera 0" 90; then
  ok "run: $(grep -o 'receiving frames from camera 0.*' "$T/run.err")"
  wait_for "$T/run.err" "status: [0-9.]* fps" 60 && ok "run: status line: $(grep -o 'status: [0-9.]* fps.*' "$T/run.err" | tail -1)" \
    || bad "run: no status line with a rate: $(tail -5 "$T/run.err")"
  tu=$(now); echo vimc.0 > /sys/bus/platform/drivers/vimc/unbind || bad "cannot unbind vimc"
  if wait_for "$T/run.out" '"type":"camera_lost"' 30; then
    ok "run: camera_lost on the event stream $(since $tu)s after the unplug: $(grep '"camera_lost"' "$T/run.out")"
  else
    bad "run: no camera_lost event: $(cat "$T/run.out" | tail -3) / $(tail -5 "$T/run.err")"
  fi
  wait_for "$T/run.err" "error   no frames from camera 0: camera 0: platform/vimc.0 Sensor B was disconnected while in use.*; trying again in" 30 \
    && ok "run: the log says the camera is gone and that it tries again" || bad "run: log: $(tail -5 "$T/run.err")"
  # It keeps going after a try to get the camera back has failed too (not a fixed time: a try on TCG is slow).
  wait_for "$T/run.err" "(try 3)" 120 && ok "run: a try to get the camera back failed: $(grep -o 'trying again in.*(try 3)' "$T/run.err" | head -1)" \
    || bad "run: no second try: $(tail -5 "$T/run.err")"
  kill -0 $pid 2>/dev/null && ok "run: still running after the unplug and a failed try ($(since $tu)s)" || bad "run: ended after the unplug: $(tail -5 "$T/run.err")"
  # The status line says why once the loss is known: the next status after it (one a second here), which on a
  # busy TCG host can come after the third try's log line (seen 2026-11-25: the status 0.7 s before the loss was
  # known said only "for 2 s").
  wait_for "$T/run.err" "status: no frames from camera 0: " 10 && ok "run: status says why: $(grep -o 'status: no frames from camera 0: .*' "$T/run.err" | tail -1)" \
    || bad "run: no status line about the missing frames: $(tail -5 "$T/run.err")"
  tk=$(now); kill -TERM $pid; wait $pid; rc=$?
  check "run: SIGTERM while the camera is away: exit status" 0 $rc
  echo "  [run stopped $(since $tk)s after SIGTERM]"
else
  bad "run never received frames: $(tail -20 "$T/run.err")"; kill $pid
fi
echo "  [run took $(since $s)s]"

echo "camera-hil: $pass passed, $fail failed in $(since $T0)s"
[ $fail = 0 ]
