#!/usr/bin/env bash
# Opens the setup page in a real browser (Debian's chromium, headless) while `nodwire run` plays a clip over
# and over, and checks what a person would see, from the DOM and from screenshots: the status running with
# a frame rate, the face present, a look in the event list, the blue dot moving, the held-look lines on the
# plot, the camera's picture with its green face box, the outputs with their buttons. Each check is waited
# for (up to DEADLINE seconds, 60 by default, for a loaded machine), not timed. Writes a screenshot of the
# page; prints what it saw, and on a failure the end of nodwire's log.
#
#   scripts/web-browser-check.sh [BUILD_DIR] [SCREENSHOT]     # BUILD_DIR: where nodwire is (.build/debug)
#   scripts/web-browser-check.sh .build/debug docs/web.png    # refreshes the picture in docs/web.md
#
# Needs chromium and python3-websocket (scripts/setup.sh --tests installs them). Exit 0 when every check
# held, 1 when one did not, 69 without a browser, 66 without nodwire or the clip.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$repo/.build/debug}/nodwire
shot=${2:-${TMPDIR:-/tmp}/nodwire-web-check.png}
deadline=${DEADLINE:-60}
clip=$repo/.build-fixtures/clm_look.y4m
# Debian's python3, where python3-websocket is (a python3 of its own earlier on PATH may lack it).
py=/usr/bin/python3; [ -x $py ] || py=python3
command -v chromium >/dev/null || { echo "web-browser-check: no chromium (scripts/setup.sh --tests, or apt-get install chromium)" >&2; exit 69; }
$py -c "from websocket import create_connection" 2>/dev/null || { echo "web-browser-check: no websocket module for $py (apt-get install python3-websocket)" >&2; exit 69; }
[ -x "$bin" ] || { echo "web-browser-check: no $bin (swift build)" >&2; exit 66; }
[ -s "$clip" ] || { echo "web-browser-check: no $clip (scripts/fixtures.sh)" >&2; exit 66; }
work=$(mktemp -d)
port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/web.toml" <<TOML
[web]
enable = true
listen = "127.0.0.1:$port"
$(sed -n '/static let config = """/,/^    """/p' "$repo/Tests/ApplianceTests/OutputReplayTests.swift" | sed '1d;$d;s/^    //')
TOML
"$bin" run --source "$clip" --loop --gpio dry-run --config "$work/web.toml" >"$work/events" 2>"$work/log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
# The model loads and the server starts: seconds on a busy machine.
for _ in $(seq $((deadline * 5))); do
    grep -q "web: serving the setup page" "$work/log" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.2
done
grep -q "web: serving the setup page" "$work/log" || { echo "web-browser-check: nodwire run did not serve the page:" >&2; tail -20 "$work/log" >&2; exit 1; }
rc=0
$py "$repo/scripts/web-browser-check.py" "http://127.0.0.1:$port/" "$shot" "$deadline" || rc=$?
if [ $rc != 0 ]; then echo "web-browser-check: nodwire run's log ends:" >&2; tail -15 "$work/log" >&2; fi
echo "screenshot: $shot"
exit $rc
