#!/usr/bin/env bash
# Where the CPU of calls at N clients goes: perf samples of a bench server and of ManyEchoLoop.java
# (N connections, 5 rounds of 6 s after a warm-up of WARMUP seconds, 40 by default; PAYLOAD i, o or
# s, Integer by default) for 6 s in the first measured round, JIT-compiled Java frames named (JDK
# 17's perf map).
#   profile-many.sh BENCH_JAR TRANSPORT CLIENTS OUT_DIR
# Then: perf report -i OUT_DIR/perf-TRANSPORT.data --no-children -g none --sort comm,dso,sym --stdio
set -euo pipefail
jar=$1 t=$2 n=$3 out=$4 warm=${WARMUP:-40}
mkdir -p "$out"
jvm="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer"
loop="$(cd "$(dirname "$0")" && pwd)/ManyEchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
port=$(start_bench_server "$jar" "$t" "$out/server-$t.log" $jvm -Dsalgate.bench.profile=1)
pid=$(bench_server_pid salgate.bench.profile=1 "$t")
java $jvm -Dwarmup.seconds="$warm" -cp "$jar" "$loop" "$t" "$port" "${PAYLOAD:-i}" "$n" 6 "$pid" > "$out/client-$t.txt" &
client=$!
sleep $((warm + 8))
perf record -o "$out/perf-$t.data" -F 999 -a -g sleep 6
wait $client
kill "$pid" || true
sleep 3 # the server writes its perf map as it exits
