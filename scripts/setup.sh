#!/usr/bin/env bash
# Installs what Nodwire needs to build and run, and nothing twice: Debian/Raspberry Pi OS packages,
# dlib's 5-point landmark model, and the unpacked test recordings. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libdlib-dev libblas-dev liblapack-dev libgpiod-dev libcamera-dev libcamera-ipa pkg-config xz-utils libmosquitto-dev libturbojpeg0-dev)
# --tests: also what only the tests use (a Mosquitto broker they start on loopback, its clients, openssl for TLS
# certificates; headless Chromium and Python's websocket client for the setup page in a real browser,
# scripts/web-browser-check.sh); a device running Nodwire needs neither.
[ "${1:-}" = --tests ] && packages+=(mosquitto mosquitto-clients openssl chromium python3-websocket)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

scripts/fetch-model.sh
scripts/fixtures.sh
