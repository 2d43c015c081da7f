#!/usr/bin/env python3
"""System calls and context switches per call, from a syscalls-30/run.sh folder:
   per-call.py DIR TRANSPORT...
The perf window (4 s from 8 s into the measured rounds) falls in the loop's third round of 4 s, so
the calls in it are taken as that round's calls per second times 4."""
import re, sys

d = sys.argv[1]
for t in sys.argv[2:]:
    loop = [l for l in open(f'{d}/sc-loop-{t}.txt') if 'calls/s' in l]
    rates = [float(re.search(r'(\d+) calls/s', l).group(1)) for l in loop]
    calls = rates[2] * 4
    print(f'== {t}: the rounds (third in the window):')
    for l in loop:
        print('   ', l.strip())
    for side in ('client', 'server'):
        row = []
        for l in open(f'{d}/sc-perf-{side}-{t}.txt'):
            m = re.match(r'\s*([\d,]+)\s+(\S+)', l)
            if m and (':' in m.group(2) or m.group(2) == 'context-switches'):
                n = int(m.group(1).replace(',', ''))
                name = m.group(2).split(':')[-1].replace('sys_enter_', '').replace('sys_enter', 'all system calls')
                if n:
                    row.append(f'{name} {n / calls:.2f}')
        print(f'  {side}, per call: ' + ', '.join(row))
