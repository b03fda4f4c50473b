#!/usr/bin/env python3
"""Make degraded copies of a folder of labelled clips, to check gesture recognition under bad conditions.

These are the degraded sets that docs/gestures.md and docs/vision.md quote: dimmed, noisy, webcam JPEG,
motion blur, lower frame rate, repeated frames, half size, a camera rocking on its mount, a face half hidden,
a face changing shape, HD.

A clip is NAME.y4m (YUV4MPEG2, 8 bit, Cmono or 4:2:0/4:2:2/4:4:4; only the luma is read and Cmono is
written) with NAME.labels.json ({"segments": [{"label", "start", "end"}]}, 0-based inclusive frames) and
optionally NAME.pose.csv (a header line, then frame,yaw,pitch,...) beside it. Every operation reads each
clip of SRC and writes the degraded clip to DST under the same name, with its labels and pose copied
(renumbered by `rate` and `quicken`, which drop frames).

Needs numpy and opencv; the synth renderer's venv has both:
    ~/.cache/headsynth-venv/bin/python scripts/degrade.py OP SRC DST [options]

Operations (defaults in brackets):
  rate      keep every STEP-th frame [2: 15 fps from 30]; labels and pose renumbered, fps header divided
  quicken   play FACTOR times as fast [2], the fps header kept: the frame nearest behind each k x FACTOR;
            labels and pose renumbered (a livelier person: real talking quickened)
  scale     resize by FACTOR [0.5: half size] (area filter, sides rounded down to even)
  dim       grey levels x GAIN [0.3], rounded, through a lookup table ("dimmed to 0.3")
  webcam    grey levels x GAIN, gaussian noise of sigma NOISE, then a JPEG round trip at QUALITY
            [1, 4, 30: "webcam noise and JPEG 30"]; the noise generator is seeded once per run with SEED [1]
            and runs on through the clips in name order, so a clip's noise depends on the clips before it
  blur      each frame the mean of itself and the K-1 frames before it [2: "a two-frame motion blur"]
  judder    motion sampled at RATE fps and shown at the clip's own rate [24]: each frame shows the one
            nearest the slower camera's last sample, so a 30 fps clip becomes a 24 (25) fps recording
            converted to 30, one frame in five (six) a repeat, as phone and camera footage often is;
            frame numbers, labels and pose unchanged; a clip no faster than RATE is copied as it is
  wobble    roll the picture along AXIS by AMPLITUDE px at HZ during SPANS (start,duration s), easing in
            and out over 0.2 s [v, 45, 2, 3,2 12,2 26,2]: a camera rocking on its mount
  occlude   grey (70) blocks over part of the face at fixed times (3-5.5 s, 10-12 s, 17-20 s sliding right
            at 60 px/s, 24-26 s); the boxes assume a 640x480 picture with the face near (320, 230), as the
            rendered clips of the synth check scripts have
  light     the light switched down (grey levels above black x0.45 for 2 s at 3, 12 and 26 s) and mains
            flicker (±12% at 10 Hz from 17 to 23 s)
  letterbox scale to fit WIDTH x HEIGHT [1280 x 960], bilinear, centred on grey (110)
  expression move the base of the nose and the upper lip up and down (AXIS v; h: sideways, a face pulled
            to one side) by AMPLITUDE eye distances (down positive) at HZ during SPANS, easing in and out over
            0.2 s, the eyes and the head still: a face changing shape [v, 0.04, 2, 3,2 12,2 26,2]; needs
            LANDMARKS/NAME.csv of `nodwire landmarks` for
            each clip (the warp follows its nose landmark; a Gaussian 0.25 eye distances wide, centred
            0.15 below it)

`rate` and `scale` take each other's option too (`rate --step 2 --factor 0.5`). --clips NAME... limits a run
to the named clips. The sets the docs quote were made with exactly these operations (same maths, seeding
and headers), so they can be made again byte for byte. The headers: rate/scale write
`YUV4MPEG2 W H F<num>:<den*step> Ip A1:1 Cmono`; dim/webcam/blur keep the input's tags but move Cmono to
the end; wobble/occlude copy a Cmono input's header unchanged; letterbox keeps only the F, I and A tags.
"""
import argparse
import glob
import itertools
import json
import math
import os
import shutil
import sys

