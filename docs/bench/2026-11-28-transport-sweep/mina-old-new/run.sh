#!/usr/bin/env bash
# MINA's and Netty's streaming (20, 40, 80 KB messages at 1 and 100 clients) on the bench jars of
# two commits, one run after the other, in the order given; each run also measures RMI and the
# framework-free ceiling. Usage: run.sh OUT JAR_A JAR_B [JAR_C ...]
set -euo pipefail
out=$1; shift
i=0
for jar in "$@"; do
  i=$((i+1))
  name=$(basename "$jar" .jar)
  java -jar "$jar" transport --transports netty,mina --methods stream --clients 1,100 --reps 3 \
      --stream-duration 2s --warmup 5s --out "$out/$i-$name" > "$out/$i-$name.log" 2>&1
done
