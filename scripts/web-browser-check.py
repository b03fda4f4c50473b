#!/usr/bin/env python3
"""Opens the setup page in headless Chromium over the DevTools protocol and checks what a person would see,
from the DOM and from screenshots: the status running with a frame rate, the face present, a look in the
event list and a swing not heard explained there (clm_look's wide turn and back: "not a "no": ..."), pose messages arriving and the blue dot moving on the screen, the held-look lines on the plot, the
camera's picture with its green face box, the outputs with their Pulse buttons; then presses Start in "Fit it to the person" (the clip
is labelled, so the fit runs on it) and checks that the proposal appears with its score. Polls until every check holds at once or the deadline
passes (a loaded machine is slow, not wrong), then writes a screenshot of the whole page and prints what it
saw. Exit 0 when every check held, 1 when one did not (each named), 2 when the browser could not be driven.

    web-browser-check.py URL SCREENSHOT [DEADLINE_SECONDS]      (default 60)

Needs chromium and python3-websocket (Debian). Used by web-browser-check.sh."""
import base64, json, os, shutil, struct, subprocess, sys, tempfile, time, urllib.request, zlib
import websocket

# The page's own colours (Sources/Appliance/Web/WebPage.swift): what a person sees as the face box and the dot.
FACE_BOX = (0x43, 0xA0, 0x47)
DOT = (0x15, 0x65, 0xC0)
HELD = (0xEF, 0x6C, 0x00)  # the dotted lines where a look held a while starts

READ_DOM = """JSON.stringify({
  state: document.getElementById('state').textContent,
  fps: document.getElementById('fps').textContent,
  face: document.getElementById('face').textContent,
  events: [...document.querySelectorAll('#events li')].map(li => li.textContent).slice(0, 8),
  unheard: [...document.querySelectorAll('#events li.unheard')].map(li => li.textContent).slice(0, 4),
  outputs: [...document.querySelectorAll('#outputs li')].map(li => li.textContent.trim()),
  poses: +(document.body.dataset.poses || 0),
  pictures: +(document.body.dataset.pictures || 0),
  rects: Object.fromEntries(['picture', 'plot'].map(id => {
    const r = document.getElementById(id).getBoundingClientRect();
    return [id, {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}];
  }))})"""

CHECKS = [
    ("the status says running", lambda s: s["state"] == "running"),
    ("a frame rate is shown", lambda s: s["fps"][:1].isdigit() and float(s["fps"]) > 0),
    ("the face is present", lambda s: s["face"] == "present"),
    ("a look is in the event list", lambda s: any("look" in e for e in s["events"])),
    ("a swing not heard is explained there, with its setting",
     lambda s: any(" s  not a " in e and "[gestures." in e for e in s["unheard"])),
    ("pose messages arrive", lambda s: s["poses"] > 20),
    ("the blue dot is on the screen and has moved", lambda s: s["dot_at"] is not None and s["dot_moved_px"] > 10),
    ("the held-look lines are drawn on the plot", lambda s: s["held_px"] > 40),
    ("the picture is there, with the green face box on the screen", lambda s: s["pictures"] > 5 and s["face_box_px"] > 40),
    ("the outputs are listed with their buttons", lambda s: s["outputs"][:2] == ["right Pulse", "down Pulse"]),
]


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"PNG type {depth}/{colour}/{interlace}"
            step = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):   # PNG's row filters: none, sub, up, average, Paeth
            a = line[i - step] if i >= step else 0
            b, c = previous[i], previous[i - step] if i >= step else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, step)])
        previous = line
    return width, height, rows


def near(colour, pixel, tolerance=40):
    return all(abs(p - q) <= tolerance for p, q in zip(colour, pixel))


