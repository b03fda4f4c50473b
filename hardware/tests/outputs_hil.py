#!/usr/bin/env python3
"""Nodwire outputs hardware-in-the-loop test. Runs INSIDE the hardware/vm guest (real kernel, gpio-sim).

Makes a gpio-sim chip `nodwire-out` (lines right, down, status, up, spare), runs the real `nodwire` binary
and records every level change of the pins it drives by polling gpio-sim's sim_gpioK/value (pread, about
every 1-2 ms, on the guest's monotonic clock):
  1. `replay clm_look --outputs --gpio real`: look right -> a 300 ms pulse, look down -> a hold on an
     active-low line until look_stop, look up -> repeat at 5 Hz; status LED patterns. Checks the times
     against the clip's frames and the pulse lengths, and prints the measured errors.
  2. a busy line (held by gpioset): exit 75 naming the line and the holder; nothing left requested.
  3. SIGTERM / SIGINT while a line is active: the pin goes back to its safe value while nodwire still
     holds the line (the line has a pull-up, so a release alone would read 1, not 0); exit 128+signal.
  4. SIGKILL: measured (the kernel releases the line; gpio-sim then shows its pull).
  5. `gpio test`: each output pulsed in turn for --pulse-ms, named on stderr; SIGINT mid-pulse -> safe.
  6. two outputs naming one physical line (by name and by offset): refused, exit 78.
  7. `nodwire run` (the appliance) on the clip drives the same lines; SIGTERM mid-hold: safe, exit 0.
Prints PASS/FAIL per check; exit 1 on any FAIL, 2 when it cannot run.
Env: HIL_TOL_MS (base timing tolerance, default 20), NODWIRE_BIN (default <repo>/.build-hil/debug/nodwire), NODWIRE_CLIP (default: unpack the fixture).
"""
import json
import os
import signal
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NW = os.environ.get("NODWIRE_BIN", os.path.join(REPO, ".build-hil/debug/nodwire"))
CFG = "/sys/kernel/config/gpio-sim/nodwire-out"
LABEL = "nodwire-out"
NAMES = ["right", "down", "status", "up", "spare"]
RIGHT, DOWN, STATUS, UP, SPARE = range(5)
WORK = os.environ.get("TMPDIR", "/run") + f"/outputs-hil.{os.getpid()}"
FPS = 25.0
# Timing tolerance of one edge or length: HIL_TOL_MS (default 20 ms) plus what this run measured of its
# own scheduling delays (the sampler's longest gap before an edge between two samples, nodwire's latest write after its
# due time). Idle that adds a few ms; on this shared 2-core machine under load (load averages of 5-11
# seen) a starved vCPU adds up to ~150 ms. The test prints the tolerance it used and why.
TOL_BASE = float(os.environ.get("HIL_TOL_MS", "20")) / 1000
TOL = TOL_BASE
passed, failed = 0, 0


def ok(msg):
    global passed
    passed += 1
    print(f"PASS: {msg}", flush=True)


def bad(msg):
    global failed
    failed += 1
    print(f"FAIL: {msg}", flush=True)


def check(desc, cond, detail=""):
    (ok if cond else bad)(f"{desc}{' (' + detail + ')' if detail else ''}")
    return cond


def die(msg):
    print(f"outputs-hil: CANNOT RUN: {msg}", flush=True)
    sys.exit(2)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def make_chip():
    os.makedirs(f"{CFG}/bank0")
    write(f"{CFG}/bank0/num_lines", str(len(NAMES)))
    write(f"{CFG}/bank0/label", LABEL)
    for i, n in enumerate(NAMES):
        os.makedirs(f"{CFG}/bank0/line{i}")
        write(f"{CFG}/bank0/line{i}/name", n)
    write(f"{CFG}/live", "1")
    dev = open(f"{CFG}/dev_name").read().strip()
    chip = open(f"{CFG}/bank0/chip_name").read().strip()
    return chip, f"/sys/devices/platform/{dev}/{chip}"


