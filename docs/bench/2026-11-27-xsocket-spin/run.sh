#!/usr/bin/env bash
# A trial, not kept: the xSocket caller spinning up to SPIN nanoseconds (100 µs by default) for its
# answer before it blocks. Build the bench jar with spin.patch applied (on 61d9e94), then, from the
# repository root on an otherwise idle machine:
#   run.sh BENCH_JAR ROUNDS CALLS > OUT.txt ; python3 summary.py OUT.txt
# Starts an xSocket and an RMI bench server; each round runs the one-connection echo loop
# (../2026-11-25-one-client-trials/EchoLoop.java, 5 passes of CALLS Integer calls, each pass a
# line) as a fresh client JVM against RMI, then xSocket without the spin, then with it.
set -euo pipefail
jar=$1 rounds=$2 calls=$3
loop="$(cd "$(dirname "$0")/../2026-11-25-one-client-trials" && pwd)/EchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
declare -A port
for s in xsocket rmi; do
  port[$s]=$(start_bench_server "$jar" "$s" "$(mktemp)" -Dsalgate.spin.srv=1)
done
trap 'pkill -f "salgate.spin.srv" || true' EXIT
for r in $(seq "$rounds"); do
  java -cp "$jar" "$loop" rmi "${port[rmi]}" i "$calls" | sed "s/^/round $r rmi /"
  java -Dsalgate.spin.nanos=0 -cp "$jar" "$loop" xsocket "${port[xsocket]}" i "$calls" | sed "s/^/round $r nospin /"
  java -Dsalgate.spin.nanos=${SPIN:-100000} -cp "$jar" "$loop" xsocket "${port[xsocket]}" i "$calls" | sed "s/^/round $r spin /"
done