class Browser:
    """Headless Chromium on a DevTools port of its own choosing (read from DevToolsActivePort)."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="nodwire-chromium-")
        self.log = open(os.path.join(self.profile, "chromium.log"), "w")
        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             f"--user-data-dir={self.profile}", "--remote-debugging-port=0", "--window-size=1000,1100", "about:blank"],
            stdout=self.log, stderr=self.log)
        self.ids = iter(range(1, 1 << 30))
        self.ws = None

    def connect(self, seconds=60):
        end = time.monotonic() + seconds
        while True:
            try:
                with open(os.path.join(self.profile, "DevToolsActivePort")) as f:
                    port = int(f.readline())
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=5))
                page = next(t for t in targets if t["type"] == "page")
                self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
                return
            except Exception as e:
                if self.process.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"chromium did not offer its DevTools port ({e}; exit {self.process.poll()}); "
                                       f"its log: {open(self.log.name).read()[-2000:]}")
                time.sleep(0.2)

    def call(self, method, **params):
        n = next(self.ids)
        self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == n:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})

    def screenshot(self, clip=None):
        params = {"format": "png", "captureBeyondViewport": True}
        if clip:
            params["clip"] = dict(clip, scale=1)
        return base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])

    def close(self):
        if self.ws:
            self.ws.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def look(browser, seen, dots):
    """What the screen shows (not the DOM): green face-box pixels on the picture, the blue dot and the held-look
    lines on the plot."""
    _, _, rows = png_pixels(browser.screenshot(seen["rects"]["picture"]))
    seen["face_box_px"] = sum(near(FACE_BOX, p) for row in rows for p in row)
    _, _, rows = png_pixels(browser.screenshot(seen["rects"]["plot"]))
    blue = [(x, y) for y, row in enumerate(rows) for x, p in enumerate(row) if near(DOT, p)]
    seen["held_px"] = sum(near(HELD, p) for row in rows for p in row)
    seen["dot_at"] = [round(sum(c) / len(blue)) for c in zip(*blue)] if len(blue) > 20 else None
    if seen["dot_at"]:
        dots.append(seen["dot_at"])
    seen["dot_moved_px"] = max((abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in dots for b in dots), default=0)


FIT_CHECK = "the guided fit shows a proposal and its score"
READ_FIT = """JSON.stringify({
  state: document.body.dataset.fit || '',
  score: document.getElementById('fit-score').textContent,
  rows: document.querySelectorAll('#fit-changes tbody tr').length,
  changed: document.querySelectorAll('#fit-changes tbody tr.changed').length,
  visible: !document.getElementById('fit-result').hidden})"""


def read(browser, expression):
    """The page's answer to EXPRESSION, or None while it cannot give one: on a loaded machine the first reads can come
    before the page has been built, and the expression then throws (a result without a value)."""
    result = browser.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"]
    return json.loads(result["value"]) if "value" in result else None


def fit(browser, deadline):
    """Presses Start in the guided fit and waits for the proposal; what it showed, and whether it is right."""
    browser.call("Runtime.evaluate", expression="document.getElementById('fit-start').click()")
    start, shown = time.monotonic(), {}
    while time.monotonic() - start < deadline:
        time.sleep(0.5)
        shown = read(browser, READ_FIT) or {}
        if shown.get("state") == "done" and shown.get("visible") and shown.get("rows", 0) > 0:
            break
    ok = shown.get("state") == "done" and shown.get("rows", 0) > 0 and "prompted gestures found" in shown.get("score", "")
    return ok, shown


def main():
    url, shot = sys.argv[1], sys.argv[2]
    deadline = float(sys.argv[3]) if len(sys.argv) > 3 else 60
    browser = Browser()
    try:
        browser.connect()
        browser.call("Page.navigate", url=url)
        start, dots, failed, seen = time.monotonic(), [], [name for name, _ in CHECKS], {}
        while failed and time.monotonic() - start < deadline:
            time.sleep(0.5)
            seen = read(browser, READ_DOM)
            if seen is None:
                seen = {}
                continue
            look(browser, seen, dots)
            failed = [name for name, check in CHECKS if not check(seen)]
        seen["seconds"] = round(time.monotonic() - start, 1)
        fit_ok, seen["fit"] = fit(browser, deadline) if not failed else (False, "not tried: the page failed first")
        if not fit_ok:
            failed.append(FIT_CHECK)
        with open(shot, "wb") as f:
            f.write(browser.screenshot())
    except Exception as e:
        print(f"web-browser-check: the browser could not be driven: {e}", file=sys.stderr)
        return 2
    finally:
        browser.close()
    print(json.dumps({k: v for k, v in seen.items() if k != "rects"}))
    for name in [n for n, _ in CHECKS] + [FIT_CHECK]:
        print(("FAILED: " if name in failed else "ok: ") + name + (f" (not within {deadline:.0f} s)" if name in failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
