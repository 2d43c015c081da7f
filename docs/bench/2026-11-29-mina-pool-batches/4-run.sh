#!/usr/bin/env bash
# MINA's streaming of 20, 40 and 80 KB messages to one client on the bench jars given, one run
# after the other in the order given; each run also measures RMI and the framework-free ceiling.
# Usage: 4-run.sh OUT JAR_A JAR_B [JAR_C ...]
set -euo pipefail
out=$1; shift
i=0
for jar in "$@"; do
  i=$((i+1))
  name=$(basename "$(dirname "$(dirname "$(dirname "$jar")")")")
  java -jar "$jar" transport --transports mina --methods stream --clients 1 --reps 3 \
      --stream-duration 2s --warmup 5s --out "$out/$i-$name" > "$out/$i-$name.log" 2>&1
done
