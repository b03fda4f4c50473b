#!/usr/bin/env bash
# The accuracy report (docs/accuracy.md): `nodwire evaluate` on the real clips in .build-fixtures and on the
# synthetic dev set, rendering the set first if it is not there (scripts/synth-dev.sh). With folders as
# arguments, evaluates those instead.
#   SYNTH_DEV       the dev set's folder (default ~/.cache/nodwire/synth-dev)
#   NODWIRE_BIN     the nodwire to use; otherwise the release build if there is one, else the debug build,
#                   brought up to date first (in SCRATCH_PATH, default .build)
#   EVALUATE_ARGS   more options for `nodwire evaluate`, e.g. "--json" or "--config FILE"
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
    scripts/fixtures.sh
    dev=$(scripts/synth-dev.sh)
    set -- .build-fixtures "$dev"
fi

nodwire=${NODWIRE_BIN:-}
if [ -z "$nodwire" ]; then
    scratch=${SCRATCH_PATH:-.build}
    config=release
    [ ! -x "$scratch/release/nodwire" ] && [ -x "$scratch/debug/nodwire" ] && config=debug
    swift build -c "$config" --scratch-path "$scratch" --product nodwire >&2
    nodwire=$scratch/$config/nodwire
fi

read -r -a extra <<< "${EVALUATE_ARGS:-}"
for dir in "$@"; do
    echo "== $dir" >&2
    "$nodwire" evaluate "$dir" ${extra[@]+"${extra[@]}"}
done
