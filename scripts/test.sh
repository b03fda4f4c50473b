#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests, the vision tests on real photos, the replay
# tests on real recordings, and a short fuzzing run of the Y4M and PGM readers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build --parallel
scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