import cv2
import numpy as np

# (start s, duration s, x0, y0, x1, y1, slide px/s): hand-sized blocks over a face near (320, 230) in 640x480
OCCLUDE_SPANS = [(3, 2.5, 320, 140, 420, 330, 0), (10, 2.0, 230, 250, 420, 340, 0),
                 (17, 3.0, 200, 140, 280, 330, 60), (24, 2.0, 250, 150, 400, 220, 0)]
# When `light` switches the light down (for 2 s each), in seconds
LIGHT_SWITCHED = (3, 12, 26)


class Clip:
    """A y4m file opened for reading: header tokens, size, rate, and its frames' luma."""

    def __init__(self, path):
        self.f = open(path, 'rb')
        self.line = self.f.readline()
        self.tokens = self.line.decode().split()
        tag = lambda ch: [t for t in self.tokens if t[0] == ch]
        self.W, self.H = int(tag('W')[0][1:]), int(tag('H')[0][1:])
        self.rate = tag('F')[0][1:].split(':') if tag('F') else None
        self.colour = (tag('C') or ['C420'])[0]
        self.mono = self.colour == 'Cmono'
        W, H = self.W, self.H
        if self.mono:
            chroma = 0
        elif self.colour.startswith('C420'):
            chroma = W * H // 2
        elif self.colour.startswith('C422'):
            chroma = W * H
        elif self.colour in ('C444', 'C444alpha'):
            chroma = (2 if self.colour == 'C444' else 3) * W * H
        else:
            sys.exit(f'{path}: unsupported colour space {self.colour}')
        self.fsize = W * H + chroma

    def fps(self):
        return int(self.rate[0]) / int(self.rate[1])

    def frames(self):
        """Each whole frame's luma as a read-only H x W uint8 array; a cut-off last frame is dropped."""
        while self.f.readline():
            buf = self.f.read(self.fsize)
            if len(buf) < self.fsize:
                return
            yield np.frombuffer(buf, np.uint8, self.W * self.H).reshape(self.H, self.W)

    def header_cmono_last(self):
        """The input's tags without its colour space, then Cmono (dim, webcam, blur)."""
        return (' '.join([t for t in self.tokens if t[0] != 'C'] + ['Cmono']) + '\n').encode()

    def header_kept(self):
        """A Cmono input's header as it is, any other as header_cmono_last (wobble, occlude)."""
        return self.line if self.mono else self.header_cmono_last()


def copy_sidecars(src, dst, name):
    for ext in ('.labels.json', '.pose.csv'):
        if os.path.exists(f'{src}/{name}{ext}'):
            shutil.copy(f'{src}/{name}{ext}', f'{dst}/{name}{ext}')


