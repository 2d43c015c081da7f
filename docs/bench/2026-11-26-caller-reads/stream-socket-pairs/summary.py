# Pairs of one-repetition streaming runs (socket transport, 100 clients): msgs/s of each pair's
# "after" over its "before", per message size. Usage: python3 summary.py (in this folder).
import csv, glob, statistics

def rates(path):
    out = {}
    for row in csv.DictReader(open(path)):
        if row['transport'] == 'socket' and row['metric'] == 'msgs_per_s':
            out[row['type']] = float(row['value'])
    return out

sets = [
    ('before bdf2e10 vs after 9fb907d, before run first', 'r', 'old', 'new'),
    ('before bdf2e10 vs after 9fb907d, after run first', 'rev', 'old', 'new'),
    ('before bdf2e10 vs after 9fb907d + reader timeout reset only when set, order alternating', 'x', 'old', 'newer'),
    ('one build, caller reads off vs on (-Dtrial.noCallerReads), order alternating', 't', 'off', 'on'),
    ('57b9dd9 vs a trial with a channel socket for plain connections (not kept), order alternating', 'c', 'newer', 'chan'),
]
for title, prefix, before, after in sets:
    print(title)
    pairs = sorted(glob.glob(f'{prefix}[0-9]-{before}.csv'))
    for size in ['20 KB', '40 KB', '80 KB']:
        ratios = []
        for b in pairs:
            a = b.replace(f'-{before}.csv', f'-{after}.csv')
            ratios.append(rates(a)[size] / rates(b)[size])
        slower = sum(1 for r in ratios if r < 1)
        print(f'  {size}: after/before {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}],'
              f' after slower in {slower} of {len(ratios)} pairs')
