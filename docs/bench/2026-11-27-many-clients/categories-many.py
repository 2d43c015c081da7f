#!/usr/bin/env python3
"""CPU per call of one process in a profile-many.sh recording, by where it went: the kernel, the JVM,
libc, and JIT-compiled Java by package (the sampled frame's own time). Samples at 999 Hz: one sample
is about 1 ms of CPU.
  python3 categories-many.py OUT_DIR/perf-T.data PID CALLS_IN_THE_6_S_WINDOW"""
import os, subprocess, sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from perf_categories import WITH_SAMPLES, category

data, pid, calls = sys.argv[1], sys.argv[2], float(sys.argv[3])
out = subprocess.run(['perf','report','-i',data,'--pid',pid,'--no-children','-g','none','--sort','dso,sym','--stdio','-n'], capture_output=True, text=True).stdout
cats = Counter()
for l in out.splitlines():
    m = WITH_SAMPLES.match(l)
    if not m: continue
    n, dso, kind, sym = int(m.group(2)), m.group(3), m.group(4), m.group(5)
    cats[category(dso, kind, sym, 'other')] += n
tot = sum(cats.values())
print(f'total {tot*1001/calls:.2f} us/call')
for c, v in cats.most_common():
    if v*1001/calls >= 0.1: print(f'  {c:40s} {v*1001/calls:6.2f}')
