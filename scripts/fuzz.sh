#!/usr/bin/env bash
# Fuzzes the Y4M and PGM readers with libFuzzer + AddressSanitizer.
#   scripts/fuzz.sh [SECONDS]     (default 30)
# Builds straight from the reader sources with swiftc (no dlib, no SwiftPM) into .build-fuzz/,
# seeds a corpus with small valid files, runs, and exits non-zero if a crash is found
# (the crashing input is saved under .build-fuzz/artifacts/; replay it with
#  .build-fuzz/reader-fuzz .build-fuzz/artifacts/crash-...).
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-30}
case $duration in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
out=.build-fuzz
mkdir -p "$out/seeds" "$out/corpus" "$out/artifacts"

echo "== building $out/reader-fuzz"
"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -module-name ReaderFuzz \
    Sources/Pipeline/LumaFrame.swift Sources/Pipeline/Readers/*.swift Fuzz/ReaderFuzz.swift \
    -o "$out/reader-fuzz"

# Seeds: small valid inputs of each kind (rewritten every run).
s=$out/seeds
printf 'YUV4MPEG2 W4 H2 F25:1 Ip A1:1 Cmono\nFRAME\n\x00\x10\x20\x30\x40\x50\x60\x70FRAME\n\x01\x11\x21\x31\x41\x51\x61\x71' > "$s/mono.y4m"
printf 'YUV4MPEG2 W3 H3 F30000:1001 It A0:0 C420jpeg XYSCSS=420JPEG\nFRAME\n\x01\x02\x03\x04\x05\x06\x07\x08\x09\x80\x80\x80\x80\x80\x80\x80\x80FRAME Ixyz\n\x09\x08\x07\x06\x05\x04\x03\x02\x01\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f' > "$s/c420.y4m"
printf 'YUV4MPEG2 W2 H1 F1:1 C444\nFRAME\n\x01\x02\x03\x04\x05\x06' > "$s/c444.y4m"
printf 'P5\n# seed\n3 2\n255\n\x00\x01\x02\xfd\xfe\xff' > "$s/gray.pgm"
printf 'P2\n# ascii seed\n3 2\n15\n0 1 2\n# row 2\n13 14 15\n' > "$s/ascii.pgm"

cat > "$out/reader.dict" <<'EOF'
"YUV4MPEG2 "
"FRAME\x0a"
"FRAME "
" W"
" H"
" F30000:1001"
" F25:1"
" Cmono"
" C420jpeg"
" C420paldv"
" C420mpeg2"
" C420"
" C422"
" C444"
" Ip"
" A1:1"
" XYSCSS=420JPEG"
"P5"
"P2"
"# "
"255"
"65535"
EOF

echo "== fuzzing for ${duration}s"
rc=0
"$out/reader-fuzz" -max_total_time="$duration" -rss_limit_mb=2048 -timeout=10 \
    -dict="$out/reader.dict" -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
    "$out/corpus" "$s" || rc=$?

if [ "$rc" -ne 0 ]; then
    echo "== fuzzing FOUND A PROBLEM (exit $rc); inputs saved in $out/artifacts/:" >&2
    ls -t "$out/artifacts" | head >&2
    exit 1
fi
echo "== no crash found in ${duration}s"
