#!/usr/bin/env bash
# Which side of an xSocket call costs what: every transport's client against every transport's
# bench server (they share one framing, so any client talks to any server), with RMI's own pair for
# reference, in one sitting. Each round runs every pair once, in an order that rotates round by
# round; each run is a fresh client JVM driving the one-connection echo loop
# (docs/bench/2026-11-25-one-client-trials/EchoLoop.java) for 5 passes of CALLS Integer calls.
#   split.sh BENCH_JAR ROUNDS CALLS > split.txt; python3 summary.py split.txt
# PAYLOAD (i, o or s: Integer, Object, String) and FRAMED (the framed transports, "netty mina
# socket xsocket" unless set) change the call and the pairs; summary.py then takes the transports.
set -euo pipefail
jar=$1 rounds=$2 calls=$3
loop="$(cd "$(dirname "$0")/../2026-11-25-one-client-trials" && pwd)/EchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
read -r -a framed <<< "${FRAMED:-netty mina socket xsocket}"
declare -A port
for t in "${framed[@]}" rmi; do
  port[$t]=$(start_bench_server "$jar" "$t" "$(mktemp)")
done
trap 'pkill -f "BenchServerMain transport" || true' EXIT
pairs=("rmi rmi")
for c in "${framed[@]}"; do for s in "${framed[@]}"; do pairs+=("$c $s"); done; done
n=${#pairs[@]}
for r in $(seq "$rounds"); do
  for i in $(seq 0 $((n - 1))); do
    read -r c s <<< "${pairs[$(( (i + r) % n ))]}"
    java -cp "$jar" "$loop" "$c" "${port[$s]}" "${PAYLOAD:-i}" "$calls" | sed "s/^/round $r client $c server $s: /"
  done
done