def op_rate(clip, out, a, state):
    step, scale = a.step, a.factor
    W, H = clip.W, clip.H
    nw, nh = (W, H) if scale == 1 else (int(round(W * scale)) // 2 * 2, int(round(H * scale)) // 2 * 2)
    num, den = int(clip.rate[0]), int(clip.rate[1])
    out.write(f'YUV4MPEG2 W{nw} H{nh} F{num}:{den * step} Ip A1:1 Cmono\n'.encode())
    for i, img in enumerate(clip.frames()):
        if i % step == 0:
            if scale != 1:
                img = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
            out.write(b'FRAME\n')
            out.write(img.tobytes())
    return f'{nw} {nh}'


def quickened(factor):
    """Source frame of each output frame k, in order: the one nearest behind k x FACTOR."""
    return (int(k * factor) for k in itertools.count())


def op_quicken(clip, out, a, state):
    out.write(clip.header_kept())
    wanted = quickened(a.factor)
    want = next(wanted)
    for i, img in enumerate(clip.frames()):
        if i == want:
            out.write(b'FRAME\n')
            out.write(img.tobytes())
            want = next(wanted)


def renumber_sidecars(src, dst, name, factor):
    """Labels and pose of a clip whose frame k is source frame int(k x FACTOR) (`quickened`): every STEP-th
    frame for `rate`, a clip played FACTOR times as fast for `quicken`."""
    if os.path.exists(f'{src}/{name}.labels.json'):
        lab = json.load(open(f'{src}/{name}.labels.json'))
        for s in lab['segments']:
            s['start'] = math.ceil(s['start'] / factor)
            s['end'] = math.ceil((s['end'] + 1) / factor) - 1
        lab['segments'] = [s for s in lab['segments'] if s['end'] >= s['start']]
        with open(f'{dst}/{name}.labels.json', 'w') as o:
            json.dump(lab, o)
    p = f'{src}/{name}.pose.csv'
    if os.path.exists(p):
        rows = open(p).read().splitlines()
        frames = {int(r.split(',')[0]): r for r in rows[1:]}
        out = [rows[0]]
        last = max(frames, default=-1)
        for k, fr in enumerate(itertools.takewhile(lambda f: f <= last, quickened(factor))):
            if fr in frames:
                out.append(','.join([str(k)] + frames[fr].split(',')[1:]))
        with open(f'{dst}/{name}.pose.csv', 'w') as o:
            o.write('\n'.join(out) + '\n')


def op_dim(clip, out, a, state):
    lut = np.array([min(255, int(v * a.gain + 0.5)) for v in range(256)], np.uint8)
    out.write(clip.header_cmono_last())
    for img in clip.frames():
        out.write(b'FRAME\n')
        out.write(lut[img].tobytes())


def op_webcam(clip, out, a, state):
    rng = state.setdefault('rng', np.random.default_rng(a.seed))   # one generator for the whole run
    out.write(clip.header_cmono_last())
    for img in clip.frames():
        img = img.astype(np.float32) * a.gain
        img += rng.normal(0, a.noise, img.shape)
        img = np.clip(img, 0, 255).astype(np.uint8)
        ok, enc = cv2.imencode('.jpg', img, [cv2.IMWRITE_JPEG_QUALITY, a.quality])
        img = cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE)
        out.write(b'FRAME\n')
        out.write(img.tobytes())


def op_blur(clip, out, a, state):
    out.write(clip.header_cmono_last())
    hist = []
    for img in clip.frames():
        hist.append(img.astype(np.float32))
        hist = hist[-a.k:]
        out.write(b'FRAME\n')
        out.write(np.clip(np.mean(hist, 0) + 0.5, 0, 255).astype(np.uint8).tobytes())


def op_judder(clip, out, a, state):
    fps = clip.fps()
    rate = min(a.rate, fps)   # a clip already that slow is copied as it is
    out.write(clip.header_kept())
    kept = {}
    for k, img in enumerate(clip.frames()):
        kept[k] = img
        # The last instant the slower camera sampled at or before this frame's time, as the nearest frame.
        shown = min(k, int(round(int(k * rate / fps + 1e-9) * fps / rate)))
        out.write(b'FRAME\n')
        out.write(kept[shown].tobytes())
        for old in [j for j in kept if j < shown]:
            del kept[old]
    return 'unchanged: not faster than --rate' if rate == fps else ''


def timed(clip, out, change):
    """Writes the clip with the input's header, each frame's luma replaced by change(t in s, luma)."""
    fps = clip.fps()
    out.write(clip.header_kept())
    for k, img in enumerate(clip.frames()):
        out.write(b'FRAME\n')
        out.write(change(k / fps, img).tobytes())


def op_wobble(clip, out, a, state):
    def rock(t, img):
        d = 0
        for s0, dur in a.spans:                      # a later span overlapping an earlier one wins
            if s0 <= t < s0 + dur:
                env = min(1, (t - s0) / 0.2, (s0 + dur - t) / 0.2)
                d = int(round(a.amplitude * env * np.sin(2 * np.pi * a.hz * (t - s0))))
        return np.roll(img, d, axis=0 if a.axis == 'v' else 1)
    timed(clip, out, rock)


def op_occlude(clip, out, a, state):
    def cover(t, img):
        img = img.copy()
        for s0, d, x0, y0, x1, y1, v in OCCLUDE_SPANS:
            if s0 <= t < s0 + d:
                dx = int(v * (t - s0))
                img[y0:y1, x0 + dx:x1 + dx] = 70
        return img
    timed(clip, out, cover)


