#!/usr/bin/env bash
# Opens the setup page in a real browser (Debian's chromium, headless) while `nodwire run` plays a clip, and
# checks what a person would see: the status filled in (running, a frame rate), an event in the list, the
# dot moving, the camera's picture with a face box. Writes the page's DOM and a screenshot (default docs/web.png).
#
#   scripts/web-browser-check.sh [BUILD_DIR] [SCREENSHOT]     # BUILD_DIR: where nodwire is (.build/debug)
#
# Needs: apt-get install -y chromium; pip install websocket-client (the DevTools protocol: --dump-dom
# returns at the load event, before the live stream has shown anything). Not part of `swift test`: a browser's timing on a loaded machine is
# not reliable enough for a test.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$repo/.build/debug}/nodwire
shot=${2:-$repo/docs/web.png}
clip=$repo/.build-fixtures/clm_look.y4m
command -v chromium >/dev/null || { echo "web-browser-check: no chromium (apt-get install -y chromium)" >&2; exit 69; }
python3 -c "import websocket" 2>/dev/null || { echo "web-browser-check: no websocket-client (pip install websocket-client)" >&2; exit 69; }
[ -x "$bin" ] || { echo "web-browser-check: no $bin (swift build)" >&2; exit 66; }
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/web.toml" <<TOML
[web]
enable = true
listen = "127.0.0.1:$port"
$(sed -n '/static let config = """/,/^    """/p' "$repo/Tests/ApplianceTests/OutputReplayTests.swift" | sed '1d;$d;s/^    //')
TOML
"$bin" run --source "$clip" --loop --gpio dry-run --config "$work/web.toml" >"$work/events" 2>"$work/log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "web: serving the setup page" "$work/log" && break; sleep 0.2; done
sleep 2
shown=$(python3 "$repo/scripts/web-browser-check.py" "http://127.0.0.1:$port/" 12 "$shot")
echo "$shown"
fail=0
check() { if python3 -c "import json,sys; s=json.loads(sys.argv[1]); sys.exit(0 if ($1) else 1)" "$shown"; then echo "ok: $2"; else echo "FAILED: $2" >&2; fail=1; fi; }
check 's["state"] == "running"' "the status says running"
check 's["fps"][0].isdigit()' "a frame rate is shown"
check 's["face"] == "present"' "the face is present"
check 'any("look" in e for e in s["events"])' "a look is in the event list"
check 's["poses"] > 20' "the dot moves (pose messages arrive)"
check 's["pictures"] > 5 and s["faceBox"] == "yes"' "the picture is there, with a face box"
check 's["outputs"][:2] == ["right Pulse", "down Pulse"]' "the outputs are listed with their buttons"
echo "screenshot: $shot"
exit $fail
