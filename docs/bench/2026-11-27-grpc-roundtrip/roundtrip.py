#!/usr/bin/env python3
"""The median [min-max] of each cell of GrpcRoundTripMeasurement's runs (roundtrip-*.txt here)."""
import glob
import os
import statistics as st

here = os.path.dirname(os.path.abspath(__file__))
cells = {}
for path in sorted(glob.glob(os.path.join(here, "roundtrip-*.txt"))):
    for line in open(path):
        parts = line.split()
        if len(parts) >= 6 and parts[0] in ("direct", "pool") and parts[-1].isdigit():
            key = (parts[0], parts[1], " ".join(parts[2:-3]))
            cells.setdefault(key, []).append([float(x) for x in parts[-3:]])
print("| server executor | client executor | path | p50 µs | p99 µs | calls/s |")
print("|---|---|---|---:|---:|---:|")
for (server, client, path), runs in cells.items():
    cols = []
    for i, fmt in enumerate(("{:.1f}", "{:.1f}", "{:,.0f}")):
        xs = [r[i] for r in runs]
        cols.append(f"{fmt.format(st.median(xs))} [{fmt.format(min(xs))}-{fmt.format(max(xs))}]")
    print(f"| {server} | {client.strip('()')} | {path} | " + " | ".join(cols) + " |")
print(f"runs: {len(next(iter(cells.values())))}")
