#!/usr/bin/env bash
# Netty streaming at 100 clients, one repetition per run, the two builds in turns (order alternating).
# /tmp/ab/old/bench.jar is 841a5e3 (before), /tmp/ab/new/bench.jar is dd32613 (after).
one() { java -jar /tmp/ab/$1/bench.jar transport --methods stream --transports netty --baseline netty --clients 100 --reps 1 --stream-duration 2s --warmup 3s --no-limits --out /tmp/nab/p$2-$1 > /tmp/nab/p$2-$1.log 2>&1; cp /tmp/nab/p$2-$1/results.csv "$(dirname "$0")/p$2-$1.csv"; }
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then one old $r; one new $r; else one new $r; one old $r; fi
done
