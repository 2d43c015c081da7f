#!/usr/bin/env bash
# Before and after in one sitting, rounds taken in turns: one transport's bench server and client
# of two builds, each driven by the one-connection echo loop (docs/bench/2026-11-25-one-client-trials/EchoLoop.java).
#   ab.sh TRANSPORT OLD_BENCH_JAR NEW_BENCH_JAR ROUNDS CALLS PAYLOAD(i|o|s)
# Each round runs the loop once against the old build's server with the old client, then once
# against the new build's, each a fresh client JVM of 5 passes of CALLS calls; it prints every
# pass's mean round trip. Both servers run for the whole sitting.
set -euo pipefail
transport=$1 old=$2 new=$3 rounds=$4 calls=$5 payload=$6
loop="$(cd "$(dirname "$0")/../2026-11-25-one-client-trials" && pwd)/EchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
old_port=$(start_bench_server "$old" "$transport" "$(mktemp)")
new_port=$(start_bench_server "$new" "$transport" "$(mktemp)")
trap 'pkill -f "BenchServerMain transport $transport" || true' EXIT
for r in $(seq "$rounds"); do
  java -cp "$old" "$loop" "$transport" "$old_port" "$payload" "$calls" | sed "s/^/round $r before /"
  java -cp "$new" "$loop" "$transport" "$new_port" "$payload" "$calls" | sed "s/^/round $r after /"
done
