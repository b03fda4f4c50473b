#!/usr/bin/env python3
"""Decodes video files to the luma-only YUV4MPEG2 clips `nodwire evaluate` reads (Cmono, each clip's own size
and frame rate), for scripts/realclips.sh. Needs OpenCV (the synth renderer's venv has it).

usage: realclips.py OUTDIR VIDEO...     (writes OUTDIR/NAME.y4m, NAME being the video's file name without its
                                         extension; a clip already there is kept)"""
import os
import sys
from fractions import Fraction

import cv2


def convert(video, out):
    cap = cv2.VideoCapture(video)
    if not cap.isOpened():
        raise SystemExit(f'realclips: cannot read {video}')
    # 23.976 and 29.97 fps videos report 24000/1001 and 30000/1001 as floats: written back as those fractions.
    rate = Fraction(cap.get(cv2.CAP_PROP_FPS)).limit_denominator(1001)
    frames = 0
    with open(out + '.part', 'wb') as f:
        while True:
            ok, image = cap.read()
            if not ok:
                break
            luma = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            if frames == 0:
                h, w = luma.shape
                f.write(f'YUV4MPEG2 W{w} H{h} F{rate.numerator}:{rate.denominator} Ip A1:1 Cmono\n'.encode())
            f.write(b'FRAME\n' + luma.tobytes())
            frames += 1
    if frames == 0:
        raise SystemExit(f'realclips: no frames in {video}')
    os.replace(out + '.part', out)
    print(f'{os.path.basename(out)}: {frames} frames at {float(rate):.3f} fps', file=sys.stderr)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for video in sys.argv[2:]:
        out = os.path.join(outdir, os.path.splitext(os.path.basename(video))[0] + '.y4m')
        if not os.path.exists(out):
            convert(video, out)


if __name__ == '__main__':
    main()
