#!/usr/bin/env bash
# README's `bench mqtt` command, RUNS times, against a Mosquitto started here on port 18830.
# Usage, from the repository root: docs/bench/2026-12-02-mqtt/run.sh OUT_DIR [RUNS]
set -euo pipefail
out=$1 runs=${2:-3}
mkdir -p "$out"
mosquitto -p 18830 > "$out/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker' EXIT
sleep 1
for r in $(seq "$runs"); do
  java -jar bench/target/bench.jar mqtt --broker tcp://127.0.0.1:18830 --sensors 10 --interval-ms 1 \
      --warmup 3s --measure 10s > "$out/run-$r.txt" 2>&1
done
