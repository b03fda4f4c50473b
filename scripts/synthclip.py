"""What scripts/turntalk.py and scripts/humannods.py share: a clip rendered from per-frame pose tracks and labels
with the shared renderer (../shared/synth/headsynth.py), written in its format (NAME.y4m, NAME.pose.csv,
NAME.labels.json; see its README)."""
import json
import os
import sys

import cv2
import numpy as np


def arguments():
    """`SYNTH_DIR PHOTO OUTDIR NAME [--seed N]` from the command line: the renderer (imported from SYNTH_DIR),
    the photo, where the clip goes, its name and the seed (0 if not given)."""
    args = sys.argv[1:]
    seed = 0
    if '--seed' in args:
        i = args.index('--seed'); seed = int(args[i + 1]); del args[i:i + 2]
    if len(args) != 4:
        raise SystemExit(f'usage: {os.path.basename(sys.argv[0])} SYNTH_DIR PHOTO OUTDIR NAME [--seed N]')
    synth, photo, outdir, name = args
    sys.path.insert(0, synth)
    import headsynth
    return headsynth, photo, outdir, name, seed


def segments(labels):
    """Per-frame labels as the timeline's segments: runs of one label, 0-based inclusive frames."""
    out = []
    for k, label in enumerate(labels):
        if out and out[-1]['label'] == label:
            out[-1]['end'] = k
        else:
            out.append({'label': label, 'start': k, 'end': k})
    return out


def write(hs, photo, outdir, name, tracks, labels, fps, rng, maker, seed, face_width):
    """Renders `tracks` (yaw, pitch, roll, dx, dy a frame) of the face in `photo`, centred at (320, 230) and
    `face_width` px wide, with the renderer's sensor noise; the labels name the maker, the photo and the seed."""
    picture = cv2.imread(photo, cv2.IMREAD_GRAYSCALE)
    if picture is None:
        raise SystemExit(f'cannot read {photo}')
    canvas = hs.place(picture, face_width, (320, 230))
    model = hs.build_model(canvas)
    focal = 0.8 * 640
    n = tracks.shape[1]
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
    json.dump({'source': f'{maker} {os.path.basename(photo)} seed {seed}', 'fps': f'{fps}/1', 'frames': n, 'segments': segments(labels)},
              open(f'{outdir}/{name}.labels.json', 'w'), indent=1)
