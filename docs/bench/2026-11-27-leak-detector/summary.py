"""Before/after table of ab.sh's runs: per transport and payload, the mean RTT (µs) and its ratio
to RMI's of the same repetition, median over all repetitions of each build, and after/before of
the per-round medians.  python3 summary.py OUT_DIR"""
import csv, glob, os, re, statistics as st, sys
from collections import defaultdict

rtt = defaultdict(dict)  # (build, round, transport, type, rep) -> mean_us
for path in glob.glob(os.path.join(sys.argv[1], 'round-*-*', 'results.csv')):
    m = re.search(r'round-(\d+)-(before|after)', path)
    rnd, build = int(m.group(1)), m.group(2)
    for row in csv.DictReader(open(path)):
        if row['method'] == 'rtt' and row['metric'] == 'mean_us' and row['value']:
            rtt[(build, rnd)][(row['transport'], row['type'], int(row['rep']))] = float(row['value'])
rounds = sorted({r for (_, r) in rtt})
types = ['Integer', 'Object', 'String']
print(f'{len(rounds)} rounds of each build, 3 repetitions per run\n')
print('| transport | payload | before µs | after µs | after/before (per-round medians) | over RMI before | over RMI after |')
print('|---|---|---:|---:|---:|---:|---:|')
for t in ['netty', 'http', 'grpc', 'mina']:
    for ty in types:
        cells = {}
        for b in ('before', 'after'):
            us, ratio, per_round = [], [], []
            for r in rounds:
                d = rtt.get((b, r), {})
                vals = [d[(t, ty, rep)] for rep in (1, 2, 3) if (t, ty, rep) in d]
                us += vals
                ratio += [d[(t, ty, rep)] / d[('rmi', ty, rep)] for rep in (1, 2, 3)
                          if (t, ty, rep) in d and ('rmi', ty, rep) in d]
                if vals:
                    per_round.append(st.median(vals))
            cells[b] = (us, ratio, per_round)
        ab = [a / b for a, b in zip(cells['after'][2], cells['before'][2])]
        fmt = lambda xs: f'{st.median(xs):.2f} [{min(xs):.2f}-{max(xs):.2f}]'
        print(f"| {t} | {ty} | {st.median(cells['before'][0]):.1f} | {st.median(cells['after'][0]):.1f} | "
              f"{fmt(ab)}, lower in {sum(x < 1 for x in ab)} of {len(ab)} | {fmt(cells['before'][1])} | {fmt(cells['after'][1])} |")
