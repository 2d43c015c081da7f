"""Sums a flat perf profile of profile.sh by side and by where the time went: the kernel, the JVM,
libc, and JIT-compiled Java by package (the sampled frame's own time, not its callees'), and adds
the samples under Netty's leak detector (frames of io.netty.util.ResourceLeakDetector and the JVM's
stack-trace filling under them).
  perf report -i perf-T.data --no-children -g none --sort comm,dso,sym --stdio > flat-T.txt
  perf script -i perf-T.data > script-T.txt      (for the leak detector's share)
  python3 categories.py flat-T.txt script-T.txt"""
import os, sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from perf_categories import BY_THREAD, category

def side(comm):
    return 'client' if comm == 'java' else 'server' if comm.startswith('salgate-') and comm.endswith('-i') or comm.endswith('-io') else None

cats = Counter()
for line in open(sys.argv[1]):
    m = BY_THREAD.match(line)
    if not m:
        continue
    pct, comm, dso, kind, sym = float(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)
    s = side(comm)
    if s is None:
        continue
    cats[(s, category(dso, kind, sym))] += pct
print('| side | where | % of all samples |')
print('|---|---|---:|')
for (s, c), v in sorted(cats.items(), key=lambda x: (x[0][0], -x[1])):
    if v >= 0.05:
        print(f'| {s} | {c} | {v:.2f} |')
if len(sys.argv) > 2:
    total = leak = 0
    stack = []
    def done():
        global total, leak
        if stack and side(stack[0].split()[0]) is not None:
            total += 1
            leak += any('ResourceLeakDetector' in f or 'LeakAware' in f for f in stack[1:])
    for line in open(sys.argv[2]):
        if line and not line[0].isspace():
            done()
            stack = [line]
        elif line.strip():
            stack.append(line)
    done()
    print(f'\nsamples of the server I/O thread and the client caller: {total}; '
          f'with Netty\'s leak detector on the stack: {leak} ({100.0 * leak / max(total, 1):.1f} %)')
