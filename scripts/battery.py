#!/usr/bin/env python3
"""Summarise and compare regression batteries (scripts/battery.sh): one JSON line per clip replay, each the clip
line of `nodwire evaluate --json` with the folder ("set") and the start ("start") it was replayed from.

    scripts/battery.py summary RESULTS.jsonl          totals, then one line per folder
    scripts/battery.py compare BEFORE.jsonl AFTER.jsonl   the totals of both, then every replay whose found,
                                                     missed, false or wrong-way events changed, and at which frames
    scripts/battery.py late RESULTS.jsonl             how long after their end the nods and shakes found were
                                                     reported, and every one missed because it came too late

Found is out of the labelled segments; false events are those outside any window of their kind; "in talking"
is false nods and shakes inside talking segments, per minute of talking. A replay is one clip from one start.
"""
import json
import os
import sys

KINDS = ('nod', 'shake', 'look')
# The scorer's window after a segment's end, in frames (`GestureScore.after`, ../shared/synth/score-synth.py's POST),
# and how far past it a report still counts as that segment's, late, rather than another false one: a nod is reported
# once the head has rested after it, and no rule waits 2 s.
AFTER = 15
LATE_SECONDS = 2.0


def load(path):
    rows = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                o = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f'battery.py: {path} line {n} is not JSON ({e}): is it a file scripts/battery.sh wrote?')
            if 'set' not in o or 'start' not in o or 'name' not in o:
                sys.exit(f'battery.py: {path} line {n} has no "set", "start" or "name": not a battery line')
            rows[(o['set'], o['name'], o['start'])] = o
    if not rows:
        sys.exit(f'battery.py: {path} has no replays')
    return rows


def totals(rows):
    t = {k: {'segments': 0, 'found': 0, 'false': 0} for k in KINDS}
    t['wrong'] = 0
    t['talk_minutes'] = 0.0
    t['talk_false'] = 0
    t['replays'] = len(rows)
    for o in rows.values():
        for k in KINDS:
            for f in ('segments', 'found', 'false'):
                t[k][f] += o[k][f]
        t['wrong'] += o['look'].get('wrong_direction', 0)
        t['talk_minutes'] += o['talking']['minutes']
        t['talk_false'] += o['talking']['false']
    return t


def line(t):
    parts = [f"{k}s {t[k]['found']}/{t[k]['segments']}" for k in KINDS]
    parts.append(f"false nods/shakes/looks {t['nod']['false']}/{t['shake']['false']}/{t['look']['false']}")
    parts.append(f"wrong-way looks {t['wrong']}")
    parts.append(f"false in talking {t['talk_false']} in {t['talk_minutes']:.1f} min")
    return f"{t['replays']} replays: " + '; '.join(parts)


def short(folder):
    home = os.path.expanduser('~/.cache/nodwire/')
    return folder[len(home):] if folder.startswith(home) else folder


def summary(path):
    rows = load(path)
    print('all     ', line(totals(rows)))
    for folder in sorted({s for s, _, _ in rows}):
        print(f'  {short(folder)}:', line(totals({k: v for k, v in rows.items() if k[0] == folder})))


def compare(a_path, b_path):
    a, b = load(a_path), load(b_path)
    print('before  ', line(totals(a)))
    print('after   ', line(totals(b)))
    only = set(a) ^ set(b)
    if only:
        print(f'  {len(only)} replays in one battery only (not compared); the totals above include them')
    for key in sorted(set(a) & set(b)):
        x, y = a[key], b[key]
        changes = []
        for k in KINDS:
            for f, at in (('found', 'missed_at'), ('false', 'false_at')):
                if x[k][f] != y[k][f] or x[k].get(at) != y[k].get(at):
                    changes.append(f"{k} {f} {x[k][f]} -> {y[k][f]} ({at} {x[k].get(at)} -> {y[k].get(at)})")
        if x['look'].get('wrong_direction_at') != y['look'].get('wrong_direction_at'):
            changes.append(f"wrong-way looks at {x['look'].get('wrong_direction_at')} -> {y['look'].get('wrong_direction_at')}")
        if changes:
            print(f'  {short(key[0])}/{key[1]} from {key[2]:g} s: ' + '; '.join(changes))


def frame_rate(clip):
    """Frames a second of a Y4M clip, from its header's F field (30 if it cannot be read)."""
    try:
        with open(clip, 'rb') as f:
            header = f.readline(200).split()
        num, den = next(h[1:] for h in header if h.startswith(b'F')).split(b':')
        return int(num) / int(den)
    except (OSError, StopIteration, ValueError, ZeroDivisionError):
        return 30.0


def late(path):
    """The worst delay of each replay's nods and shakes (seconds after the labelled end), and each segment missed with
    an event of its kind within LATE_SECONDS after the scorer's window: heard, but reported too late to count."""
    rows = load(path)
    worst, found, missed, too_late = {}, 0, 0, []
    clips = {}   # (folder, name) -> (segments, fps): each clip is replayed from several starts
    for (folder, name, start), o in sorted(rows.items()):
        if (folder, name) not in clips:
            labels = os.path.join(folder, name + '.labels.json')
            try:
                with open(labels) as f:
                    clips[folder, name] = (json.load(f)['segments'], frame_rate(os.path.join(folder, name + '.y4m')))
            except (OSError, ValueError, KeyError) as e:
                sys.exit(f'battery.py: cannot read {labels} ({e}): late needs the clips\' labels where the battery found them')
        segments, fps = clips[folder, name]
        for k in ('nod', 'shake'):
            d = o[k]
            found += d['found']
            if d.get('delay_worst') is not None:
                w = round(d['delay_worst'], 1) + 0.0   # no -0
                worst[w] = worst.get(w, 0) + 1
            for m in d['missed_at']:
                missed += 1
                end = next((s['end'] for s in segments if s['label'] == k and s['start'] == m), None)
                after = [f for f in d['false_at'] if end is not None and end + AFTER < f <= end + AFTER + LATE_SECONDS * fps]
                if after:
                    too_late.append(f'  {short(folder)}/{name} from {start:g} s: {k}@{m} ended at frame {end}, reported at {after}')
    print(f'{found} nods and shakes found, {missed} missed; of those, {len(too_late)} reported too late for the window '
          f'({AFTER} frames after the end)')
    print('worst delay of a replay (s), how many replays: ' + (', '.join(f'{w:g}: {n}' for w, n in sorted(worst.items())) or 'none found'))
    print('\n'.join(too_late))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'summary':
        summary(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'compare':
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == 'late':
        late(sys.argv[2])
    else:
        sys.exit(__doc__)
