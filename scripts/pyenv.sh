# Sourced by the scripts that render, decode or degrade clips (synth-dev.sh, synth-check.sh, synthfaces.sh,
# realclips.sh): the one Python they share, the synth renderer's (../shared/synth/README.md).
#   VENV   where it lives (default ~/.cache/headsynth-venv, as ../shared/synth/render-dev.sh has it)
venv=${VENV:-$HOME/.cache/headsynth-venv}

# clips_python: makes $venv, or completes it, until it imports everything the renderer and the clip tools
# use. Completes, not only makes: render-dev.sh installs nothing into a venv that has a Python, so one made
# with less (an older realclips.sh made it with OpenCV alone) would leave the renderer failing in silence.
clips_python() {
    "$venv/bin/python" -c 'import mediapipe, cv2, scipy' 2>/dev/null && return 0
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q mediapipe==0.10.14 opencv-python-headless scipy
}

# need_renderer NAME: the synth renderer is at $synth; if not, NAME says where it looked and exits 66.
need_renderer() {
    [ -f "$synth/headsynth.py" ] || { echo "$1: no renderer at $synth (set SYNTH_TOOLS)" >&2; exit 66; }
}
