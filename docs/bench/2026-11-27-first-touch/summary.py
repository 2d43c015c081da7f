#!/usr/bin/env python3
"""Summarises run.sh: per run, each iteration's ns/op and the run's page faults.
  summary.py OUT_DIR"""
import glob, re, sys
out = sys.argv[1]
for path in sorted(glob.glob(f'{out}/jmh-*.txt'), key=lambda p: (p.rsplit('-', 1)[1], p)):
    mode, rnd = re.match(r'.*/jmh-(.+)-(\d+)\.txt', path).groups()
    iterations = [float(m) for m in re.findall(r'^Iteration\s+\d+: ([\d.]+) ns/op', open(path).read(), re.M)]
    faults = next(line.split(',')[0] for line in open(f'{out}/faults-{mode}-{rnd}.csv')
                  if 'page-faults' in line)
    print(f'round {rnd} {mode:11s} page faults {int(faults):>9,}  ns/op by iteration: '
          + ' '.join(f'{x:.0f}' for x in iterations))
