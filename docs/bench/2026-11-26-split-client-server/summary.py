#!/usr/bin/env python3
"""Summarises a split.sh output. Per run, the mean of passes 2-5 (pass 1 is the JIT's warm-up);
per client/server pair, the median [min-max] of its runs over the rounds. Then, round by round, how
much an xSocket client adds over a Netty client (against the same server) and how much an xSocket
server adds over a Netty server (for the same client), as medians [min-max] over rounds and servers
or clients.
  summary.py split.txt [FRAMED...]   (the transports split.sh ran, "netty mina socket xsocket" unless
  given; the first is compared with netty, or with the second when netty is the first, and every
  pair over RMI's)"""
import re
import statistics as st
import sys

runs = {}
for line in open(sys.argv[1]):
    m = re.match(r'round (\d+) client (\S+) server (\S+): \S+ \S+ ([\d.]+) us', line)
    if m:
        runs.setdefault((int(m[1]), m[2], m[3]), []).append(float(m[4]))
mean = {k: st.mean(v[1:]) for k, v in runs.items()}
rounds = sorted({k[0] for k in mean})
fmt = lambda xs: f"{st.median(xs):.1f} [{min(xs):.1f}-{max(xs):.1f}]"
framed = sys.argv[2:] or ['netty', 'mina', 'socket', 'xsocket']
x = 'xsocket' if 'xsocket' in framed else framed[0]
base = 'netty' if x != 'netty' else framed[1]
print(f"{len(rounds)} rounds; mean round trip of passes 2-5, us: median [min-max] over rounds")
print("| client \\ server | " + " | ".join(framed) + " |")
print("|---|" + "---:|" * len(framed))
for c in framed:
    print(f"| {c} | " + " | ".join(fmt([mean[(r, c, s)] for r in rounds]) for s in framed) + " |")
print(f"| rmi (its own server) | {fmt([mean[(r, 'rmi', 'rmi')] for r in rounds])} | | | |")
client_extra = [mean[(r, x, s)] - mean[(r, base, s)] for r in rounds for s in framed]
server_extra = [mean[(r, c, x)] - mean[(r, c, base)] for r in rounds for c in framed]
name = {'netty': 'Netty', 'mina': 'MINA', 'xsocket': 'xSocket'}.get
print(f"{name(x, x)} client over {name(base, base)} client, same server, same round: {fmt(client_extra)} us")
print(f"{name(x, x)} server over {name(base, base)} server, same client, same round: {fmt(server_extra)} us")
ratio = lambda xs: f"{st.median(xs):.2f} [{min(xs):.2f}-{max(xs):.2f}]"
pairs = [(c, s) for c in framed for s in framed] if sys.argv[2:] else \
    [('xsocket', 'xsocket'), ('xsocket', 'socket'), ('netty', 'netty')]
for c, s in pairs:
    print(f"{c} client with {s} server over RMI's pair, same round: "
          f"{ratio([mean[(r, c, s)] / mean[(r, 'rmi', 'rmi')] for r in rounds])}")
