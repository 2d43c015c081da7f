#!/usr/bin/env python3
"""Per round, the median of passes 2-5 (mean µs per call) of each kind; then, over the rounds, the
median of those, and spin over nospin per round.  python3 summary.py OUT.txt"""
import collections, statistics as st, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 6 and f[0] == 'round':
        d[(int(f[1]), f[2])].append(float(f[5]))
rounds = sorted({r for r, _ in d})
med = {k: st.median(v[1:]) for k, v in d.items()}
for r in rounds:
    print(r, '  '.join(f'{k} {med[(r, k)]:.1f}' for k in ('rmi', 'nospin', 'spin')))
for k in ('rmi', 'nospin', 'spin'):
    print(f'{k}: median {st.median(med[(r, k)] for r in rounds):.1f} us')
ratios = sorted(med[(r, 'spin')] / med[(r, 'nospin')] for r in rounds)
print(f'spin / nospin: median {st.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}], '
      f'spin faster in {sum(x < 1 for x in ratios)} of {len(ratios)}')
print(f'nospin / rmi: median {st.median(med[(r, "nospin")] / med[(r, "rmi")] for r in rounds):.2f}; '
      f'spin / rmi: {st.median(med[(r, "spin")] / med[(r, "rmi")] for r in rounds):.2f}')
