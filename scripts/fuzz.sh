#!/usr/bin/env bash
# Fuzzes the Y4M and PGM readers, then the config loader, with libFuzzer + AddressSanitizer.
#   scripts/fuzz.sh [SECONDS]     (default 30, for each)
# Builds straight from the sources with swiftc (no dlib, no SwiftPM build) into .build-fuzz/,
# seeds a corpus with small valid files, runs, and exits non-zero if a crash or a leak is found
# (the crashing input is saved under .build-fuzz/artifacts/; replay it with
#  .build-fuzz/reader-fuzz .build-fuzz/artifacts/crash-...  or  .build-fuzz/config-fuzz ...).
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

# Runs one fuzzer: NAME DICT CORPUS SEEDS [libFuzzer options].
fuzz() {
    echo "== fuzzing $1 for ${duration}s"
    local rc=0
    "$out/$1" -max_total_time="$duration" -rss_limit_mb=2048 -timeout=10 \
        -dict="$2" -artifact_prefix="$out/artifacts/" -print_final_stats=1 "${@:5}" "$3" "$4" || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "== fuzzing $1 FOUND A PROBLEM (exit $rc); inputs saved in $out/artifacts/:" >&2
        ls -t "$out/artifacts" | head >&2
        exit 1
    fi
    echo "== $1: no crash found in ${duration}s"
}
fuzz reader-fuzz "$out/reader.dict" "$out/corpus" "$s"

# The config loader: TOML text -> NodwireConfig. Only the loader's own files and the settings types are
# compiled (Gestures whole, Pipeline's VisionSettings alone), with toml++ under TOMLKit's C layer (CTOML)
# from the package checkout; the loader does not use TOMLKit's Swift layer. A settings type that another
# area adds must be added to `settings` below.
tk=.build/checkouts/TOMLKit
[ -d "$tk" ] || swift package resolve >/dev/null
clangxx=${CLANGXX:-$(dirname "$swiftc")/clang++}
m=$out/config-modules
ctoml=(-Xcc -fmodule-map-file="$tk/Sources/CTOML/include/CTOML/module.modulemap" -I "$tk/Sources/CTOML/include/CTOML"
       -Xcc -fmodule-map-file=Sources/CTOMLRelease/include/module.modulemap -I Sources/CTOMLRelease/include)
mkdir -p "$m" "$out/config-corpus" "$out/config-seeds"
echo "== building $out/config-fuzz"
for cpp in "$tk"/Sources/CTOML/Sources/*.cpp; do
    "$clangxx" -c -std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address -DTOML_EXCEPTIONS=1 \
        -I "$tk/Sources/CTOML/include" "$cpp" -o "$m/ctoml-$(basename "$cpp" .cpp | tr '&' '_').o"
done
"$clangxx" -x c -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CTOMLRelease/include Sources/CTOMLRelease/CTOMLRelease.c -o "$m/ctomlrelease.o"
module() {   # NAME SOURCES...: one Swift module with coverage, as an object and a .swiftmodule
    local name=$1; shift
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -wmo -module-name "$name" -I "$m" "${ctoml[@]}" \
        -emit-module -emit-module-path "$m/$name.swiftmodule" -c -o "$m/$name.o" "$@"
}
module Gestures Sources/Gestures/*.swift
module Pipeline Sources/Pipeline/Vision/VisionSettings.swift Sources/Pipeline/Camera/CameraSettings.swift Sources/Pipeline/Camera/CameraError.swift \
    Sources/Pipeline/Budget/BudgetSettings.swift Sources/Pipeline/Budget/PowerModel.swift
settings=(Sources/Appliance/Run/RunSettings.swift Sources/Appliance/Outputs/OutputsConfig.swift
          Sources/Appliance/Outputs/GPIOLineSpec.swift Sources/Appliance/Outputs/GPIOError.swift)
"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -module-name ConfigFuzz -I "$m" "${ctoml[@]}" \
    Sources/Appliance/Config/*.swift "${settings[@]}" Fuzz/ConfigFuzz.swift \
    "$m"/Gestures.o "$m"/Pipeline.o "$m"/ctoml-*.o "$m"/ctomlrelease.o -lstdc++ -o "$out/config-fuzz"

c=$out/config-seeds
printf '[vision]\nmirrored = true\nmin_face_size = 90\n[gestures.zones]\nthreshold_yaw = 15\n' > "$c/basic.toml"
printf '[gestures.smoothing]\nkind = "moving_average"\nwindow = 5\n[gestures.nod]\nmin_amplitude = 9.5\nsingle = false\n' > "$c/swing.toml"
printf '[logging]\nlevel = "debug"\nformat = "journal"\n[events]\nsocket_path = "/run/nodwire/events.sock"\nstdout = false\n' > "$c/run.toml"
printf 'gestures.zones.idle_yaw = 4.5\n"gestures".refractory = 2\n[gestures.calibration]\nseconds = 0.6 # c\n' > "$c/dotted.toml"
{
    for token in '[vision]' '[gestures.zones]' '[gestures.nod]' '[logging]' '[events]' ' = ' true false '1e3' '-0.0' \
                 nan inf '[[' ']]' '{' '}' '#' "'''" '\\' '\"'; do
        printf '"%s"\n' "$token"
    done
    grep -ho '"[a-z_]*\.[a-z_.]*"' Sources/Appliance/Config/*.swift | tr -d '"' | sed 's/.*\.//' | grep -v '^$' | sort -u | sed 's/.*/"&"/'
} > "$out/config.dict"
# Leaks fail the run (LeakSanitizer, checked by libFuzzer after any input that mallocs more than it frees):
# the loader used to leak the whole parsed document on every load (TOMLKit's Swift layer frees nothing it
# gets from C; see Sources/Appliance/Config/TOMLDocument.swift), which a reload loop turns into a growing RSS.
fuzz config-fuzz "$out/config.dict" "$out/config-corpus" "$c" -detect_leaks=1
