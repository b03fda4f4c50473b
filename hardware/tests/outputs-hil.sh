#!/bin/sh
# Nodwire outputs HIL test (gestures -> GPIO lines, end to end): runs INSIDE the hardware/vm guest.
# The checks are in outputs_hil.py (next to this file; python3 of the host, seen through the chroot).
#   NODWIRE_BIN   the nodwire binary (default: <repo>/.build-hil/debug/nodwire)
#   NODWIRE_CLIP  clm_look.y4m (default: <repo>/.build-fixtures/clm_look.y4m, else unpacked from Tests/Fixtures)
command -v python3 >/dev/null || { echo "outputs-hil: CANNOT RUN: python3 missing"; exit 2; }
command -v gpioset >/dev/null && command -v gpioinfo >/dev/null || { echo "outputs-hil: CANNOT RUN: gpiod tools missing"; exit 2; }
exec python3 "$(dirname "$0")/outputs_hil.py"
