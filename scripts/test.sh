#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests, the vision tests on real photos, the replay
# tests on real recordings, the accuracy floors, the setup page in a real browser (scripts/web-browser-check.sh:
# headless Chromium on `nodwire run` playing a clip; its screenshot goes to a temporary folder), and a short
# fuzzing run of the Y4M and PGM readers.
# The accuracy floors also cover the synthetic dev set when it is rendered (scripts/synth-dev.sh);
# NODWIRE_RENDER_SYNTH=1 renders it first (~10 minutes the first time). The real PyPI clips
# (scripts/realclips.sh) are used when fetched (NODWIRE_REALCLIPS, default ~/.cache/nodwire/realclips/clips).
# Ends with a summary: how many XCTests ran, passed, failed and were skipped, and where the skipped ones run
# (the hardware tests need a GPIO chip and a camera: hardware/ci-hil.sh runs them in a VM with NODWIRE_HW=1).
# The browser check and the fuzz run happen even when a test failed; the exit status is non-zero if any failed.
# NODWIRE_BUILD_STAMP=FILE: touched once the build succeeded (.ci/run uses it to know its binaries are there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
if [ "${NODWIRE_RENDER_SYNTH:-0}" = 1 ]; then
    NODWIRE_SYNTH_DEV=$(scripts/synth-dev.sh)
else
    NODWIRE_SYNTH_DEV=${NODWIRE_SYNTH_DEV:-$(scripts/synth-dev.sh --if-rendered)}
fi
export NODWIRE_SYNTH_DEV
# The real PyPI clips, when scripts/realclips.sh has fetched them (out of CI): nods, shakes and turns laid over real faces
# (ModelledNodTests, ModelledTurnTests), and real conversations (RealConversationTests, from the conversation folder beside them).
realclips=${REALCLIPS_DIR:-$HOME/.cache/nodwire/realclips}/clips
if [ -z "${NODWIRE_REALCLIPS:-}" ] && [ -d "$realclips" ]; then export NODWIRE_REALCLIPS=$realclips; fi
swift build --build-tests
[ -z "${NODWIRE_BUILD_STAMP:-}" ] || touch "$NODWIRE_BUILD_STAMP"
# One process for all the tests (not --parallel): only then does XCTest report which tests were skipped.
log=.build/xctest.log
set +e
swift test --skip-build 2>&1 | tee "$log"; trc=${PIPESTATUS[0]}
shot=$(mktemp -d "${TMPDIR:-/tmp}/nodwire-web-check.XXXXXX")/page.png; t0=$SECONDS
scripts/web-browser-check.sh .build/debug "$shot"; brc=$?; bs=$((SECONDS - t0))
scripts/fuzz.sh "${FUZZ_SECONDS:-30}"; frc=$?

# Summary (still without -e: a grep that finds nothing is not an error here). XCTest's own total ("Executed 219 tests, with 15 tests skipped and 0 failures") is the last
# Executed line (All tests); swift-testing's "Test run with 0 tests" line is about swift-testing only.
total=$(grep -E '^[[:space:]]*Executed [0-9]+ tests?' "$log" | tail -1)
n=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<< "$total")
skipped=$(sed -nE 's/.* ([0-9]+) tests? skipped.*/\1/p' <<< "$total"); skipped=${skipped:-0}
passed=$(grep -cE "^Test Case '.*' passed" "$log")
failed=$(grep -cE "^Test Case '.*' failed" "$log")
# "path:line: Class.test : Test skipped - why"
reasons=$(sed -nE 's/^.*: ([A-Za-z0-9_]+\.[A-Za-z0-9_]+) : Test skipped - (.*)$/\1\t\2/p' "$log" | sort -u)
hw=$(grep -c 'NODWIRE_HW=1' <<< "$reasons")
hwby=$(grep 'NODWIRE_HW=1' <<< "$reasons" | cut -d. -f1 | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}')
echo
echo "test.sh: ==== summary"
if [ -n "$total" ]; then
    echo "test.sh: XCTest: $n tests: $passed passed, $failed failed, $skipped skipped (exit $trc)"
else
    echo "test.sh: XCTest: no total reported (exit $trc): the tests did not run to the end; see above"
fi
[ "$hw" = 0 ] || echo "test.sh:   $hw skipped hardware tests ($hwby) need a GPIO chip and a camera: they run in the HIL VM" \
    "(gpio-sim, vimc) with NODWIRE_HW=1: hardware/ci-hil.sh (part of .ci/run)"
grep -v 'NODWIRE_HW=1' <<< "$reasons" | while IFS=$'\t' read -r t why; do
    if [ -n "$t" ]; then echo "test.sh:   skipped $t: $why"; fi
done
echo "test.sh: browser check (scripts/web-browser-check.sh): $([ $brc = 0 ] && echo passed || echo "FAILED (exit $brc)") in $bs s; screenshot $shot"
echo "test.sh: fuzz (scripts/fuzz.sh ${FUZZ_SECONDS:-30}): $([ $frc = 0 ] && echo passed || echo "FAILED (exit $frc)")"
[ "$trc" = 0 ] && [ -n "$total" ] && [ $brc = 0 ] && [ $frc = 0 ]
