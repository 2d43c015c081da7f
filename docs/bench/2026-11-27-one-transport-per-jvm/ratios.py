#!/usr/bin/env python3
"""Each transport's mean RTT over RMI's of the same repetition, per payload, from bench reports'
results.csv: the median of the repetitions' ratios and each ratio.
  python3 ratios.py RUN_DIR...  (each a bench --out folder)"""
import csv, statistics as st, sys
for run in sys.argv[1:]:
    mean = {}
    for r in csv.DictReader(open(f'{run}/results.csv')):
        if r['method'] == 'rtt' and r['metric'] == 'mean_us':
            mean[(r['transport'], r['type'], r['clients'], int(r['rep']))] = float(r['value'])
    for transport, kind, clients in sorted({k[:3] for k in mean if k[0] != 'rmi'}):
        reps = sorted(k[3] for k in mean if k[:3] == (transport, kind, clients))
        ratios = [mean[(transport, kind, clients, rep)] / mean[('rmi', kind, clients, rep)] for rep in reps]
        print(f'{run} {transport} {kind} {clients} clients: {st.median(ratios):.2f} '
              f'[{", ".join(f"{x:.2f}" for x in ratios)}]')