def op_light(clip, out, a, state):
    def lit(t, img):
        g = 1.0
        for s0 in LIGHT_SWITCHED:
            if s0 <= t < s0 + 2:
                g = 0.45
        if 17 <= t < 23:
            g = 1 + 0.12 * np.sin(2 * np.pi * 10 * t)
        return np.clip(16 + (img.astype(np.float32) - 16) * g, 0, 255).astype(np.uint8)
    timed(clip, out, lit)


def op_expression(clip, out, a, state):
    """Moves the base of the nose and the upper lip up and down (the face changes shape; the head and the
    eyes stay put), as a wrinkled nose, an opening mouth or chewing do. Where the nose is comes from the
    clip's `nodwire landmarks` CSV (LANDMARKS/NAME.csv)."""
    rows = {}
    for r in open(f'{a.landmarks}/{clip.name}.csv').read().splitlines()[1:]:
        c = r.split(',')
        if c[2] == '1':
            x = [float(v) for v in c[3:13]]
            ed = np.hypot((x[0] + x[2]) / 2 - (x[4] + x[6]) / 2, (x[1] + x[3]) / 2 - (x[5] + x[7]) / 2)
            rows[int(c[0])] = (x[8], x[9], ed)
    fps, H, W = clip.fps(), clip.H, clip.W
    gy, gx = np.mgrid[0:H, 0:W].astype(np.float32)
    out.write(clip.header_kept())
    last = None
    for k, img in enumerate(clip.frames()):
        t = k / fps
        last = rows.get(k, last)
        d = 0.0
        for s0, dur in a.spans:
            if s0 <= t < s0 + dur:
                env = min(1, (t - s0) / 0.2, (s0 + dur - t) / 0.2)
                d = a.amplitude * env * np.sin(2 * np.pi * a.hz * (t - s0))
        if last and d:
            nx, ny, ed = last
            # Centred a little below the nose base (the upper lip moves with it); gone by the eyes.
            w = np.exp(-((gx - nx) ** 2 + (gy - ny - 0.15 * ed) ** 2) / (2 * (0.25 * ed) ** 2))
            shift = (d * ed * w).astype(np.float32)
            img = cv2.remap(img, gx - shift, gy, cv2.INTER_LINEAR) if a.axis == 'h' else cv2.remap(img, gx, gy - shift, cv2.INTER_LINEAR)
        out.write(b'FRAME\n')
        out.write(np.ascontiguousarray(img).tobytes())