class Run:
    """One nodwire run with its pins sampled: edges are (seconds since spawn, line, pin level)."""

    def __init__(self, sysfs, args, name, stop_when=None, sig=signal.SIGTERM, timeout=900):
        fds = [os.open(f"{sysfs}/sim_gpio{i}/value", os.O_RDONLY) for i in range(len(NAMES))]
        read = lambda: [int(os.pread(fd, 4, 0)) for fd in fds]
        self.out_path, self.err_path = f"{WORK}/{name}.out", f"{WORK}/{name}.err"
        out, err = open(self.out_path, "w+"), open(self.err_path, "w+")
        self.t_signal = None
        t0 = time.monotonic()
        normal = lambda: os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))   # nodwire runs as it would on a device
        p = subprocess.Popen([NW] + args, stdout=out, stderr=err, preexec_fn=normal)
        last = read()
        self.initial = list(last)
        self.edges = []
        # max_gap: the longest time between an edge's sample and the sample before it, i.e. how late an
        # edge time may be (the sampler itself can be kept off the CPU on a loaded host).
        self.max_gap, prev = 0.0, time.monotonic() - t0
        while True:
            t = time.monotonic() - t0
            alive = p.poll() is None
            now = read()
            for i, (a, b) in enumerate(zip(last, now)):
                if a != b:
                    self.edges.append((t, i, b))
                    self.max_gap = max(self.max_gap, t - prev)
            prev = t
            last = now
            if not alive:
                self.t_exit = t
                break
            if stop_when and self.t_signal is None and stop_when(self, t):
                p.send_signal(sig)
                self.t_signal = time.monotonic() - t0
            # A bound for a hung run only: a loaded TCG guest replayed the 17 s clip in over 120 s.
            if t > timeout and not getattr(self, "killed", False):
                p.kill()
                self.killed = True
                bad(f"{name}: still running after {timeout} s, killed")
            time.sleep(0.001)
        self.final = last
        self.rc = p.returncode
        for f in fds:
            os.close(f)
        out.seek(0)
        err.seek(0)
        self.stdout, self.stderr = out.read(), err.read()
        self.lines = [json.loads(l) for l in self.stdout.splitlines() if l.startswith("{")]

    def logged_so_far(self):
        """The JSON lines nodwire has written so far (while it runs: what it says it is doing)."""
        try:
            text = open(self.out_path).read()
        except OSError:
            return []
        out = []
        for l in text.splitlines():
            try:
                out.append(json.loads(l))
            except ValueError:
                pass   # a line being written
        return out

    def err_so_far(self):
        try:
            return open(self.err_path).read()
        except OSError:
            return ""

    def line_edges(self, line):
        return [(t, v) for (t, i, v) in self.edges if i == line]

    def pulses(self, line, active=1):
        """(start, width) of each active period of a line, seconds."""
        out, start = [], None
        for t, v in self.line_edges(line):
            if v == active:
                start = t
            elif start is not None:
                out.append((start, t - start))
                start = None
        return out

    def level_at(self, line, t):
        v = self.initial[line]
        for te, i, ve in self.edges:
            if i == line and te <= t:
                v = ve
        return v


def config(path, body):
    head = "".join(
        f'[[outputs]]\nname = "{n}"\nchip = "{LABEL}"\nline = "{n}"\n' + ("active_low = true\n" if n == "down" else "")
        for n in ["right", "down", "status", "up"])
    write(path, head + body)
    return path


def logged_on(line):
    """nodwire's own output log (replay --outputs, on stdout) says the output is on: its last change is 1."""
    def said(run):
        changes = [l for l in run.logged_so_far() if l.get("type") == "output" and l.get("output") == NAMES[line] and l.get("written", True)]
        return bool(changes) and changes[-1].get("value") == 1
    return said


