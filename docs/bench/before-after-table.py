#!/usr/bin/env python3
"""The table of a before-after-rounds.sh sitting: for each transport, method, payload and client
count, the median over the rounds of the before and the after build, their [min-max], and the
ratio of the medians (after / before). For round trips the figure is the median call time (p50,
microseconds: below 1 is faster) and for streams messages per second (above 1 is faster).

    python3 docs/bench/before-after-table.py OUT_DIR
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

METRIC = {"rtt": ("p50_us", "µs per call (p50)"), "stream": ("msgs_per_s", "messages/s")}


def read(side_dir):
    cells = defaultdict(list)
    for results in sorted(Path(side_dir).glob("round-*/results.csv")):
        with open(results, newline="") as f:
            for row in csv.DictReader(f):
                metric = METRIC.get(row["method"], (None,))[0]
                if row["metric"] == metric and row["value"] and not row["error"]:
                    key = (row["transport"], row["method"], row["type"], int(row["clients"]))
                    cells[key].append(float(row["value"]))
    return cells


def fmt(values):
    m = statistics.median(values)
    digits = 1 if m < 1000 else 0
    return f"{m:,.{digits}f} [{min(values):,.{digits}f}-{max(values):,.{digits}f}]"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    before, after = read(out / "before"), read(out / "after")
    print("| transport | method | payload | clients | unit | before: median [min-max] | after: median [min-max] | after / before |")
    print("|---|---|---|---:|---|---:|---:|---:|")
    for key in sorted(set(before) & set(after)):
        transport, method, payload, clients = key
        b, a = before[key], after[key]
        ratio = statistics.median(a) / statistics.median(b)
        print(f"| {transport} | {method} | {payload} | {clients} | {METRIC[method][1]} | {fmt(b)} | {fmt(a)} | {ratio:.2f} |")
    missing = sorted(set(before) ^ set(after))
    for key in missing:
        print(f"\n(only in {'before' if key in before else 'after'}: {' '.join(map(str, key))})")


if __name__ == "__main__":
    main()
