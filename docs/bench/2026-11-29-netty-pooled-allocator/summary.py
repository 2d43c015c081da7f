"""Medians per cell of the runs of run.sh (its transport modes), side by side, and one build's median
over all its runs against another's. A run folder is named N-BUILD (1-old, 2-new, 3-fix, ...).
Usage: python3 summary.py [--pairs fix/new,fix/old] RUN_DIR...   (default pair: new/old)"""
import collections
import csv
import os
import statistics
import sys

args = sys.argv[1:]
pairs = [('new', 'old')]
if args and args[0] == '--pairs':
    pairs = [tuple(p.split('/')) for p in args[1].split(',')]
    args = args[2:]

values = collections.defaultdict(lambda: collections.defaultdict(list))  # cell -> run -> values
runs = []
for d in args:
    run = os.path.basename(d.rstrip('/'))
    runs.append(run)
    for r in csv.DictReader(open(os.path.join(d, 'results.csv'))):
        if r['error'] or r['metric'] not in ('mb_per_s', 'p50_us'):
            continue
        cell = (r['transport'], r['method'], r['type'], int(r['clients']), r['metric'])
        values[cell][run].append(float(r['value']))


def build(run):
    return run.split('-', 1)[1]


def ratios(per_run):
    """Each pair's median over the runs of its first build against the median over its second's."""
    out = []
    for a, b in pairs:
        va = [v for r in runs if build(r) == a for v in per_run(r)]
        vb = [v for r in runs if build(r) == b for v in per_run(r)]
        out.append(statistics.median(va) / statistics.median(vb) if va and vb else float('nan'))
    return ' | '.join(f"{x:.2f}" for x in out)


names = ' | '.join(f"{a}/{b}" for a, b in pairs)
print('cell | ' + ' | '.join(runs) + f' | {names} (medians of every rep of each build)')
for cell in sorted(values, key=lambda c: (c[0], c[1], c[3], c[2])):
    by_run = values[cell]
    meds = [statistics.median(by_run[r]) if by_run[r] else float('nan') for r in runs]
    t, method, size, clients, metric = cell
    print(f"{t} {method} {size} @{clients} {metric} | " + ' | '.join(f"{m:.0f}" for m in meds)
          + ' | ' + ratios(lambda r: by_run[r]))

# The same cells as a ratio to RMI's in the same run (RMI's code is the same in every build, so this
# takes out what the machine's drift moved both by), and each pair's median of those.
print()
print('cell / rmi in the same run | ' + ' | '.join(runs) + f' | {names} of those ratios')
for cell in sorted(values, key=lambda c: (c[0], c[1], c[3], c[2])):
    t, method, size, clients, metric = cell
    suffix = t[t.index('+'):] if '+' in t else ''  # TLS cells are named netty+tls, rmi+tls, ...
    base = values.get(('rmi' + suffix, method, size, clients, metric))
    if t.startswith('rmi') or not base:
        continue
    per_run = {r: statistics.median(values[cell][r]) / statistics.median(base[r])
               for r in runs if values[cell][r] and base[r]}
    print(f"{t} {method} {size} @{clients} {metric} | "
          + ' | '.join(f"{per_run[r]:.2f}" if r in per_run else 'n/a' for r in runs)
          + ' | ' + ratios(lambda r: [per_run[r]] if r in per_run else []))
