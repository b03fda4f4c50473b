#!/usr/bin/env python3
"""An answer under way from the first frame, rendered with the shared renderer (../shared/synth/headsynth.py).

Issue 10's real clips included a person "shaking from the first frame": the camera starts while the head is
already swinging, somewhere in its swing (turned, or on its way back), so the face is found turned and there
is no rest to learn first. Each clip opens with one answer already under way at a phase the seed picks, then
rests, talks, rests and answers once more the other way (found once the face is known):
  --first shake: a "no" of 12-25° at 0.8-2 Hz, 2-3 cycles, then a "yes" (dips of ~12° at ~1.3 Hz, two);
  --first nod:   "yes" dips of 8-20° at 0.7-1.8 Hz, 2-3 of them, then a "no" (~15° at ~1.5 Hz, two cycles).
Out of CI and tuning (scripts/synth-check.sh --stress renders it on the four dev faces).

usage: firstframe.py SYNTH_DIR PHOTO OUTDIR NAME --first shake|nod [--seed N]
"""
import sys

import numpy as np

import humannods  # beside this script: dips, "no"s, laying them on the renderer's head
import synthclip

FPS = 30


def started(hz, rng):
    """Frames of an answer at `hz` the camera missed: it started 10-60% of a cycle into it."""
    return int(rng.uniform(0.1, 0.6) * FPS / hz)


def main():
    first = None
    if '--first' in sys.argv:
        i = sys.argv.index('--first'); first = sys.argv[i + 1]; del sys.argv[i:i + 2]
    if first not in ('shake', 'nod'):
        raise SystemExit('firstframe.py: --first shake or --first nod is required')
    hs, photo, outdir, name, seed = synthclip.arguments()
    rng = np.random.default_rng(seed)
    pieces = []
    rest = lambda s: pieces.append(humannods.held('none', s))
    talk = lambda s: pieces.append(humannods.held('none_talking', s, talking=True))
    if first == 'shake':
        hz = rng.uniform(0.8, 2.0)
        y, p = humannods.no(rng.uniform(12, 25), hz, int(rng.integers(2, 4)), rng.choice(['left', 'right']))
        cut = started(hz, rng)
        pieces.append(('shake', y[cut:], p[cut:], False))
    else:
        hz = rng.uniform(0.7, 1.8)
        p = humannods.dips(rng.uniform(8, 20), hz, int(rng.integers(2, 4)), rng)[started(hz, rng):]
        pieces.append(('nod', np.zeros(len(p)), p, False))
    rest(2.0); talk(3.0); rest(1.5)
    if first == 'shake':
        p = humannods.dips(rng.uniform(10, 14), rng.uniform(1.1, 1.5), 2, rng)
        pieces.append(('nod', np.zeros(len(p)), p, False))
    else:
        y, p = humannods.no(rng.uniform(12, 18), rng.uniform(1.3, 1.7), 2, rng.choice(['left', 'right']))
        pieces.append(('shake', y, p, False))
    rest(1.5)

    tracks, labels = humannods.on_head(hs, pieces, rng)
    synthclip.write(hs, photo, outdir, name, tracks, labels, FPS, rng, f'firstframe-{first}', seed, 130)


if __name__ == '__main__':
    main()