def op_letterbox(clip, out, a, state):
    W, H, w, h = a.width, a.height, clip.W, clip.H
    s = min(W / w, H / h)
    nw, nh = int(round(w * s)), int(round(h * s))
    x0, y0 = (W - nw) // 2, (H - nh) // 2
    keep = [t for t in clip.tokens[1:] if t[0] in 'FIA']
    out.write(('YUV4MPEG2 W%d H%d %s Cmono\n' % (W, H, ' '.join(keep))).encode())
    for img in clip.frames():
        o = np.full((H, W), 110, np.uint8)
        o[y0:y0 + nh, x0:x0 + nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
        out.write(b'FRAME\n')
        out.write(o.tobytes())


def run(a):
    if os.path.realpath(a.src) == os.path.realpath(a.dst):
        sys.exit('DST must not be SRC')
    names = a.clips or [os.path.basename(y)[:-4] for y in sorted(glob.glob(a.src + '/*.y4m'))]
    if not names:
        sys.exit(f'no .y4m clips in {a.src}')
    os.makedirs(a.dst, exist_ok=True)
    state = {}
    for name in names:
        clip = Clip(f'{a.src}/{name}.y4m')
        clip.name = name
        with open(f'{a.dst}/{name}.y4m', 'wb') as out:
            note = a.op(clip, out, a, state)
        if a.op is op_rate:
            renumber_sidecars(a.src, a.dst, name, a.step)
        elif a.op is op_quicken:
            renumber_sidecars(a.src, a.dst, name, a.factor)
        else:
            copy_sidecars(a.src, a.dst, name)
        print(name, note or '', flush=True)


def faster(s):
    f = float(s)
    if not f >= 1:
        raise argparse.ArgumentTypeError(f'{s}: a factor of at least 1 (a clip can be quickened, not slowed)')
    return f


def frame_rate(s):
    f = float(s)
    if not f > 0:
        raise argparse.ArgumentTypeError(f'{s}: frames a second, above 0')
    return f


def span(s):
    start, dur = s.split(',')
    return float(start), float(dur)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__[__doc__.index('Operations'):])
    sub = p.add_subparsers(dest='name', required=True, metavar='OP')

    def op(name, fn, help):
        s = sub.add_parser(name, help=help, description=help)
        s.add_argument('src', metavar='SRC', help='folder of NAME.y4m (+ .labels.json, .pose.csv)')
        s.add_argument('dst', metavar='DST', help='folder to write to (made if missing)')
        s.add_argument('--clips', nargs='+', metavar='NAME', help='only these clips (default: every .y4m)')
        s.set_defaults(op=fn)
        return s

    s = op('rate', op_rate, 'keep every STEP-th frame (labels and pose renumbered)')
    s.add_argument('--step', type=int, default=2, help='keep frames 0, STEP, 2 STEP, ... (default 2)')
    s.add_argument('--factor', type=float, default=1.0, help='also scale by this (default 1)')
    s = op('quicken', op_quicken, 'play FACTOR times as fast, the fps header kept (labels and pose renumbered)')
    s.add_argument('--factor', type=faster, default=2.0, help='at least 1 (default 2)')
    s = op('scale', op_rate, 'resize by FACTOR (area filter, sides rounded down to even)')
    s.add_argument('--factor', type=float, default=0.5, help='default 0.5')
    s.add_argument('--step', type=int, default=1, help='also keep only every STEP-th frame (default 1)')
    s = op('dim', op_dim, 'grey levels x GAIN, rounded (a lookup table)')
    s.add_argument('--gain', type=float, default=0.3, help='default 0.3')
    s = op('webcam', op_webcam, 'x GAIN, gaussian noise, JPEG round trip')
    s.add_argument('--gain', type=float, default=1.0, help='default 1')
    s.add_argument('--noise', type=float, default=4.0, help='noise sigma in grey levels (default 4)')
    s.add_argument('--quality', type=int, default=30, help='JPEG quality (default 30)')
    s.add_argument('--seed', type=int, default=1, help='noise seed, once per run (default 1)')
    s = op('blur', op_blur, 'each frame the mean of the last K frames (motion blur)')
    s.add_argument('--k', type=int, default=2, help='frames averaged (default 2)')
    s = op('judder', op_judder, 'motion sampled at RATE fps, shown at the clip\'s rate by repeating frames')
    s.add_argument('--rate', type=frame_rate, default=24.0, help='frames a second the motion is sampled at (default 24)')
    s = op('wobble', op_wobble, 'roll the picture like a camera rocking on its mount')
    s.add_argument('--axis', choices=['v', 'h'], default='v', help='v: up and down, h: sideways (default v)')
    s.add_argument('--amplitude', type=float, default=45.0, help='pixels (default 45)')
    s.add_argument('--hz', type=float, default=2.0, help='default 2')
    s.add_argument('--spans', type=span, nargs='+', default=[(3, 2), (12, 2), (26, 2)], metavar='START,DUR',
                   help='seconds (default 3,2 12,2 26,2)')
    op('occlude', op_occlude, 'grey blocks over a face near (320, 230) at fixed times')
    op('light', op_light, 'the light switched down and mains flicker at fixed times')
    s = op('expression', op_expression, 'move the base of the nose and the upper lip, not the head')
    s.add_argument('--landmarks', required=True, metavar='DIR', help='NAME.csv of `nodwire landmarks` for each clip')
    s.add_argument('--axis', choices=['v', 'h'], default='v',
                   help='v: up and down, h: sideways, a face pulled to one side (default v)')
    s.add_argument('--amplitude', type=float, default=0.04, help='eye distances, down (or to the right) positive (default 0.04)')
    s.add_argument('--hz', type=float, default=2.0, help='default 2')
    s.add_argument('--spans', type=span, nargs='+', default=[(3, 2), (12, 2), (26, 2)], metavar='START,DUR',
                   help='seconds (default 3,2 12,2 26,2)')
    s = op('letterbox', op_letterbox, 'scale to fit WIDTH x HEIGHT, centred on grey')
    s.add_argument('--width', type=int, default=1280, help='default 1280')
    s.add_argument('--height', type=int, default=960, help='default 960')
    run(p.parse_args())


if __name__ == '__main__':
    main()
