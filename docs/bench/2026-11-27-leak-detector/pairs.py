"""pairs.sh's table: per transport, off over on (Netty's default) of each round's median pass
(passes 2-5; the first pass of a fresh client JVM is its warm-up), median [min-max] over the rounds
and in how many rounds off was faster; and the median of those per-round means.
  python3 pairs.py OUT.txt"""
import statistics as st, sys
from collections import defaultdict

runs = defaultdict(list)  # (round, transport, level) -> [mean us per pass]
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 7 and p[0] == 'round':
        runs[(int(p[1]), p[2], p[3])].append(float(p[6]))
rounds = sorted({k[0] for k in runs})
payload = next(line.split()[5] for line in open(sys.argv[1]) if line.startswith('round'))
print(f'{payload}, {len(rounds)} rounds\n')
print('| transport | on (simple), µs | off, µs | off / on, per round | off faster |')
print('|---|---:|---:|---:|---:|')
for t in ['netty', 'http', 'grpc', 'mina']:
    on = [st.median(runs[(r, t, 'simple')][1:]) for r in rounds if (r, t, 'simple') in runs]
    off = [st.median(runs[(r, t, 'disabled')][1:]) for r in rounds if (r, t, 'disabled') in runs]
    ratio = [b / a for a, b in zip(on, off)]
    print(f'| {t} | {st.median(on):.1f} | {st.median(off):.1f} | {st.median(ratio):.2f} '
          f'[{min(ratio):.2f}-{max(ratio):.2f}] | {sum(x < 1 for x in ratio)} of {len(ratio)} |')
