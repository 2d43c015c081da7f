#!/usr/bin/env bash
# The http and netty transports streaming 20, 40 and 80 KB messages to 1, 30 and 100 clients, with
# RMI as the baseline, on the bench jars given, one run after the other in the order given.
# Usage: run.sh OUT NAME=JAR [NAME=JAR ...]   e.g. run.sh /tmp/ab old=/tmp/ab/old/bench.jar new=...
set -euo pipefail
out=$1; shift
i=0
for named in "$@"; do
  i=$((i+1))
  name=${named%%=*} jar=${named#*=}
  java -jar "$jar" transport --transports http,netty --methods stream --clients 1,30,100 --reps 3 \
      --no-limits --stream-duration 2s --warmup 5s --out "$out/$i-$name" > "$out/$i-$name.log" 2>&1
done
