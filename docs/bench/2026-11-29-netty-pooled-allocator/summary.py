"""Medians per cell of the runs of run.sh (its transport modes), side by side, and the new build's median
over its runs against the old build's. A run folder is named N-old or N-new.
Usage: python3 summary.py RUN_DIR..."""
import collections
import csv
import os
import statistics
import sys

values = collections.defaultdict(lambda: collections.defaultdict(list))  # cell -> run -> values
runs = []
for d in sys.argv[1:]:
    run = os.path.basename(d.rstrip('/'))
    runs.append(run)
    for r in csv.DictReader(open(os.path.join(d, 'results.csv'))):
        if r['error'] or r['metric'] not in ('mb_per_s', 'p50_us'):
            continue
        cell = (r['transport'], r['method'], r['type'], int(r['clients']), r['metric'])
        values[cell][run].append(float(r['value']))

print('cell | ' + ' | '.join(runs) + ' | new/old (medians of every rep of each build)')
for cell in sorted(values, key=lambda c: (c[0], c[1], c[3], c[2])):
    by_run = values[cell]
    meds = [statistics.median(by_run[r]) if by_run[r] else float('nan') for r in runs]
    old = [v for r in runs if r.endswith('-old') for v in by_run[r]]
    new = [v for r in runs if r.endswith('-new') for v in by_run[r]]
    ratio = statistics.median(new) / statistics.median(old) if old and new else float('nan')
    t, method, size, clients, metric = cell
    print(f"{t} {method} {size} @{clients} {metric} | " + ' | '.join(f"{m:.0f}" for m in meds) + f" | {ratio:.2f}")

# The same cells as a ratio to RMI's in the same run (RMI's code is the same in both builds, so this
# takes out what the machine's drift moved both by), and new's median of those over old's.
print()
print('cell / rmi in the same run | ' + ' | '.join(runs) + ' | new/old of those ratios')
for cell in sorted(values, key=lambda c: (c[0], c[1], c[3], c[2])):
    t, method, size, clients, metric = cell
    suffix = t[t.index('+'):] if '+' in t else ''  # TLS cells are named netty+tls, rmi+tls, ...
    base = values.get(('rmi' + suffix, method, size, clients, metric))
    if t.startswith('rmi') or not base:
        continue
    per_run = {r: statistics.median(values[cell][r]) / statistics.median(base[r])
               for r in runs if values[cell][r] and base[r]}
    old = [per_run[r] for r in per_run if r.endswith('-old')]
    new = [per_run[r] for r in per_run if r.endswith('-new')]
    ratio = statistics.median(new) / statistics.median(old) if old and new else float('nan')
    print(f"{t} {method} {size} @{clients} {metric} | "
          + ' | '.join(f"{per_run[r]:.2f}" if r in per_run else 'n/a' for r in runs) + f" | {ratio:.2f}")
