#!/usr/bin/env python3
"""Talking with head turns laid over it, rendered with the shared renderer (../shared/synth/headsynth.py).

The renderer plays its steps one after another: a look is made at rest, talking never turns. Real talkers
turn to look at something and go on talking, their sways on top of the turn; the held-out footage's turns
are that. This clip is 1.5 s of rest, then 32 s of the renderer's talking with seven turns added to it (left
and right 15-35°, up 15°, down 18°, held 1-2.5 s), each labelled as its look; the rest is `none_talking`.
Out of CI and tuning (scripts/synth-check.sh --stress renders it on the four dev faces).

usage: turntalk.py SYNTH_DIR PHOTO OUTDIR NAME [--seed N]
"""
import json
import os
import sys

import cv2
import numpy as np

# (start s, direction, degrees, out s, hold s, back s)
TURNS = [(3.0, 'left', 25, 0.4, 1.5, 0.4), (7.5, 'right', 20, 0.5, 2.5, 0.5), (12.5, 'left', 30, 0.35, 1.0, 0.4),
         (16.5, 'up', 15, 0.4, 1.5, 0.4), (20.5, 'right', 15, 0.4, 1.2, 0.4), (24.5, 'down', 18, 0.4, 1.5, 0.4),
         (28.5, 'right', 35, 0.5, 2.0, 0.5)]
FPS, REST, TALK = 30, 1.5, 32.0


def main():
    args = sys.argv[1:]
    seed = 0
    if '--seed' in args:
        i = args.index('--seed'); seed = int(args[i + 1]); del args[i:i + 2]
    synth, photo, outdir, name = args
    sys.path.insert(0, synth)
    import headsynth as hs
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
    segments = []
    for k, label in enumerate(labels):
        if segments and segments[-1]['label'] == label:
            segments[-1]['end'] = k
        else:
            segments.append({'label': label, 'start': k, 'end': k})
    picture = cv2.imread(photo, cv2.IMREAD_GRAYSCALE)
    if picture is None:
        raise SystemExit(f'cannot read {photo}')
    canvas = hs.place(picture, 150, (320, 230))
    model = hs.build_model(canvas)
    focal = 0.8 * 640
    os.makedirs(outdir, exist_ok=True)
    with open(f'{outdir}/{name}.y4m', 'wb') as y4m, open(f'{outdir}/{name}.pose.csv', 'w') as csv:
        y4m.write(f'YUV4MPEG2 W640 H480 F{fps}:1 Ip A1:1 Cmono XCOLORRANGE=LIMITED\n'.encode())
        csv.write('frame,yaw,pitch,roll,dx,dy\n')
        for k in range(n):
            img = hs.render(canvas, model, tracks[:, k], focal).astype(np.float32)
            img += rng.normal(0, 1.5, img.shape)
            y4m.write(b'FRAME\n' + np.clip(img, 16, 235).astype(np.uint8).tobytes())
            csv.write(f'{k},{tracks[0, k]:.2f},{tracks[1, k]:.2f},{tracks[2, k]:.2f},{tracks[3, k]:.3f},{tracks[4, k]:.3f}\n')
    # The labels last: a clip is done once they are written.
    json.dump({'source': f'turntalk {os.path.basename(photo)} seed {seed}', 'fps': f'{fps}/1', 'frames': n, 'segments': segments},
              open(f'{outdir}/{name}.labels.json', 'w'), indent=1)


if __name__ == '__main__':
    main()
