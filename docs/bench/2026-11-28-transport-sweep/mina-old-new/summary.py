"""Streaming medians (MB/s) and each transport's ratio to RMI and to the ceiling of the same run,
per run folder of run.sh. Usage: python3 summary.py RUN_DIR..."""
import csv, statistics, sys, collections

for d in sys.argv[1:]:
    med = collections.defaultdict(list)
    for r in csv.DictReader(open(f"{d}/results.csv")):
        if r['method'] == 'stream' and r['metric'] == 'mb_per_s' and not r['error']:
            med[(r['transport'], r['type'], int(r['clients']))].append(float(r['value']))
    print(f"== {d}")
    print(f"{'transport':<10} {'size':>6} {'clients':>7} {'MB/s':>7} {'/RMI':>6} {'/ceiling':>8}")
    for (t, size, c), v in sorted(med.items(), key=lambda k: (k[0][0], k[0][2], k[0][1])):
        m = statistics.median(v)
        rmi = statistics.median(med[('rmi', size, c)])
        ceil = statistics.median(med[('raw-socket', size, c)]) if ('raw-socket', size, c) in med else float('nan')
        print(f"{t:<10} {size:>6} {c:>7} {m:7.0f} {m / rmi:6.2f} {m / ceil:8.2f}")
