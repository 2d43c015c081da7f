#!/usr/bin/env bash
one() { java -jar /tmp/ab/$1/bench.jar transport --methods stream --transports socket --baseline socket --clients 100 --reps 1 --stream-duration 2s --warmup 3s --no-limits --out /tmp/sab/c$2-$1 > /tmp/sab/c$2-$1.log 2>&1; }
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then one newer $r; one chan $r; else one chan $r; one newer $r; fi
done
