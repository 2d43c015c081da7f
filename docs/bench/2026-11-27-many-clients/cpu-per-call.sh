#!/usr/bin/env bash
# CPU per call on each side at N clients: a bench server per transport, in turns, and
# ManyEchoLoop.java against it (5 rounds of SECONDS after a warm-up of WARMUP seconds, 5 by
# default); JVM_OPTS go to both processes.
#   cpu-per-call.sh BENCH_JAR OUT_DIR CLIENTS SECONDS PAYLOAD TRANSPORT...
# Run from the repository root on an otherwise idle machine.
set -euo pipefail
jar=$1 out=$2 clients=$3 secs=$4 payload=$5
shift 5
mkdir -p "$out"
loop="$(cd "$(dirname "$0")" && pwd)/ManyEchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
for t in "$@"; do
    port=$(start_bench_server "$jar" "$t" "$out/server-$t-$clients.log" ${JVM_OPTS:-} -Dsalgate.bench.cpu=1)
    pid=$(bench_server_pid salgate.bench.cpu=1 "$t")
    java ${JVM_OPTS:-} -Dwarmup.seconds=${WARMUP:-5} -cp "$jar" "$loop" "$t" "$port" "$payload" "$clients" "$secs" "$pid" | tee -a "$out/loop-$clients.txt"
    kill "$pid"
    sleep 2
done
