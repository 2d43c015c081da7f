#!/usr/bin/env python3
"""Summarises triples.sh: per client count, each build's msgs/s, median [min-max] over the rounds,
and each build's rate over the old build's (pre-turns) and the new over the turns build, round by
round, median [min-max] with the count of rounds where it was below 1; then any cell errors and
readings lost, duplicated or reordered per build."""
import csv
import glob
import os
import re
import statistics as st
import sys
from collections import defaultdict

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rates = defaultdict(dict)  # clients -> {(round, build): msgs/s}
errors = []
faults = defaultdict(float)
for path in sorted(glob.glob(os.path.join(here, "r*-*.csv"))):
    rnd, build = re.match(r"r(\d+)-(old|turns|new)\.csv", os.path.basename(path)).groups()
    for row in csv.DictReader(open(path)):
        if row["error"]:
            errors.append((path, row["clients"], row["error"]))
        if row["metric"] in ("lost", "duplicated", "reordered") and row["value"]:
            faults[(build, row["metric"])] += float(row["value"])
        if row["metric"] == "msgs_per_s" and row["value"]:
            rates[int(row["clients"])][(int(rnd), build)] = float(row["value"])
f = lambda xs: f"{st.median(xs):,.0f} [{min(xs):,.0f}-{max(xs):,.0f}]"
g = lambda xs: f"{st.median(xs):.2f} [{min(xs):.2f}-{max(xs):.2f}], below 1 in {sum(x < 1 for x in xs)} of {len(xs)}"
builds = ("old", "turns", "new")
print("| clients | old msgs/s | turns msgs/s | new msgs/s | turns/old | new/old | new/turns |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for clients in sorted(rates):
    cell = rates[clients]
    rounds = sorted({r for r, _ in cell if all((r, b) in cell for b in builds)})
    v = {b: [cell[(r, b)] for r in rounds] for b in builds}
    ratio = lambda a, b: [x / y for x, y in zip(v[a], v[b])]
    print(f"| {clients} | {f(v['old'])} | {f(v['turns'])} | {f(v['new'])} | {g(ratio('turns', 'old'))} | "
          f"{g(ratio('new', 'old'))} | {g(ratio('new', 'turns'))} |")
print("errors:", errors if errors else "none")
print("readings lost, duplicated, reordered over every cell:",
      {b: [int(faults[(b, m)]) for m in ("lost", "duplicated", "reordered")] for b in builds})
