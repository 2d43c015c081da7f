#!/usr/bin/env python3
"""Summarises an ab.sh output: per round, the mean of passes 2-5 of each side (pass 1 is the JIT's
warm-up), then the median [min-max] of each side and of the after/before ratio over the rounds."""
import re
import statistics as st
import sys

passes = {}
for line in open(sys.argv[1]):
    m = re.match(r'round (\d+) (before|after) \S+ \S+ ([\d.]+) us', line)
    if m:
        passes.setdefault((int(m[1]), m[2]), []).append(float(m[3]))
before, after, ratios = [], [], []
for r in sorted({k[0] for k in passes}):
    b = st.mean(passes[(r, 'before')][1:])
    a = st.mean(passes[(r, 'after')][1:])
    before.append(b)
    after.append(a)
    ratios.append(a / b)
    print(f"round {r}: before {b:.1f} us, after {a:.1f} us, after/before {a / b:.2f}")
print(f"before {st.median(before):.1f} [{min(before):.1f}-{max(before):.1f}] us, "
      f"after {st.median(after):.1f} [{min(after):.1f}-{max(after):.1f}] us, "
      f"after/before {st.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}], "
      f"after faster in {sum(x < 1 for x in ratios)} of {len(ratios)} rounds")
