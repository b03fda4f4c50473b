#!/usr/bin/env python3
"""Opens the setup page in headless Chromium over the DevTools protocol, lets it follow the live stream for
a while, then reads what a person would see (the DOM) and takes a screenshot. Used by web-browser-check.sh.

    web-browser-check.py URL SECONDS SCREENSHOT      (prints one JSON object: what the page shows)
Needs chromium (Debian) and websocket-client (PyPI)."""
import base64, json, os, subprocess, sys, tempfile, time, urllib.request
import websocket

url, seconds, shot = sys.argv[1], float(sys.argv[2]), sys.argv[3]
profile = tempfile.mkdtemp()
port = 9300 + os.getpid() % 500
browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                            f"--remote-debugging-port={port}", "--window-size=1000,1100", "about:blank"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
            page = next(t for t in targets if t["type"] == "page")
            break
        except Exception:
            time.sleep(0.2)
    ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
    ids = iter(range(1, 1000))
    def call(method, **params):
        n = next(ids)
        ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            m = json.loads(ws.recv())
            if m.get("id") == n:
                return m.get("result", {})
    call("Page.navigate", url=url)
    time.sleep(seconds)
    script = """JSON.stringify({
      state: document.getElementById('state').textContent,
      fps: document.getElementById('fps').textContent,
      face: document.getElementById('face').textContent,
      events: [...document.querySelectorAll('#events li')].map(li => li.textContent),
      outputs: [...document.querySelectorAll('#outputs li')].map(li => li.textContent.trim()),
      poses: +(document.body.dataset.poses || 0),
      pictures: +(document.body.dataset.pictures || 0), faceBox: document.body.dataset.faceBox})"""
    shown = call("Runtime.evaluate", expression=script, returnByValue=True)["result"]["value"]
    png = call("Page.captureScreenshot", format="png")["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png))
    print(shown)
finally:
    browser.terminate()
    browser.wait()
