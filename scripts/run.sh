#!/usr/bin/env bash
# Installs what is missing, builds Nodwire, and runs it on the bundled demo recording (a man talking, then
# turning his head left and right, looking down and up, then leaning sideways), printing each gesture it
# sees as one JSON line. Extra arguments go to `nodwire replay`, e.g. --realtime or --stats.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product nodwire 2>&1 | grep -E "error|warning: unre|Compiling|Build" | tail -3 >&2
exec .build/release/nodwire replay .build-fixtures/clm_look.y4m "$@"
