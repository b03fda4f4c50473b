#!/usr/bin/env bash
# Unpacks the compressed test recordings into .build-fixtures/ (what tests, the demo and benchmarks read),
# with their labels beside them so `nodwire evaluate .build-fixtures` scores them (docs/accuracy.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build-fixtures
for f in Tests/Fixtures/clips/*.y4m.xz; do
    out=.build-fixtures/$(basename "${f%.xz}")
    [ -s "$out" ] && [ "$out" -nt "$f" ] && continue
    xz -dc "$f" > "$out.part" && mv "$out.part" "$out"
done
for f in Tests/Fixtures/clips/*.labels.json; do
    cp -p "$f" .build-fixtures/
done
