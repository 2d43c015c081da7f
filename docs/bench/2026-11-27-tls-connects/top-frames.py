#!/usr/bin/env python3
"""The agent's JFR execution samples by the package of their top frame, and how many samples have
the JDK's elliptic-curve code anywhere on their stack.
  jfr print --events jdk.ExecutionSample agent.jfr > samples.txt; python3 top-frames.py samples.txt"""
import collections
import re
import sys

PACKAGES = ['sun.security.util.math', 'sun.security.ec', 'sun.security.ssl', 'sun.security.provider',
            'sun.security.x509', 'com.sun.crypto', 'javax.crypto', 'java.security', 'java.math', 'io.netty',
            'org.apache.mina', 'org.salgate', 'java.', 'jdk.', 'sun.']


def package(frame):
    return next((p for p in PACKAGES if frame.startswith(p)), 'other')


events = open(sys.argv[1]).read().split('jdk.ExecutionSample {')[1:]
top = collections.Counter()
ec_anywhere = 0
for e in events:
    m = re.search(r'stackTrace = \[(.*?)\n\s*\]', e, re.S)
    frames = [l.strip() for l in (m.group(1).split('\n') if m else []) if l.strip() and l.strip() != '...']
    if not frames:
        continue
    top[package(frames[0])] += 1
    if any(f.startswith(('sun.security.ec', 'sun.security.util.math')) for f in frames):
        ec_anywhere += 1
total = sum(top.values())
print(f'{total} samples with a stack')
for p, n in top.most_common():
    print(f'{n:5d} {100 * n / total:5.1f} %  top frame in {p}')
print(f'{ec_anywhere:5d} {100 * ec_anywhere / total:5.1f} %  with sun.security.ec or sun.security.util.math on the stack')
