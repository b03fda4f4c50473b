#!/usr/bin/env python3
"""Nods and shakes shaped as people make them, rendered with the shared renderer (../shared/synth/headsynth.py).

The renderer's nods and shakes are sine waves about the rest, up as far as down. A person's "yes" is a dip:
down faster than back up, back to about where the head rested (a little above), often a short stay at the
top between dips, the face carried down the picture as the neck bends; a "yes" may come while they go on
talking. A person's "no" starts to one side and dips a little at each end. This clip is those, one after
another with rests between (amplitudes and rates varied by the seed, so each face gets its own):
  two dips at ~1.3 Hz (12°), three quick small dips (~2.2 Hz, 7°), one slow deep dip held at the bottom
  (20°), "yes, yes" with a 0.25 s stay at the top, talking, two dips while talking on, a "no" from the
  right (15°, dipping at its ends), a quick small "no" while talking, a slow wide "no" (0.8 Hz, 20°).
Out of CI and tuning (scripts/synth-check.sh --stress renders it on the four dev faces).

usage: humannods.py SYNTH_DIR PHOTO OUTDIR NAME [--seed N] [--talk-scale S]
  --talk-scale S   the talking's sways (yaw and pitch) times S (default 1): the renderer's talking sways a head
                   ±5°, where the real clm_look talks within ±2° (0.4 makes calm talking)
"""
import sys

import numpy as np

import synthclip  # beside this script

FPS = 30
# Face widths the face moves down the picture a degree of nod: the neck bends, not only the head.
CARRY_DOWN = 0.004


def half_cos(a, b, n):
    """n samples easing from a to b (a half cosine)."""
    return a + (b - a) * (1 - np.cos(np.pi * np.arange(1, n + 1) / n)) / 2 if n > 0 else np.zeros(0)


def dips(amp, hz, count, rng, overshoot=0.15, top_stay=0.0, bottom_stay=0.0, decay=0.8):
    """Pitch of `count` dips: down in 40% of a period, back up (past rest by `overshoot`) in 60%."""
    out = [np.zeros(0)]
    level = 0.0
    for i in range(count):
        a = amp * decay ** i
        down, up = int(round(0.4 / hz * FPS)), int(round(0.6 / hz * FPS))
        out.append(half_cos(level, -a, down))
        out.append(np.full(int(bottom_stay * FPS), -a))
        level = overshoot * a * rng.uniform(0.6, 1.4)
        out.append(half_cos(-a, level, up))
        if i < count - 1:
            out.append(np.full(int(top_stay * FPS), level))
    out.append(half_cos(level, 0.0, int(0.3 * FPS)))
    return np.concatenate(out)


def no(amp, hz, cycles, first, dip=0.12, decay=0.8):
    """Yaw and pitch of a "no": side to side from rest, the head dipping a little at each end."""
    n = int(round(cycles / hz * FPS))
    t = np.arange(n) / FPS
    env = decay ** (t * hz)
    yaw = (1 if first == 'right' else -1) * amp * env * np.sin(2 * np.pi * hz * t)
    pitch = -dip * np.abs(yaw)
    return yaw, pitch


def held(label, seconds, talking=False):
    """A piece of `seconds` with no gesture of its own: the head at rest, or the renderer's talking when `talking`."""
    n = int(seconds * FPS)
    return (label, np.zeros(n), np.zeros(n), talking)


def on_head(hs, pieces, rng, talk_scale=1.0):
    """`lay`s PIECES on the renderer's talking (its sways times `talk_scale`) and still head, made in that order
    from `rng` for the pieces' whole length: the tracks and labels to write."""
    n = sum(len(q[1]) for q in pieces)
    # The renderer's talking (and its slow wobble) over the whole clip, kept where the pieces talk.
    talking, _, _ = hs.script_to_tracks({'fps': FPS, 'steps': [{'talk': {'dur': n / FPS + 1}}]}, rng)
    talking[:2] *= talk_scale
    still, _, _ = hs.script_to_tracks({'fps': FPS, 'steps': [{'rest': n / FPS + 1}]}, rng)
    return lay(pieces, still, talking)


def lay(pieces, still, talking=None):
    """The renderer's tracks and a label a frame for PIECES, (label, yaw, pitch, talking on top) one after another:
    each piece's yaw and pitch laid on the renderer's still head (or its talking one), the face carried down
    with the pitch as a neck pivot carries it."""
    n = sum(len(q[1]) for q in pieces)
    tracks, labels, k = np.zeros((5, n)), [], 0
    for label, y, p, on_talk in pieces:
        m = len(y)
        base = talking if on_talk else still
        tracks[:, k:k + m] = base[:, k:k + m]
        tracks[0, k:k + m] += y
        tracks[1, k:k + m] += p
        tracks[4, k:k + m] += -CARRY_DOWN * p
        labels += [label] * m
        k += m
    return tracks, labels


def main():
    talk_scale = 1.0
    if '--talk-scale' in sys.argv:
        i = sys.argv.index('--talk-scale'); talk_scale = float(sys.argv[i + 1]); del sys.argv[i:i + 2]
    hs, photo, outdir, name, seed = synthclip.arguments()
    rng = np.random.default_rng(seed)
    vary = lambda x: x * rng.uniform(0.85, 1.15)

    # The pieces: (label, yaw, pitch, talking on top).
    pieces = []
    rest = lambda s: pieces.append(held('none', s))
    nod = lambda p, talking=False: pieces.append(('nod', np.zeros(len(p)), p, talking))
    talk = lambda s: pieces.append(held('none_talking', s, talking=True))
    rest(1.5)
    nod(dips(vary(12), vary(1.3), 2, rng)); rest(1.5)
    nod(dips(vary(7), vary(2.2), 3, rng, overshoot=0.1)); rest(1.5)
    nod(dips(vary(20), vary(0.8), 1, rng, bottom_stay=0.15)); rest(1.5)
    nod(dips(vary(12), vary(1.5), 2, rng, top_stay=0.25)); rest(1.5)
    talk(3.0); nod(dips(vary(10), vary(1.6), 2, rng), talking=True); talk(2.0); rest(1.5)
    y, p = no(vary(15), vary(1.6), 2, 'right'); pieces.append(('shake', y, p, False)); rest(1.5)
    talk(2.0); y, p = no(vary(8), vary(2.5), 3, 'left'); pieces.append(('shake', y, p, True)); talk(2.0); rest(1.5)
    y, p = no(vary(20), vary(0.8), 2, 'left'); pieces.append(('shake', y, p, False)); rest(1.5)

    tracks, labels = on_head(hs, pieces, rng, talk_scale)
    synthclip.write(hs, photo, outdir, name, tracks, labels, FPS, rng, 'humannods', seed, 130)


if __name__ == '__main__':
    main()
