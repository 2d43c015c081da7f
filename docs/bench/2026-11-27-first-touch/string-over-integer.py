#!/usr/bin/env python3
"""Per bench run: each transport's median one-client mean RTT (Integer, String), the String's extra, and
the String's paired ratio over RMI's (median of the rounds).  string-over-integer.py RUN_DIR..."""
import csv, statistics as st, sys
for run in sys.argv[1:]:
    mean = {}
    for r in csv.DictReader(open(f'{run}/results.csv')):
        if r['method'] == 'rtt' and r['metric'] == 'mean_us':
            mean[(r['transport'], r['type'], int(r['rep']))] = float(r['value'])
    ts = sorted({k[0] for k in mean})
    line = []
    for t in [t for t in ts if t != 'raw-socket']:
        i = st.median([v for k, v in mean.items() if k[0] == t and k[1] == 'Integer'])
        s_ = st.median([v for k, v in mean.items() if k[0] == t and k[1] == 'String'])
        if t != 'rmi':
            reps = sorted(k[2] for k in mean if k[0] == t and k[1] == 'String')
            rat = st.median([mean[(t, 'String', r)] / mean[('rmi', 'String', r)] for r in reps])
            line.append(f"{t}: I {i:.1f} S {s_:.1f} (+{s_-i:.1f}) S/RMI {rat:.2f}")
        else:
            line.append(f"rmi: I {i:.1f} S {s_:.1f} (+{s_-i:.1f})")
    print(run, ' | '.join(line))
