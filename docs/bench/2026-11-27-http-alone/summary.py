#!/usr/bin/env python3
"""Summarises run.sh: HTTP's one-client mean RTT over RMI's of the same repetition, per payload,
median [min-max] over every repetition of every run of a kind, with how many were below 1."""
import csv
import glob
import os
import re
import statistics as st
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
ratios = defaultdict(list)  # (kind, payload) -> HTTP over RMI, per repetition
for path in sorted(glob.glob(os.path.join(here, "*.csv"))):
    kind, run = re.match(r"(alone|with-netty)-(\d+)\.csv", os.path.basename(path)).groups()
    mean = {}
    for row in csv.DictReader(open(path)):
        if row["metric"] == "mean_us" and row["value"]:
            mean[(row["transport"], row["type"], row["rep"])] = float(row["value"])
    for (t, payload, rep), v in mean.items():
        if t == "http" and ("rmi", payload, rep) in mean:
            ratios[(kind, payload)].append(v / mean[("rmi", payload, rep)])
print("| HTTP over RMI, one client | alone | with Netty's client first |")
print("|---|---:|---:|")
for payload in ("Integer", "Object", "String"):
    cells = []
    for kind in ("alone", "with-netty"):
        xs = ratios[(kind, payload)]
        cells.append(f"{st.median(xs):.2f} [{min(xs):.2f}-{max(xs):.2f}], below 1 in {sum(x < 1 for x in xs)} of {len(xs)}")
    print(f"| {payload} | " + " | ".join(cells) + " |")
