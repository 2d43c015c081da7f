#!/usr/bin/env bash
one() { java $3 -jar /tmp/ab/trial/bench.jar transport --methods stream --transports socket --baseline socket --clients 100 --reps 1 --stream-duration 2s --warmup 3s --no-limits --out /tmp/sab/t$2-$1 > /tmp/sab/t$2-$1.log 2>&1; }
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then one off $r -Dtrial.noCallerReads=true; one on $r -Dx=1; else one on $r -Dx=1; one off $r -Dtrial.noCallerReads=true; fi
done
