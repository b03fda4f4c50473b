#!/usr/bin/env python3
"""How much of a turn each pose reading shows, against the truth of rendered clips (docs/vision.md "MediaPipe
against the truth"). For each NAME.y4m with NAME.pose.csv beside it (a rendered sweep is best): Nodwire's pose
(`nodwire landmarks`) and MediaPipe's (`../shared/tools/mp_pose.py`), each less its median over the frames the
truth holds level (within 1 degree on both axes), and the least-squares slope through zero of one reading
against another over the frames past 5 degrees on one axis with the other within 4: ours / truth, MediaPipe /
truth and ours / MediaPipe, per axis and side. ours / MediaPipe is the only figure a real clip can give, so the
rendered faces say what it means.

usage: poseslope.py [--nodwire BIN] [--mp-pose SCRIPT] [--work DIR] CLIP.y4m...
Run it with the synth renderer's Python (scripts/pyenv.sh: MediaPipe, OpenCV, numpy)."""
import argparse, csv, hashlib, os, subprocess, sys
import numpy as np

AXES = ('yaw', 'pitch')


def read(path):
    """frame -> (yaw, pitch) from a CSV with frame,yaw,pitch columns; rows with an empty angle are skipped."""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r.get('yaw') in (None, '') or r.get('pitch') in (None, ''):
                continue
            out[int(r['frame'])] = (float(r['yaw']), float(r['pitch']))
    return out


def slope(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return float((x * y).sum() / (x * x).sum()) if len(x) >= 5 and (x * x).sum() > 0 else float('nan')


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('clips', nargs='+', metavar='CLIP.y4m')
    ap.add_argument('--nodwire', default=os.environ.get('NODWIRE_BIN', os.path.join(repo, '.build/release/nodwire')))
    ap.add_argument('--mp-pose', default=os.path.join(repo, '../shared/tools/mp_pose.py'))
    ap.add_argument('--work', default='/tmp/poseslope', help="where the readings go (MediaPipe's is reused for the same file)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    print(f"{'clip':28s} {'axis side':11s} {'ours/true':>9s} {'mp/true':>8s} {'ours/mp':>8s} {'frames':>6s}")
    for clip in a.clips:
        name = os.path.basename(clip)[:-4]
        truth_csv = clip[:-4] + '.pose.csv'
        if not os.path.exists(truth_csv):
            sys.exit(f'poseslope: {clip} has no {os.path.basename(truth_csv)} beside it (a rendered clip is needed)')
        # Ours is read afresh every time (it is what a change to Nodwire changes); MediaPipe's, which takes ~30 s a
        # clip, is kept under a name that says which file it read, so another clip of the same name is not mixed up.
        st = os.stat(clip)
        key = hashlib.sha1(f'{os.path.abspath(clip)} {st.st_size} {st.st_mtime_ns}'.encode()).hexdigest()[:12]
        ours_csv, mp_csv = os.path.join(a.work, f'{name}.ours.csv'), os.path.join(a.work, f'{name}.{key}.mp.csv')
        with open(ours_csv, 'w') as f:
            subprocess.run([a.nodwire, 'landmarks', clip], stdout=f, stderr=subprocess.DEVNULL, check=True)
        if not os.path.exists(mp_csv):
            subprocess.run([sys.executable, a.mp_pose, clip, mp_csv], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
        truth, ours, mp = read(truth_csv), read(ours_csv), read(mp_csv)
        frames = sorted(set(truth) & set(ours) & set(mp))
        level = [k for k in frames if abs(truth[k][0]) < 1 and abs(truth[k][1]) < 1]
        if not level:
            print(f'{name:28s} no frame holds level: skipped'); continue
        ours_rest = np.median([ours[k] for k in level], axis=0)
        mp_rest = np.median([mp[k] for k in level], axis=0)
        for i, axis in enumerate(AXES):
            for side, sign in (('-', -1), ('+', 1)):
                sel = [k for k in frames if sign * truth[k][i] > 5 and abs(truth[k][1 - i]) < 4]
                t = [truth[k][i] for k in sel]
                o = [ours[k][i] - ours_rest[i] for k in sel]
                m = [mp[k][i] - mp_rest[i] for k in sel]
                print(f'{name:28s} {axis + " " + side:11s} {slope(t, o):9.2f} {slope(t, m):8.2f} {slope(m, o):8.2f} {len(sel):6d}')


if __name__ == '__main__':
    main()
