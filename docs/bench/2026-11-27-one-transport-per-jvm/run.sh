#!/usr/bin/env bash
# Does a bench JVM that runs every transport's clients slow salgate's transports against RMI
# (their shared code seeing several transports' classes where one would see one)? Two bench runs
# in turns, twice: A runs HTTP's and RMI's clients only, B every transport's; 30 clients, 5
# repetitions. Run from the repository root on an otherwise idle machine:
#   run.sh OUT_DIR [BENCH_JAR] ; python3 ratios.py OUT_DIR/A1 OUT_DIR/B1 OUT_DIR/A2 OUT_DIR/B2
set -euo pipefail
out=$1 jar=${2:-bench/target/bench.jar}
for i in 1 2; do
  java -jar "$jar" transport --methods rtt --transports http --clients 30 --reps 5 --warmup 5s --interleave \
      --no-limits --out "$out/A$i"
  java -jar "$jar" transport --methods rtt --clients 30 --reps 5 --warmup 5s --interleave --no-limits \
      --out "$out/B$i"
done
