# Pairs of one-repetition TLS RTT runs of the socket transport (run.sh): mean µs of each payload,
# before (57b9dd9, /tmp/ab/newer) and after (c7aa10c, /tmp/ab/tls). Usage: python3 summary.py (in this folder).
import csv, statistics

def means(path):
    return {r['type']: float(r['value']) for r in csv.DictReader(open(path)) if r['metric'] == 'mean_us'}

for payload in ['Integer', 'Object', 'String']:
    before = [means(f'p{i}-newer.csv')[payload] for i in range(1, 7)]
    after = [means(f'p{i}-tls.csv')[payload] for i in range(1, 7)]
    ratios = [a / b for a, b in zip(after, before)]
    print(f'{payload}: before {statistics.median(before):.1f} [{min(before):.1f}-{max(before):.1f}] us,'
          f' after {statistics.median(after):.1f} [{min(after):.1f}-{max(after):.1f}] us,'
          f' after/before {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}],'
          f' after faster in {sum(r < 1 for r in ratios)} of {len(ratios)} pairs')
