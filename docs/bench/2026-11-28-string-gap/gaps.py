"""What the String call (3,408 B) adds to each transport's Integer call at one client, in every
`bench transport` report given: mean µs, median of the repetitions, String minus Integer, per
transport, as README's tables give the means.
    python3 gaps.py REPORT.md...   (each a report.md of a one-client rtt run)"""
import re
import sys

TRANSPORTS = ["rmi", "netty", "mina", "socket", "http", "grpc"]


def means(path):
    found = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\| (\S+) \| (Integer|String) \| 1 \| ([0-9.]+) \[", line)
        if m:
            found[(m.group(1), m.group(2))] = float(m.group(3))
    return found


print("| run | " + " | ".join(TRANSPORTS) + " |")
print("|---|" + "---:|" * len(TRANSPORTS))
for path in sys.argv[1:]:
    m = means(path)
    cells = []
    for t in TRANSPORTS:
        if (t, "Integer") in m and (t, "String") in m:
            cells.append("%+.1f" % (m[(t, "String")] - m[(t, "Integer")]))
        else:
            cells.append("")
    print("| " + path + " | " + " | ".join(cells) + " |")
