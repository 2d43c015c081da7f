"""MINA's cells in run folders of run.sh (or of mina-old-new/run.sh), the builds named by the
folders' suffix (1-old, 2-new, ...). Usage: python3 summary.py [--pair NEW/OLD] RUN_DIR...

For each cell: each build's median over all its repetitions, with the [min-max] of its runs'
medians, the new build's over the old's (or NEW's over OLD's), and
per build the range over its runs of MINA against RMI's in the same run (when RMI ran) and against
the ceiling's (when it ran). Streams in MB/s (above 1 is faster), round trips as the mean RTT in
microseconds (below 1 is faster). Then whether every stream cell checked its sequence numbers
clean (no message lost, duplicated or reordered)."""
import collections
import csv
import os
import statistics
import sys

METRIC = {'stream': 'mb_per_s', 'rtt': 'mean_us'}


def runs(dirs):
    for d in dirs:
        build = os.path.basename(os.path.normpath(d)).split('-', 1)[1]
        rows = list(csv.DictReader(open(os.path.join(d, 'results.csv'))))
        yield build, rows


def main(dirs, new='new', old='old'):
    values = collections.defaultdict(list)  # (build, transport, method, type, clients) -> values
    per_run = collections.defaultdict(list)  # (build, cell, against) -> run ratios
    run_medians = collections.defaultdict(list)  # (build, cell) -> each run's median
    unclean = 0
    for build, rows in runs(dirs):
        med = collections.defaultdict(list)
        for r in rows:
            if r['error']:
                continue
            t = r['transport'].split('+')[0]
            if r['method'] == 'stream' and r['metric'] in ('lost', 'duplicated', 'reordered'):
                unclean += float(r['value']) != 0
            if r['metric'] == METRIC.get(r['method']):
                med[(t, r['method'], r['type'], int(r['clients']))].append(float(r['value']))
        for (t, method, kind, clients), v in med.items():
            values[(build, t, method, kind, clients)] += v
            if t != 'mina':
                continue
            cell = (method, kind, clients)
            m = statistics.median(v)
            run_medians[(build, cell)].append(m)
            for against in ('rmi', 'raw-socket'):
                if (against, method, kind, clients) in med:
                    per_run[(build, cell, against)].append(m / statistics.median(med[(against, method, kind, clients)]))
    cells = sorted({k[2:] for k in values if k[1] == 'mina'}, key=lambda c: (c[0], c[2], c[1]))
    builds = sorted({k[0] for k in values})
    print(f"{'cell':<22} " + ' '.join(f'{b + " [runs]":>20}' for b in builds) + f" {new + '/' + old:>12}   "
          + '   '.join(f'{b} vs RMI [runs]   {b} vs ceiling [runs]' for b in builds))
    for cell in cells:
        method, kind, clients = cell
        meds = {b: statistics.median(values[(b, 'mina') + cell]) for b in builds if values[(b, 'mina') + cell]}
        ratio = meds[new] / meds[old] if new in meds and old in meds else float('nan')
        line = f"{method + ' ' + kind + ' ' + str(clients):<22} " + ' '.join(
            f'{meds[b]:7.1f} [{min(run_medians[(b, cell)]):.0f}-{max(run_medians[(b, cell)]):.0f}]'.rjust(20) for b in builds)
        line += f" {ratio:12.2f}  "
        for b in builds:
            for against in ('rmi', 'raw-socket'):
                r = per_run.get((b, cell, against))
                line += f" {statistics.median(r):5.2f} [{min(r):.2f}-{max(r):.2f}]" if r else '          -        '
        print(line)
    print(f"stream cells with a message lost, duplicated or reordered: {unclean}")


if __name__ == '__main__':
    args = sys.argv[1:]
    if args[:1] == ['--pair']:
        new, old = args[1].split('/')
        main(args[2:], new, old)
    else:
        main(args)
