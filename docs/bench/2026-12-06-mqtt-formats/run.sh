#!/usr/bin/env bash
# `bench mqtt` in the three payload formats, RUNS times, against a Mosquitto started here on port
# 18830 (loopback). 30 dummy sensors every 1 ms offer 30,000 readings/s, more than the bridge
# carries here, so that the rows measure its capacity rather than the offered rate.
# Usage, from the repository root: docs/bench/2026-12-06-mqtt-formats/run.sh OUT_DIR [RUNS]
set -euo pipefail
out=$1 runs=${2:-3}
mkdir -p "$out"
printf 'listener 18830 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n' > "$out/mosquitto.conf"
mosquitto -c "$out/mosquitto.conf" > "$out/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker' EXIT
sleep 1
for r in $(seq "$runs"); do
  java -jar bench/target/bench.jar mqtt --broker tcp://127.0.0.1:18830 --format json,influx,sparkplug \
      --qos 0,1 --sensors 30 --interval-ms 1 --warmup 2s --measure 5s > "$out/run-$r.txt" 2>&1
done
