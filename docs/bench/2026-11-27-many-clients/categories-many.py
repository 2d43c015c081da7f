#!/usr/bin/env python3
"""CPU per call of one process in a profile-many.sh recording, by where it went: the kernel, the JVM,
libc, and JIT-compiled Java by package (the sampled frame's own time). Samples at 999 Hz: one sample
is about 1 ms of CPU.
  python3 categories-many.py OUT_DIR/perf-T.data PID CALLS_IN_THE_6_S_WINDOW"""
import re, sys, subprocess
from collections import Counter
PACKAGES = ['io.netty.handler.codec.http2', 'io.grpc', 'io.netty.handler.codec.http', 'io.netty.handler.codec',
            'io.netty.handler', 'io.netty.buffer', 'io.netty.util.concurrent', 'io.netty.util', 'io.netty.channel.epoll',
            'io.netty.channel', 'org.salgate.transport', 'org.salgate.wire', 'org.salgate', 'com.google.protobuf',
            'java.util.concurrent', 'java.', 'jdk.']
data, pid, calls = sys.argv[1], sys.argv[2], float(sys.argv[3])
out = subprocess.run(['perf','report','-i',data,'--pid',pid,'--no-children','-g','none','--sort','dso,sym','--stdio','-n'], capture_output=True, text=True).stdout
LINE = re.compile(r'\s+([\d.]+)%\s+(\d+)\s+(\[JIT\] tid \d+|\[[^\]]+\]|\S+)\s+\[(.)\]\s+(.*)')
cats = Counter()
for l in out.splitlines():
    m = LINE.match(l)
    if not m: continue
    n, dso, kind, sym = int(m.group(2)), m.group(3), m.group(4), m.group(5)
    if kind == 'k': c = 'kernel'
    elif dso.startswith('[JIT]'): c = 'Java ' + next((p for p in PACKAGES if p in sym), 'other')
    else: c = dso
    cats[c] += n
tot = sum(cats.values())
print(f'total {tot*1001/calls:.2f} us/call')
for c, v in cats.most_common():
    if v*1001/calls >= 0.1: print(f'  {c:40s} {v*1001/calls:6.2f}')