def looking(direction):
    """nodwire's event stream says a look in `direction` is on (a look_start, no look_stop yet)."""
    def said(run):
        kinds = [l.get("type") for l in run.logged_so_far() if l.get("direction") == direction and l.get("type") in ("look_start", "look_stop")]
        return bool(kinds) and kinds[-1] == "look_start"
    return said


def active_for(line, seconds, said, active=1):
    """stop_when: the pin is at its active level NOW (its last edge) and has been for `seconds`, and nodwire
    itself says the output is on (`said`). The pin alone cannot tell: a released line shows its pull, which
    may be the active level (it did: a run that missed the look down was signalled after its release at
    the end of the clip, and "SIGTERM during the hold" passed with no hold)."""
    def cond(run, t):
        e = run.line_edges(line)
        return bool(e) and e[-1][1] == active and t - e[-1][0] > seconds and said(run)
    return cond


def holder(chip, line):
    """The consumer holding a line, per gpioinfo ('' when unused)."""
    info = subprocess.run(["gpioinfo", chip], capture_output=True, text=True).stdout.splitlines()
    l = next((l for l in info if f'"{NAMES[line]}"' in l), "")
    return "" if "unused" in l else l.split('"')[3] if l.count('"') >= 4 else l


def unused(chip, lines):
    info = subprocess.run(["gpioinfo", chip], capture_output=True, text=True).stdout.splitlines()
    return all("unused" in l for l in info if any(f'"{NAMES[i]}"' in l for i in lines))


