"""Tables of run.sh's folders: python3 summary.py OUT.

For each MINA cell: each build's median over its runs (each run's value is the median of its
repetitions) with the [min-max] of those runs, and the new build's over the old's of the same round,
median [min-max] over the rounds, with how many rounds the new build was better in. Where Netty ran
in the same runs (--interleave), the same for Netty, whose code is the same in both builds: how far
the machine drifted between the builds' runs. Round trips are mean microseconds (below 1 is
faster), streams MB/s (above 1 is faster). Then whether every stream cell checked its sequence
numbers clean (no message lost, duplicated or reordered), and how many calls failed. Where Netty
ran in the same runs, a last table gives MINA over Netty in each run (its repetitions in turns
with Netty's), per build: the machine's drift between runs falls out of it."""
import collections
import csv
import os
import re
import statistics
import sys

METRIC = {'rtt': 'mean_us', 'stream': 'mb_per_s'}


def main(out):
    value = {}  # (round, build, transport, method, type, clients) -> median of the run's repetitions
    unclean = errors = 0
    for name in sorted(os.listdir(out)):
        m = re.fullmatch(r'(\d+)-(old|new)', name)
        if not m:
            continue
        rnd, build = int(m.group(1)), m.group(2)
        cells = collections.defaultdict(list)
        for r in csv.DictReader(open(os.path.join(out, name, 'results.csv'))):
            if r['error']:
                errors += 1
                continue
            if r['metric'] in ('lost', 'duplicated', 'reordered'):
                unclean += float(r['value']) != 0
            if r['metric'] == 'errors':
                errors += float(r['value']) != 0
            if r['metric'] == METRIC.get(r['method']):
                cells[(r['transport'].split('+')[0], r['method'], r['type'], int(r['clients']))].append(float(r['value']))
        for cell, v in cells.items():
            value[(rnd, build) + cell] = statistics.median(v)
    cells = sorted({k[2:] for k in value}, key=lambda c: (c[0] != 'mina', c[1], c[3], c[2]))
    rounds = sorted({k[0] for k in value})
    print(f"{'transport':<7} {'cell':<18} {'old [runs]':>22} {'new [runs]':>22} {'new/old, per round':>32}")
    for cell in cells:
        transport, method, kind, clients = cell
        better = (lambda x: x < 1) if method == 'rtt' else (lambda x: x > 1)
        runs = {b: [value[(r, b) + cell] for r in rounds if (r, b) + cell in value] for b in ('old', 'new')}
        ratios = [value[(r, 'new') + cell] / value[(r, 'old') + cell] for r in rounds
                  if (r, 'new') + cell in value and (r, 'old') + cell in value]
        line = f"{transport:<7} {method + ' ' + kind + ' ' + str(clients):<18}"
        for b in ('old', 'new'):
            v = runs[b]
            line += f"{statistics.median(v):10.1f} [{min(v):.1f}-{max(v):.1f}]".rjust(23)
        line += (f"   {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}],"
                 f" better in {sum(map(better, ratios))} of {len(ratios)}")
        print(line)
    paired = [c for c in cells if c[0] == 'mina' and ('netty',) + c[1:] in cells]
    if paired:
        print(f"\n{'MINA over Netty, same run':<26} {'old [runs]':>20} {'new [runs]':>20}")
    for cell in paired:
        line = f"{cell[1] + ' ' + cell[2] + ' ' + str(cell[3]):<26}"
        for b in ('old', 'new'):
            v = [value[(r, b) + cell] / value[(r, b, 'netty') + cell[1:]] for r in rounds
                 if (r, b) + cell in value and (r, b, 'netty') + cell[1:] in value]
            line += f"{statistics.median(v):8.2f} [{min(v):.2f}-{max(v):.2f}]".rjust(21)
        print(line)
    print(f"stream cells with a message lost, duplicated or reordered: {unclean}; failed calls or cells: {errors}")


if __name__ == '__main__':
    main(sys.argv[1])
