#!/usr/bin/env python3
"""Talking with head turns laid over it, rendered with the shared renderer (../shared/synth/headsynth.py).

The renderer plays its steps one after another: a look is made at rest, talking never turns. Real talkers
turn to look at something and go on talking, their sways on top of the turn; the held-out footage's turns
are that. This clip is 1.5 s of rest, then 32 s of the renderer's talking with seven turns added to it (left
and right 15-35°, up 15°, down 18°, held 1-2.5 s), each labelled as its look; the rest is `none_talking`.
Out of CI and tuning (scripts/synth-check.sh --stress renders it on the four dev faces).

usage: turntalk.py SYNTH_DIR PHOTO OUTDIR NAME [--seed N]
"""

import numpy as np

import synthclip  # beside this script

# (start s, direction, degrees, out s, hold s, back s)
TURNS = [(3.0, 'left', 25, 0.4, 1.5, 0.4), (7.5, 'right', 20, 0.5, 2.5, 0.5), (12.5, 'left', 30, 0.35, 1.0, 0.4),
         (16.5, 'up', 15, 0.4, 1.5, 0.4), (20.5, 'right', 15, 0.4, 1.2, 0.4), (24.5, 'down', 18, 0.4, 1.5, 0.4),
         (28.5, 'right', 35, 0.5, 2.0, 0.5)]
FPS, REST, TALK = 30, 1.5, 32.0


def main():
    hs, photo, outdir, name, seed = synthclip.arguments()
    rng = np.random.default_rng(seed)
    tracks, _, fps = hs.script_to_tracks({'fps': FPS, 'steps': [{'rest': REST}, {'talk': {'dur': TALK}}]}, rng)
    n = tracks.shape[1]
    labels = ['none'] * int(REST * fps) + ['none_talking'] * (n - int(REST * fps))
    for start, d, amp, out, hold, back in TURNS:
        n1, n2, n3 = int(out * fps), int(hold * fps), int(back * fps)
        profile = np.concatenate([hs.smoothstep(np.arange(n1) / n1), np.ones(n2), 1 - hs.smoothstep(np.arange(n3) / n3)])
        k0 = int(start * fps)
        axis = 0 if d in ('left', 'right') else 1
        tracks[axis, k0:k0 + len(profile)] += {'left': -1, 'right': 1, 'up': 1, 'down': -1}[d] * amp * profile
        labels[k0:k0 + len(profile)] = [hs.LOOK_LABEL[d]] * len(profile)
    synthclip.write(hs, photo, outdir, name, tracks, labels, fps, rng, 'turntalk', seed, 150)


if __name__ == '__main__':
    main()
