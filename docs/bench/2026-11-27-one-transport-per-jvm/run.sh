#!/usr/bin/env bash
# Does a bench JVM that runs every transport's clients slow salgate's transports against RMI
# (their shared code seeing several transports' classes where one would see one)? Two bench runs
# in turns, twice: A runs HTTP's and RMI's clients only, B every transport's; 30 clients, 5
# repetitions. Run from the repository root on an otherwise idle machine:
#   run.sh OUT_DIR [BENCH_JAR] ; python3 ratios.py OUT_DIR/A1 OUT_DIR/B1 OUT_DIR/A2 OUT_DIR/B2
# TRANSPORT (http), CLIENTS (30), ROUNDS (2) and EXTRA (bench options added to both runs) change
# the comparison, e.g. the one-client sweep's MINA:
#   TRANSPORT=mina CLIENTS=1 ROUNDS=3 EXTRA="--rtt-calls 20000 --rtt-warmup-calls 5000" run.sh OUT_DIR
set -euo pipefail
out=$1 jar=${2:-bench/target/bench.jar}
read -r -a extra <<< "${EXTRA:-}"
for i in $(seq "${ROUNDS:-2}"); do
  java -jar "$jar" transport --methods rtt --transports "${TRANSPORT:-http}" --clients "${CLIENTS:-30}" --reps 5 \
      --warmup 5s --interleave --no-limits "${extra[@]}" --out "$out/A$i"
  java -jar "$jar" transport --methods rtt --clients "${CLIENTS:-30}" --reps 5 --warmup 5s --interleave --no-limits \
      "${extra[@]}" --out "$out/B$i"
done