def main():
    if not os.access(NW, os.X_OK):
        die(f"nodwire binary {NW} not found: build on the host first")
    if not os.path.isdir("/sys/kernel/config/gpio-sim"):
        die("gpio-sim configfs missing: not inside the hardware/vm guest")
    os.makedirs(WORK, exist_ok=True)
    clip = os.environ.get("NODWIRE_CLIP", os.path.join(REPO, ".build-fixtures/clm_look.y4m"))
    if not os.path.exists(clip):
        clip = f"{WORK}/clm_look.y4m"
        with open(clip, "wb") as f:
            if subprocess.run(["xz", "-dc", os.path.join(REPO, "Tests/Fixtures/clips/clm_look.y4m.xz")], stdout=f).returncode:
                die("cannot unpack Tests/Fixtures/clips/clm_look.y4m.xz")
    try:   # the sampler must not wait behind nodwire's frame processing for a vCPU: real-time priority in the guest
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
    except OSError as e:
        print(f"outputs-hil: note: no SCHED_FIFO for the sampler ({e}); edge times may be late under load", flush=True)
    chip, sysfs = make_chip()
    pull = lambda line, p: write(f"{sysfs}/sim_gpio{line}/pull", p)
    print(f"gpio-sim: {chip} label={LABEL} at {sysfs}; clip {clip}", flush=True)
    T0 = time.monotonic()

    # --- 1. end to end: replay a real clip into real lines
    main_cfg = config(f"{WORK}/main.toml", """
[[bindings]]
event = "look_start"
direction = "right"
output = "right"
action = "pulse"
pulse_ms = 300

[[bindings]]
event = "look_start"
direction = "down"
output = "down"
action = "hold"
max_hold_ms = 5000

[[bindings]]
event = "look_start"
direction = "up"
output = "up"
action = "repeat"
rate_hz = 5
pulse_ms = 100

[status_led]
output = "status"
searching = [100, 900]
calibrating = [250, 250]
tracking = "on"
fired_flash_ms = 150
""")
    s = time.monotonic()
    r = Run(sysfs, ["replay", clip, "--outputs", "--gpio", "real", "--config", main_cfg], "replay")
    print(f"  [replay took {time.monotonic() - s:.1f}s]", flush=True)
    check("replay --outputs --gpio real exits 0", r.rc == 0, f"rc={r.rc} {r.stderr.strip()[-300:]}")
    events = [l for l in r.lines if l.get("type") != "output"]
    # Changes nodwire wrote ("written":false: superseded in the same late batch, deliberately not written)
    changes = [l for l in r.lines if l.get("type") == "output" and l.get("written", True)]
    skipped = [l for l in r.lines if l.get("type") == "output" and not l.get("written", True)]
    if skipped:
        print(f"  note: {len(skipped)} changes were due before nodwire got the CPU to write them and were coalesced", flush=True)
    global TOL
    late = sorted(l["late_ms"] for l in changes if "late_ms" in l)
    TOL = TOL_BASE + r.max_gap + (late[-1] / 1000 if late else 0)
    print(f"  timing tolerance {TOL * 1000:.0f} ms = {TOL_BASE * 1000:.0f} ms + sampler's longest gap before an edge {r.max_gap * 1000:.1f} ms "
          f"+ nodwire's latest write {late[-1] if late else 0:.1f} ms after its due time", flush=True)
    if late:
        print(f"  measured: writes after their due time (nodwire's own clock): median {late[len(late) // 2]:.2f} ms, "
              f"max {late[-1]:.2f} ms over {len(late)} changes", flush=True)
        check(f"real time: the median write is within {TOL_BASE * 1000:.0f} ms of its due time", late[len(late) // 2] <= TOL_BASE * 1000,
              f"median {late[len(late) // 2]:.2f} ms")
    check("down (active-low): requested at its safe value, the pin goes high", bool(r.line_edges(DOWN)) and r.line_edges(DOWN)[0][1] == 1,
          f"{r.line_edges(DOWN)[:2]}")
    # Time zero of the replay on our clock: the status LED's first edge (searching starts lit at time 0).
    led = r.line_edges(STATUS)
    if not check("status LED lit at the start (searching)", bool(led) and led[0][1] == 1, f"{led[:3]}"):
        return
    z = led[0][0]
    first = lambda kind, d: next((e for e in events if e["type"] == kind and e.get("direction") == d), None)

    # The pins follow nodwire's own log: every logged change shows up on its pin, in order, soon after.
    worst = 0.0
    for i, n in enumerate(NAMES[:4]):
        logged = [(c["time"], c["value"]) for c in changes if c["output"] == n]
        act = 0 if n == "down" else 1
        pin = [(t, int(v == act)) for t, v in r.line_edges(i)]
        if n == "down":
            pin = pin[1:-1]   # the request (pin high = safe) and the release (back to the pull) are not logged changes
        else:
            pin = [e for e in pin if e[0] >= z - 0.001]
        same = [v for _, v in pin] == [v for _, v in logged]
        if same and pin:
            worst = max(worst, max(abs(tp - z - tl) for (tp, _), (tl, _) in zip(pin, logged)))
        check(f"{n}: the pin shows every logged change, in order", same, f"pin {len(pin)} edges, log {len(logged)}")
    check(f"pins match the logged times within {TOL * 1000:.0f} ms", worst <= TOL, f"worst {worst * 1000:.1f} ms")
    lag = lambda e, t: t - z - e["time"]

    # look right: one 300 ms pulse; the look is seen within its frames (114-145 with the clip's +-8 slack)
    rp = r.pulses(RIGHT)
    ls = first("look_start", "right")
    if check("look right: one pulse on 'right'", len(rp) == 1 and ls, f"{[(round(a - z, 3), round(w, 3)) for a, w in rp]}"):
        start, width = rp[0]
        check("look right: look_start right within frames 114-145", 114 <= ls["frame"] <= 145, f"frame {ls['frame']}")
        # Events are handled when the frame has been processed: behind the frame's due time by the processing
        # time, more when the replay falls behind real time on a starved CPU.
        check("look right: the pin rose after that frame was due", lag(ls, start) >= 0, f"{lag(ls, start):.3f}s later")
        err = (width - 0.300) * 1000
        check(f"look right: pulse length 300 ms +-{TOL * 1000:.0f} ms", abs(err) <= TOL * 1000, f"measured {width * 1000:.1f} ms, error {err:+.1f} ms")
        print(f"  measured: look_start right at frame {ls['frame']} ({ls['time']:.3f}s of clip); pin rose {lag(ls, start) * 1000:+.1f} ms "
              f"after that frame was due; pulse {width * 1000:.1f} ms (error {err:+.1f} ms)", flush=True)
    # look down: the active-low 'down' pin low from look_start down to look_stop down
    dp = r.pulses(DOWN, active=0)
    ls, le = first("look_start", "down"), first("look_stop", "down")
    if check("look down: one hold on 'down' (pin low: active-low)", len(dp) == 1 and ls and le, f"{[(round(a - z, 3), round(w, 3)) for a, w in dp]}"):
        start, width = dp[0]
        check("look down: look_start / look_stop down within frames 180-225", 180 <= ls["frame"] and le["frame"] <= 225, f"{ls['frame']}-{le['frame']}")
        on = [c["time"] for c in changes if c["output"] == "down"]
        check(f"look down: logged from look_start to look_stop", [c["cause"] for c in changes if c["output"] == "down"][:2] == ["look_start down", "look_stop down"])
        check(f"look down: the pin held as long as logged (+-{TOL * 1000:.0f} ms)", len(on) >= 2 and abs(width - (on[1] - on[0])) <= TOL,
              f"pin {width:.3f}s, log {on[1] - on[0]:.3f}s, events {le['time'] - ls['time']:.3f}s apart in the clip")
    # look up: repeat at 5 Hz, 100 ms on, while the look lasts
    up = r.pulses(UP)
    ls, le = first("look_start", "up"), first("look_stop", "up")
    if check("look up: repeat pulses on 'up'", len(up) >= 2 and ls and le, f"{len(up)} pulses"):
        widths = [w * 1000 for _, w in up]
        periods = [(b[0] - a[0]) * 1000 for a, b in zip(up, up[1:])]
        span = up[-1][0] + up[-1][1] - up[0][0]
        logged = [c["time"] for c in changes if c["output"] == "up"]
        check(f"look up: repeats for as long as logged, look_start to look_stop (+-{TOL * 1000:.0f} ms)", abs(span - (logged[-1] - logged[0])) <= TOL,
              f"{span:.3f}s, look {le['time'] - ls['time']:.3f}s in the clip")
        check(f"look up: pulses 100 ms +-{TOL * 1000:.0f} (the last may be cut by look_stop)", all(abs(w - 100) <= TOL * 1000 for w in widths[:-1]), f"{[round(w, 1) for w in widths]}")
        check(f"look up: period 200 ms +-{TOL * 1000:.0f}", all(abs(p - 200) <= TOL * 1000 for p in periods), f"{[round(p, 1) for p in periods]}")
    check("no binding output moved before the first look (frame 99)",
          all(t - z >= 99 / FPS for i in (RIGHT, UP) for t, _ in r.line_edges(i)) and len(r.pulses(DOWN, active=0)) <= 1)
    # status LED: a 150 ms flash (inversion) at each fired binding while tracking (steady on)
    flash_starts = [c["time"] for c in changes if c["output"] == "status" and c["cause"] == "status flash"]
    flashes = [w for a, w in r.pulses(STATUS, active=0) if any(abs(a - z - f) <= TOL for f in flash_starts)]
    check(f"status LED: a 150 ms flash for each fired binding (+-{TOL * 1000:.0f} ms)", len(flashes) == 3 and all(abs(w - 0.15) <= TOL for w in flashes),
          f"{[round(w * 1000, 1) for w in flashes]} ms")
    last = {c["output"]: c["value"] for c in changes}
    check("replay: the last logged value of every output is its safe value 0", all(v == 0 for v in last.values()), f"{last}")
    check("replay: all lines released at exit", unused(chip, [RIGHT, DOWN, STATUS, UP]))

    # --- 2. busy: gpioset holds 'up'
    gs = subprocess.Popen(["gpioset", "--mode=signal", chip, f"{UP}=1"])
    # Precondition: gpioset holds the line before nodwire asks for it (waited for, not a fixed sleep).
    deadline = time.monotonic() + 120
    while holder(chip, UP) != "gpioset" and time.monotonic() < deadline and gs.poll() is None:
        time.sleep(0.05)
    check("busy line: gpioset holds 'up' (gpioinfo)", holder(chip, UP) == "gpioset", f"holder '{holder(chip, UP)}'")
    b = Run(sysfs, ["replay", clip, "--outputs", "--gpio", "real", "--config", main_cfg], "busy")
    check("busy line: exit status 75 (EX_TEMPFAIL)", b.rc == 75, f"rc={b.rc}")
    check("busy line: message names the line and its holder", "'gpioset'" in b.stderr and "up" in b.stderr, b.stderr.strip())
    check("busy line: the outputs requested before it were released", unused(chip, [RIGHT, DOWN, STATUS]))
    check("busy line: no output became active (only 'down' was requested at its safe level, then released)",
          not [e for e in b.edges if e[1] != DOWN], f"{b.edges}")
    gs.terminate()
    gs.wait()

    # --- 3. SIGTERM / SIGINT while 'right' is active (face_found hold): back to 0 while still held
    hold_cfg = config(f"{WORK}/hold.toml", """
[[bindings]]
event = "face_found"
output = "right"
action = "hold"
max_hold_ms = 600000
""")
    pull(RIGHT, "pull-up")   # a release alone reads 1: only nodwire restoring the safe value reads 0
    for sig, rc in [(signal.SIGTERM, 143), (signal.SIGINT, 130)]:
        name = signal.Signals(sig).name
        st = Run(sysfs, ["replay", clip, "--outputs", "--gpio", "real", "--config", hold_cfg], f"sig-{name}", stop_when=active_for(RIGHT, 0.5, logged_on(RIGHT)), sig=sig)
        check(f"{name}: 'right' was held (pin 1) when the signal was sent", st.t_signal is not None and st.level_at(RIGHT, st.t_signal) == 1,
              f"edges {st.line_edges(RIGHT)}")
        check(f"{name}: exit status {rc}", st.rc == rc, f"rc={st.rc}")
        after = [(t, v) for t, v in st.line_edges(RIGHT) if st.t_signal and t >= st.t_signal]
        low = [t for t, v in after if v == 0]
        if check(f"{name}: 'right' back to 0 after the signal, while nodwire still held it", bool(low) and low[0] < st.t_exit,
                 f"edges after signal {[(round(t - st.t_signal, 3), v) for t, v in after]}, exit {st.t_exit - (st.t_signal or 0):.3f}s after it"):
            print(f"  measured: {name}: safe value {1000 * (low[0] - st.t_signal):.1f} ms after the signal, "
                  f"released (pull-up shows) {1000 * (st.t_exit - low[0]):.1f} ms later", flush=True)
        check(f"{name}: logged", f"caught {name}" in st.stderr, st.stderr.strip()[-200:])
        check(f"{name}: line released", unused(chip, [RIGHT]))

    # --- 4. SIGKILL: nothing runs in the process; the kernel releases the line and gpio-sim shows its pull
    for p, expect in [("pull-down", 0), ("pull-up", 1)]:
        pull(RIGHT, p)
        k = Run(sysfs, ["replay", clip, "--outputs", "--gpio", "real", "--config", hold_cfg], f"kill-{p}", stop_when=active_for(RIGHT, 0.3, logged_on(RIGHT)), sig=signal.SIGKILL)
        check(f"SIGKILL ({p}): 'right' was held (pin 1) when the signal was sent", k.t_signal is not None and k.level_at(RIGHT, k.t_signal) == 1,
              f"edges {k.line_edges(RIGHT)}")
        check(f"SIGKILL ({p}): exit status 137", k.rc == -9 or k.rc == 137, f"rc={k.rc}")
        check(f"SIGKILL ({p}): 'right' afterwards shows the pull ({expect}), not nodwire's last value 1", k.final[RIGHT] == expect,
              f"final {k.final[RIGHT]}")
        check(f"SIGKILL ({p}): kernel released the line", unused(chip, [RIGHT]))
    pull(RIGHT, "pull-down")

    # --- 5. gpio test: each output in turn; then SIGINT mid-pulse
    g = Run(sysfs, ["gpio", "test", "--config", main_cfg, "--pulse-ms", "200", "--gap-ms", "100"], "gpiotest")
    check("gpio test exits 0", g.rc == 0, f"rc={g.rc} {g.stderr.strip()[-200:]}")
    order = [(RIGHT, 1), (DOWN, 0), (STATUS, 1), (UP, 1)]
    got = [(line, r_[0], r_[1]) for line, act in order for r_ in g.pulses(line, act)]
    got.sort(key=lambda x: x[1])
    check("gpio test pulses each output once, in config order", [x[0] for x in got] == [o[0] for o in order], f"{got}")
    tol = TOL_BASE + 2 * g.max_gap + 0.03   # its waits are sigtimedwait; allow the sampler's gap at both edges
    check(f"gpio test pulses 200 ms +-{tol * 1000:.0f}", all(abs(w - 0.2) <= tol for _, _, w in got), f"{[round(w * 1000, 1) for _, _, w in got]} ms")
    check("gpio test names each output", all(f"{n}: " in g.stderr for n in ["right", "down", "status", "up"]), g.stderr.strip()[:300])
    pull(UP, "pull-up")
    # 'up' has safe 0 and a pull-up: requested it reads 0 (safe), active 1, safe again 0, released 1. The signal
    # goes once the pulse is on (the last edge a rise after the request's fall), not at the request.
    said = lambda run: "up: " in run.err_so_far() and "active (1)" in run.err_so_far() and "up: back to safe" not in run.err_so_far()
    pulsing = lambda run, t: len(run.line_edges(UP)) >= 2 and active_for(UP, 0.3, said)(run, t)
    g = Run(sysfs, ["gpio", "test", "--config", main_cfg, "--output", "up", "--pulse-ms", "20000"], "gpiotest-int",
            stop_when=pulsing, sig=signal.SIGINT)
    check("gpio test SIGINT: 'up' was pulsing (pin 1 after its request at 0) when the signal was sent",
          g.t_signal is not None and g.level_at(UP, g.t_signal) == 1 and [v for _, v in g.line_edges(UP)][:2] == [0, 1], f"edges {g.line_edges(UP)}")
    after = [(t, v) for t, v in g.line_edges(UP) if g.t_signal and t >= g.t_signal]
    check("gpio test SIGINT: exit 130", g.rc == 130, f"rc={g.rc}")
    check("gpio test SIGINT: 'up' back to 0 while still held, then released", bool(after) and after[0][1] == 0 and after[0][0] < g.t_exit,
          f"{[(round(t - g.t_signal, 3), v) for t, v in after]}")
    pull(UP, "pull-down")

    # --- 6. one physical line named twice: refused before anything is driven
    dup = f"{WORK}/dup.toml"
    write(dup, f'[[outputs]]\nname = "a"\nchip = "{LABEL}"\nline = "spare"\n[[outputs]]\nname = "b"\nchip = "{chip}"\nline = {SPARE}\n')
    d = Run(sysfs, ["gpio", "test", "--config", dup], "dup")
    check("same line by name and by offset: exit 78", d.rc == 78, f"rc={d.rc}")
    check("same line: message names both outputs", '"a"' in d.stderr and '"b"' in d.stderr and "same line" in d.stderr, d.stderr.strip())
    check("same line: nothing moved, nothing held", not d.edges and unused(chip, [SPARE]))

    # --- 7. the appliance: `nodwire run` on the clip (played at its rate as if it were the camera) drives the
    # same lines; SIGTERM while 'down' is held: the hold ends (look_stop, reason stopping) and every line
    # is back at its safe value while nodwire still holds it; exit 0 (a graceful stop of a service).
    pull(DOWN, "pull-down")   # active-low: safe is high; a bare release would read 0 (the pull)
    # SIGTERM once 'down' is held NOW (its last edge a fall after the request's rise) and has been for 0.2 s.
    stop_in_hold = lambda run, t: len(run.line_edges(DOWN)) >= 2 and active_for(DOWN, 0.2, looking("down"), active=0)(run, t)
    # What is seen must not depend on this machine's speed (a loaded host, an emulated CPU): every frame of
    # the clip is processed (--every-frame: neither the rate nor the CPU budget thins them); speed is the
    # benchmarks' business.
    a = Run(sysfs, ["run", "--source", clip, "--every-frame", "--config", main_cfg], "run", stop_when=stop_in_hold)
    held = a.t_signal is not None and a.level_at(DOWN, a.t_signal) == 0
    check("run: 'down' was held when SIGTERM was sent (the precondition of what follows)", held,
          f"no hold before the clip ended; looks seen: {[(e.get('type'), e.get('direction'), e.get('frame')) for e in a.lines if e.get('type', '').startswith('look')]}; "
          f"{a.stderr.strip()[-200:]}")
    check("run: every frame up to the signal processed (none thinned by rate or budget)", "budget_skipped=0 " in a.stderr and " skipped=0" in a.stderr,
          a.stderr.strip()[-200:])
    check("run: SIGTERM during the hold: exit status 0", held and a.rc == 0, f"rc={a.rc} {a.stderr.strip()[-300:]}")
    check("run: told where its outputs are", f"outputs: right = {chip}" in a.stderr, a.stderr[:400])
    rp = [(st, w) for st, w in a.pulses(RIGHT)]
    ls = next((e for e in a.lines if e.get("type") == "look_start" and e.get("direction") == "right"), None)
    check("run: look right gives one pulse on 'right'", len(rp) == 1 and ls is not None and 114 <= ls["frame"] <= 145, f"{rp} {ls}")
    if len(rp) == 1:
        check(f"run: pulse length 300 ms +-{TOL * 1000:.0f} ms", abs(rp[0][1] - 0.3) <= TOL, f"measured {rp[0][1] * 1000:.1f} ms")
    stops = [e for e in a.lines if e.get("type") == "look_stop" and e.get("direction") == "down"]
    check("run: the stream ends the hold because it stops", bool(stops) and stops[-1].get("reason") == "stopping", f"{stops}")
    after = [(t, v) for t, v in a.line_edges(DOWN) if a.t_signal and t >= a.t_signal]
    high = [t for t, v in after if v == 1]
    if check("run: 'down' back to its safe level (high) after SIGTERM, while nodwire still held it",
             bool(high) and high[0] < a.t_exit, f"edges after the signal {[(round(t - a.t_signal, 3), v) for t, v in after]}, "
             f"exit {a.t_exit - (a.t_signal or 0):.3f}s after it"):
        print(f"  measured: run: safe {1000 * (high[0] - a.t_signal):.1f} ms after SIGTERM, released {1000 * (a.t_exit - high[0]):.1f} ms later", flush=True)
    check("run: every line released at exit", unused(chip, [RIGHT, DOWN, STATUS, UP]))

    write(f"{CFG}/live", "0")
    print(f"outputs-hil: {passed} passed, {failed} failed in {time.monotonic() - T0:.1f}s", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
