#!/usr/bin/env bash
# alternate old/new jar, socket streaming at 100 clients, one repetition per run
for r in 1 2 3 4 5; do
  for side in new old; do
    java -jar /tmp/ab/$side/bench.jar transport --methods stream --transports socket --baseline socket --clients 100 --reps 1 --stream-duration 2s --warmup 3s --no-limits --out /tmp/sab/rev$r-$side > /tmp/sab/rev$r-$side.log 2>&1
  done
done
