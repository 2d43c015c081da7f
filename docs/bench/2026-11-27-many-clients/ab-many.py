#!/usr/bin/env python3
"""Summarises an ab-many.sh folder: per run, the median over its 5 rounds of the calls per second
and of each side's CPU per call; then per pair new/old, and the median [min-max] over the pairs."""
import glob, os, re, statistics as st, sys

LINE = re.compile(r'(\d+) calls/s, RTT ([\d.]+) us, client CPU ([\d.]+) us/call, server CPU ([\d.]+) us/call')
runs = {}
for f in glob.glob(os.path.join(sys.argv[1], 'pair-*-*', 'loop-*.txt')):
    pair, side = re.search(r'pair-(\d+)-(old|new)', f).groups()
    rows = [tuple(map(float, m.groups())) for m in map(LINE.search, open(f)) if m]
    runs[(int(pair), side)] = [st.median(c) for c in zip(*rows)]
names = ['calls/s', 'RTT us', 'client CPU us/call', 'server CPU us/call']
ratios = {n: [] for n in names}
for p in sorted({k[0] for k in runs if (k[0], 'old') in runs and (k[0], 'new') in runs}):
    o, n = runs[(p, 'old')], runs[(p, 'new')]
    print(f'pair {p}: old ' + ', '.join(f'{k} {v:.1f}' for k, v in zip(names, o)))
    print(f'        new ' + ', '.join(f'{k} {v:.1f}' for k, v in zip(names, n)))
    for i, k in enumerate(names):
        ratios[k].append(n[i] / o[i])
for k, r in ratios.items():
    print(f'{k}: new/old {st.median(r):.2f} [{min(r):.2f}-{max(r):.2f}], new lower in {sum(x < 1 for x in r)} of {len(r)}')
