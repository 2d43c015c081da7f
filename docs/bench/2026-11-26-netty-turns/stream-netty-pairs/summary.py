# Pairs of one-repetition streaming runs (netty transport, 100 clients): msgs/s of each pair's
# "after" (dd32613) over its "before" (841a5e3), per message size. Usage: python3 summary.py (in this folder).
import csv, glob, statistics

def rates(path):
    out = {}
    for row in csv.DictReader(open(path)):
        if row['transport'] == 'netty' and row['metric'] == 'msgs_per_s':
            out[row['type']] = float(row['value'])
    return out

pairs = sorted(glob.glob('p[0-9]-old.csv'))
for size in ['20 KB', '40 KB', '80 KB']:
    ratios = [rates(b.replace('-old.csv', '-new.csv'))[size] / rates(b)[size] for b in pairs]
    slower = sum(1 for r in ratios if r < 1)
    print(f'{size}: after/before {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}],'
          f' after slower in {slower} of {len(ratios)} pairs')
