#!/usr/bin/env bash
# Netty's buffer leak detector on (Netty's default level, simple) and off, the same build, one
# sitting: for each transport two bench servers, one per level, and the one-connection echo loop
# (../2026-11-25-one-client-trials/EchoLoop.java) against each with the same level in its own JVM,
# in turns, the order flipping every round. MINA uses no Netty buffers: it is the control.
#   pairs.sh BENCH_JAR ROUNDS CALLS PAYLOAD(i|o|s) > OUT.txt ; python3 pairs.py OUT.txt
# Every line: round R TRANSPORT LEVEL <transport> <payload> MEAN us (one of 5 passes of CALLS calls).
set -euo pipefail
jar=$1 rounds=$2 calls=$3 payload=$4
loop="$(cd "$(dirname "$0")/../2026-11-25-one-client-trials" && pwd)/EchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
transports=(netty http grpc mina)
declare -A port
logs=$(mktemp -d)
trap 'pkill -f "salgate.bench.pairs" || true' EXIT
for t in "${transports[@]}"; do
  for level in simple disabled; do
    port[$t-$level]=$(start_bench_server "$jar" "$t" "$logs/$t-$level.log" \
        -Dsalgate.bench.pairs=1 -Dio.netty.leakDetection.level=$level)
  done
done
for r in $(seq "$rounds"); do
  if (( r % 2 )); then order="simple disabled"; else order="disabled simple"; fi
  for t in "${transports[@]}"; do
    for level in $order; do
      java -Dio.netty.leakDetection.level=$level -cp "$jar" "$loop" "$t" "${port[$t-$level]}" "$payload" "$calls" \
          | sed "s/^/round $r $t $level /"
    done
  done
done
