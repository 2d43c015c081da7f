#!/usr/bin/env bash
# Pairs of one-repetition TLS RTT runs of the socket transport: before (callers read plain sockets only,
# 57b9dd9) and after (callers read TLS connections too), order alternating.
one() { java -jar /tmp/ab/$1/bench.jar transport --methods rtt --transports socket --baseline socket --security tls --clients 1 --reps 1 --rtt-calls 20000 --rtt-warmup-calls 5000 --warmup 3s --no-limits --out /tmp/tlsab/p$2-$1 > /tmp/tlsab/p$2-$1.log 2>&1; }
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then one newer $r; one tls $r; else one tls $r; one newer $r; fi
done
