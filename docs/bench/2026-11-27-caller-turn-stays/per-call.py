#!/usr/bin/env python3
"""System calls and context switches per call, from a syscalls-30/run.sh folder:
   per-call.py DIR TRANSPORT...
The perf window (4 s from 8 s into the measured rounds) falls in the loop's third round of 4 s, so
the calls in it are taken as that round's calls per second times 4. The window and the round do not
always line up (or the rate changes within the round), so it also prints the server's sends per call
as a check, and the client's counts per send of its own, which need no rate."""
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
        counts = {}
        for l in open(f'{d}/sc-perf-{side}-{t}.txt'):
            m = re.match(r'\s*([\d,]+)\s+(\S+)', l)
            if m and (':' in m.group(2) or m.group(2) == 'context-switches'):
                n = int(m.group(1).replace(',', ''))
                name = m.group(2).split(':')[-1].replace('sys_enter_', '').replace('sys_enter', 'all system calls')
                counts[name] = n
                if n:
                    row.append(f'{name} {n / calls:.2f}')
        print(f'  {side}, per call: ' + ', '.join(row))
        sends = sum(n for name, n in counts.items() if name in ('write', 'writev', 'sendto', 'sendmsg'))
        if side == 'client' and sends:
            # The client sends once per call (requests are not batched with one caller per
            # connection): a division that does not depend on the window lining up with a round.
            print(f'  client, per write or send of its own (a selector wake-up\'s write included): all system calls {counts.get("all system calls", 0) / sends:.2f},'
                  f' context-switches {counts.get("context-switches", 0) / sends:.2f}')
        if side == 'server':
            # The window and the round may not line up: check by what the server does once per call.
            print(f'  check: the server\'s sends per call {sends / calls:.2f} (one per call unless answers are'
                  ' batched or split; far from one, the per-call figures are off by about that factor)')
