#!/usr/bin/env python3
"""Streaming before and after, from run.sh's pairs: for each transport, message size and client
count, the new build's msgs/s over the old build's in each pair, median [min-max], and in how many
pairs the new build was slower; and the readings lost, duplicated or reordered, summed per build."""
import csv
import glob
import os
import re
import statistics as st
import sys
from collections import defaultdict

# the folder of the pairs' CSV files: the one given, else this script's (agent-stream-pairs holds
# the agent-level pairs: python3 stream-pairs/pairs.py agent-stream-pairs)
here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rates = defaultdict(dict)  # (transport, type, clients) -> {(pair, build): msgs/s}
errors = []
faults = defaultdict(float)  # (build, metric) -> readings lost, duplicated or reordered, all cells
for path in sorted(glob.glob(os.path.join(here, "p*-*.csv"))):
    pair, build = re.match(r"p(\d+)-(old|new)\.csv", os.path.basename(path)).groups()
    for row in csv.DictReader(open(path)):
        if row["error"]:
            errors.append((path, row["transport"], row["type"], row["clients"], row["error"]))
        if row["metric"] in ("lost", "duplicated", "reordered") and row["value"]:
            faults[(build, row["metric"])] += float(row["value"])
        if row["metric"] == "msgs_per_s" and row["value"]:
            rates[(row["transport"], row["type"], int(row["clients"]))][(int(pair), build)] = float(row["value"])
print("| transport | message | clients | old msgs/s, median [min-max] | new msgs/s | new/old per pair, median [min-max] | new slower in |")
print("|---|---|---:|---:|---:|---:|---:|")
for key in sorted(rates):
    cell = rates[key]
    pairs = sorted({p for p, _ in cell if (p, "old") in cell and (p, "new") in cell})
    if not pairs:
        continue
    old = [cell[(p, "old")] for p in pairs]
    new = [cell[(p, "new")] for p in pairs]
    ratios = [n / o for n, o in zip(new, old)]
    f = lambda xs: f"{st.median(xs):,.0f} [{min(xs):,.0f}-{max(xs):,.0f}]"
    print(f"| {key[0]} | {key[1]} | {key[2]} | {f(old)} | {f(new)} | "
          f"{st.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}] | {sum(r < 1 for r in ratios)} of {len(ratios)} |")
print("errors:", errors if errors else "none")
print("readings lost, duplicated, reordered over every cell:",
      {build: [int(faults[(build, m)]) for m in ("lost", "duplicated", "reordered")] for build in ("old", "new")})
