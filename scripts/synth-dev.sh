#!/usr/bin/env bash
# Makes sure the synthetic dev set (docs/accuracy.md) and the guided fit's people (fit/, docs/gestures.md) are
# rendered, and prints the folder.
#   scripts/synth-dev.sh                  renders what is missing (~10 minutes, and a Python venv the first time)
#   scripts/synth-dev.sh --if-rendered    prints the folder only if the whole set is there; never renders
# SYNTH_DEV: the folder (default ~/.cache/nodwire/synth-dev). SYNTH_TOOLS: the renderer, by default the
# shared project folder's synth/ beside this repository (../shared/synth).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=${SYNTH_DEV:-$HOME/.cache/nodwire/synth-dev}
synth=${SYNTH_TOOLS:-$(dirname "$repo")/shared/synth}
clips=12   # render-dev.sh: 4 faces x 3 scripts; a clip is done once its labels are written (last)
# The guided fit's people (scripts/synth-fit/, in $dev/fit): a guided session and a later use of it each.
# face, person (scripts/synth-fit/{fit,use}_PERSON.json), seed of the session (use: seed + 100).
# stopper: a "yes" that stops 0.5 s at its bottom (the renderer has no such nod: a brief look down labelled nod).
fit_people=("headtrackr_capture4_f0000 small 11" "cisco_man_640x320 lively 12" "headtrackr_capture4_f0000 stopper 13")
fit_clips=$(( ${#fit_people[@]} * 2 ))

labelled() { find "$dev/" -maxdepth 1 -name '*.labels.json' 2>/dev/null | wc -l; }
fit_labelled() { find "$dev/fit/" -maxdepth 1 -name '*.labels.json' 2>/dev/null | wc -l; }
render_fit() {
    local person face name seed kind
    mkdir -p "$dev/fit"
    for person in "${fit_people[@]}"; do
        set -- $person
        for kind in fit use; do
            name=${1%%_*}_${kind}_$2; seed=$3; [ $kind = use ] && seed=$(( $3 + 100 ))
            [ -s "$dev/fit/$name.labels.json" ] && continue
            "$venv/bin/python" "$synth/headsynth.py" "$synth/../data/stills/$1.pgm" "$repo/scripts/synth-fit/${kind}_$2.json" \
                "$dev/fit" "$name" --seed $seed 2>/dev/null
        done
    done
}

if [ "$(labelled)" -ge "$clips" ] && [ "$(fit_labelled)" -ge "$fit_clips" ]; then echo "$dev"; exit 0; fi
[ "${1:-}" = --if-rendered ] && exit 0
if [ ! -x "$synth/render-dev.sh" ]; then
    echo "synth-dev: $dev has $(labelled) of $clips clips, and there is no renderer at $synth/render-dev.sh" \
         "(the shared folder's synth/ beside the repository); set SYNTH_TOOLS to that folder, or SYNTH_DEV to a rendered set" >&2
    exit 66
fi
echo "synth-dev: rendering the dev set into $dev: about 10 minutes, and the first time a Python venv" \
     "in ${VENV:-$HOME/.cache/headsynth-venv}" >&2
mkdir -p "$dev"
source "$repo/scripts/pyenv.sh"
clips_python >&2
OUT="$dev" VENV="$venv" "$synth/render-dev.sh" >&2
render_fit >&2
if [ "$(labelled)" -lt "$clips" ] || [ "$(fit_labelled)" -lt "$fit_clips" ]; then
    # render-dev.sh skips any NAME.y4m already there, so a clip cut short stays unfinished until removed.
    echo "synth-dev: still only $(labelled) of $clips clips in $dev and $(fit_labelled) of $fit_clips in $dev/fit; remove any NAME.y4m without NAME.labels.json and run again" >&2
    exit 1
fi
echo "$dev"
