"""README's two tables from this run's report: the cost of TLS per transport ("Running it
securely") and HTTP against the blocking socket transport (seed 000), plain text.
  python3 docs/bench/2026-12-01-tls-cost/tables.py docs/bench/2026-12-01-tls-cost/report.md"""
import sys

cells = {}
section = None
for line in open(sys.argv[1]):
    if line.startswith('### '):
        section = line[4:].strip()
    if section not in ('rtt', 'stream') or not line.startswith('| ') or line.startswith('| transport'):
        continue
    c = [x.strip() for x in line.strip().strip('|').split('|')]
    if len(c) < 5 or not c[2].isdigit():
        continue
    value = c[3] if section == 'rtt' else c[4]   # mean_us, or mb_per_s
    cells[(c[0], section, c[1], int(c[2]))] = value

def median(v):
    return float(v.split(' [')[0])

def ratio(a, b):
    return f'{median(b) / median(a):.2f}'

print('| transport | RTT 1 client, plain (µs) | over TLS | streaming 1 client, plain (MB/s) | over TLS | TLS/plain '
      '| streaming 100 clients, plain | over TLS | TLS/plain |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for t in ['rmi', 'netty', 'mina', 'xsocket', 'socket', 'http', 'grpc']:
    r1, r1t = cells[(t, 'rtt', 'Integer', 1)], cells[(t + '+tls', 'rtt', 'Integer', 1)]
    s1, s1t = cells[(t, 'stream', '80 KB', 1)], cells[(t + '+tls', 'stream', '80 KB', 1)]
    s100, s100t = cells[(t, 'stream', '80 KB', 100)], cells[(t + '+tls', 'stream', '80 KB', 100)]
    print(f'| {t} | {r1} | {r1t} | {s1} | {s1t} | {ratio(s1, s1t)} | {s100} | {s100t} | {ratio(s100, s100t)} |')
print()
print('| | socket | HTTP | HTTP/socket |')
print('|---|---:|---:|---:|')
for label, key, unit in [('RTT, Integer echo, 1 client (µs, mean)', ('rtt', 'Integer', 1), 'rtt'),
                         ('RTT, String echo, 1 client', ('rtt', 'String', 1), 'rtt'),
                         ('RTT, Integer echo, 100 clients', ('rtt', 'Integer', 100), 'rtt'),
                         ('streaming 20 KB, 1 client (MB/s)', ('stream', '20 KB', 1), 'stream'),
                         ('streaming 80 KB, 1 client', ('stream', '80 KB', 1), 'stream'),
                         ('streaming 20 KB, 100 clients', ('stream', '20 KB', 100), 'stream'),
                         ('streaming 80 KB, 100 clients', ('stream', '80 KB', 100), 'stream')]:
    a, b = cells[('socket',) + key], cells[('http',) + key]
    print(f'| {label} | {a} | {b} | {ratio(a, b)} |')
