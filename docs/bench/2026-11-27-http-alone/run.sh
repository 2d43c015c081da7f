#!/usr/bin/env bash
# HTTP's one-client RTT against RMI's, with HTTP the only salgate client in the bench's JVM ("alone")
# and with the Netty transport's client run in the same JVM before it in every round ("with-netty"),
# as in README's full sweep. The two kinds of run alternate, ROUNDS of each (default 3). Run from
# the repository root on an otherwise idle machine:
#   run.sh [ROUNDS]; python3 docs/bench/2026-11-27-http-alone/summary.py
set -euo pipefail
here=docs/bench/2026-11-27-http-alone
one() { # transports label round
  java -jar bench/target/bench.jar transport --methods rtt --transports "$1" --clients 1 --reps 5 \
      --rtt-calls 20000 --rtt-warmup-calls 5000 --warmup 5s --interleave --out "/tmp/http-alone/$2-$3" \
      > "/tmp/http-alone/$2-$3.log" 2>&1
  cp "/tmp/http-alone/$2-$3/results.csv" "$here/$2-$3.csv"
}
mkdir -p /tmp/http-alone
for r in $(seq "${1:-3}"); do
  one http alone "$r"
  one netty,http with-netty "$r"
done
