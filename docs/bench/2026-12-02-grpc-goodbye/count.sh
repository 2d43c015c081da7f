#!/usr/bin/env bash
# How many of gRPC's streaming sessions the agent ends as errors when their clients close: runs a
# bench jar's `scale` RUNS times and counts, in each agent log, the sessions logged "disconnected
# after an error" among those logged "disconnected" (the bench's warm-up session included).
# Usage, from the repository root: count.sh JAR RUNS [scale options...]
#   e.g. count.sh bench/target/bench.jar 3 --mode stream --transports grpc --clients 100,300 --duration 5s --interval-ms 100
set -euo pipefail
jar=$1 runs=$2
shift 2
for r in $(seq "$runs"); do
  out=$(mktemp -d)
  java -jar "$jar" scale "$@" --out "$out" > "$out/console.txt" 2>&1
  for log in "$out"/agent-*.log; do
    echo "run $r $(basename "$log" .log): $(grep -c 'after an error' "$log") of $(grep -c 'disconnected' "$log") logged after an error"
  done
  grep -q '0 readings lost, duplicated or reordered' "$out/scale.md" && echo "run $r: 0 readings lost, duplicated or reordered"
  rm -rf "$out"
done
