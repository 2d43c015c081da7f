#!/usr/bin/env bash
# The one-client sweep (bench transport, RTT, 1 client, 5 rounds in turns) twice without and twice
# with every JVM's heap pre-touched: A as README runs it, B with the bench's JVM on a 2 GB heap and
# -XX:+AlwaysPreTouch given to it and, through JAVA_TOOL_OPTIONS, to every server JVM it starts.
# From the repository root on an otherwise idle machine:
#   pretouch-ab.sh BENCH_JAR OUT_DIR ; then python3 string-over-integer.py OUT_DIR/A1 OUT_DIR/B1 OUT_DIR/A2 OUT_DIR/B2
set -euo pipefail
jar=$1 out=$2
run=(transport --methods rtt --clients 1 --reps 5 --rtt-calls 20000 --rtt-warmup-calls 5000 --warmup 5s --interleave)
for r in 1 2; do
  java -jar "$jar" "${run[@]}" --out "$out/A$r" > "$out/A$r.log" 2>&1
  JAVA_TOOL_OPTIONS=-XX:+AlwaysPreTouch java -Xms2g -Xmx2g -jar "$jar" "${run[@]}" --out "$out/B$r" > "$out/B$r.log" 2>&1
done
