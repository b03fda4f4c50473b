#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests, the vision tests on real photos, the replay
# tests on real recordings, the accuracy floors, and a short fuzzing run of the Y4M and PGM readers.
# The accuracy floors also cover the synthetic dev set when it is rendered (scripts/synth-dev.sh);
# NODWIRE_RENDER_SYNTH=1 renders it first (~10 minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
if [ "${NODWIRE_RENDER_SYNTH:-0}" = 1 ]; then
    NODWIRE_SYNTH_DEV=$(scripts/synth-dev.sh)
else
    NODWIRE_SYNTH_DEV=${NODWIRE_SYNTH_DEV:-$(scripts/synth-dev.sh --if-rendered)}
fi
export NODWIRE_SYNTH_DEV
swift build --build-tests
swift test --skip-build --parallel
scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
